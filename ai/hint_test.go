package ai

import (
	"math"
	"testing"

	"github.com/rfop/rfop/engine"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func choice(n int) engine.Choice { return engine.Choice{Kind: engine.ChoosePlay, Card: n} }

// Hints are ranked by the search's estimate, not by its visits (issue 26:
// "67% / 46% / 51%" read as a ranking that jumps around), with the choices
// tried too little after the others, and each told whether it is within
// the noise of the best.
func TestHintsOfRanksByEstimateWithTheNoise(t *testing.T) {
	for _, tc := range []struct {
		name      string
		in        []Ranked
		order     []int // cards, best first
		close     []bool
		thin      []bool
		marginMax float64 // of the first hint
	}{
		{
			name: "visits order is not value order",
			in: []Ranked{
				{Choice: choice(1), WinRate: 0.67, Visits: 900},
				{Choice: choice(2), WinRate: 0.46, Visits: 200},
				{Choice: choice(3), WinRate: 0.71, Visits: 150},
			},
			order: []int{3, 1, 2},
			close: []bool{false, true, false}, // 0.71±0.073 vs 0.67±0.031: within the noise
			thin:  []bool{false, false, false},
		},
		{
			name: "a clear best",
			in: []Ranked{
				{Choice: choice(1), WinRate: 0.80, Visits: 2000},
				{Choice: choice(2), WinRate: 0.50, Visits: 500},
			},
			order:     []int{1, 2},
			close:     []bool{false, false},
			thin:      []bool{false, false},
			marginMax: 0.02,
		},
		{
			name: "a lucky choice tried three times is not ranked first",
			in: []Ranked{
				{Choice: choice(1), WinRate: 0.55, Visits: 1000},
				{Choice: choice(2), WinRate: 1, Visits: 3},
				{Choice: choice(3), WinRate: 0.40, Visits: 400},
				{Choice: choice(4), WinRate: math.NaN()},
			},
			order: []int{1, 3, 2, 4},
			close: []bool{false, false, false, false},
			thin:  []bool{false, false, true, true},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			hs := HintsOf(tc.in)
			require.Len(t, hs, len(tc.order))
			for k, h := range hs {
				assert.Equal(t, tc.order[k], h.Choice.Card, "rank %d", k+1)
				assert.Equal(t, tc.close[k], h.Close, "rank %d close", k+1)
				assert.Equal(t, tc.thin[k], h.Thin, "rank %d thin", k+1)
				if math.IsNaN(h.WinRate) {
					assert.Zero(t, h.Margin)
				} else {
					assert.Positive(t, h.Margin)
				}
			}
			if tc.marginMax > 0 {
				assert.Less(t, hs[0].Margin, tc.marginMax)
			}
		})
	}
}

// Advise searches at least at the normal level and ranks with HintsOf.
func TestAdviseRanksARealDecision(t *testing.T) {
	g, err := engine.New(engine.Options{Seed: 5, BotSide: engine.NoSide})
	require.NoError(t, err)
	for len(g.Prompts()) > 0 && (len(g.Prompts()[0].Choices) < 3 || g.Prompts()[0].Kind == engine.PromptObjective) {
		p := g.Prompts()[0]
		require.NoError(t, g.Apply(p.Side, p.Choices[0]))
	}
	p := g.Prompts()[0]
	is, err := g.InfoSet(p.Side)
	require.NoError(t, err)
	hs, err := Advise(Easy, is)
	require.NoError(t, err)
	require.Len(t, hs, len(p.Choices))
	visits := 0
	for k, h := range hs {
		visits += h.Visits
		if k > 0 && !h.Thin && !hs[k-1].Thin {
			assert.GreaterOrEqual(t, hs[k-1].WinRate, h.WinRate, "ranked by estimate")
		}
	}
	assert.Greater(t, visits, Easy.Config().Iterations, "a hint searches at least as hard as normal")
}
