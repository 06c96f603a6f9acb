package engine

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// playRandom plays a game with uniformly random legal choices, checking
// invariants after every decision.
func playRandom(t testing.TB, seed int64, variant Variant) (*Game, int) {
	g, err := New(Options{Seed: seed, Variant: variant, BotSide: NoSide})
	require.NoError(t, err)
	r := rand.New(rand.NewPCG(uint64(seed), 7))
	n := 0
	for g.S.Result == nil {
		ps := g.Prompts()
		require.NotEmpty(t, ps, "no prompt and no result (seed %d, decision %d)", seed, n)
		p := ps[r.IntN(len(ps))]
		c := p.Choices[r.IntN(len(p.Choices))]
		require.NoError(t, g.Apply(p.Side, c), "seed %d decision %d", seed, n)
		if err := g.CheckInvariants(); err != nil {
			t.Fatalf("seed %d decision %d: %v", seed, n, err)
		}
		n++
		require.Less(t, n, 5000, "game does not end")
	}
	return g, n
}

func TestRandomGamesSmoke(t *testing.T) {
	for seed := int64(1); seed <= 50; seed++ {
		g, n := playRandom(t, seed, Standard)
		if seed <= 3 {
			t.Logf("seed %d: %d decisions, %s", seed, n, g.S.Result.English(nil))
		}
	}
}
