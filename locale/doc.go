// Package locale is the bot's message catalogue: every sentence a player
// reads, in English, French and Russian, with CLDR plural rules (Russian
// one/few/many, French 0 and 1 alike) and named placeholders.
//
// Messages live in messages/LANG/AREA.json (embedded in the binary), in
// go-i18n's JSON form: an id maps either to a string or to an object of
// plural forms ("one", "few", "many", "other"). Placeholders are named
// text/template fields: "{{.Card}} leaves the game". Ids have the shape
// area.name ("bot.not-your-turn", "engine.prompt.play"): the area names the
// file, so engineers working on different parts edit different files.
//
// Why go-i18n (github.com/nicksnyder/go-i18n/v2): it is the maintained Go
// library for message catalogues, carries the CLDR plural rules for every
// language (hand-written plural code is where translations go wrong), and
// matches languages with golang.org/x/text/language.
//
// The game's own words (game.go, words.go): the engine writes prompts,
// choices, log lines and results as engine.Msg, a message id of the
// "engine" area and typed arguments; Printer.Msg prints one, putting each
// argument in the language (sides, discs and tracks declined in Russian
// and with their article in French, spaces and terms from package
// glossary, counts of cubes, cards and OP in their plural form). The
// engine's English table and messages/en/engine.json are the same text
// (a test keeps them equal). Cards are the "cards" area, cards.N.name and
// cards.N.text; see CardTitle for custom decks.
//
// A Printer speaks one language. A missing message in French or Russian
// falls back to English (the completeness test keeps that from happening);
// a message id missing everywhere prints the id itself in brackets so a
// mistake is visible rather than silent.
package locale
