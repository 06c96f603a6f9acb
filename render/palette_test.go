package render

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rfop/rfop/engine"
	"github.com/rfop/rfop/glossary"
)

// The lookup table gives every cell the palette colour nearest its centre
// (what an exhaustive search finds), except a palette colour's own cell,
// which gives that colour: so each palette colour is reproduced exactly.
func TestPaletteLookupTableIsTheNearestColour(t *testing.T) {
	r := testRenderer(t)
	for name, p := range map[string]*palette{"board": r.boardPalette(), "cards": r.cardPalette()} {
		t.Run(name, func(t *testing.T) {
			cols := p.colours[:p.used]
			own := map[int]bool{}
			for i, c := range cols {
				cell := lutCell(c.R, c.G, c.B)
				require.False(t, own[cell], "two palette colours share cell %d", cell)
				own[cell] = true
				require.Equal(t, uint8(i), p.lut[cell], "colour %d %v", i, c)
			}
			const w = 1 << (8 - lutBits)
			for cell := range p.lut {
				if own[cell] {
					continue
				}
				// The cell's centre, doubled: integers.
				x := [3]int{}
				for k := range 3 {
					x[k] = 2*w*(cell>>(lutBits*(2-k))&(1<<lutBits-1)) + w - 1
				}
				d := func(c color.RGBA) int { return sq(x[0]-2*int(c.R)) + sq(x[1]-2*int(c.G)) + sq(x[2]-2*int(c.B)) }
				best := 1 << 30
				for _, c := range cols {
					best = min(best, d(c))
				}
				require.Less(t, int(p.lut[cell]), p.used, "cell %d", cell)
				require.Equal(t, best, d(cols[p.lut[cell]]), "cell %d maps to %v", cell, cols[p.lut[cell]])
			}
		})
	}
}

// Boards, hands and cards are 8-bit paletted PNGs whose palette is the
// picture kind's, decoded by image/png, exactly the drawn picture
// quantized.
func TestPalettedPNGDecodes(t *testing.T) {
	r := testRenderer(t)
	v, prev, _ := playTo(t, 1, 60)
	board, err := r.RenderBoard(&v, prev, r.Caption(&v))
	require.NoError(t, err)
	boardImg, err := r.DrawBoard(&v, prev, r.Caption(&v))
	require.NoError(t, err)
	hv := handView(engine.Commune, 2, []int8{11, 18, 35}, []int8{9}, nil, 48, true)
	hand, err := r.RenderHand(hv)
	require.NoError(t, err)
	handImg, err := r.DrawHand(hv)
	require.NoError(t, err)
	card, err := r.RenderCard(29)
	require.NoError(t, err)
	cardImg := cardOnBackground(t, r, 29)
	for _, tc := range []struct {
		name string
		b    []byte
		img  *image.RGBA
		pal  *palette
	}{
		{"board", board, boardImg, r.boardPalette()},
		{"hand", hand, handImg, r.cardPalette()},
		{"card", card, cardImg, r.cardPalette()},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg, err := png.DecodeConfig(bytes.NewReader(tc.b))
			require.NoError(t, err)
			assert.Equal(t, tc.img.Rect.Dx(), cfg.Width)
			assert.Equal(t, tc.img.Rect.Dy(), cfg.Height)
			m, err := png.Decode(bytes.NewReader(tc.b))
			require.NoError(t, err)
			pm, ok := m.(*image.Paletted)
			require.True(t, ok, "decoded as %T", m)
			require.Len(t, pm.Palette, tc.pal.used)
			for i, c := range pm.Palette {
				require.Equal(t, tc.pal.colours[i], color.RGBAModel.Convert(c), "palette entry %d", i)
			}
			want := make([]uint8, len(pm.Pix))
			tc.pal.quantize(want, tc.img)
			require.Equal(t, want, pm.Pix)
		})
	}
}

// cardOnBackground is card n as RenderCard draws it, in RGBA.
func cardOnBackground(t testing.TB, r *Renderer, n int) *image.RGBA {
	ci, err := r.cardImage(n, nil)
	require.NoError(t, err)
	img := image.NewRGBA(image.Rect(0, 0, CardWidth, CardHeight))
	fill(img, colBackground)
	ci.drawOver(img, image.Point{})
	return img
}

