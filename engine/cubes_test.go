package engine

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Rulebook "Crisis Track & Cube Pools"; rules-decisions 13: the pool first,
// then the Crisis Track from the centre outward (Starting, Escalation,
// Tension, Final Crisis); the first cube taken from a zone breaches it.
func TestCubeSourcingOrder(t *testing.T) {
	g := position(t, cubes{})
	g.S.Pool[Versailles] = 1
	require.True(t, g.takeCube(Versailles))
	assert.Equal(t, int8(0), g.S.Pool[Versailles], "pool first")
	assert.Equal(t, trackStart[Versailles], g.S.Track[Versailles])
	require.True(t, g.takeCube(Versailles)) // Starting (1 cube)
	assert.True(t, g.S.Breached[Versailles][ZoneStarting])
	require.True(t, g.takeCube(Versailles)) // Escalation
	assert.True(t, g.S.Breached[Versailles][ZoneEscalation])
	assert.False(t, g.S.Breached[Versailles][ZoneTension])
	assert.Equal(t, [NumZones]int8{0, 1, 1, 2}, g.S.Track[Versailles])
}

// Rulebook: bonus cubes move to the pool "at the end of that card play or
// Pivotal Space bonus action"; rules-decisions 14: the Commune takes only
// as many as its free pool cells hold, the rest are removed from play.
func TestBreachBonusPaidAtEndOfPlay(t *testing.T) {
	tests := []struct {
		name      string
		side      Side
		rm        int8
		wantPool  int8
		wantOut   int8
		takeUntil int // cubes taken
	}{
		{"Versailles Escalation bonus (1) to the pool", Versailles, 0, 1, 0, 2},
		{"Commune at momentum 0 has no cells: Escalation bonus removed from play", Commune, 0, 0, 2, 4},
		{"Commune at momentum 1 (2 cells) keeps both Escalation bonus cubes", Commune, 1, 2, 0, 4},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := position(t, cubes{})
			g.S.Momentum[Commune] = tc.rm
			for i := 0; i < tc.takeUntil; i++ {
				require.True(t, g.takeCube(tc.side))
			}
			assert.Equal(t, int8(0), g.S.Pool[tc.side], "bonus cubes wait until the play ends")
			g.payBonuses()
			assert.Equal(t, tc.wantPool, g.S.Pool[tc.side])
			assert.Equal(t, tc.wantOut, g.S.OutOfPlay[tc.side])
			assert.Equal(t, int8(0), g.S.Bonus[tc.side][ZoneEscalation])
		})
	}
}

// Rulebook: "The player who first breaches their Final Crisis zone loses 1
// Political VP and places the two bonus cubes in their pool. The second
// player ... gains no bonus cubes (remove these bonus cubes from play)."
func TestFinalCrisisZonePenalty(t *testing.T) {
	g := position(t, cubes{})
	for g.S.Track[Versailles][ZoneFinalCrisis] == trackStart[Versailles][ZoneFinalCrisis] {
		require.True(t, g.takeCube(Versailles))
	}
	g.payBonuses()
	assert.Equal(t, -1, g.S.VPFor(Versailles, Political))
	assert.Equal(t, Versailles, g.S.FCFirst)
	pool := g.S.Pool[Versailles]
	assert.GreaterOrEqual(t, pool, int8(2), "first breacher takes the 2 bonus cubes")

	g.S.Momentum[Commune] = 3
	for g.S.Track[Commune][ZoneFinalCrisis] == trackStart[Commune][ZoneFinalCrisis] {
		g.S.Pool[Commune] = 0
		require.True(t, g.takeCube(Commune))
	}
	vp := g.S.VP
	out := g.S.OutOfPlay[Commune]
	g.payBonuses()
	assert.Equal(t, vp[Political]+0, g.S.VP[Political]+0, "no penalty for the second side") // Commune bonuses of other zones do not move VP
	assert.Equal(t, out+2, g.S.OutOfPlay[Commune], "second side's Final Crisis bonus cubes are removed from play")
}

