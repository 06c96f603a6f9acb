package analysis

import (
	"bytes"
	"context"
	"image/png"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rfop/rfop/ai"
	"github.com/rfop/rfop/engine"
	"github.com/rfop/rfop/locale"
)

// quick is a small budget for tests: the searches are the same code as
// the normal level's, with fewer iterations.
var quick = Config{Level: ai.Easy, Samples: 40}

// randomGame plays random legal moves from seed to the end.
func randomGame(t testing.TB, seed int64) (engine.Options, []engine.Move) {
	t.Helper()
	o := engine.Options{Seed: seed, BotSide: engine.NoSide}
	g, err := engine.New(o)
	require.NoError(t, err)
	r := rand.New(rand.NewPCG(uint64(seed), 7))
	var moves []engine.Move
	for {
		m, ok := g.RandomMove(r)
		if !ok {
			return o, moves
		}
		require.NoError(t, g.ApplyMove(m))
		moves = append(moves, m)
	}
}

// The analysis never uses what a player could not know: two games that
// differ only in a card of the Commune's hand that Versailles cannot see
// (swapped with a card of the deck) give Versailles, the side to move,
// the same estimate, the same choice and the same chances at that
// decision, and the Commune's own estimate there is free to differ.
func TestDecisionIgnoresTheHiddenHand(t *testing.T) {
	for _, seed := range []int64{3, 11, 29} {
		o := engine.Options{Seed: seed, BotSide: engine.NoSide}
		g, err := engine.New(o)
		require.NoError(t, err)
		r := rand.New(rand.NewPCG(uint64(seed), 1))
		// Play on to a card play of Versailles' (a decision with several
		// choices) while the Commune holds cards and the deck has some.
		for {
			p, ok := g.PromptFor(engine.Versailles)
			if ok && p.Kind == engine.PromptPlay && len(p.Choices) > 1 && len(g.S.Hand[engine.Commune]) > 1 && len(g.S.Deck) > 0 {
				break
			}
			m, ok := g.RandomMove(r)
			require.True(t, ok, "seed %d: the game ended before a Versailles card play", seed)
			require.NoError(t, g.ApplyMove(m))
		}
		h := g.Clone()
		fc := int8(engine.FinalCrisisCardOf(engine.Commune))
		k := slices.IndexFunc(h.S.Hand[engine.Commune], func(c int8) bool { return c != fc })
		require.GreaterOrEqual(t, k, 0)
		h.S.Hand[engine.Commune][k], h.S.Deck[0] = h.S.Deck[0], h.S.Hand[engine.Commune][k]
		// And the deck's order and the random state that will deal it.
		r.Shuffle(len(h.S.Deck), func(i, j int) { h.S.Deck[i], h.S.Deck[j] = h.S.Deck[j], h.S.Deck[i] })
		h.S.RNG ^= 0x9E3779B97F4A7C15
		require.NotEqual(t, g.S.Hand[engine.Commune], h.S.Hand[engine.Commune], "the two games differ in the Commune's hand")

		p, _ := g.PromptFor(engine.Versailles)
		played := p.Choices[len(p.Choices)-1]
		a, err := Decision(g, engine.Versailles, played, quick)
		require.NoError(t, err)
		b, err := Decision(h, engine.Versailles, played, quick)
		require.NoError(t, err)
		assert.Equal(t, a.Versailles, b.Versailles, "seed %d: Versailles' estimate", seed)
		assert.Equal(t, a.Best, b.Best, "seed %d: the AI's choice", seed)
		assert.Equal(t, a.BestRate, b.BestRate, "seed %d", seed)
		assert.Equal(t, a.PlayedRate, b.PlayedRate, "seed %d", seed)
		assert.InDelta(t, 0.5, a.Versailles, 0.5)
	}
}

// The same position always gives the same analysis (the searches are
// seeded from a constant and the public version), so a stored analysis
// and a new one agree.
func TestDecisionIsDeterministic(t *testing.T) {
	o, moves := randomGame(t, 5)
	g, err := engine.New(o)
	require.NoError(t, err)
	for _, m := range moves[:40] {
		require.NoError(t, g.ApplyMove(m))
	}
	m := moves[40]
	a, err := Decision(g, m.Side, m.Choice, quick)
	require.NoError(t, err)
	b, err := Decision(g.Clone(), m.Side, m.Choice, quick)
	require.NoError(t, err)
	assert.Equal(t, a, b)
}

