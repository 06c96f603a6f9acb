package ai

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/rfop/rfop/engine"
	"github.com/stretchr/testify/require"
)

// randomPosition plays a random number of random moves from a new game.
func randomPosition(t testing.TB, seed int64, v engine.Variant, maxMoves int) *engine.Game {
	t.Helper()
	g, err := engine.New(engine.Options{Seed: seed, Variant: v, BotSide: engine.NoSide})
	require.NoError(t, err)
	r := rand.New(rand.NewPCG(uint64(seed), 77))
	n := r.IntN(maxMoves)
	for i := 0; i < n; i++ {
		m, ok := g.RandomMove(r)
		if !ok {
			break
		}
		require.NoError(t, g.ApplyMove(m))
	}
	return g
}

// tiny is a search budget small enough for many decisions in a test.
var tiny = Config{Iterations: 12, Epsilon: 0.25, PriorAfter: 4, Bias: 0.5}

// Every decision of every player is one of the prompt's legal choices, in
// random positions of both variants (rulebook: a player chooses among the
// legal plays; the engine refuses anything else).
func TestPlayersChooseLegalMoves(t *testing.T) {
	players := func(seed uint64) []Player {
		return []Player{NewRandom(seed), NewGreedy(seed), NewSearcher(tiny, seed)}
	}
	decisions := 0
	for seed := int64(1); seed <= 150; seed++ {
		v := engine.Standard
		if seed%2 == 0 {
			v = engine.Censorship
		}
		g := randomPosition(t, seed, v, 110)
		ps := players(uint64(seed))
		r := rand.New(rand.NewPCG(uint64(seed), 5))
		// From the random position, the three players take turns deciding
		// for whoever must decide, for up to 40 decisions.
		for k := 0; k < 40; k++ {
			pr := g.Prompts()
			if len(pr) == 0 {
				break
			}
			p := pr[r.IntN(len(pr))]
			is, err := g.InfoSet(p.Side)
			require.NoError(t, err)
			pl := ps[k%len(ps)]
			c, err := pl.Choose(is)
			require.NoError(t, err)
			require.True(t, slices.Contains(p.Choices, c), "%s chose %+v, not a legal choice of %s", pl.Name(), c, p.Kind)
			require.NoError(t, g.Apply(p.Side, c))
			decisions++
		}
	}
	require.Greater(t, decisions, 3000)
}

