package render

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"image"
	"image/draw"
	"image/png"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/golang/freetype/truetype"
	"github.com/rfop/rfop/engine"
	"github.com/rfop/rfop/glossary"
	"github.com/rfop/rfop/locale"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var (
	update         = flag.Bool("update", false, "regenerate the golden images (and their views) in testdata/")
	updatePictures = flag.Bool("update-pictures", false, "regenerate the golden images in testdata/ from the stored views")
)

var (
	sharedOnce sync.Once
	shared     *Renderer
	sharedErr  error
)

func testRenderer(t testing.TB) *Renderer {
	t.Helper()
	sharedOnce.Do(func() { shared, sharedErr = New(engine.DefaultDeck()) })
	require.NoError(t, sharedErr)
	return shared
}

// ---- golden images ----

// A golden case is a fixed position. Its view is stored as JSON next to the
// picture, so the test checks the renderer even while the engine evolves;
// -update replays the game with today's engine and rewrites both.
type goldenCase struct {
	name  string
	seed  int64
	after int // random decisions (a large number: play to the end)
}

var goldenCases = []goldenCase{
	{"start", 1, 0},
	{"midgame_seed1_60", 1, 60},
	{"finished_seed3", 3, 10000},
}

type goldenViews struct {
	View engine.View  `json:"view"`
	Prev *engine.View `json:"prev,omitempty"`
}

func trimLog(v *engine.View) {
	if v != nil && len(v.Log) > 40 {
		v.Log = v.Log[len(v.Log)-40:]
	}
}

func TestGoldenBoards(t *testing.T) {
	r := testRenderer(t)
	for _, gc := range goldenCases {
		t.Run(gc.name, func(t *testing.T) {
			jsonPath := filepath.Join("testdata", gc.name+".json")
			pngPath := filepath.Join("testdata", gc.name+".png")
			var gv goldenViews
			if *update {
				v, prev, _ := playTo(t, gc.seed, gc.after)
				if gc.after == 0 {
					prev = nil
				}
				trimLog(&v)
				trimLog(prev)
				gv = goldenViews{View: v, Prev: prev}
				b, err := json.MarshalIndent(gv, "", " ")
				require.NoError(t, err)
				require.NoError(t, os.MkdirAll("testdata", 0o755))
				require.NoError(t, os.WriteFile(jsonPath, b, 0o644))
			} else {
				b, err := os.ReadFile(jsonPath)
				require.NoError(t, err, "missing golden view; run go test ./render/ -update")
				require.NoError(t, json.Unmarshal(b, &gv))
			}
			got, err := r.RenderBoard(&gv.View, gv.Prev, DefaultCaption(&gv.View))
			require.NoError(t, err)
			checkGoldenPNG(t, pngPath, got)
		})
	}
}

// handView is a player's view holding the given cards, for hand pictures.
func handView(side engine.Side, round int8, hand, setAside, offer []int8, objective int8, fcHeld bool) *engine.View {
	v := &engine.View{Viewer: side, BotSide: engine.NoSide, Round: round, Hand: hand, SetAside: setAside, ObjOffer: offer}
	v.Objective[side] = objective
	v.FCHeld[side] = fcHeld
	return v
}

func TestGoldenHands(t *testing.T) {
	r := testRenderer(t)
	for _, tc := range []struct {
		name string
		v    *engine.View
	}{
		// Round 2: a playable hand, one card set aside, the Final Crisis
		// card and the kept objective, each in its own labelled section.
		{"hand", handView(engine.Commune, 2, []int8{11, 18, 35}, []int8{9}, nil, 48, true)},
		// Round 1 deal: the objective offer next to the Final Crisis card.
		{"hand_deal", handView(engine.Versailles, 1, []int8{2, 13, 29, 40}, nil, []int8{42, 51}, 0, true)},
		// The Final Crisis: one hand holding everything.
		{"hand_final_crisis", handView(engine.Commune, 4, []int8{18, 35, 22, 34}, nil, nil, 0, false)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := r.RenderHand(tc.v)
			require.NoError(t, err)
			checkGoldenPNG(t, filepath.Join("testdata", tc.name+".png"), got)
		})
	}
}

