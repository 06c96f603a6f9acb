package solo

import (
	"testing"

	"github.com/rfop/rfop/engine"
	"github.com/stretchr/testify/require"
)

// TestBadDieIsAnError: a die that rolls outside 1..k (a faulty Policy.Roll)
// makes Decide fail with an error instead of panicking (solo.md §6.9: a roll
// picks one of the k candidates).
func TestBadDieIsAnError(t *testing.T) {
	for _, roll := range []int{0, 7, -1} {
		// Same rows in both spheres (PR4, PR12): the sphere die is rolled (§5).
		g := newGame(t, V, "Royalists V1", withAvail(3), communePoolRoom())
		resume(t, g, engine.ProcOperations(V, 1, engine.AnySphere))
		pr, ok := g.PromptFor(V)
		require.True(t, ok)
		require.Equal(t, engine.PromptSphere, pr.Kind)
		p := &Policy{Roll: func(int) int { return roll }}
		require.NotPanics(t, func() {
			_, _, err := p.Decide(g, pr)
			require.ErrorContains(t, err, "die", "roll %d", roll)
		})
		_, ok, err := p.Step(g)
		require.Error(t, err)
		require.False(t, ok)
		require.Equal(t, engine.PromptSphere, g.Prompts()[0].Kind, "nothing applied")
	}
}
