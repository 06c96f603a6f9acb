package engine

import (
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
)

// hideDifferently returns a copy of g in which side's opponent holds other
// unseen cards: a hand card swapped with a deck card, the objective (or an
// offered one) swapped with an objective of the deck, the deck and the
// random state reordered. Everything side may see is unchanged.
func hideDifferently(t *testing.T, g *Game, side Side, r *rand.Rand) *Game {
	t.Helper()
	h := g.Clone()
	s := &h.S
	opp := side.Other()
	fc := int8(FinalCrisisCardOf(opp))
	for i, c := range s.Hand[opp] {
		if c != fc && len(s.Deck) > 0 {
			j := r.IntN(len(s.Deck))
			s.Hand[opp][i], s.Deck[j] = s.Deck[j], c
			break
		}
	}
	if len(s.ObjDeck) > 0 {
		j := r.IntN(len(s.ObjDeck))
		switch {
		case s.Objective[opp] != 0 && !s.ObjRevealed:
			s.Objective[opp], s.ObjDeck[j] = s.ObjDeck[j], s.Objective[opp]
		case len(s.ObjOffer[opp]) > 0:
			s.ObjOffer[opp][0], s.ObjDeck[j] = s.ObjDeck[j], s.ObjOffer[opp][0]
		}
	}
	// An objective out of the game (not kept: face down) and one of the
	// objective deck trade places.
	if len(s.ObjOut) > 0 && len(s.ObjDeck) > 0 {
		i, j := r.IntN(len(s.ObjOut)), r.IntN(len(s.ObjDeck))
		s.ObjOut[i], s.ObjDeck[j] = s.ObjDeck[j], s.ObjOut[i]
		slices.Sort(s.ObjOut)
	}
	r.Shuffle(len(s.Deck), func(i, j int) { s.Deck[i], s.Deck[j] = s.Deck[j], s.Deck[i] })
	s.RNG ^= r.Uint64()
	return h
}

// The information set holds nothing of what its side cannot see: two games
// that differ only in the opponent's hidden cards, the deck order and the
// random state give equal information sets (rulebook "Hidden
// information": hands, objectives and the deck are secret).
func TestInfoSetHidesOpponentSecrets(t *testing.T) {
	for _, v := range []Variant{Standard, Censorship} {
		for seed := int64(1); seed <= 30; seed++ {
			g, err := New(Options{Seed: seed, Variant: v, BotSide: NoSide})
			require.NoError(t, err)
			r := rand.New(rand.NewPCG(uint64(seed), 9))
			steps := r.IntN(600)
			for i := 0; i < steps; i++ {
				m, ok := g.RandomMove(r)
				if !ok {
					break
				}
				require.NoError(t, g.ApplyMove(m))
			}
			for _, side := range []Side{Versailles, Commune} {
				h := hideDifferently(t, g, side, r)
				a, err := g.InfoSet(side)
				require.NoError(t, err)
				b, err := h.InfoSet(side)
				require.NoError(t, err)
				require.True(t, reflect.DeepEqual(a, b), "seed %d %s: information sets differ", seed, side)
			}
		}
	}
}

// A sample is a legal game consistent with the information set: the same
// public state and own cards, every card in one place, the side's decision
// unchanged, and it plays to the end.
func TestInfoSetSampleIsConsistentAndPlayable(t *testing.T) {
	for seed := int64(1); seed <= 40; seed++ {
		v := Standard
		if seed%2 == 0 {
			v = Censorship
		}
		g, err := New(Options{Seed: seed, Variant: v, BotSide: NoSide})
		require.NoError(t, err)
		r := rand.New(rand.NewPCG(uint64(seed), 3))
		steps := r.IntN(700)
		for i := 0; i < steps; i++ {
			m, ok := g.RandomMove(r)
			if !ok {
				break
			}
			require.NoError(t, g.ApplyMove(m))
		}
		for _, side := range []Side{Versailles, Commune} {
			is, err := g.InfoSet(side)
			require.NoError(t, err)
			sg := is.Sample(r)
			require.True(t, sg.Simulation())
			require.NoError(t, sg.CheckInvariants(), "seed %d", seed)
			require.Equal(t, g.S.Hand[side], sg.S.Hand[side])
			require.Equal(t, len(g.S.Hand[side.Other()]), len(sg.S.Hand[side.Other()]))
			require.Equal(t, len(g.S.Deck), len(sg.S.Deck))
			require.Equal(t, g.S.Cubes, sg.S.Cubes)
			require.Equal(t, g.S.Discard, sg.S.Discard)
			want, ok := g.PromptFor(side)
			got, ok2 := sg.PromptFor(side)
			require.Equal(t, ok, ok2)
			if ok {
				require.ElementsMatch(t, want.Choices, got.Choices, "the sample offers the side what it was offered")
			}
			for i := 0; i < 5000; i++ {
				m, ok := sg.RandomMove(r)
				if !ok {
					break
				}
				require.NoError(t, sg.ApplyMove(m))
			}
			require.NotNil(t, sg.S.Result, "seed %d: the sample plays to the end", seed)
			require.Empty(t, sg.S.Log, "a simulation keeps no log")
		}
	}
}

func TestInfoSetRefusesSolo(t *testing.T) {
	g, err := New(Options{Seed: 1, BotSide: Commune})
	require.NoError(t, err)
	_, err = g.InfoSet(Versailles)
	require.ErrorIs(t, err, ErrNoInfoSet)
}

// A forced discard names the revealed opponent's cards of its colour (the
// reveal + forceDiscard event): every sample deals the opponent those
// cards, since the side was offered them.
func TestInfoSetSampleKeepsWhatThePromptShows(t *testing.T) {
	found := 0
	for seed := int64(1); seed <= 400 && found < 5; seed++ {
		g, err := New(Options{Seed: seed, BotSide: NoSide})
		require.NoError(t, err)
		r := rand.New(rand.NewPCG(uint64(seed), 11))
		for step := 0; step < 3000 && g.S.Result == nil; step++ {
			ps := g.Prompts()
			if p := ps[0]; p.Kind == PromptForceDiscard && len(p.Choices) > 1 {
				found++
				is, err := g.InfoSet(p.Side)
				require.NoError(t, err)
				for k := 0; k < 20; k++ {
					sg := is.Sample(r)
					for _, c := range p.Choices {
						if c.Kind == ChooseCard {
							require.Contains(t, sg.S.Hand[p.Side.Other()], int8(c.Card))
						}
					}
				}
				break
			}
			m, _ := g.RandomMove(r)
			require.NoError(t, g.ApplyMove(m))
		}
	}
	if found == 0 {
		t.Skip("no forced discard in these games")
	}
}