func TestHandSectionsSeparatePlayableFromHeldCards(t *testing.T) {
	type sec struct {
		title string
		cards []int
	}
	fcPlay := []engine.Deciding{{Side: engine.Commune, Kind: engine.PromptFCDiscard}}
	for _, tc := range []struct {
		name string
		v    *engine.View
		want []sec
	}{
		{"round 1 deal: hand, Final Crisis card, objective offer",
			handView(engine.Versailles, 1, []int8{2, 13, 29, 40}, nil, []int8{42, 51}, 0, true),
			[]sec{{"In hand (4)", []int{2, 13, 29, 40}}, {"Final Crisis card", []int{17}}, {"Objectives offered — keep one", []int{42, 51}}}},
		{"round 2: set-aside cards apart from the hand",
			handView(engine.Commune, 2, []int8{11, 18, 35}, []int8{9}, nil, 48, true),
			[]sec{{"In hand (3)", []int{11, 18, 35}}, {"Set aside for the Final Crisis (1)", []int{9}}, {"Final Crisis card", []int{34}}, {"Your objective", []int{48}}}},
		{"end of round 3: nothing left to play",
			handView(engine.Commune, 3, nil, []int8{3, 9, 21}, nil, 44, false),
			[]sec{{"In hand (0)", []int{}}, {"Set aside for the Final Crisis (3)", []int{3, 9, 21}}, {"Your objective", []int{44}}}},
		{"Final Crisis: the hand holds everything",
			handView(engine.Commune, 4, []int8{18, 35, 22, 34}, nil, nil, 0, false),
			[]sec{{"Final Crisis hand (4)", []int{18, 35, 22, 34}}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			secs, err := handSections(locale.For(locale.English), tc.v)
			require.NoError(t, err)
			var got []sec
			for _, s := range secs {
				got = append(got, sec{s.title, s.cards})
			}
			assert.Equal(t, tc.want, got)
		})
	}
	t.Run("Final Crisis discard pending is said", func(t *testing.T) {
		v := handView(engine.Commune, 4, []int8{18, 35, 22, 34}, nil, nil, 0, false)
		v.Deciding = fcPlay
		secs, err := handSections(locale.For(locale.English), v)
		require.NoError(t, err)
		assert.Contains(t, secs[0].note, "discard")
	})
	t.Run("the solo opponent's Final Crisis card is not in the player's hand", func(t *testing.T) {
		v := handView(engine.Commune, 1, []int8{2}, nil, nil, 0, true)
		v.BotSide = engine.Commune
		secs, err := handSections(locale.For(locale.English), v)
		require.NoError(t, err)
		for _, s := range secs {
			assert.NotEqual(t, "Final Crisis card", s.title)
		}
	})
	t.Run("errors", func(t *testing.T) {
		_, err := handSections(locale.For(locale.English), nil)
		assert.Error(t, err)
		_, err = handSections(locale.For(locale.English), &engine.View{Viewer: engine.NoSide, Hand: []int8{2}})
		assert.Error(t, err, "a spectator has no hand")
		_, err = handSections(locale.For(locale.English), handView(engine.Commune, 4, nil, nil, nil, 0, false))
		assert.ErrorIs(t, err, ErrEmptyHand)
	})
}

// checkGoldenPNG is checkGolden for a picture as the bot sends it (the
// PNG b): -update writes b itself, so the golden files are exactly what
// players are shown.
func checkGoldenPNG(t *testing.T, path string, b []byte) {
	t.Helper()
	if *update || *updatePictures {
		require.NoError(t, os.WriteFile(path, b, 0o644))
		return
	}
	m, err := png.Decode(bytes.NewReader(b))
	require.NoError(t, err)
	checkGolden(t, path, toRGBA(m))
}

// checkGolden compares img with the PNG at path (or writes it with
// -update). A pixel differs when a channel moves by more than 48 levels,
// and counts only where a whole 5×5 patch around it differs ("solid");
// solid pixels are grouped into connected blobs. Anti-aliasing and hinting
// changes reshape thin glyph strokes and leave only small scattered blobs;
// a missing or extra cube (the smallest is 26 px wide) leaves one blob of
// about 300 pixels. The test fails when a blob exceeds goldenMaxBlob.
const goldenMaxBlob = 80

func checkGolden(t *testing.T, path string, img *image.RGBA) {
	t.Helper()
	if *update || *updatePictures {
		var buf bytes.Buffer
		enc := png.Encoder{CompressionLevel: png.BestCompression}
		require.NoError(t, enc.Encode(&buf, img))
		require.NoError(t, os.WriteFile(path, buf.Bytes(), 0o644))
		return
	}
	f, err := os.Open(path)
	require.NoError(t, err, "missing golden image; run go test ./render/ -update")
	defer f.Close()
	want, err := png.Decode(f)
	require.NoError(t, err)
	require.Equal(t, want.Bounds(), img.Bounds(), "picture size changed")
	n, where := solidDiff(toRGBA(want), img, 48, 2)
	if n > goldenMaxBlob {
		var buf bytes.Buffer
		_ = png.Encode(&buf, img)
		keep := filepath.Join(os.TempDir(), "rfop-render-got-"+filepath.Base(path))
		_ = os.WriteFile(keep, buf.Bytes(), 0o644)
		t.Fatalf("%s: a blob of %d pixels differs (at %v); got picture written to %s; run go test ./render/ -update if the change is intended", path, n, where, keep)
	}
}

func toRGBA(m image.Image) *image.RGBA {
	if r, ok := m.(*image.RGBA); ok {
		return r
	}
	b := m.Bounds()
	out := image.NewRGBA(b)
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			out.Set(x, y, m.At(x, y))
		}
	}
	return out
}

