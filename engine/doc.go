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
// does not match. PromptText and ChoiceText give the words for players.
// ViewFor(side) is the redacted view of one side or of a spectator; the
// Log holds public and private lines.
//
// Undo: a side may take back its own choices until hidden information is
// revealed (a card drawn, a deal, a revealed hand or objective) or the
// opponent acts (Prompt.CanUndo, Undo). Replay rebuilds a game from its
// options and move log.
//
// # Card effects are data
//
// cards.json (embedded; LoadDeckFile reads a replacement with the same
// format) defines all 53 cards: number, name, side, OP, status (known,
// partial or provisional, see ../shared/spec/cards.md), text, and an
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
// A scope ("in") unites "spaces" and "dims", then narrows by "sphere",
// "present" (you are present), "adjControlled" (adjacent to a space you
// control), "opponentControls", "bothPresent", "adjacentTo" (spaces the
// named space gives reach into) and "same" (the space the previous step
// acted in). Any node may carry "must": the event cannot be played when it
// could have no effect. ParseDeck rejects a file that does not validate,
// naming the card and the field, and refuses early what exceeds the limits
// (MaxDeckBytes, MaxCardNameRunes, MaxCardTextRunes, MaxEffectDepth,
// MaxEffectNodes). A deck's ID is a hash of its canonical form
// (Deck.Canonical: cards in number order, fields in a fixed order), so
// reformatting a file keeps the games saved with it loadable, while any
// change to a card makes a new deck. The interpreter (effect.go) turns each
// node into prompts; no card is special-cased in Go.
//
// # Decisions where the rulebook and the spec are silent
//
// These are this package's own choices (rules-decisions.md wins wherever it
// speaks):
//
//   - Commune pool cells fill from the lowest level up, so lowering
//     Revolutionary Momentum removes only the cubes beyond the new capacity.
//   - Cards paid to use a discarded event, and cards discarded to play the
//     Final Crisis card for operations, count as played by that player this
//     round (the opponent may use their event). Cards discarded by an event,
//     in the Final Crisis discard-down, or put under the pile in the
//     Censorship variant are not "played".
//   - Control of the Pivotal Spaces is read once, before the first bonus
//     action. When only one side has bonus actions, it orders them itself.
//   - Objective events: whether a player controlled its own objective is
//     read at objective scoring, before any objective event.
//   - The −1 Political VP for breaching the Final Crisis zone first is
//     applied when that zone's bonus cubes are paid (end of the play).
//   - Effect amounts without "up to" (#13's two removals, REPLACE 1, PLACE
//     DISC, REMOVE DISC) must be carried out as far as possible; a step with
//     no legal target ends by itself.
//   - In the Final Crisis, only an opponent-coloured event asks its owner
//     whether it applies; own and grey events resolve with their "up to"
//     choices, and an event with no possible effect is discarded.
//   - Operations skip the removal step when nothing can be removed; "Stop
//     removing" moves to placing, "End operations" forfeits what is left.
//   - Both Final Crisis discards are made at the same time (like the
//     objective choice); discarded cards go face up on the discard pile.
package engine
