package render

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/golang/freetype/truetype"
	"github.com/rfop/rfop/engine"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "regenerate the golden images (and their views) in testdata/")

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
			got, err := r.DrawBoard(&gv.View, gv.Prev, DefaultCaption(&gv.View))
			require.NoError(t, err)
			checkGolden(t, pngPath, got)
		})
	}
}

func TestGoldenHand(t *testing.T) {
	r := testRenderer(t)
	got, err := r.DrawHand([]int{11, 18, 35, 17}, []int{42, 48})
	require.NoError(t, err)
	checkGolden(t, filepath.Join("testdata", "hand.png"), got)
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
	if *update {
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

// ---- robustness ----

func TestRenderEveryReachableState(t *testing.T) {
	r := testRenderer(t)
	seeds := []int64{11, 12, 13, 14, 15}
	var mu sync.Mutex
	total := 0
	for _, seed := range seeds {
		t.Run(fmt.Sprint("seed", seed), func(t *testing.T) {
			t.Parallel()
			g, rng := newGame(t, seed)
			var prev *engine.View
			n := 0
			for {
				v := g.ViewFor(engine.NoSide)
				_, err := r.DrawBoard(&v, prev, DefaultCaption(&v))
				require.NoError(t, err, "seed %d decision %d", seed, n)
				if n%10 == 0 {
					for _, s := range sides {
						hv := g.ViewFor(s)
						var cards, objs []int
						for _, c := range hv.Hand {
							cards = append(cards, int(c))
						}
						for _, c := range hv.ObjOffer {
							objs = append(objs, int(c))
						}
						if len(cards)+len(objs) > 0 {
							_, err := r.DrawHand(cards, objs)
							require.NoError(t, err)
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
	t.Cleanup(func() { t.Logf("rendered %d states", total+len(seeds)) })
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
	_, err = r.RenderHand(nil, nil)
	assert.Error(t, err)
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
			if e.To != engine.NoSide && len(e.Text) > 12 {
				assert.NotContains(t, DefaultCaption(&pv), e.Text[:len(e.Text)-1])
			}
		}
	}
	start, _, _ := playTo(t, 1, 0)
	assert.Contains(t, DefaultCaption(&start), "Round 1")
	end, _, _ := playTo(t, 3, 10000)
	assert.Contains(t, DefaultCaption(&end), "Game over")
}

// ---- benchmarks ----

func benchState(b *testing.B) (*Renderer, engine.View, *engine.View) {
	r := testRenderer(b)
	v, prev, _ := playTo(b, 1, 60)
	return r, v, prev
}

// BenchmarkRenderBoard: copy the static layer, draw the state, encode.
func BenchmarkRenderBoard(b *testing.B) {
	r, v, prev := benchState(b)
	caption := DefaultCaption(&v)
	var size int
	for b.Loop() {
		out, err := r.RenderBoard(&v, prev, caption)
		if err != nil {
			b.Fatal(err)
		}
		size = len(out)
	}
	b.ReportMetric(float64(size), "bytes")
}

// BenchmarkEncodeOnly: encode the already-drawn board with the same encoder.
func BenchmarkEncodeOnly(b *testing.B) {
	r, v, prev := benchState(b)
	img, err := r.DrawBoard(&v, prev, DefaultCaption(&v))
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		var buf bytes.Buffer
		buf.Grow(256 << 10)
		if err := r.Encode(&buf, img); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDrawOnly: the drawing part alone (into a pooled canvas).
func BenchmarkDrawOnly(b *testing.B) {
	r, v, prev := benchState(b)
	caption := DefaultCaption(&v)
	for b.Loop() {
		c := r.getCanvas()
		if err := r.drawBoardOn(c, &v, prev, caption); err != nil {
			b.Fatal(err)
		}
		r.putCanvas(c)
	}
}

func BenchmarkRenderHand(b *testing.B) {
	r := testRenderer(b)
	for b.Loop() {
		if _, err := r.RenderHand([]int{11, 18, 35, 17}, []int{42, 48}); err != nil {
			b.Fatal(err)
		}
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
