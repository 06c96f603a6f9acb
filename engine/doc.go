// Package engine implements the rules of Red Flag Over Paris (GMT 2021):
// the two-player game, the Censorship variant, and the solo opponent's
// turn procedure. It is pure Go with no I/O and imports nothing else of
// this repository; every random event comes from a seeded source stored
// in the state, so the same seed and the same choices always give the
// same game.
//
// # Model
//
// A Game is a State (plain, JSON-serialisable data) plus the Deck it is
// played with. The round sequence is a stack of frames (frame.go); the
// top frame either advances by itself or waits for a decision, described
// as a Prompt: who decides (one side, or both at once for the secret
// objective choice and the Final Crisis discards), what kind of decision
// it is, and the complete list of legal Choices. Apply(side, choice)
// checks the choice against the prompt and returns ErrNotYourDecision,
// ErrIllegal, ErrStale or ErrGameOver without changing anything when it
// does not match. PromptMsg and ChoiceMsg give the words for players as
// messages (Msg: a catalogue id and typed arguments that package locale
// prints in the player's language); PromptText and ChoiceText are their
// English (Msg.English). ViewFor(side) is the redacted view of one side or
// of a spectator; the Log holds public and private lines.
//
// # The log holds messages, not words
//
// A LogEntry (and a Result) stores its Msg only: the engine makes no text
// while it plays, replays or checks a game, so a line costs what its
// arguments cost. Words are made when someone reads a line:
//
//	locale.For(lang).LogLine(deck, e) // a player's language (package locale)
//	e.English(deck)                   // English: tests, operator tools
//	r.English(deck)                   // a Result; locale's Printer.Result
//
// e.Cards lists the cards a line names and e.Note the verbatim text of a
// note line (the solo opponent's explanation), for readers that need no
// words. Lines saved before the log carried messages have their English
// only (LegacyText; LegacySummary for a result): both readers print it.
// Saves made while lines stored both drop the English when loaded.
//
// InfoSet(side) is what one side of a 2-player game knows: the public
// state, its own cards and its decision, with the unseen cards kept only
// as a sorted set; InfoSet.Sample deals them at random into a playable
// game (a determinization) that keeps no log and no undo point. The AI
// opponent (package ai) decides from InfoSets only, so it cannot peek.
//
// Undo: a side may take back its own choices until hidden information is
// revealed (a card drawn, a deal, a revealed hand or objective) or the
// opponent acts (Prompt.CanUndo, Undo). Replay rebuilds a game from its
// options and move log.
//
// Every one of the 53 cards is always in exactly one place (the card
// census of CheckInvariants, invariants.go): the decks, the discard pile,
// the hands and set-aside cards, the held Final Crisis cards, the kept,
// offered and fulfilled objectives, the card of a play in progress, and
// the cards out of the game (Removed, OutOfGame, ObjOut). Load gives a
// save from before the census its missing places.
//
// Resume starts a new game from a position built outside a game (a
// worked example, an analysis) with procedures of the rules (Proc...);
// the position must pass the limits and the census. It is how package
// solo's tests set up the worked examples of docs/solo.md; it never
// changes an existing game, and the API has no other way to push a
// procedure or run a game except by its decisions.
//
// # Card effects are data
//
// cards.json (embedded; LoadDeckFile reads a replacement with the same
// format) defines all 53 cards: number, name, side, OP, status (known,
// partial or provisional, see docs/cards.md), text, and an
// effect tree in a small language. Each node has an "op":
//
//	then       steps in order; each step reads presence/control at its start (D7)
//	choose     (a) OR (b): the decider picks; "chooser":"opponent" and
//	           "onlyEffective" for #22
//	andor      both parts, the decider picks the order (#34)
//	if         "cond": {"control": space}, "do": effect (a mid-card IF gates only "do")
//	place      "n", "upTo", "in" scope, "maxPerSpace", "caps", "return" (#23)
//	remove     "n", "upTo", "in", "maxPerSpace", "chooser":"opponent" (#13)
//	replace    "n", "in"
//	placeDisc  "in" (Military spaces; with both discs out the player may move one)
//	removeDisc "in", "evenIfCubes"
//	ops        "n" operations points within "in", "oneSpace"
//	momentum   "who": you|opponent, "delta": ±1
//	reveal, draw "n", discard "n", forceDiscard   (the 2-player-only hand verbs)
//
// A card may also carry "names" and "texts": its name and text in other
// languages ({"fr": …, "ru": …}). Players see the catalogue's translation
// (package locale) of a card whose name, text and effect are the built-in
// deck's; a card a deck file changes shows that file's "names"/"texts" for
// the player's language, else its own name and text.
//
// A scope ("in") unites "spaces" and "dims", then narrows by "sphere",
// "present" (you are present), "adjControlled" (adjacent to a space you
// control), "opponentControls", "bothPresent", "adjacentTo" (spaces the
// named space gives reach into) and "same" (the space the previous step
// acted in). Any node may carry "must": the event cannot be played when it
// could have no effect. ParseDeck rejects a file that does not validate,
// naming the card and the field, and refuses early what exceeds the limits
// (MaxDeckBytes, MaxCardNameRunes, MaxCardTextRunes, MaxEffectDepth,
// MaxEffectNodes). Its errors repeat the file's text only through Quote
// (quote.go: escaped, cut to MaxQuoted characters), the helper every
// package uses to quote outside input. A deck's ID is a hash of its canonical form
// (Deck.Canonical: cards in number order, fields in a fixed order), so
// reformatting a file keeps the games saved with it loadable, while any
// change to a card makes a new deck. The interpreter (effect.go) turns each
// node into prompts; no card is special-cased in Go.
//
// # Rules decisions
//
// The rules the engine implements where the editions differ or are silent
// are docs/rules-decisions.md, numbered: the code cites them as "decision
// N". Decisions 1-27 come from the rulebooks' differences; these, 28-37,
// are this package's own choices where every text is silent:
//
//   - 28: Commune pool cells fill from the lowest level up, so lowering
//     Revolutionary Momentum removes only the cubes beyond the new capacity.
//   - 29: Cards paid to use a discarded event, and cards discarded to play
//     the Final Crisis card for operations, count as played by that player
//     this round (the opponent may use their event). Cards discarded by an
//     event, in the Final Crisis discard-down, or put under the pile in the
//     Censorship variant are not "played".
//   - 30: Control of the Pivotal Spaces is read once, before the first
//     bonus action. When only one side has bonus actions, it orders them.
//   - 31: Objective events: whether a player controlled its own objective
//     is read at objective scoring, before any objective event.
//   - 32: The −1 Political VP for breaching the Final Crisis zone first is
//     applied when that zone's bonus cubes are paid (end of the play).
//   - 33: Effect amounts without "up to" (#13's two removals, REPLACE 1,
//     PLACE DISC, REMOVE DISC) must be carried out as far as possible; a
//     step with no legal target ends by itself.
//   - 34: In the Final Crisis, only an opponent-coloured event asks its
//     owner whether it applies; own and grey events resolve with their "up
//     to" choices, and an event with no possible effect is discarded.
//   - 35: Operations skip the removal step when nothing can be removed;
//     "Stop removing" moves to placing, "End operations" forfeits the rest.
//   - 36: Both Final Crisis discards are made at the same time (like the
//     objective choice); discarded cards go face up on the discard pile.
//   - 37: Every card has a place (the census above): used-up Final Crisis
//     cards and a solo setup's six cards are out of the game for good, the
//     objective not kept and unfulfilled objectives leave it.
//
// The card conventions D1-D16 the effect interpreter follows are in
// docs/cards.md, the board data (board.go) in docs/map.md, and the solo
// opponent's procedure and tables in docs/solo.md.
package engine