// solidDiff finds the pixels p such that every pixel within rad of p (a
// (2rad+1)² square) differs between a and b by more than tol in some
// channel, groups them into 4-connected blobs and returns the size of the
// largest blob and where it is.
func solidDiff(a, b *image.RGBA, tol, rad int) (largest int, where image.Point) {
	bd := a.Bounds().Intersect(b.Bounds())
	w, h := bd.Dx(), bd.Dy()
	diff := make([]bool, w*h)
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			ia, ib := a.PixOffset(bd.Min.X+x, bd.Min.Y+y), b.PixOffset(bd.Min.X+x, bd.Min.Y+y)
			for c := 0; c < 3; c++ {
				d := int(a.Pix[ia+c]) - int(b.Pix[ib+c])
				if d > tol || -d > tol {
					diff[y*w+x] = true
					break
				}
			}
		}
	}
	// Erode horizontally, then vertically.
	erode := func(in []bool, dx, dy int) []bool {
		out := make([]bool, len(in))
		for y := 0; y < h; y++ {
			for x := 0; x < w; x++ {
				ok := true
				for k := -rad; k <= rad && ok; k++ {
					xx, yy := x+k*dx, y+k*dy
					ok = xx >= 0 && yy >= 0 && xx < w && yy < h && in[yy*w+xx]
				}
				out[y*w+x] = ok
			}
		}
		return out
	}
	solid := erode(erode(diff, 1, 0), 0, 1)
	var stack []int
	for i := range solid {
		if !solid[i] {
			continue
		}
		solid[i] = false
		stack = append(stack[:0], i)
		n := 0
		for len(stack) > 0 {
			j := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			n++
			x, y := j%w, j/w
			for _, k := range [4]int{j - 1, j + 1, j - w, j + w} {
				if k < 0 || k >= len(solid) || !solid[k] {
					continue
				}
				if (k == j-1 && x == 0) || (k == j+1 && x == w-1) {
					continue
				}
				solid[k] = false
				stack = append(stack, k)
			}
			_ = y
		}
		if n > largest {
			largest, where = n, image.Pt(bd.Min.X+i%w, bd.Min.Y+i/w)
		}
	}
	return largest, where
}

// ---- every count is visible ----

// regionDiffers reports whether a and b differ anywhere inside r.
func regionDiffers(a, b *image.RGBA, r image.Rectangle) bool {
	for y := r.Min.Y; y < r.Max.Y; y++ {
		ia, ib := a.PixOffset(r.Min.X, y), b.PixOffset(r.Min.X, y)
		if !bytes.Equal(a.Pix[ia:ia+4*r.Dx()], b.Pix[ib:ib+4*r.Dx()]) {
			return true
		}
	}
	return false
}

func TestEveryCubeCountIsDrawnInItsSpace(t *testing.T) {
	r := testRenderer(t)
	base, _, _ := playTo(t, 1, 0)
	for x := engine.Space(0); x < engine.NumMapSpaces; x++ {
		rect := SpaceRect(x)
		require.False(t, rect.Empty())
		for _, s := range sides {
			// Counts 0..4 of this side here (the other side keeps its start
			// count): every pair of pictures must differ inside the space.
			var pics []*image.RGBA
			for n := int8(0); n <= 4; n++ {
				v := base
				v.Cubes[s][x] = n
				img, err := r.DrawBoard(&v, nil, "test")
				require.NoError(t, err)
				pics = append(pics, img)
			}
			for i := range pics {
				for j := i + 1; j < len(pics); j++ {
					assert.True(t, regionDiffers(pics[i], pics[j], rect),
						"%s: %s %d and %d cubes look the same inside %v", x, s, i, j, rect)
				}
			}
			// One more cube changes nothing outside the space but the
			// Crisis Dimension chips (control may complete a dimension).
			v := base
			v.Cubes[s][x]++
			one, err := r.DrawBoard(&v, nil, "test")
			require.NoError(t, err)
			zero, err := r.DrawBoard(&base, nil, "test")
			require.NoError(t, err)
			outside := []image.Rectangle{
				trackRect[0], trackRect[1], sidePanel[0], sidePanel[1], middlePanel, captionRect,
			}
			for _, o := range outside {
				assert.False(t, regionDiffers(zero, one, o), "%s: a %s cube changed the picture at %v", x, s, o)
			}
		}
	}
}

func TestDiscAndControlAreDrawn(t *testing.T) {
	r := testRenderer(t)
	base, _, _ := playTo(t, 1, 0)
	for _, x := range []engine.Space{engine.MontValerien, engine.FortIssy, engine.ChateauVincennes, engine.ButteMontmartre, engine.ButteAuxCailles, engine.PereLachaise} {
		plain, err := r.DrawBoard(&base, nil, "")
		require.NoError(t, err)
		for _, s := range sides {
			v := base
			v.Disc[x] = s
			img, err := r.DrawBoard(&v, nil, "")
			require.NoError(t, err)
			assert.True(t, regionDiffers(plain, img, SpaceRect(x)), "%s: %s disc not drawn", x, s)
		}
	}
	// The Prussian Occupied Territory turns Versailles at Prussian Collaboration 3.
	v := base
	v.Momentum[engine.Versailles] = 3
	a, err := r.DrawBoard(&base, nil, "")
	require.NoError(t, err)
	b, err := r.DrawBoard(&v, nil, "")
	require.NoError(t, err)
	assert.True(t, regionDiffers(a, b, SpaceRect(engine.PrussianTerritory)))
}

