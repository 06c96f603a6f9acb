// Package solo is the solo opponent of Red Flag Over Paris: the decision
// tables of docs/solo.md (house rows PR1-PR12, PL1-PL15 with D0, RM1-RM11,
// SR1-SR6, BA1-BA6, the sphere choice of §5), with the default switches of
// its Appendix B:
//
//	EXTRA_STRENGTH_OP      = paid      (the +1 at strength 1 costs an OP)
//	STRENGTH_TIMING        = snapshot  (snapshot A fixes every attempt's strength)
//	OPS_USE_AVAILABLE_ONLY = true
//	ROOM_COUNTS            = cubes
//	SOLO_TIE               = bot       (the bot wins when no main condition holds)
//
// The engine runs the solo procedure (engine/solo_turn.go: momentum check,
// reveal, extra OP, the Final Crisis reveals) and enforces the solo rules
// (engine/solo_rules.go: Available cubes only, Room for event cubes, the
// dry run of "would have an effect", bonus cubes paid at the breach). Every
// decision left is an ordinary engine.Prompt whose Side is g.S.BotSide;
// this package answers them.
//
// # Use
//
// A solo game is engine.New(engine.Options{BotSide: engine.Commune}) (or
// Versailles). Whenever the pending prompt may be the bot's:
//
//	lines, err := solo.PlayBotTurns(g, &solo.Policy{})
//
// PlayBotTurns applies the bot's decisions while the pending decision is
// the bot's and the game is not over, writing one note per decision into
// the game log (engine.Game.ApplyWithWhy: what the bot does and why, a
// message of the catalogue's "solo" area ending with the table rows; see
// why.go), and returns the public log lines written meanwhile, to show the
// bot's turn as one message. It stops when the
// Player must decide; call it again after each of his decisions.
//
// For finer control: Policy.Decide(g, prompt) returns the choice and its
// Explanation (the sentence, Why, and the whole trace: rows, candidate
// lists, dice) without applying it; Policy.Choose has the plain chooser
// signature func(*engine.Game, engine.Prompt) (engine.Choice, error);
// Policy.Step decides and applies one decision with its note.
//
// # Determinism and hidden information
//
// The policy is stateless: a decision depends only on the position (and
// the die, engine.Game.Dice, itself a pure function of the position), so a
// game replayed from its move log or re-decided gives the same result. A
// plan that spans several prompts (an operation's removals then
// placements, a two-move Spread) is derived again from the position at
// each prompt. Decide reads the game only through g.SoloPublicState(),
// g.TopFrame() and g.Dice(): never the Player's hand, set-aside cards or
// objective, nor the deck order (solo.md §0).
package solo
