package engine

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// Tests of the engine's solo-opponent interface (solo_api.go, solo_rules.go).

// TestRollDie: a die roll is a pure function of the position (the random
// state and the version), uniform over 1..k, and does not advance the
// state's random source.
func TestRollDie(t *testing.T) {
	g, err := NewSoloTestGame(Commune, 3)
	require.NoError(t, err)
	rng := g.S.RNG
	var seen [7]int
	for v := 0; v < 6000; v++ {
		g.S.Version = v
		r := g.RollDie(6)
		require.Equal(t, r, g.RollDie(6), "same position, same roll")
		require.GreaterOrEqual(t, r, 1)
		require.LessOrEqual(t, r, 6)
		seen[r]++
	}
	require.Equal(t, rng, g.S.RNG)
	for f := 1; f <= 6; f++ {
		require.InDelta(t, 1000, seen[f], 150, "face %d", f)
	}
	d := g.Dice()
	a, b := d.Roll(1000), d.Roll(1000)
	require.NotEqual(t, a, b, "successive rolls of one decision differ")
	require.Equal(t, 1, g.Dice().Roll(1))
}

// TestApplyWithNote: the note goes into the public log just before the
// lines of the choice; a refused choice changes nothing.
func TestApplyWithNote(t *testing.T) {
	g, err := New(Options{Seed: 8, BotSide: Commune})
	require.NoError(t, err)
	p := g.Prompts()[0]
	n := len(g.S.Log)
	ver := g.S.Version
	require.ErrorIs(t, g.ApplyWithNote(p.Side, Choice{Kind: ChooseDone}, "never written"), ErrIllegal)
	require.Len(t, g.S.Log, n)
	require.Equal(t, ver, g.S.Version)
	require.NoError(t, g.ApplyWithNote(p.Side, p.Choices[0], "why: a note"))
	require.Equal(t, "why: a note", g.S.Log[n].Text)
	require.Equal(t, NoSide, g.S.Log[n].To)
	require.Equal(t, ver, g.S.Log[n].Version)
	require.Greater(t, len(g.S.Log), n+1)
}

// TestSoloPublicState: the bot's view of the state holds none of the
// Player's secrets nor the deck order.
func TestSoloPublicState(t *testing.T) {
	g, err := New(Options{Seed: 8, BotSide: Versailles})
	require.NoError(t, err)
	p := g.Prompts()[0]
	require.Equal(t, PromptObjective, p.Kind)
	require.NoError(t, g.Apply(Commune, p.Choices[0]))
	pub := g.SoloPublicState()
	require.NotZero(t, g.S.Objective[Commune])
	require.Zero(t, pub.Objective[Commune], "the Player's objective")
	require.Equal(t, g.S.Objective[Versailles], pub.Objective[Versailles], "the bot's own, face up")
	require.Len(t, pub.Hand[Commune], len(g.S.Hand[Commune]))
	for _, c := range pub.Hand[Commune] {
		require.Zero(t, c)
	}
	require.Len(t, pub.Deck, len(g.S.Deck))
	for _, c := range pub.Deck {
		require.Zero(t, c)
	}
	require.Zero(t, pub.RNG)
	require.Nil(t, pub.Log)
	require.Equal(t, g.S.Cubes, pub.Cubes)
}

// TestHasRoom: solo.md §1.3 Room, counted in cubes.
func TestHasRoom(t *testing.T) {
	s := &State{}
	s.Cubes[Commune][Republicans] = 1
	require.False(t, s.HasRoom(Commune, Republicans))
	s.Cubes[Versailles][Republicans] = 1
	require.True(t, s.HasRoom(Commune, Republicans))
	s.Cubes[Commune][Press] = 1
	require.True(t, s.HasRoom(Commune, Press), "one more is allowed in a Pivotal space")
	s.Cubes[Commune][Press] = 2
	require.False(t, s.HasRoom(Commune, Press))
	s.Cubes[Commune][Press], s.Cubes[Versailles][Press] = 4, 4
	require.False(t, s.HasRoom(Commune, Press), "never with 4 cubes")
}

// TestSoloReshuffleKeepsFinalCrisisCards: §6.8 — the Final Crisis cards are
// never shuffled into the solo deck.
func TestSoloReshuffleKeepsFinalCrisisCards(t *testing.T) {
	g, err := NewSoloTestGame(Commune, 3)
	require.NoError(t, err)
	g.S.Deck = nil
	g.S.Discard = []DiscardEntry{{Card: 17, By: Versailles, Round: 4}, {Card: 5, By: Versailles, Round: 4}}
	g.S.Removed = []int8{6}
	require.True(t, g.soloReshuffle())
	require.ElementsMatch(t, []int8{5, 6}, g.S.Deck)
	require.Equal(t, []DiscardEntry{{Card: 17, By: Versailles, Round: 4}}, g.S.Discard)
	require.Empty(t, g.S.Removed)
}

// TestSoloOpsUseAvailableOnly: the bot never places a cube that is not
// Available, in operations either (switch OPS_USE_AVAILABLE_ONLY): its
// Final Crisis zone stays untouched before round 3.
func TestSoloOpsUseAvailableOnly(t *testing.T) {
	g, err := NewSoloTestGame(Versailles, 3)
	require.NoError(t, err)
	s := &g.S
	s.Track[Versailles] = [NumZones]int8{0, 0, 0, 2}
	s.Breached[Versailles] = [NumZones]bool{true, true, true, false}
	g.PushOpsForTest(Versailles, 2, Military)
	g.RunForTest()
	p, ok := g.PromptFor(Versailles)
	require.True(t, ok)
	require.Equal(t, PromptOpsPlace, p.Kind)
	require.Equal(t, []Choice{{Kind: ChooseDone}}, p.Choices, "no placement is offered")
	// The 2-player rules alone would let it take them.
	require.True(t, s.CanSupply(Versailles))
}