// hideDifferently swaps what side cannot see: an opponent's hand card with
// a deck card, the opponent's objective (or offered objective) with one of
// the objective deck, and reorders the deck and the random state.
func hideDifferently(g *engine.Game, side engine.Side, r *rand.Rand) *engine.Game {
	h := g.Clone()
	s := &h.S
	opp := side.Other()
	for i, c := range s.Hand[opp] {
		if int(c) != engine.FinalCrisisCardOf(opp) && len(s.Deck) > 0 {
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
	r.Shuffle(len(s.Deck), func(i, j int) { s.Deck[i], s.Deck[j] = s.Deck[j], s.Deck[i] })
	s.RNG ^= r.Uint64()
	return h
}

// Never peeks: two positions that differ only in the opponent's hidden
// cards (and the deck order) get the same answer from the same player
// with the same seed (rulebook: hands and objectives are secret).
func TestNeverPeeks(t *testing.T) {
	checked := 0
	for seed := int64(1); seed <= 40; seed++ {
		v := engine.Standard
		if seed%3 == 0 {
			v = engine.Censorship
		}
		g := randomPosition(t, seed, v, 110)
		r := rand.New(rand.NewPCG(uint64(seed), 6))
		for _, p := range g.Prompts() {
			if len(p.Choices) < 2 {
				continue
			}
			h := hideDifferently(g, p.Side, r)
			require.NotEqual(t, g.S.Deck, h.S.Deck, "the two positions differ")
			for _, mk := range []func() Player{
				func() Player { return NewGreedy(uint64(seed)) },
				func() Player {
					return NewSearcher(Config{Iterations: 40, Epsilon: 0.25, PriorAfter: 4, Bias: 0.5, RootTurn: true}, uint64(seed))
				},
			} {
				a, b := mk(), mk()
				isA, err := g.InfoSet(p.Side)
				require.NoError(t, err)
				isB, err := h.InfoSet(p.Side)
				require.NoError(t, err)
				ca, err := a.Choose(isA)
				require.NoError(t, err)
				cb, err := b.Choose(isB)
				require.NoError(t, err)
				require.Equal(t, ca, cb, "seed %d %s %s: the answer depends on hidden cards", seed, a.Name(), p.Kind)
				if s, ok := a.(*Searcher); ok {
					ra, _ := s.Rank(isA)
					rb, _ := b.(*Searcher).Rank(isB)
					require.Equal(t, comparable(ra), comparable(rb))
				}
				checked++
			}
		}
	}
	require.Greater(t, checked, 40)
}

// comparable replaces the NaN win rates (choices not tried) by -1.
func comparable(r []Ranked) []Ranked {
	out := slices.Clone(r)
	for i := range out {
		if math.IsNaN(out[i].WinRate) {
			out[i].WinRate = -1
		}
	}
	return out
}

// Determinism: the same seed, budget and position give the same choice.
func TestSearchIsDeterministic(t *testing.T) {
	for seed := int64(1); seed <= 10; seed++ {
		g := randomPosition(t, seed, engine.Standard, 400)
		for _, p := range g.Prompts() {
			is, err := g.InfoSet(p.Side)
			require.NoError(t, err)
			cfg := Normal.Config()
			cfg.Iterations, cfg.TimeCap = 60, 0
			a, err := NewSearcher(cfg, 9).Rank(is)
			require.NoError(t, err)
			b, err := NewSearcher(cfg, 9).Rank(is)
			require.NoError(t, err)
			require.Equal(t, comparable(a), comparable(b))
		}
	}
}

// A decision with one legal choice is answered without search.
func TestSingleChoiceCostsNothing(t *testing.T) {
	for seed := int64(1); seed <= 200; seed++ {
		g := randomPosition(t, seed, engine.Standard, 600)
		for _, p := range g.Prompts() {
			if len(p.Choices) != 1 {
				continue
			}
			is, err := g.InfoSet(p.Side)
			require.NoError(t, err)
			s := NewSearcher(Hard.Config(), 1)
			c, err := s.Choose(is)
			require.NoError(t, err)
			require.Equal(t, p.Choices[0], c)
			require.Zero(t, s.Decisions, "no search for a forced choice")
			return
		}
	}
	t.Skip("no forced decision found")
}

func TestNoDecision(t *testing.T) {
	g := randomPosition(t, 3, engine.Standard, 1)
	for _, side := range []engine.Side{engine.Versailles, engine.Commune} {
		if _, ok := g.PromptFor(side); ok {
			continue
		}
		is, err := g.InfoSet(side)
		require.NoError(t, err)
		_, err = NewGreedy(1).Choose(is)
		require.ErrorIs(t, err, ErrNoDecision)
	}
}

// The search and greedy players both beat random play; a short match,
// far from the ladder, that catches a player that lost its way.
func TestBeatsRandom(t *testing.T) {
	wins := 0
	const games = 6
	for i := 0; i < games; i++ {
		var ps [2]Player
		me := engine.Side(i % 2)
		ps[me] = NewSearcher(Config{Iterations: 30, Epsilon: 0.25, PriorAfter: 4, Bias: 0.5, RootTurn: true}, uint64(i))
		ps[me.Other()] = NewRandom(uint64(i))
		g, _, err := PlayGame(engine.Options{Seed: int64(i)}, ps)
		require.NoError(t, err)
		if g.S.Result.Winner == me {
			wins++
		}
	}
	require.GreaterOrEqual(t, wins, games-1)
}

// Estimate reads only the InfoSet: positions that differ in the
// opponent's hidden cards, the deck order and the random state give each
// side the same estimate, whether it has a decision or not; an estimate
// is a chance.
func TestEstimateNeverPeeks(t *testing.T) {
	checked := 0
	for seed := int64(1); seed <= 12; seed++ {
		g := randomPosition(t, seed, engine.Standard, 110)
		if len(g.Prompts()) == 0 {
			continue
		}
		r := rand.New(rand.NewPCG(uint64(seed), 8))
		for _, side := range []engine.Side{engine.Versailles, engine.Commune} {
			h := hideDifferently(g, side, r)
			isA, err := g.InfoSet(side)
			require.NoError(t, err)
			isB, err := h.InfoSet(side)
			require.NoError(t, err)
			a := NewSearcher(tiny, uint64(seed)).Estimate(isA, 30)
			b := NewSearcher(tiny, uint64(seed)).Estimate(isB, 30)
			require.Equal(t, a, b, "seed %d %s", seed, side)
			require.True(t, a >= 0 && a <= 1, "seed %d: %v", seed, a)
			checked++
		}
	}
	require.Greater(t, checked, 10)
}