func TestChangesSincePreviousPictureAreHighlighted(t *testing.T) {
	r := testRenderer(t)
	base, _, _ := playTo(t, 1, 0)
	base.Deciding = nil
	same, err := r.DrawBoard(&base, &base, "")
	require.NoError(t, err)
	plain, err := r.DrawBoard(&base, nil, "")
	require.NoError(t, err)
	assert.False(t, regionDiffers(same, plain, same.Rect), "nothing changed, yet something is highlighted")

	V, C := engine.Versailles, engine.Commune
	for _, tc := range []struct {
		name   string
		change func(v *engine.View)
		where  image.Rectangle
	}{
		{"cubes in a space", func(v *engine.View) { v.Cubes[C][engine.Press]++ }, SpaceRect(engine.Press).Inset(-20)},
		{"a disc", func(v *engine.View) { v.Disc[engine.FortIssy] = V }, SpaceRect(engine.FortIssy).Inset(-20)},
		{"a Crisis Track zone", func(v *engine.View) { v.Track[C][0]--; v.Breached[C][0] = true }, zoneRect(C, 0).Inset(-4)},
		{"a pool", func(v *engine.View) { v.Pool[V] = 2 }, poolRect(V).Inset(-4)},
		{"momentum", func(v *engine.View) { v.Momentum[C] = 1; v.PoolCap = 2 }, sidePanel[C]},
		{"cubes removed from play", func(v *engine.View) { v.OutOfPlay[V] = 1 }, sidePanel[V]},
		{"objectives fulfilled", func(v *engine.View) { v.Fulfilled = [2][]int8{{45}, nil} }, sidePanel[V]},
		{"Political VP", func(v *engine.View) { v.VP[engine.Political] = -2 }, middlePanel},
		{"the round", func(v *engine.View) { v.Round = 2 }, middlePanel},
		{"the initiative", func(v *engine.View) { v.Initiative = v.Initiative.Other() }, middlePanel},
		{"the discard pile", func(v *engine.View) { v.Discard = []engine.DiscardEntry{{Card: 11, By: V, Round: 1}} }, middlePanel},
		{"a Crisis Dimension", func(v *engine.View) {
			for _, x := range []engine.Space{engine.MontValerien, engine.FortIssy, engine.ChateauVincennes} {
				v.Cubes[V][x] = 1
			}
		}, dimChipRect(engine.Forts).Inset(-4)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			next := base
			tc.change(&next)
			marked, err := r.DrawBoard(&next, &base, "")
			require.NoError(t, err)
			unmarked, err := r.DrawBoard(&next, &next, "")
			require.NoError(t, err)
			assert.True(t, regionDiffers(marked, unmarked, tc.where), "%s changed but is not highlighted in %v", tc.name, tc.where)
		})
	}
}

// ---- robustness ----

func TestRenderEveryReachableState(t *testing.T) {
	r := testRenderer(t)
	// Two-player games, and solo games with the bot on either side (its
	// Final Crisis card is never in the player's hand picture).
	games := []struct {
		seed int64
		bot  engine.Side
	}{{11, engine.NoSide}, {12, engine.NoSide}, {13, engine.NoSide}, {14, engine.NoSide}, {15, engine.NoSide},
		{16, engine.Versailles}, {17, engine.Commune}}
	var mu sync.Mutex
	total := 0
	for _, gc := range games {
		seed := gc.seed
		name := fmt.Sprint("seed", seed)
		if gc.bot != engine.NoSide {
			name += "_solo_bot_" + gc.bot.Key()
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			g, err := engine.New(engine.Options{Seed: seed, BotSide: gc.bot})
			require.NoError(t, err)
			rng := rand.New(rand.NewPCG(uint64(seed), 0))
			var prev *engine.View
			n := 0
			for {
				v := g.ViewFor(engine.NoSide)
				_, err := r.DrawBoard(&v, prev, DefaultCaption(&v))
				require.NoError(t, err, "seed %d decision %d", seed, n)
				if n%5 == 0 {
					for _, s := range sides {
						hv := g.ViewFor(s)
						if _, err := r.DrawHand(&hv); !errors.Is(err, ErrEmptyHand) {
							require.NoError(t, err, "seed %d decision %d: %s hand", seed, n, s)
						}
					}
				}
				prev = &v
				m, ok := g.RandomMove(rng)
				if !ok {
					break
				}
				require.Less(t, n, 5000, "seed %d: game too long", seed)
				require.NoError(t, g.ApplyMove(m))
				n++
			}
			require.NotNil(t, g.ViewFor(engine.NoSide).Result, "game did not finish")
			mu.Lock()
			total += n
			mu.Unlock()
		})
	}
	t.Cleanup(func() { t.Logf("rendered %d states", total+len(games)) })
}

