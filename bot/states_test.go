package bot

import (
	"math/rand/v2"
	"testing"

	"github.com/rfop/rfop/engine"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The state cache (states.go) must be invisible: a game it hands out
// plays exactly as one decoded afresh from the same stored state, moves
// and undos included, and what a caller does to it never reaches the
// cached decoding or another caller's game.
func TestStateCacheGamesPlayAsFreshlyDecoded(t *testing.T) {
	t.Parallel()
	// Whole games (about 100 decisions each), undos included; seeds 5 and
	// 10 empty the discard pile on the way (what a clone makes nil).
	for _, seed := range []int64{1, 5, 10} {
		g, err := engine.New(engine.Options{Seed: seed})
		require.NoError(t, err)
		r := rand.New(rand.NewPCG(uint64(seed), 2))
		var c stateCache
		for step := 0; step < 300 && g.S.Result == nil; step++ {
			state, err := g.Save()
			require.NoError(t, err)
			fresh, err := engine.Load(state, nil)
			require.NoError(t, err)
			_, err = c.load(7, state, fresh.Deck()) // decoded, remembered
			require.NoError(t, err)
			a, err := c.load(7, state, fresh.Deck()) // a clone of the remembered one
			require.NoError(t, err)
			other, err := c.load(7, state, fresh.Deck())
			require.NoError(t, err)

			// The same move (or undo) on the fresh decoding and on the clone.
			ps := fresh.Prompts()
			if len(ps) == 0 {
				break
			}
			playSame(t, r, ps, fresh, a)
			want, err := fresh.Save()
			require.NoError(t, err)
			got, err := a.Save()
			require.NoError(t, err)
			require.Equal(t, string(want), string(got), "seed %d step %d: the clone plays as a fresh decoding, byte for byte", seed, step)

			// The other caller's game and the cache still hold the state as stored.
			untouched, err := engine.Load(state, nil)
			require.NoError(t, err)
			u, _ := untouched.Save()
			o, _ := other.Save()
			assert.Equal(t, string(u), string(o), "seed %d step %d: another caller's game is unchanged", seed, step)
			again, err := c.load(7, state, fresh.Deck())
			require.NoError(t, err)
			ag, _ := again.Save()
			assert.Equal(t, string(u), string(ag), "seed %d step %d: the cached decoding is unchanged", seed, step)
			g = fresh
		}
	}
}

// A game remembered after its move (moves.go: the committed game, so
// that its publisher does not parse what was just written) is, to
// whoever loads the stored state next, what a fresh decoding of that
// state would be; playing on after remembering it changes nothing cached.
func TestStateCacheRememberedGamesPlayAsFreshlyDecoded(t *testing.T) {
	t.Parallel()
	// Whole games (about 100 decisions each), undos included; seeds 5 and
	// 10 empty the discard pile on the way (what a clone makes nil).
	for _, seed := range []int64{1, 5, 10} {
		var c stateCache
		g, err := engine.New(engine.Options{Seed: seed})
		require.NoError(t, err)
		state, err := g.Save()
		require.NoError(t, err)
		c.remember(3, state, g)
		r := rand.New(rand.NewPCG(uint64(seed), 5))
		for step := 0; step < 300; step++ {
			cur, err := c.load(3, state, g.Deck())
			require.NoError(t, err)
			fresh, err := engine.Load(state, g.Deck())
			require.NoError(t, err)
			ps := fresh.Prompts()
			if fresh.S.Result != nil || len(ps) == 0 {
				break
			}
			playSame(t, r, ps, fresh, cur)
			want, err := fresh.Save()
			require.NoError(t, err)
			state, err = cur.Save()
			require.NoError(t, err)
			require.Equal(t, string(want), string(state), "seed %d step %d: a remembered game plays as a fresh decoding, byte for byte", seed, step)
			c.remember(3, state, cur)

			// The caller plays on with its game: the cache keeps the state.
			if ps := cur.Prompts(); len(ps) > 0 && cur.S.Result == nil {
				require.NoError(t, cur.Apply(ps[0].Side, ps[0].Choices[0]))
			}
			again, err := c.load(3, state, g.Deck())
			require.NoError(t, err)
			ag, err := again.Save()
			require.NoError(t, err)
			require.Equal(t, string(state), string(ag), "seed %d step %d: the cache kept the state as stored", seed, step)
		}
	}
}

// A state that is not the cached one's bytes (an undo and another move
// bring a game back to the same version with another state) is decoded,
// not served from the cache; the cache keeps at most stateCacheSize games.
func TestStateCacheKeysOnTheStoredBytes(t *testing.T) {
	t.Parallel()
	var c stateCache
	a, err := engine.New(engine.Options{Seed: 1})
	require.NoError(t, err)
	b, err := engine.New(engine.Options{Seed: 2})
	require.NoError(t, err)
	sa, _ := a.Save()
	sb, _ := b.Save()
	_, err = c.load(1, sa, a.Deck())
	require.NoError(t, err)
	got, err := c.load(1, sb, b.Deck()) // same game id, other bytes
	require.NoError(t, err)
	gs, _ := got.Save()
	assert.JSONEq(t, string(sb), string(gs))

	for id := int64(0); id < 3*stateCacheSize; id++ {
		_, err := c.load(id, sa, a.Deck())
		require.NoError(t, err)
	}
	assert.Equal(t, stateCacheSize, c.games.len())
	assert.Len(t, c.games.order, stateCacheSize)
}

// playSame makes one random decision of ps (an undo now and then, where
// allowed) on both games.
func playSame(t *testing.T, r *rand.Rand, ps []engine.Prompt, games ...*engine.Game) {
	t.Helper()
	p := ps[r.IntN(len(ps))]
	if p.CanUndo && r.IntN(4) == 0 {
		for _, g := range games {
			require.NoError(t, g.Undo(p.Side))
		}
		return
	}
	ch := p.Choices[r.IntN(len(p.Choices))]
	for _, g := range games {
		require.NoError(t, g.Apply(p.Side, ch))
	}
}
