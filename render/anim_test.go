package render

import (
	"bytes"
	"image/gif"
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/rfop/rfop/engine"
	"github.com/rfop/rfop/glossary"
	"github.com/rfop/rfop/locale"
	"github.com/rfop/rfop/replay"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func randomMoves(t testing.TB, o engine.Options, seed uint64) []engine.Move {
	t.Helper()
	g, err := engine.New(o)
	require.NoError(t, err)
	r := rand.New(rand.NewPCG(seed, 17))
	var moves []engine.Move
	for {
		m, ok := g.RandomMove(r)
		if !ok {
			return moves
		}
		require.NoError(t, g.ApplyMove(m))
		moves = append(moves, m)
	}
}

// A finished game's replay decodes with image/gif into one frame per play
// plus one per scoring, at the board's size, with the palette built for
// the board, a longer pause at each scoring and the longest at the end.
func TestReplayGIFDecodes(t *testing.T) {
	r := testRenderer(t)
	o := engine.Options{Seed: 3, BotSide: engine.NoSide}
	moves := randomMoves(t, o, 3)
	start := time.Now()
	b, info, err := r.ReplayGIF(o, moves, ReplayOptions{MaxBytes: DiscordLimit})
	require.NoError(t, err)
	t.Logf("%d moves, %d plays, %d scorings: %d bytes (half %v) in %v", len(moves), info.Plays, info.Scorings, len(b), info.Half, time.Since(start))
	require.Equal(t, info.Plays+info.Scorings, info.Frames)
	require.Equal(t, len(b), info.Bytes)
	require.LessOrEqual(t, len(b), DiscordLimit)

	img, err := gif.DecodeAll(bytes.NewReader(b))
	require.NoError(t, err)
	require.Len(t, img.Image, info.Frames)
	require.Equal(t, 0, img.LoopCount, "loops forever")
	w, h := BoardWidth, BoardHeight
	if info.Half {
		w, h = w/2, h/2
	}
	require.Equal(t, w, img.Config.Width)
	require.Equal(t, h, img.Config.Height)
	require.Equal(t, img.Image[0].Bounds().Dx(), w, "the first frame is the whole board")

	var frames []replay.Frame
	_, err = replay.Walk(o, moves, func(f replay.Frame, _ *engine.View) error { frames = append(frames, f); return nil })
	require.NoError(t, err)
	for k, f := range frames {
		require.Equal(t, int(f.Delay()/(10*time.Millisecond)), img.Delay[k], "frame %d", k)
		if f.Kind == replay.Scoring && !f.Last {
			require.Greater(t, img.Delay[k], img.Delay[0], "a scoring pauses longer than a play")
		}
	}
	require.Equal(t, int(replay.EndDelay/(10*time.Millisecond)), img.Delay[len(img.Delay)-1])
}

// The palette is the board's: every colour the renderer paints with is in
// it exactly, and its lookup table gives it back, so flat areas keep their
// colour; the GIF's transparent index is never looked up.
func TestPaletteHoldsTheBoardColours(t *testing.T) {
	r := testRenderer(t)
	p := r.boardPalette()
	require.Len(t, p.colours, 256)
	require.LessOrEqual(t, p.used, transparentIndex)
	for _, c := range namedColours() {
		i := p.nearest(c.R, c.G, c.B)
		require.Equal(t, c, p.colours[i], "colour %v", c)
		require.Equal(t, c, p.colours[p.lut[lutCell(c.R, c.G, c.B)]], "colour %v through the table", c)
	}
}

// Half size when asked, and when the full size would not fit the limit.
func TestReplayHalfSizeWhenTooBig(t *testing.T) {
	r := testRenderer(t)
	o := engine.Options{Seed: 4, BotSide: engine.NoSide}
	moves := randomMoves(t, o, 4)
	full, info, err := r.ReplayGIF(o, moves, ReplayOptions{})
	require.NoError(t, err)
	require.False(t, info.Half)
	small, info2, err := r.ReplayGIF(o, moves, ReplayOptions{MaxBytes: len(full) - 1})
	require.NoError(t, err)
	require.True(t, info2.Half)
	require.Less(t, len(small), len(full))
	_, _, err = r.ReplayGIF(o, moves, ReplayOptions{MaxBytes: 1000})
	require.ErrorIs(t, err, ErrTooLarge)
}

// longestGame is the game with the most replay frames among n random
// two-player games (seeds 1..n).
func longestGame(t testing.TB, n int) (engine.Options, []engine.Move, replay.Summary) {
	var (
		bestO     engine.Options
		bestMoves []engine.Move
		best      replay.Summary
	)
	for seed := 1; seed <= n; seed++ {
		o := engine.Options{Seed: int64(seed), BotSide: engine.NoSide}
		if seed%4 == 0 {
			o.Variant = engine.Censorship
		}
		moves := randomMoves(t, o, uint64(seed))
		sum, err := replay.Count(o, moves)
		require.NoError(t, err)
		if sum.Frames > best.Frames {
			bestO, bestMoves, best = o, moves, sum
		}
	}
	return bestO, bestMoves, best
}

// BenchmarkReplayLongest renders the replay of the longest of 200 random
// games (one op = the whole GIF), on one core: go test -bench ReplayLongest -cpu 1.
func BenchmarkReplayLongest(b *testing.B) {
	r := testRenderer(b)
	o, moves, sum := longestGame(b, 200)
	r.boardPalette()
	b.ResetTimer()
	var size int
	for i := 0; i < b.N; i++ {
		out, _, err := r.ReplayGIF(o, moves, ReplayOptions{MaxBytes: DiscordLimit})
		if err != nil {
			b.Fatal(err)
		}
		size = len(out)
	}
	b.ReportMetric(float64(sum.Plays), "plays")
	b.ReportMetric(float64(sum.Frames), "frames")
	b.ReportMetric(float64(size), "bytes")
	b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N)/float64(sum.Frames), "ms/frame")
}