func TestRenderOddViews(t *testing.T) {
	r := testRenderer(t)
	_, err := r.RenderBoard(nil, nil, "")
	assert.Error(t, err)
	// Out-of-range counters are clamped, not fatal.
	var v engine.View
	v.Round = 9
	v.Momentum = [2]int8{7, -2}
	v.VP = [2]int8{12, -12}
	v.Cubes[0][0] = 120
	v.Track[1][2] = 11
	v.Discard = []engine.DiscardEntry{{Card: 99}}
	v.Deciding = []engine.Deciding{{Side: engine.Commune, Kind: "something-new"}}
	for i := range v.Disc {
		v.Disc[i] = 5
	}
	b, err := r.RenderBoard(&v, &engine.View{}, "a caption far too long to fit on one line "+string(bytes.Repeat([]byte("word "), 80)))
	require.NoError(t, err)
	assert.NotEmpty(t, b)
	_, err = r.RenderCard(0)
	assert.Error(t, err)
	_, err = r.RenderHand(nil)
	assert.Error(t, err)
	_, err = r.RenderHand(&engine.View{Viewer: engine.Side(7), Hand: []int8{2}})
	assert.Error(t, err)
	_, err = r.RenderHand(handView(engine.Commune, 2, []int8{99}, nil, nil, 0, false))
	assert.Error(t, err, "unknown card")
}

func TestBoardPNG(t *testing.T) {
	r := testRenderer(t)
	v, prev, _ := playTo(t, 1, 60)
	b, err := r.RenderBoard(&v, prev, DefaultCaption(&v))
	require.NoError(t, err)
	cfg, err := png.DecodeConfig(bytes.NewReader(b))
	require.NoError(t, err)
	assert.Equal(t, BoardWidth, cfg.Width)
	assert.Equal(t, BoardHeight, cfg.Height)
	assert.Less(t, len(b), 400<<10, "board PNG should stay under 400 KB")
}

// Concurrent renders give exactly the pictures serial renders give.
func TestConcurrentRendersMatchSerial(t *testing.T) {
	r := testRenderer(t)
	var views []engine.View
	for i := 0; i < 6; i++ {
		v, _, _ := playTo(t, int64(20+i), 15*i)
		views = append(views, v)
	}
	want := make([][]byte, len(views))
	for i := range views {
		b, err := r.RenderBoard(&views[i], nil, DefaultCaption(&views[i]))
		require.NoError(t, err)
		want[i] = b
	}
	var wg sync.WaitGroup
	errs := make(chan error, 4*len(views))
	for k := 0; k < 4; k++ {
		for i := range views {
			wg.Add(1)
			go func(i int) {
				defer wg.Done()
				b, err := r.RenderBoard(&views[i], nil, DefaultCaption(&views[i]))
				if err == nil && !bytes.Equal(b, want[i]) {
					err = fmt.Errorf("view %d: concurrent render differs", i)
				}
				if err != nil {
					errs <- err
				}
			}(i)
		}
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

func TestDefaultCaption(t *testing.T) {
	v, _, g := playTo(t, 1, 60)
	c := DefaultCaption(&v)
	assert.Contains(t, c, "Round ")
	assert.NotContains(t, c, "\n")
	// Private log lines are never quoted, even from a player's own view.
	for _, s := range sides {
		pv := g.ViewFor(s)
		for _, e := range pv.Log {
			if t2 := e.English(nil); e.To != engine.NoSide && len(t2) > 12 {
				assert.NotContains(t, DefaultCaption(&pv), t2[:len(t2)-1])
			}
		}
	}
	start, _, _ := playTo(t, 1, 0)
	assert.Contains(t, DefaultCaption(&start), "Round 1")
	end, _, _ := playTo(t, 3, 10000)
	assert.Contains(t, DefaultCaption(&end), "Game over: "+end.Result.English(nil)[:20])
}

func TestDefaultCaptionQuotesTheCurrentPhase(t *testing.T) {
	pub := func(actor engine.Side, text string) engine.LogEntry {
		return engine.LogEntry{Actor: actor, To: engine.NoSide, LegacyText: text} // saved before messages
	}
	play := pub(engine.Versailles, "Versailles plays #11 Adolphe Thiers for 2 operations point(s).")
	for _, tc := range []struct {
		name string
		v    engine.View
		want string
	}{
		{"the latest play, in the past tense",
			engine.View{Round: 2, Log: []engine.LogEntry{play, pub(engine.Versailles, "Versailles places a cube in Press (1 OP).")},
				Deciding: []engine.Deciding{{Side: engine.Commune, Kind: engine.PromptPlay}}},
			"Round 2 · Versailles played #11 Adolphe Thiers for 2 OP · Commune to play"},
		{"end-of-round scoring: no play from before it",
			engine.View{Round: 3, Log: []engine.LogEntry{play, pub(engine.NoSide, "Each player sets aside its remaining card for the Final Crisis."),
				pub(engine.Versailles, "Versailles takes no bonus action in Forts.")},
				Deciding: []engine.Deciding{{Side: engine.Commune, Kind: engine.PromptBonusAction}}},
			"Round 3 · Versailles takes no bonus action in Forts · Commune to decide"},
		{"a new round names itself",
			engine.View{Round: 2, Log: []engine.LogEntry{play, pub(engine.NoSide, "Round 2: Strategy and Objective cards are dealt.")},
				Deciding: []engine.Deciding{{Side: engine.Commune, Kind: engine.PromptObjective}, {Side: engine.Versailles, Kind: engine.PromptObjective}}},
			"Round 2: Strategy and Objective cards are dealt · both players to decide"},
		{"a private line is never quoted",
			engine.View{Round: 1, Log: []engine.LogEntry{play, {Actor: engine.Commune, To: engine.Commune, LegacyText: "Commune keeps #44."}}},
			"Round 1 · Versailles played #11 Adolphe Thiers for 2 OP"},
		{"game over: the result",
			engine.View{Round: 4, Log: []engine.LogEntry{play}, Result: &engine.Result{Winner: engine.Commune, LegacySummary: "The Commune wins: its 2 Political VP exceed Versailles' 1 Military VP."}},
			"Final Crisis · Game over: The Commune wins: its 2 Political VP exceed Versailles' 1 Military VP"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, DefaultCaption(&tc.v))
		})
	}
}

