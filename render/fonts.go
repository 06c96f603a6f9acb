package render

import (
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"strings"

	"github.com/golang/freetype/truetype"
	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/math/fixed"
)

// The Go fonts (Bigelow & Holmes, BSD licence) are embedded in
// golang.org/x/image; they cover Latin-1/Latin Extended (Père, Château,
// Valérien), Greek and Cyrillic (WGL4), so French and Russian names render
// without any system font. They are parsed with github.com/golang/freetype
// (gg's own dependency): golang.org/x/image/font/opentype would need
// golang.org/x/text, which this module does not require.

// fonts holds the parsed fonts. A parsed *truetype.Font is read-only and
// safe for concurrent use; a font.Face made from it is NOT (it caches
// glyphs), so faces live in faceSets that one goroutine owns at a time.
type fonts struct {
	regular, bold *truetype.Font
}

func loadFonts() (*fonts, error) {
	r, err := truetype.Parse(goregular.TTF)
	if err != nil {
		return nil, fmt.Errorf("render: parse Go Regular: %w", err)
	}
	b, err := truetype.Parse(gobold.TTF)
	if err != nil {
		return nil, fmt.Errorf("render: parse Go Bold: %w", err)
	}
	return &fonts{regular: r, bold: b}, nil
}

type faceKey struct {
	bold bool
	size int
}

// face is a font.Face plus the metrics the layout code needs, and a cache
// of glyph advances: freetype loads and hints the glyph again at every
// GlyphAdvance, and measuring text (centring, fitting, wrapping) was the
// largest part of drawing a board.
type face struct {
	font.Face
	ascent, descent int // pixels
	capHeight       int // height of "H", for vertical centring
	advances        map[rune]advance
}

type advance struct {
	x  fixed.Int26_6
	ok bool
}

// GlyphAdvance is the font's, cached. A face belongs to one goroutine at a
// time (faceSet), so the cache needs no lock.
func (fc *face) GlyphAdvance(r rune) (fixed.Int26_6, bool) {
	if a, ok := fc.advances[r]; ok {
		return a.x, a.ok
	}
	x, ok := fc.Face.GlyphAdvance(r)
	if fc.advances == nil {
		fc.advances = map[rune]advance{}
	}
	fc.advances[r] = advance{x, ok}
	return x, ok
}

// faceSet is a private set of faces, created lazily. It must be used by one
// goroutine at a time: the Renderer hands them out from a sync.Pool.
type faceSet struct {
	f     *fonts
	faces map[faceKey]*face
}

func newFaceSet(f *fonts) *faceSet { return &faceSet{f: f, faces: map[faceKey]*face{}} }

func (fs *faceSet) get(bold bool, size int) *face {
	k := faceKey{bold, size}
	if fc, ok := fs.faces[k]; ok {
		return fc
	}
	tf := fs.f.regular
	if bold {
		tf = fs.f.bold
	}
	ff := truetype.NewFace(tf, &truetype.Options{Size: float64(size), Hinting: font.HintingFull})
	m := ff.Metrics()
	fc := &face{Face: ff, ascent: m.Ascent.Ceil(), descent: m.Descent.Ceil()}
	if b, _, ok := ff.GlyphBounds('H'); ok {
		fc.capHeight = (-b.Min.Y).Round()
	} else {
		fc.capHeight = size * 7 / 10
	}
	fs.faces[k] = fc
	return fc
}

func (fs *faceSet) reg(size int) *face  { return fs.get(false, size) }
func (fs *faceSet) bold(size int) *face { return fs.get(true, size) }

// facePool hands out faceSets. It keeps a bounded free list (rather than a
// sync.Pool, which the GC empties) so that faces keep their glyph caches.
type facePool struct {
	f    *fonts
	free chan *faceSet
}

func (p *facePool) take() *faceSet {
	select {
	case fs := <-p.free:
		return fs
	default:
		return newFaceSet(p.f)
	}
}

func (p *facePool) give(fs *faceSet) {
	select {
	case p.free <- fs:
	default: // enough spares; let this one go
	}
}

// ---- text drawing (font.Drawer: much faster than gg's per-glyph transform) ----

type align int8

const (
	left align = iota
	center
	right
)

func measure(fc *face, s string) int {
	return font.MeasureString(fc, s).Ceil()
}

// text draws s with its baseline at y; x is the left edge, centre or right
// edge according to a. It returns the drawn width.
func text(dst draw.Image, fc *face, s string, x, y int, c color.Color, a align) int {
	w := 0
	if a != left {
		w = measure(fc, s)
		if a == center {
			x -= w / 2
		} else {
			x -= w
		}
	}
	d := font.Drawer{Dst: dst, Src: image.NewUniform(c), Face: fc, Dot: fixed.P(x, y)}
	d.DrawString(s)
	if w == 0 {
		w = (d.Dot.X - fixed.I(x)).Ceil()
	}
	return w
}

// inkTop is how far the glyphs of s reach above the baseline (an accent
// on a capital reaches above the capital height); inkBottom how far they
// reach below it (descenders).
func inkTop(fc *face, s string) int {
	b, _ := font.BoundString(fc, s)
	return max(fc.capHeight, (-b.Min.Y).Ceil())
}

func inkBottom(fc *face, s string) int {
	b, _ := font.BoundString(fc, s)
	return max(0, b.Max.Y.Ceil())
}

// textMid draws s vertically centred (capital height) on cy.
func textMid(dst draw.Image, fc *face, s string, x, cy int, c color.Color, a align) int {
	return text(dst, fc, s, x, cy+fc.capHeight/2, c, a)
}

// ellipsize shortens s with "…" until it fits in w pixels.
func ellipsize(fc *face, s string, w int) string {
	if measure(fc, s) <= w {
		return s
	}
	r := []rune(s)
	cut := func(n int) string { return strings.TrimRight(string(r[:n]), " ·,;:") + "…" }
	// Binary search for the longest prefix that fits.
	lo, hi := 0, len(r)
	for lo < hi {
		m := (lo + hi + 1) / 2
		if measure(fc, cut(m)) <= w {
			lo = m
		} else {
			hi = m - 1
		}
	}
	if lo == 0 {
		return ""
	}
	return cut(lo)
}

// wrap splits s into lines no wider than w pixels (words longer than a line
// are split by runes).
func wrap(fc *face, s string, w int) []string {
	var lines []string
	for _, para := range strings.Split(s, "\n") {
		words := strings.Fields(para)
		if len(words) == 0 {
			lines = append(lines, "")
			continue
		}
		line := ""
		for _, word := range words {
			cand := word
			if line != "" {
				cand = line + " " + word
			}
			if measure(fc, cand) <= w {
				line = cand
				continue
			}
			if line != "" {
				lines = append(lines, line)
			}
			// A single word wider than the line: cut it.
			for measure(fc, word) > w {
				r := []rune(word)
				k := len(r) - 1
				for k > 1 && measure(fc, string(r[:k])) > w {
					k--
				}
				lines = append(lines, string(r[:k]))
				word = string(r[k:])
			}
			line = word
		}
		lines = append(lines, line)
	}
	return lines
}