// The longest game (most frames) of 1,000 random games, standard and
// Censorship, fits Discord's 8 MiB attachment limit.
func TestReplayLongestOf1000GamesFitsDiscord(t *testing.T) {
	if testing.Short() {
		t.Skip("plays 1,000 games")
	}
	r := testRenderer(t)
	o, moves, sum := longestGame(t, 1000)
	b, info, err := r.ReplayGIF(o, moves, ReplayOptions{MaxBytes: DiscordLimit})
	require.NoError(t, err)
	t.Logf("longest of 1,000: seed %d (%s), %d moves, %d plays, %d frames: %d bytes, half size %v",
		o.Seed, o.Variant, len(moves), sum.Plays, sum.Frames, len(b), info.Half)
	require.LessOrEqual(t, len(b), DiscordLimit)
	img, err := gif.DecodeAll(bytes.NewReader(b))
	require.NoError(t, err)
	require.Len(t, img.Image, sum.Frames)
}

// BenchmarkAnimation100Frames draws and encodes 100 frames, the size of
// a 100-play replay (random games are shorter: see BenchmarkReplayLongest),
// from the positions after each play of consecutive random games.
func BenchmarkAnimation100Frames(b *testing.B) {
	r := testRenderer(b)
	type fr struct {
		v, prev engine.View
		caption string
		delay   time.Duration
	}
	var frames []fr
	for seed := uint64(1); len(frames) < 100; seed++ {
		o := engine.Options{Seed: int64(seed), BotSide: engine.NoSide}
		_, err := replay.Walk(o, randomMoves(b, o, seed), func(f replay.Frame, prev *engine.View) error {
			if len(frames) < 100 {
				frames = append(frames, fr{f.View, *prev, r.replayCaption(f), f.Delay()})
			}
			return nil
		})
		require.NoError(b, err)
	}
	r.boardPalette()
	b.ResetTimer()
	var size int
	for i := 0; i < b.N; i++ {
		var out bytes.Buffer
		a, err := r.NewAnimation(&out, false)
		require.NoError(b, err)
		for k := range frames {
			f := &frames[k]
			require.NoError(b, a.Add(&f.v, &f.prev, f.caption, f.delay))
		}
		require.NoError(b, a.Close())
		size = out.Len()
	}
	b.ReportMetric(float64(size), "bytes")
}

// The replay's captions speak the renderer's language (issue 26: they were
// built in English from the log and only their game terms translated, so a
// French or Russian replay read "Раунд 2 scored · … · Коммуна controls
// Париж"). English keeps its words; French and Russian have none of them.
func TestReplayCaptionsInTheLanguage(t *testing.T) {
	o := engine.Options{Seed: 3, BotSide: engine.NoSide}
	moves := randomMoves(t, o, 3)
	en, err := testRenderer(t).ReplayCaptions(o, moves)
	require.NoError(t, err)
	require.NotEmpty(t, en)
	assert.Regexp(t, `^Round 1 · .+ · play 1$`, en[0])
	assert.Contains(t, strings.Join(en, "\n"), " scored · Political VP: ")
	assert.Regexp(t, `· Game over: .* wins`, en[len(en)-1])
	latinRun := regexp.MustCompile(`\p{Latin}{2,}(?:[ ,'’-]+\p{Latin}{2,})+`)
	frEnglish := regexp.MustCompile(`\b(Round|scored|play|played|Game|over|wins|the|and|for|with|of|to)\b`)
	for _, l := range []glossary.Lang{glossary.French, glossary.Russian} {
		r := editionRenderer(t, l)
		got, err := r.ReplayCaptions(o, moves)
		require.NoError(t, err)
		require.Len(t, got, len(en))
		for k, c := range got {
			require.NotEmpty(t, c)
			assert.NotContains(t, c, "[render.", c)
			rest := c
			for n := 53; n >= 1; n-- {
				rest = strings.ReplaceAll(rest, r.pr.CardName(nil, n), "")
			}
			if l == glossary.Russian {
				assert.Empty(t, latinRun.FindString(rest), "frame %d: %q", k+1, c)
			} else {
				assert.Empty(t, frEnglish.FindString(rest), "frame %d: %q", k+1, c)
			}
		}
		over := strings.TrimPrefix(r.pr.T("render.caption.game-over", locale.Args{"Round": "", "Summary": ""}), " · ")
		assert.Contains(t, got[len(got)-1], strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(over), ":")))
	}
}
