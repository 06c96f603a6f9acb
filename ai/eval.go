package ai

import "github.com/rfop/rfop/engine"

// Evaluate scores a position for side: positive is good for side. It
// reads what decides the game (rulebook "Victory": Versailles' Military VP
// against the Commune's Political VP, both read from the two VP tracks),
// what will score at the end of the round (Crisis Dimensions, the
// Pivotal Spaces' bonus actions, the side's objective), and resources
// (momentum, cubes left to place). g is a sample (InfoSet.Sample), so
// the opponent's objective it reads is a guess. The weights are hand-set and checked
// by the ladder, not fitted.
func Evaluate(g *engine.Game, side engine.Side) float64 {
	s := &g.S
	if s.Result != nil {
		if s.Result.Winner == side {
			return 100
		}
		return -100
	}
	// From Versailles' point of view, then signed.
	vm, cp := s.VPFor(engine.Versailles, engine.Military), s.VPFor(engine.Commune, engine.Political)
	e := float64(vm-cp) + 0.25*float64(vm) - 0.25*float64(cp)
	scoring := 1.0
	if s.Round > 3 { // the Final Crisis scores once more, at its end
		scoring = 1.2
	}
	for d := engine.Dimension(0); d < engine.NumDimensions; d++ {
		e += 0.7 * scoring * versaillesSign(s.DimensionController(d))
	}
	for x := engine.Space(0); x < engine.NumMapSpaces; x++ {
		w := s.Controller(x)
		e += 0.18 * versaillesSign(w)
		if x.Info().Pivotal {
			e += 0.25 * versaillesSign(w)
		}
		e += 0.02 * float64(s.Pieces(engine.Versailles, x)-s.Pieces(engine.Commune, x))
	}
	// Objective scoring: whoever controls an objective's space scores it,
	// the owner's or not (rulebook "Objective Scoring").
	for _, sd := range [2]engine.Side{engine.Versailles, engine.Commune} {
		if o := s.Objective[sd]; o > 0 && !s.ObjRevealed {
			if c := g.Deck().Card(int(o)); c != nil && c.Kind == engine.ObjectiveCard {
				e += 0.6 * versaillesSign(s.Controller(c.Space))
			}
		}
	}
	e += 0.3 * float64(s.Momentum[engine.Versailles]-s.Momentum[engine.Commune])
	e += 0.03 * float64(min(s.Supply(engine.Versailles), 12)-min(s.Supply(engine.Commune), 12))
	if side == engine.Commune {
		return -e
	}
	return e
}

// versaillesSign is +1 for Versailles, -1 for the Commune, 0 for nobody:
// what a side holds, counted from Versailles' point of view.
func versaillesSign(w engine.Side) float64 {
	switch w {
	case engine.Versailles:
		return 1
	case engine.Commune:
		return -1
	}
	return 0
}