// rules-decisions 15: cubes removed from the map go to their owner's pool;
// a Commune cube with no free pool cell is removed from play.
func TestRemovedCubesGoToPool(t *testing.T) {
	g := position(t, cubes{Press: {2, 2}})
	g.removeCube(Versailles, Press)
	assert.Equal(t, int8(1), g.S.Pool[Versailles])
	g.removeCube(Commune, Press)
	assert.Equal(t, int8(0), g.S.Pool[Commune])
	assert.Equal(t, int8(1), g.S.OutOfPlay[Commune], "no cell at momentum 0")
	g.S.Momentum[Commune] = 1
	g.removeCube(Commune, Press)
	assert.Equal(t, int8(1), g.S.Pool[Commune])
}

// Rulebook "Player Momentum Tracks"; map.md; rules-decisions 16, 17.
func TestMomentumEffects(t *testing.T) {
	t.Run("Prussian Collaboration gives Versailles the cubes under each level, once", func(t *testing.T) {
		g := position(t, cubes{})
		g.changeMomentum(Versailles, 1)
		assert.Equal(t, int8(2), g.S.Pool[Versailles])
		g.changeMomentum(Versailles, -1)
		assert.Equal(t, int8(2), g.S.Pool[Versailles], "lowering takes no cubes back")
		g.changeMomentum(Versailles, 1)
		assert.Equal(t, int8(2), g.S.Pool[Versailles], "no second helping")
	})
	t.Run("Prussian Collaboration 3 gives Versailles the Prussian Occupied Territory", func(t *testing.T) {
		g := position(t, cubes{})
		g.S.Momentum[Versailles] = 2
		assert.False(t, g.S.Controls(Versailles, PrussianTerritory))
		g.changeMomentum(Versailles, 1)
		assert.True(t, g.S.Controls(Versailles, PrussianTerritory))
	})
	t.Run("Revolutionary Momentum opens 2/3/4 pool cells; lowering it removes cubes in closed cells", func(t *testing.T) {
		g := position(t, cubes{})
		for i, want := range []int{2, 3, 4} {
			g.changeMomentum(Commune, 1)
			assert.Equal(t, want, g.S.PoolCap(Commune), "level %d", i+1)
		}
		g.S.Pool[Commune] = 4
		g.changeMomentum(Commune, -1)
		assert.Equal(t, int8(3), g.S.Pool[Commune])
		assert.Equal(t, int8(1), g.S.OutOfPlay[Commune])
	})
	t.Run("raising to 2 and 3 offers the opponent a free cube in the track's dimension", func(t *testing.T) {
		g := position(t, cubes{})
		g.changeMomentum(Versailles, 1)
		assert.Empty(t, g.S.Stack, "no free cube at 1")
		g.changeMomentum(Versailles, 1)
		require.Len(t, g.S.Stack, 1)
		g.cached = false
		g.run()
		p := prompt(t, g, Commune)
		assert.Equal(t, PromptFreeCube, p.Kind)
		assert.ElementsMatch(t, []Space{CatholicChurch, Press, SocialMovements}, spacesOf(p, ChoosePlace))
		assert.True(t, has(p, kind(ChooseDone)), "the opponent may decline")
		pick(t, g, Commune, at(ChoosePlace, CatholicChurch))
		assert.Equal(t, int8(1), g.S.Cubes[Commune][CatholicChurch])

		g2 := position(t, cubes{})
		g2.S.Momentum[Commune] = 2
		g2.changeMomentum(Commune, 1)
		g2.cached = false
		g2.run()
		p = prompt(t, g2, Versailles)
		assert.ElementsMatch(t, []Space{Royalists, NationalAssembly, Republicans}, spacesOf(p, ChoosePlace))
	})
	t.Run("momentum cannot pass 3 or go below 0", func(t *testing.T) {
		g := position(t, cubes{})
		g.S.Momentum[Commune] = 3
		assert.False(t, g.changeMomentum(Commune, 1))
		g.S.Momentum[Versailles] = 0
		assert.False(t, g.changeMomentum(Versailles, -1))
	})
}

// Rulebook "Victory Point Track": each VP type cannot exceed 5 (tug of war).
func TestVPCap(t *testing.T) {
	g := position(t, cubes{})
	g.addVP(Commune, Political, 7)
	assert.Equal(t, 5, g.S.VPFor(Commune, Political))
	assert.Equal(t, -5, g.S.VPFor(Versailles, Political))
	g.addVP(Versailles, Political, 2)
	assert.Equal(t, 3, g.S.VPFor(Commune, Political))
}