// ---- benchmarks ----

func benchState(b *testing.B) (*Renderer, engine.View, *engine.View) {
	r := testRenderer(b)
	v, prev, _ := playTo(b, 1, 60)
	return r, v, prev
}

// The picture benchmarks also report the CPU time of the process per
// picture (cpu-ms/op): on a shared machine the wall time per op measures
// the load as much as the code.

// BenchmarkRenderBoard: what the bot does for a board: copy the static
// layer, draw the state, quantize to the board palette, encode.
func BenchmarkRenderBoard(b *testing.B) {
	r, v, prev := benchState(b)
	caption := DefaultCaption(&v)
	r.boardPalette()
	var size int
	cpu := startCPU()
	for b.Loop() {
		out, err := r.RenderBoard(&v, prev, caption)
		if err != nil {
			b.Fatal(err)
		}
		size = len(out)
	}
	cpu.report(b)
	b.ReportMetric(float64(size), "bytes")
}

// BenchmarkEncodeOnly: quantize and encode the already-drawn board as
// RenderBoard does.
func BenchmarkEncodeOnly(b *testing.B) {
	r, v, prev := benchState(b)
	img, err := r.DrawBoard(&v, prev, DefaultCaption(&v))
	if err != nil {
		b.Fatal(err)
	}
	pal := r.boardPalette()
	var size int
	cpu := startCPU()
	for b.Loop() {
		out, err := encodePaletted(pal, img, boardLevel)
		if err != nil {
			b.Fatal(err)
		}
		size = len(out)
	}
	cpu.report(b)
	b.ReportMetric(float64(size), "bytes")
}

// BenchmarkEncodeRGBA: the former path's encoding alone: the drawn board
// in RGBA with png.BestSpeed (the yardstick of issue 28's goals).
func BenchmarkEncodeRGBA(b *testing.B) {
	r, v, prev := benchState(b)
	img, err := r.DrawBoard(&v, prev, DefaultCaption(&v))
	if err != nil {
		b.Fatal(err)
	}
	benchRGBA(b, img)
}

// onePNGBuffer keeps one png.EncoderBuffer between encodes, as the
// renderer did before paletted pictures.
type onePNGBuffer struct{ b *png.EncoderBuffer }

func (p *onePNGBuffer) Get() *png.EncoderBuffer  { return p.b }
func (p *onePNGBuffer) Put(b *png.EncoderBuffer) { p.b = b }

func benchRGBA(b *testing.B, img *image.RGBA) {
	enc := png.Encoder{CompressionLevel: png.BestSpeed, BufferPool: &onePNGBuffer{}}
	var buf bytes.Buffer
	cpu := startCPU()
	for b.Loop() {
		buf.Reset()
		if err := enc.Encode(&buf, img); err != nil {
			b.Fatal(err)
		}
	}
	cpu.report(b)
	b.ReportMetric(float64(buf.Len()), "bytes")
}

// BenchmarkDrawOnly: the drawing part alone (into a pooled canvas).
func BenchmarkDrawOnly(b *testing.B) {
	r, v, prev := benchState(b)
	caption := DefaultCaption(&v)
	cpu := startCPU()
	for b.Loop() {
		c := r.getCanvas()
		if err := r.drawBoardOn(c, &v, prev, caption); err != nil {
			b.Fatal(err)
		}
		r.putCanvas(c)
	}
	cpu.report(b)
}

func BenchmarkRenderHand(b *testing.B) {
	r := testRenderer(b)
	r.cardPalette()
	benchRenderHand(b, r, handView(engine.Commune, 2, []int8{11, 18, 35}, []int8{9}, nil, 48, true), nil)
}

// benchRenderHand times r.RenderHand(v), calling before (if not nil)
// ahead of each, and reports the CPU time and the picture's size.
func benchRenderHand(b *testing.B, r *Renderer, v *engine.View, before func()) {
	var size int
	cpu := startCPU()
	for b.Loop() {
		if before != nil {
			before()
		}
		out, err := r.RenderHand(v)
		if err != nil {
			b.Fatal(err)
		}
		size = len(out)
	}
	cpu.report(b)
	b.ReportMetric(float64(size), "bytes")
}

// BenchmarkRenderHandDeal: a player's hand at a deal (seven cards and the
// objectives offered), its frame drawn (the first hand of its kind) or
// kept (every other player dealt the same number of cards: issue 30).
func BenchmarkRenderHandDeal(b *testing.B) {
	for _, kept := range []bool{false, true} {
		name := map[bool]string{false: "frame-drawn", true: "frame-kept"}[kept]
		b.Run(name, func(b *testing.B) {
			r := testRenderer(b)
			v := handView(engine.Versailles, 1, []int8{2, 7, 13, 22, 29, 33, 40}, nil, []int8{42, 51}, 0, true)
			if _, err := r.RenderHand(v); err != nil { // the palette and the cards
				b.Fatal(err)
			}
			var forget func()
			if !kept {
				forget = func() { r.frames = frameCache{} }
			}
			benchRenderHand(b, r, v, forget)
		})
	}
}

