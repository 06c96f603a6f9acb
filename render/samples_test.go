package render

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/rfop/rfop/engine"
	"github.com/stretchr/testify/require"
)

// TestWriteSamples writes sample pictures for a human to look at:
//
//	RFOP_RENDER_SAMPLES=/tmp/rfop go test ./render/ -run TestWriteSamples
func TestWriteSamples(t *testing.T) {
	dir := os.Getenv("RFOP_RENDER_SAMPLES")
	if dir == "" {
		t.Skip("set RFOP_RENDER_SAMPLES=DIR to write sample pictures")
	}
	require.NoError(t, os.MkdirAll(dir, 0o755))
	r := testRenderer(t)
	write := func(name string, b []byte) {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), b, 0o644))
	}
	for _, sc := range []struct {
		name  string
		seed  int64
		after int
	}{{"start", 1, 0}, {"seed1_60", 1, 60}, {"seed3_end", 3, 1000}, {"seed7_40", 7, 40}} {
		v, prev, _ := playTo(t, sc.seed, sc.after)
		b, err := r.RenderBoard(&v, prev, DefaultCaption(&v))
		require.NoError(t, err)
		write(sc.name+".png", b)
	}
	// A busy constructed position: discs, full spaces, breached zones.
	v, _, _ := playTo(t, 1, 0)
	busy := v
	busy.Disc[engine.MontValerien] = engine.Versailles
	busy.Disc[engine.PereLachaise] = engine.Commune
	busy.Cubes[engine.Versailles][engine.ButteMontmartre] = 4
	busy.Cubes[engine.Commune][engine.ButteMontmartre] = 4
	busy.Cubes[engine.Commune][engine.PereLachaise] = 3
	busy.Cubes[engine.Versailles][engine.MontValerien] = 2
	busy.Momentum = [2]int8{3, 3}
	busy.PoolCap = 4
	busy.Pool = [2]int8{7, 4}
	busy.Prussian = [3]int8{}
	busy.VP = [2]int8{-5, 5}
	busy.Round = 4
	busy.OutOfPlay = [2]int8{0, 3}
	for z := 0; z < engine.NumZones; z++ {
		busy.Breached[engine.Commune][z] = true
		busy.Track[engine.Commune][z] = 0
		busy.Bonus[engine.Commune][z] = 0
	}
	b, err := r.RenderBoard(&busy, &v, "Final Crisis · a constructed position with discs and full spaces · Père Lachaise, Château de Vincennes · Красное знамя над Парижем")
	require.NoError(t, err)
	write("busy.png", b)

	// Every Crisis Dimension held (two each), Prussian Collaboration 3,
	// both Final Crisis zones breached, double-digit counts, and a change
	// in every highlighted place.
	held := v
	for _, x := range []engine.Space{engine.Royalists, engine.NationalAssembly, engine.Republicans, engine.MontValerien, engine.FortIssy, engine.ChateauVincennes} {
		held.Cubes[engine.Versailles][x], held.Cubes[engine.Commune][x] = 2, 0
	}
	for _, x := range []engine.Space{engine.CatholicChurch, engine.Press, engine.SocialMovements, engine.ButteMontmartre, engine.ButteAuxCailles, engine.PereLachaise} {
		held.Cubes[engine.Versailles][x], held.Cubes[engine.Commune][x] = 0, 3
	}
	held.Cubes[engine.Commune][engine.PereLachaise] = 12
	held.Disc[engine.FortIssy] = engine.Versailles
	held.Disc[engine.ButteAuxCailles] = engine.Commune
	held.Momentum = [2]int8{3, 2}
	held.PoolCap = 3
	held.Prussian = [3]int8{}
	held.Pool = [2]int8{11, 3}
	held.VP = [2]int8{4, -3}
	held.Round = 3
	held.Initiative = engine.Versailles
	held.SetAsideSize = [2]int{2, 2}
	held.HandSize = [2]int{1, 2}
	held.OutOfPlay = [2]int8{2, 1}
	held.Fulfilled = [2][]int8{{45, 52}, {44}}
	for _, s := range sides {
		for z := 0; z < engine.NumZones; z++ {
			held.Breached[s][z] = true
			held.Track[s][z], held.Bonus[s][z] = 0, 0
		}
		held.Track[s][engine.ZoneFinalCrisis] = 1
	}
	held.Discard = []engine.DiscardEntry{{Card: 10, By: engine.Versailles, Round: 3}}
	held.Deciding = []engine.Deciding{{Side: engine.Commune, Kind: engine.PromptBonusAction}}
	b, err = r.RenderBoard(&held, &v, DefaultCaption(&held))
	require.NoError(t, err)
	write("held.png", b)

	// Each side's hand at the first decision of every round (and of the
	// Final Crisis) of one game.
	g, rng := newGame(t, 5)
	lastRound := int8(0)
	for {
		if v := g.ViewFor(engine.NoSide); v.Round != lastRound {
			lastRound = v.Round
			for _, side := range sides {
				hv := g.ViewFor(side)
				b, err := r.RenderHand(&hv)
				require.NoError(t, err)
				write(fmt.Sprintf("hand_r%d_%s.png", v.Round, side.Key()), b)
			}
		}
		m, ok := g.RandomMove(rng)
		if !ok {
			break
		}
		require.NoError(t, g.ApplyMove(m))
	}
	for _, n := range []int{17, 18, 28, 36, 42, 48} {
		b, err := r.RenderCard(n)
		require.NoError(t, err)
		write("card_"+itoa(n)+".png", b)
	}
}

func newGame(t testing.TB, seed int64) (*engine.Game, *rand.Rand) {
	t.Helper()
	g, err := engine.New(engine.Options{Seed: seed, BotSide: engine.NoSide})
	require.NoError(t, err)
	return g, rand.New(rand.NewPCG(uint64(seed), 0))
}

// playTo plays up to n random decisions from seed and returns the public
// view, the view before the last decision (nil if none) and the game.
func playTo(t testing.TB, seed int64, n int) (engine.View, *engine.View, *engine.Game) {
	t.Helper()
	g, rng := newGame(t, seed)
	var prev *engine.View
	for i := 0; i < n; i++ {
		m, ok := g.RandomMove(rng)
		if !ok {
			break
		}
		pv := g.ViewFor(engine.NoSide)
		prev = &pv
		require.NoError(t, g.ApplyMove(m))
	}
	return g.ViewFor(engine.NoSide), prev, g
}
