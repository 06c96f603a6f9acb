package ai

import (
	"math/rand/v2"

	"github.com/rfop/rfop/engine"
)

// quickScore rates a choice without playing it: a few reads of the state,
// no copy. It is the playout policy's knowledge: take or contest control
// of a space rather than pile onto one already held, remove the cube that
// breaks the opponent's control, use every operations point, play cards
// for their event or operations rather than burning them. Higher is better.
func quickScore(s *engine.State, side engine.Side, c engine.Choice) float64 {
	opp := side.Other()
	switch c.Kind {
	case engine.ChooseDone:
		return -1
	case engine.ChooseStopRem:
		return -0.5
	case engine.ChooseNo:
		return 0
	case engine.ChooseYes:
		return 1
	case engine.ChoosePlace:
		if c.Space < 0 || c.Space >= engine.NumMapSpaces {
			return 0.5
		}
		mine, theirs := s.Pieces(side, c.Space), s.Pieces(opp, c.Space)
		v := 0.3
		switch {
		case mine == theirs:
			v = 2
		case mine+1 == theirs:
			v = 1.5
		case mine < theirs:
			v = 0.8
		}
		if c.Space.Info().Pivotal {
			v += 0.5
		}
		return v
	case engine.ChooseRemove:
		if c.Space < 0 || c.Space >= engine.NumMapSpaces {
			return 0.5
		}
		mine, theirs := s.Pieces(side, c.Space), s.Pieces(opp, c.Space)
		v := 1.0
		if theirs > mine && theirs-1 <= mine {
			v = 2
		}
		if c.Space.Info().Pivotal {
			v += 0.5
		}
		if c.Extra {
			v -= 0.3
		}
		return v
	case engine.ChoosePlay:
		switch c.Mode {
		case engine.ModeEvent, engine.ModeFinalCrisis:
			return 1.2
		case engine.ModeOps:
			return 0.8 + 0.15*float64(c.Cost)
		case engine.ModeDiscardedEvent:
			return 1
		case engine.ModeMomentum:
			return 0.4
		case engine.ModeFinalCrisisOps:
			return 0.2
		}
	}
	return 0
}

// policyChoose is the playout policy: the best quickScore with ties broken
// at random, and a uniformly random choice with probability eps so that
// playouts still explore.
func policyChoose(s *engine.State, p *engine.Prompt, r *rand.Rand, eps float64) engine.Choice {
	ch := p.Choices
	if len(ch) == 1 {
		return ch[0]
	}
	if eps >= 1 || r.Float64() < eps {
		return ch[r.IntN(len(ch))]
	}
	best, n := -1e9, 0
	var pick engine.Choice
	for _, c := range ch {
		v := quickScore(s, p.Side, c)
		switch {
		case v > best:
			best, n, pick = v, 1, c
		case v == best:
			n++
			if r.IntN(n) == 0 {
				pick = c
			}
		}
	}
	return pick
}