// BenchmarkEncodeHandRGBA: the same hand in RGBA with png.BestSpeed.
func BenchmarkEncodeHandRGBA(b *testing.B) {
	r := testRenderer(b)
	img, err := r.DrawHand(handView(engine.Commune, 2, []int8{11, 18, 35}, []int8{9}, nil, 48, true))
	if err != nil {
		b.Fatal(err)
	}
	benchRGBA(b, img)
}

// cpuClock measures the CPU time of the process.
type cpuClock struct{ start time.Duration }

func startCPU() cpuClock { return cpuClock{processCPU()} }

func (c cpuClock) report(b *testing.B) {
	if b.N > 0 {
		b.ReportMetric(float64(processCPU()-c.start)/float64(time.Millisecond)/float64(b.N), "cpu-ms/op")
	}
}

// The embedded Go fonts cover French and Russian (and all of Latin-1,
// Latin Extended-A and basic Cyrillic), so no system font is ever needed.
func TestFontsCoverFrenchAndRussian(t *testing.T) {
	r := testRenderer(t)
	for _, f := range []*truetype.Font{r.fonts.regular, r.fonts.bold} {
		for _, s := range []string{"Père Lachaise Château de Vincennes Mont-Valérien Élan révolutionnaire ŒœÇç",
			"Красное знамя над Парижем · Пер-Лашез · Венсенский замок · ЁёЙй", "−×·…←→►◄"} {
			for _, c := range s {
				if c != ' ' {
					assert.NotZero(t, f.Index(c), "no glyph for %q", c)
				}
			}
		}
		for c := rune(0x400); c <= 0x45F; c++ {
			assert.NotZero(t, f.Index(c), "no glyph for %q", c)
		}
	}
}

// docs/terms.md: a server set to French or Russian sees the words of its
// edition's rulebook on the board and the cards, and the cards in its
// language (issue 13).
func TestBoardUsesTheEditionsTerms(t *testing.T) {
	en := testRenderer(t)
	fr, err := NewFor(engine.DefaultDeck(), glossary.French)
	require.NoError(t, err)
	ru, err := NewFor(engine.DefaultDeck(), glossary.Russian)
	require.NoError(t, err)
	assert.Equal(t, glossary.French, fr.Lang())

	g, err := engine.New(engine.Options{Seed: 1, BotSide: engine.NoSide})
	require.NoError(t, err)
	v := g.ViewFor(engine.NoSide)
	draw := func(r *Renderer) *image.RGBA {
		img, err := r.DrawBoard(&v, nil, "")
		require.NoError(t, err)
		return cloneRGBA(img)
	}
	a, b, c := draw(en), draw(fr), draw(ru)
	press, mv := SpaceRect(engine.Press), SpaceRect(engine.MontValerien)
	assert.True(t, regionDiffers(a, b, press), "Press is Presse in French")
	// The name bar only: the banner below reads "aucun contrôle" in French.
	mvName := image.Rect(mv.Min.X, mv.Min.Y, mv.Max.X, mv.Min.Y+40)
	assert.False(t, regionDiffers(a, b, mvName), "Mont-Valérien is the same word in French")
	assert.True(t, regionDiffers(a, c, mv), "Mont-Valérien is Мон-Валерьен in Russian")

	// #42 Paris Cannons: its name is the catalogue's translation (issue 13:
	// cards in the player's language), not a swap of the space name inside.
	card := func(r *Renderer) *image.RGBA {
		img, err := r.cardImage(42, nil)
		require.NoError(t, err)
		return img.image()
	}
	name := image.Rect(10, 50, CardWidth-60, 105)
	assert.True(t, regionDiffers(card(en), card(ru), name), "the card's name is translated")
	assert.Equal(t, "Пушки Парижа", ru.pr.CardTitle(nil, 42))
	assert.True(t, regionDiffers(card(en), card(ru), card(en).Rect), "its text and labels are")
}

// Rendering never fails in any edition's terms (longer words must fit).
func TestRenderEveryStateInEachEdition(t *testing.T) {
	for _, lang := range []glossary.Lang{glossary.French, glossary.Russian} {
		r, err := NewFor(engine.DefaultDeck(), lang)
		require.NoError(t, err)
		g, err := engine.New(engine.Options{Seed: 21, BotSide: engine.NoSide})
		require.NoError(t, err)
		rng := rand.New(rand.NewPCG(21, 0))
		var prev *engine.View
		for n := 0; ; n++ {
			v := g.ViewFor(engine.NoSide)
			_, err := r.DrawBoard(&v, prev, DefaultCaption(&v))
			require.NoError(t, err, "%s: decision %d", lang, n)
			for _, s := range sides {
				hv := g.ViewFor(s)
				if _, err := r.DrawHand(&hv); !errors.Is(err, ErrEmptyHand) {
					require.NoError(t, err, "%s: decision %d: %s hand", lang, n, s)
				}
			}
			prev = &v
			m, ok := g.RandomMove(rng)
			if !ok {
				break
			}
			require.NoError(t, g.ApplyMove(m))
		}
	}
}

