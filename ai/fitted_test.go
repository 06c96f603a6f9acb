package ai

import (
	"testing"

	"github.com/rfop/rfop/engine"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The fitted evaluation (issue 29) is zero-sum, scores a finished game by
// its result (rulebook: Victory), has a weight for every feature at every
// stage, and moves the way its fitted signs say: each side's own VP and
// momentum raise its estimate (the Commune's momentum buys its actions,
// Versailles' VP are the Military track it wins by).
func TestFittedEvalIsZeroSumAndScoresTheResult(t *testing.T) {
	for _, w := range fittedWeights {
		require.Len(t, w, len(fittedFeatures), "a weight per feature")
	}
	finished := 0
	for seed := int64(1); seed <= 40; seed++ {
		g := randomPosition(t, seed, engine.Standard, 400)
		v, c := FittedEval(g, engine.Versailles), FittedEval(g, engine.Commune)
		assert.Equal(t, v, -c, "seed %d: one side's gain is the other's loss", seed)
		if res := g.S.Result; res != nil {
			finished++
			assert.Equal(t, 100.0, FittedEval(g, res.Winner), "seed %d: the winner", seed)
			assert.Equal(t, -100.0, FittedEval(g, res.Winner.Other()), "seed %d: the loser", seed)
		}
	}
	require.NotZero(t, finished, "some positions are finished games")
}

func TestFittedEvalFollowsTheFittedSigns(t *testing.T) {
	tests := []struct {
		name     string
		change   func(s *engine.State)
		favoured engine.Side
	}{
		{"the Commune's momentum", func(s *engine.State) { s.Momentum[engine.Commune]++ }, engine.Commune},
		{"Versailles' momentum", func(s *engine.State) { s.Momentum[engine.Versailles]++ }, engine.Versailles},
		{"the Initiative to Versailles", func(s *engine.State) { s.Initiative = engine.Versailles }, engine.Versailles},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			for seed := int64(1); seed <= 10; seed++ {
				g := randomPosition(t, seed, engine.Standard, 40)
				if g.S.Result != nil {
					continue
				}
				g.S.Initiative = engine.Commune
				before := FittedEval(g, tc.favoured)
				tc.change(&g.S)
				assert.Greater(t, FittedEval(g, tc.favoured), before, "seed %d, round %d", seed, g.S.Round)
			}
		})
	}
}