func TestAnalyseRandomGame(t *testing.T) {
	o, moves := randomGame(t, 7)
	var calls []int
	a, err := Analyse(context.Background(), o, moves, quick, func(done, total int) {
		calls = append(calls, done)
		assert.LessOrEqual(t, done, total)
	})
	require.NoError(t, err)
	require.NotEmpty(t, a.Points)
	assert.Len(t, calls, len(a.Points), "progress after every decision")
	g, err := engine.Replay(o, moves)
	require.NoError(t, err)
	assert.Equal(t, g.S.Result.Winner, a.Winner)
	rounds := 0
	for i, pt := range a.Points {
		assert.True(t, pt.Chance >= 0 && pt.Chance <= 1, "decision %d: chance %v", i, pt.Chance)
		assert.InDelta(t, (pt.Commune+1-pt.Versailles)/2, pt.Chance, 1e-12)
		assert.Equal(t, pt.Best == pt.Played, pt.Agrees)
		if i > 0 {
			assert.Greater(t, pt.Move, a.Points[i-1].Move, "decisions in the order played")
			assert.GreaterOrEqual(t, pt.Round, a.Points[i-1].Round)
			if pt.Round != a.Points[i-1].Round {
				rounds++
			}
		}
	}
	assert.Greater(t, rounds, 1, "a whole game has several rounds")
	assert.GreaterOrEqual(t, a.Points[len(a.Points)-1].Scorings, 3, "the three rounds were scored before the Final Crisis' last decision")
	// The turning points: three, in the order played, and the largest
	// swings between consecutive decisions.
	require.Len(t, a.Turning, 3)
	smallest := 2.0
	for k, tp := range a.Turning {
		if k > 0 {
			assert.Greater(t, tp.Point, a.Turning[k-1].Point)
		}
		assert.Equal(t, a.Points[tp.Point].Chance, tp.Before)
		assert.Equal(t, a.Points[tp.Point+1].Chance, tp.After)
		x, y := a.Points[tp.Point], a.Points[tp.Point+1]
		assert.Equal(t, x.Scorings != y.Scorings || x.Round != y.Round, tp.Scored)
		smallest = min(smallest, abs(tp.Swing()))
	}
	for i := 0; i+1 < len(a.Points); i++ {
		if slices.IndexFunc(a.Turning, func(tp Turning) bool { return tp.Point == i }) < 0 {
			assert.LessOrEqual(t, abs(a.Points[i+1].Chance-a.Points[i].Chance), smallest, "decision %d swings more than a turning point", i)
		}
	}
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

func TestAnalyseRefusesUnfinishedAndSoloGames(t *testing.T) {
	o, moves := randomGame(t, 9)
	_, err := Analyse(context.Background(), o, moves[:len(moves)/2], quick, nil)
	assert.ErrorIs(t, err, ErrNotFinished)
	o.BotSide = engine.Commune
	_, err = Analyse(context.Background(), o, nil, quick, nil)
	assert.ErrorIs(t, err, ErrSolo)
}

// A game lost on time is analysed like one resigned: the loss on time is
// not a decision.
func TestAnalyseAGameLostOnTime(t *testing.T) {
	o, moves := randomGame(t, 9)
	moves = append(moves[:len(moves)/3:len(moves)/3], engine.Move{Side: engine.Commune, Timeout: true})
	a, err := Analyse(context.Background(), o, moves, quick, nil)
	require.NoError(t, err)
	assert.Equal(t, engine.Versailles, a.Winner)
	assert.False(t, a.Resigned)
}

// An undone move is not a decision of the game: the analysis of a log
// with an undo is the analysis of the log without the undone move.
func TestAnalyseSkipsUndoneMoves(t *testing.T) {
	o, moves := randomGame(t, 13)
	g, err := engine.New(o)
	require.NoError(t, err)
	// Find a move that can be undone and take it back, then play it again.
	var withUndo []engine.Move
	done := false
	for _, m := range moves {
		require.NoError(t, g.ApplyMove(m))
		withUndo = append(withUndo, m)
		if !done && !m.Resign && g.S.Result == nil && g.CanUndo(m.Side) {
			require.NoError(t, g.Undo(m.Side))
			require.NoError(t, g.ApplyMove(m))
			withUndo = append(withUndo, engine.Move{Side: m.Side, Undo: true}, m)
			done = true
		}
	}
	require.True(t, done, "some move could be undone")
	a, err := Analyse(context.Background(), o, moves, quick, nil)
	require.NoError(t, err)
	b, err := Analyse(context.Background(), o, withUndo, quick, nil)
	require.NoError(t, err)
	require.Len(t, b.Points, len(a.Points))
	for i := range a.Points {
		assert.Equal(t, a.Points[i].Chance, b.Points[i].Chance)
	}
}

// The turning points read as one sentence each in every language, with
// no message id left untranslated and the chances as percentages.
func TestTurningTextsInEveryLanguage(t *testing.T) {
	o, moves := randomGame(t, 7)
	a, err := Analyse(context.Background(), o, moves, quick, nil)
	require.NoError(t, err)
	for _, l := range locale.Langs {
		p := locale.For(l)
		texts := a.TurningTexts(p, nil)
		require.Len(t, texts, 3, l)
		for k, s := range texts {
			assert.NotContains(t, s, "[analysis.", l)
			assert.NotContains(t, s, "[engine.", l)
			assert.Contains(t, s, Percent(p, a.Turning[k].Before), l)
			assert.Contains(t, s, Percent(p, a.Turning[k].After), l)
			assert.True(t, strings.HasSuffix(s, "."), "%s: %q", l, s)
			assert.Zero(t, strings.Count(strings.TrimSuffix(s, "."), ". "), "%s: one sentence: %q", l, s)
		}
	}
	assert.Contains(t, a.TurningTexts(locale.For(locale.Langs[1]), nil)[0], "décision")
}

func TestChartIsAPhoneSizedPNG(t *testing.T) {
	o, moves := randomGame(t, 7)
	a, err := Analyse(context.Background(), o, moves, quick, nil)
	require.NoError(t, err)
	for _, l := range locale.Langs {
		b, err := a.Chart(locale.For(l), 42)
		require.NoError(t, err, l)
		img, err := png.Decode(bytes.NewReader(b))
		require.NoError(t, err, l)
		assert.Equal(t, chartW, img.Bounds().Dx())
		assert.Equal(t, chartH, img.Bounds().Dy())
	}
}

// What the bot stores reads back as the same analysis, unknown rates
// (NaN) included, and prints the same turning points.
func TestEncodeDecode(t *testing.T) {
	o, moves := randomGame(t, 7)
	a, err := Analyse(context.Background(), o, moves, quick, nil)
	require.NoError(t, err)
	b, err := a.Encode()
	require.NoError(t, err)
	back, err := Decode(b)
	require.NoError(t, err)
	require.Len(t, back.Points, len(a.Points))
	assert.Equal(t, a.Winner, back.Winner)
	unknown := 0
	for i := range a.Points {
		x, y := a.Points[i], back.Points[i]
		assert.Equal(t, x.Side, y.Side)
		assert.Equal(t, x.Chance, y.Chance)
		assert.Equal(t, x.Played, y.Played)
		assert.Equal(t, x.PlayedRate.Known(), y.PlayedRate.Known())
		if !x.PlayedRate.Known() {
			unknown++
		} else {
			assert.Equal(t, x.PlayedRate, y.PlayedRate)
		}
	}
	assert.Positive(t, unknown, "some played moves were not tried by the search")
	p := locale.For(locale.Langs[2])
	assert.Equal(t, a.TurningTexts(p, nil), back.TurningTexts(p, nil))
}

// A cancelled analysis stops between two decisions with the context's
// error (the bot cancels it when it shuts down).
func TestAnalyseStopsWhenCancelled(t *testing.T) {
	o, moves := randomGame(t, 7)
	ctx, cancel := context.WithCancel(context.Background())
	seen := 0
	_, err := Analyse(ctx, o, moves, quick, func(done, total int) {
		seen = done
		if done == 5 {
			cancel()
		}
	})
	require.ErrorIs(t, err, context.Canceled)
	assert.Equal(t, 5, seen)
}