// TestRenderHandReusesCanvasesWithoutLeftovers: RenderHand draws on
// reused pixel and index buffers; a hand drawn after a larger or a smaller
// one is the same picture as DrawHand's fresh image (quantized: the PNG is
// paletted), pixel for pixel.
func TestRenderHandReusesCanvasesWithoutLeftovers(t *testing.T) {
	r, err := New(engine.DefaultDeck()) // a renderer of its own: empty free lists
	require.NoError(t, err)
	big := handView(engine.Commune, 2, []int8{11, 18, 35}, []int8{9}, nil, 48, true)
	small := handView(engine.Commune, 4, []int8{18, 35}, nil, nil, 0, false)
	deal := handView(engine.Versailles, 1, []int8{2, 13, 29, 40}, nil, []int8{42, 51}, 0, true)
	for k, v := range []*engine.View{big, small, deal, small, big} {
		got, err := r.RenderHand(v)
		require.NoError(t, err)
		decoded, err := png.Decode(bytes.NewReader(got))
		require.NoError(t, err)
		want, err := r.DrawHand(v)
		require.NoError(t, err)
		require.Equal(t, want.Bounds(), decoded.Bounds(), "hand %d", k)
		pm, ok := decoded.(*image.Paletted)
		require.True(t, ok, "hand %d: a paletted PNG", k)
		idx := make([]uint8, len(pm.Pix))
		r.cardPalette().quantize(idx, want)
		require.True(t, bytes.Equal(idx, pm.Pix), "hand %d differs from a fresh drawing", k)
	}
}

// TestPackedCardDrawsLikeDrawOver: a card in the cache's packed form is
// the same picture, and drawn over anything it gives exactly what
// draw.Over gives with the RGBA picture (the rounded corners blend).
func TestPackedCardDrawsLikeDrawOver(t *testing.T) {
	r := testRenderer(t)
	for _, n := range []int{1, 17, 42, 53} {
		img := image.NewRGBA(image.Rect(0, 0, CardWidth, CardHeight))
		fs := r.faces.take()
		drawCard(r.painter(img, fs), r.deck.Card(n), image.Point{})
		r.faces.give(fs)
		p := pack(img)
		require.NotNil(t, p, "card %d", n)
		assert.Equal(t, img.Pix, p.rgba().Pix, "card %d unpacks to itself", n)
		for _, at := range []image.Point{{0, 0}, {37, 11}, {-20, 300}} {
			bg := image.NewRGBA(image.Rect(0, 0, CardWidth+60, CardHeight+40))
			for i := range bg.Pix {
				bg.Pix[i] = uint8(i*7 + i/13)
			}
			want := image.NewRGBA(bg.Rect)
			copy(want.Pix, bg.Pix)
			draw.Draw(want, image.Rect(at.X, at.Y, at.X+CardWidth, at.Y+CardHeight), img, image.Point{}, draw.Over)
			p.drawOver(bg, at)
			require.True(t, bytes.Equal(want.Pix, bg.Pix), "card %d at %v", n, at)
		}
	}
}

// BenchmarkQuantizeBoard: the drawn board to board-palette indices.
func BenchmarkQuantizeBoard(b *testing.B) {
	r, v, prev := benchState(b)
	img, err := r.DrawBoard(&v, prev, DefaultCaption(&v))
	if err != nil {
		b.Fatal(err)
	}
	pal := r.boardPalette()
	idx := make([]uint8, img.Rect.Dx()*img.Rect.Dy())
	cpu := startCPU()
	for b.Loop() {
		pal.quantize(idx, img)
	}
	cpu.report(b)
}

// RenderHand writes the cards' palette indices without drawing them in
// RGBA: the picture is exactly the quantized DrawHand, index for index.
func TestRenderHandIsTheQuantizedDrawHand(t *testing.T) {
	for _, l := range []glossary.Lang{glossary.English, glossary.Russian} {
		r := editionRenderer(t, l)
		for _, v := range sampleHands() {
			b, err := r.RenderHand(v)
			require.NoError(t, err)
			requireQuantizedDrawHand(t, r, v, b, "%s %s round %d", l, v.Viewer, v.Round)
		}
	}
}

// requireQuantizedDrawHand checks that the PNG b is, index for index, r's
// DrawHand of v quantized to the card palette.
func requireQuantizedDrawHand(t *testing.T, r *Renderer, v *engine.View, b []byte, msg ...any) {
	t.Helper()
	m, err := png.Decode(bytes.NewReader(b))
	require.NoError(t, err)
	got, ok := m.(*image.Paletted)
	require.True(t, ok, "a paletted PNG")
	img, err := r.DrawHand(v)
	require.NoError(t, err)
	want := make([]uint8, img.Rect.Dx()*img.Rect.Dy())
	r.cardPalette().quantize(want, img)
	require.Equal(t, img.Rect.Dx(), got.Stride)
	require.Equal(t, want, got.Pix, msg...)
}
