package engine

import "math/rand/v2"

// RandomMove picks a uniformly random legal move: one of the pending
// prompts, then one of its choices. Used by selfplay, fuzzing and the
// renderer's sample positions. ok is false when the game is over.
func (g *Game) RandomMove(r *rand.Rand) (m Move, ok bool) {
	ps := g.Prompts()
	if len(ps) == 0 {
		return Move{}, false
	}
	p := ps[r.IntN(len(ps))]
	return Move{Side: p.Side, Choice: p.Choices[r.IntN(len(p.Choices))]}, true
}