// The paletted pictures look as the RGBA drawings do, in every edition.
// A pixel whose colour is in the palette (fills, lines, the core of every
// glyph: 93-96% of a picture) keeps it exactly. The others are
// anti-aliased edges; they move to the nearest palette colour. Measured
// on these pictures: at least 99.9% of pixels within 12 levels on every
// channel, none beyond 29, a mean error under 0.35 level. The bounds
// leave room for other positions and words, and stay well below what
// shows: 12 levels (5%) on an edge pixel is not visible at any scale, 48
// is where the golden tests call a pixel different, and a mean of one
// level would already be a tint.
func TestPalettedPicturesStayCloseToRGBA(t *testing.T) {
	type pic struct {
		name string
		b    []byte
		img  *image.RGBA
		pal  *palette
	}
	for _, l := range []glossary.Lang{glossary.English, glossary.French, glossary.Russian} {
		r := editionRenderer(t, l)
		var pics []pic
		for _, at := range []struct {
			seed  int64
			after int
		}{{1, 0}, {1, 60}, {3, 60}, {3, 10000}} {
			v, prev, _ := playTo(t, at.seed, at.after)
			b, err := r.RenderBoard(&v, prev, r.Caption(&v))
			require.NoError(t, err)
			img, err := r.DrawBoard(&v, prev, r.Caption(&v))
			require.NoError(t, err)
			pics = append(pics, pic{"board", b, img, r.boardPalette()})
		}
		for _, v := range sampleHands() {
			b, err := r.RenderHand(v)
			require.NoError(t, err)
			img, err := r.DrawHand(v)
			require.NoError(t, err)
			pics = append(pics, pic{"hand", b, img, r.cardPalette()})
		}
		for _, n := range []int{1, 17, 29, 44} {
			b, err := r.RenderCard(n)
			require.NoError(t, err)
			pics = append(pics, pic{"card", b, cardOnBackground(t, r, n), r.cardPalette()})
		}
		for k, p := range pics {
			m, err := png.Decode(bytes.NewReader(p.b))
			require.NoError(t, err)
			got := toRGBA(m)
			n, near, sum, worst := 0, 0, 0, 0
			for i := 0; i+3 < len(p.img.Pix); i += 4 {
				c := color.RGBA{p.img.Pix[i], p.img.Pix[i+1], p.img.Pix[i+2], p.img.Pix[i+3]}
				if c.A != 0xFF {
					t.Fatalf("%s %s %d: pixel %d is not opaque", l, p.name, k, i/4)
				}
				d := 0
				for ch := 0; ch < 3; ch++ {
					x := int(p.img.Pix[i+ch]) - int(got.Pix[i+ch])
					x = max(x, -x)
					d = max(d, x)
					sum += x
				}
				// A palette colour is the one its own cell gives.
				if d != 0 && p.pal.colours[p.pal.lut[lutCell(c.R, c.G, c.B)]] == c {
					t.Fatalf("%s %s %d: palette colour %v changed at pixel %d", l, p.name, k, c, i/4)
				}
				n++
				if d <= 12 {
					near++
				}
				worst = max(worst, d)
			}
			mean := float64(sum) / float64(3*n)
			assert.GreaterOrEqual(t, float64(near)/float64(n), 0.995, "%s %s %d: pixels within 12 levels", l, p.name, k)
			assert.LessOrEqual(t, worst, 40, "%s %s %d: largest difference", l, p.name, k)
			assert.LessOrEqual(t, mean, 0.5, "%s %s %d: mean difference", l, p.name, k)
		}
	}
}

// Every picture in the size its kind must keep (issue 28: a board within
// 130 KB, a hand within 80 KB), in every edition: the largest positions
// of the golden tests and a seven-card round-1 hand.
func TestPalettedPicturesAreSmall(t *testing.T) {
	for _, l := range []glossary.Lang{glossary.English, glossary.French, glossary.Russian} {
		r := editionRenderer(t, l)
		for _, at := range []struct {
			seed  int64
			after int
		}{{1, 60}, {3, 60}, {3, 10000}} {
			v, prev, _ := playTo(t, at.seed, at.after)
			b, err := r.RenderBoard(&v, prev, r.Caption(&v))
			require.NoError(t, err)
			assert.LessOrEqual(t, len(b), 130<<10, "%s board seed %d after %d", l, at.seed, at.after)
		}
		for _, v := range sampleHands() {
			b, err := r.RenderHand(v)
			require.NoError(t, err)
			assert.LessOrEqual(t, len(b), 80<<10, "%s hand of %s in round %d", l, v.Viewer, v.Round)
		}
	}
}

// addImage counts runs of one colour at once: the counts are those of
// counting every step-th pixel one by one, on a drawn board (runs, edges)
// and on pictures whose width is not a multiple of the step.
func TestColourCountsAreThePixelCounts(t *testing.T) {
	t.Parallel()
	r := testRenderer(t)
	v, prev, _ := playTo(t, 1, 60)
	board, err := r.DrawBoard(&v, prev, DefaultCaption(&v))
	require.NoError(t, err)
	odd := image.NewRGBA(image.Rect(0, 0, 7, 5))
	for k := range odd.Pix {
		odd.Pix[k] = uint8(k / 9 * 40)
	}
	for _, img := range []*image.RGBA{board, odd, image.NewRGBA(image.Rect(0, 0, 0, 0))} {
		for _, step := range []int{1, 2, 3} {
			want := colourCounts{}
			for k := 0; k+3 < len(img.Pix); k += 4 * step {
				want[uint32(img.Pix[k])<<16|uint32(img.Pix[k+1])<<8|uint32(img.Pix[k+2])]++
			}
			got := colourCounts{}
			got.addImage(img, step)
			assert.Equal(t, want, got, "step %d, %v", step, img.Rect)
		}
	}
}

// BenchmarkBoardPalette and BenchmarkCardPalette build a fresh renderer's
// palettes (Renderer.Prepare's two halves): what a process's first board
// and first hand picture wait for (the bot starts them at its start).
func BenchmarkBoardPalette(b *testing.B) {
	cpu := startCPU()
	for b.Loop() {
		r, err := New(engine.DefaultDeck())
		if err != nil {
			b.Fatal(err)
		}
		r.boardPalette()
	}
	cpu.report(b)
}

func BenchmarkCardPalette(b *testing.B) {
	cpu := startCPU()
	for b.Loop() {
		r, err := New(engine.DefaultDeck())
		if err != nil {
			b.Fatal(err)
		}
		r.cardPalette()
	}
	cpu.report(b)
}
