package engine

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// Sequence of Play (rulebook p. 5) and Final Crisis (p. 8): each round
// ends with its plays, then is scored, then the next round is dealt; the
// Final Crisis ends with scoring and the victory check. The observer sees
// each of those moments once per round, in that order, with the board of
// that round, and observing changes nothing.
func TestCheckpointsOncePerRoundInOrder(t *testing.T) {
	for seed := int64(1); seed <= 40; seed++ {
		g, err := New(Options{Seed: seed, BotSide: NoSide})
		require.NoError(t, err)
		twin, err := New(Options{Seed: seed, BotSide: NoSide})
		require.NoError(t, err)
		var got []Checkpoint
		g.SetObserver(func(c Checkpoint) { got = append(got, c) })
		r := rand.New(rand.NewPCG(uint64(seed), 7))
		for {
			m, ok := g.RandomMove(r)
			if !ok {
				break
			}
			require.NoError(t, g.ApplyMove(m))
			require.NoError(t, twin.ApplyMove(m))
		}
		require.Equal(t, twin.S, g.S, "seed %d: observing changed the game", seed)
		require.NotEmpty(t, got)
		require.Equal(t, 0, len(got)%2, "seed %d", seed)
		for k := 0; k < len(got); k += 2 {
			require.Equal(t, CheckpointPlaysOver, got[k].Kind, "seed %d checkpoint %d", seed, k)
			require.Equal(t, CheckpointScored, got[k+1].Kind, "seed %d checkpoint %d", seed, k+1)
			require.Equal(t, got[k].Round, got[k+1].Round)
			require.Equal(t, got[k].Round, got[k].View.Round, "the view shows the round being scored")
			require.Empty(t, got[k].View.Deciding)
		}
		last := got[len(got)-1]
		require.Equal(t, int8(roundFinal), last.Round, "seed %d", seed)
		require.NotNil(t, last.View.Result, "the final scoring decides the game")
		require.Equal(t, g.S.Result, last.View.Result)
	}
}
