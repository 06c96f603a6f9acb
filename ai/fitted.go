package ai

import "github.com/rfop/rfop/engine"

// The fitted evaluation scores the end of a search's playout (Config.Leaf)
// with a logistic model of who wins from the position at a round's start,
// fitted to games rather than set by hand (issue 29). Evaluate, which
// scores the VP race as a straight margin, still gives the priors and is
// greedy's evaluation.
//
// The model: 4,000 greedy-against-greedy games (seeds 700000–703999), the
// position at the first moment of rounds 2 and 3 and of the Final Crisis
// (where normal's playouts stop; hard's one round later), each labelled
// with the game's winner, and one logistic regression per stage
// (standardised features, gradient descent, a small L2 penalty), the
// weights turned back to the features' own units and rounded. Set by
// hand: the two negative fits of the Crisis Dimensions (rounds 2 and 3)
// to 0, and the objectives' 0.3 (they are not dealt at a round's start,
// so the fit could not weigh them). The fit's intercept (Versailles' edge
// in greedy's games) is left out. The fitting program was a throw-away;
// docs/ai.md gives the weights, the method and the matches that adopted
// it.

// numFitted is the number of the model's inputs.
const numFitted = 16

// fittedFeatures names the model's inputs, from Versailles' view.
var fittedFeatures = [numFitted]string{
	"Versailles' Military VP", "the Commune's Political VP",
	"Crisis Dimensions held whole (±1 each)", "spaces controlled (±1 each)", "Pivotal Spaces controlled (±1 each)",
	"pieces on the map, Versailles' less the Commune's",
	"Versailles' objective space held (±1)", "the Commune's objective space held (±1)",
	"Versailles' momentum", "the Commune's momentum",
	"Versailles' supply (at most 12)", "the Commune's supply (at most 12)",
	"Versailles' pieces out of play", "the Commune's pieces out of play",
	"the Initiative (±1)", "the Commune's pool",
}

// fittedWeights are the weights for rounds 1–2 (a position before round
// 3), round 3, and the Final Crisis, in fittedFeatures' order, in logits.
var fittedWeights = [3][numFitted]float64{
	{0.50, -0.33, 0, 0.12, 0.26, 0.06, 0.3, 0.3, 0.39, -0.62, 0, 0, 0, 0.07, 0.07, -0.25},
	{0.52, -0.39, 0, 0.14, 0.23, 0.13, 0.3, 0.3, 0.19, -0.38, 0, 0, 0, 0.07, 0.10, -0.21},
	{0.81, -0.73, 0.06, 0.03, 0.29, 0.09, 0.3, 0.3, 0.20, -0.36, 0, 0.05, -0.05, 0.07, 0.02, -0.03},
}

// FittedEval scores g for side in Evaluate's units (the search's Scale,
// 1.5, times the model's logit that Versailles wins; negated for the
// Commune): ±100 once the game is over.
func FittedEval(g *engine.Game, side engine.Side) float64 {
	if s := &g.S; s.Result != nil {
		if s.Result.Winner == side {
			return 100
		}
		return -100
	}
	z := 1.5 * fittedLogit(g)
	if side == engine.Commune {
		return -z
	}
	return z
}

// fittedLogit is the model's log-odds that Versailles wins from g.
func fittedLogit(g *engine.Game) float64 {
	w := fittedWeights[0]
	if r := g.S.Round; r >= 4 {
		w = fittedWeights[2]
	} else if r == 3 {
		w = fittedWeights[1]
	}
	z := 0.0
	for j, v := range fittedInputs(g) {
		z += w[j] * v
	}
	return z
}

// fittedInputs measures g's features (fittedFeatures), from Versailles'
// view: +1 for what Versailles holds, -1 for what the Commune holds. (An
// array: it is measured at every playout's end, and allocates nothing.)
func fittedInputs(g *engine.Game) [numFitted]float64 {
	s := &g.S
	var f [numFitted]float64
	f[0] = float64(s.VPFor(engine.Versailles, engine.Military))
	f[1] = float64(s.VPFor(engine.Commune, engine.Political))
	for d := engine.Dimension(0); d < engine.NumDimensions; d++ {
		f[2] += versaillesSign(s.DimensionController(d))
	}
	for x := engine.Space(0); x < engine.NumMapSpaces; x++ {
		w := s.Controller(x)
		f[3] += versaillesSign(w)
		if x.Info().Pivotal {
			f[4] += versaillesSign(w)
		}
		f[5] += float64(s.Pieces(engine.Versailles, x) - s.Pieces(engine.Commune, x))
	}
	for i, sd := range [2]engine.Side{engine.Versailles, engine.Commune} {
		// In a search the objectives are those of the determinization
		// (the searcher's own, and a sample of the opponent's).
		if o := s.Objective[sd]; o > 0 {
			if c := g.Deck().Card(int(o)); c != nil && c.Kind == engine.ObjectiveCard {
				f[6+i] = versaillesSign(s.Controller(c.Space))
			}
		}
	}
	f[8] = float64(s.Momentum[engine.Versailles])
	f[9] = float64(s.Momentum[engine.Commune])
	f[10] = float64(min(s.Supply(engine.Versailles), 12))
	f[11] = float64(min(s.Supply(engine.Commune), 12))
	f[12] = float64(s.OutOfPlay[engine.Versailles])
	f[13] = float64(s.OutOfPlay[engine.Commune])
	f[14] = versaillesSign(s.Initiative)
	f[15] = float64(s.Pool[engine.Commune])
	return f
}
