// Package ai is the AI opponent of the two-player game (issue 14): a
// search player for either side, in both variants, that decides from an
// engine.InfoSet only — its side's redacted view, its own cards and its
// pending decision — and never from a live game. The engine builds the
// InfoSet and deals the unseen cards at random into playable games
// (InfoSet.Sample), so that what this package can know is decided by the
// engine's rules of hidden information, not by discipline here.
//
// # Players
//
//   - Searcher: information-set Monte Carlo tree search (single observer)
//     over the engine's own prompts. Each iteration samples the unseen
//     cards, walks one tree of moves with UCB1 among the moves legal in
//     that sample, adds a node, plays on with a cheap heuristic policy
//     (quickScore) to the end of the round (hard: through the next
//     round too) and scores the position with Evaluate (a finished game
//     scores its result). Moves get priors from Evaluate one step ahead
//     (at the root, after the rest of the own turn, as Greedy sees it):
//     progressive widening tries the best-looking moves first and a
//     progressive bias leans towards them until the playouts say
//     otherwise. A prompt with a single legal choice costs nothing; the
//     subtree of the chosen move is kept while the same side decides again
//     at once (the next cube of the same operations), every other tree is
//     dropped.
//   - Searcher.Estimate: a side's chance to win from its InfoSet, with or
//     without a decision (playouts from fresh deals, scored as the search
//     scores its iterations); the post-game analysis (package analysis)
//     asks it of both sides at every decision.
//   - Greedy: the one-ply baseline; each choice on one sample, the rest of
//     its own turn completed one step ahead at a time, scored by Evaluate.
//   - Random: a uniformly random legal choice.
//
// # Levels
//
// easy, normal and hard are iteration budgets and playout depths
// (Level.Config), so that the strength ladder does not depend on the
// machine; hard also explores less. Each also has a time cap
// (normal 1 s, hard 5 s per decision) that only a slow or busy machine
// reaches, checked before every iteration; the root's turn look-ahead
// stops at a quarter of the cap. With the same seed, budget and
// position the choice is always the same (unless the cap cut the search).
//
// # Strength
//
// The ladder is run with rfop selfplay --players A,B (alternating sides);
// docs/ai.md has the figures and the commands. PlayGame plays one game between two
// players, each from its own InfoSet, simultaneous decisions asked of both
// before either is applied.
package ai
