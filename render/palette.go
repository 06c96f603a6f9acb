package render

import (
	"encoding/binary"
	"image"
	"image/color"
	"math/rand/v2"
	"sort"

	"github.com/rfop/rfop/engine"
)

// Paletted pictures.
//
// The pictures are flat art: a few dozen colours the renderer paints with,
// and the anti-aliased edges of text and shapes between them. Encoding
// 1.6 million RGBA pixels as a true-colour PNG was most of the cost of a
// board (the encoder tries five row filters on four bytes a pixel), and
// most of its bytes. So every picture is written as an 8-bit paletted PNG
// with a palette made for its kind (the board, or cards and hands): the
// renderer's own colours first, then the most frequent colours of sample
// pictures drawn at start (the anti-aliased edges), each a small distance
// from those taken. A pixel becomes the index of its nearest palette
// colour through a lookup table of 6 bits a channel (256 KiB), built once
// per palette. No dithering: the art is flat, and dithering would add
// noise to the flat areas and defeat the compression.
//
// Each palette colour owns its table cell (two colours of one cell are
// never both taken), so a pixel of a palette colour keeps its exact colour:
// fills, lines and the core of every glyph are unchanged; only edge pixels
// between palette colours move, by a few levels (TestPalettedPicturesStay
// CloseToRGBA bounds it). The replay GIF (anim.go) uses the board palette
// and its table too.

// lutBits is the precision of the lookup table, in bits a channel.
const lutBits = 6

// palette is an indexed colour table for one kind of picture with its
// lookup table. Read-only once built: safe for concurrent use.
type palette struct {
	// colours are the palette, opaque. The board palette has 256 entries
	// for the GIF: index transparentIndex is the GIF's transparent colour
	// and the last is unused; neither is ever looked up.
	colours []color.RGBA
	used    int           // colours[:used] are the looked-up colours
	png     color.Palette // colours[:used], for image.Paletted
	lut     []uint8       // 1<<(3*lutBits) cells: cell → index
}

// lutCell is the table cell of an opaque colour.
func lutCell(r, g, b uint8) int {
	const s = 8 - lutBits
	return int(r>>s)<<(2*lutBits) | int(g>>s)<<lutBits | int(b>>s)
}

// colourCounts counts colours (opaque RGB as 0xRRGGBB).
type colourCounts map[uint32]int

func (cc colourCounts) add(c color.RGBA, n int) {
	cc[uint32(c.R)<<16|uint32(c.G)<<8|uint32(c.B)] += n
}

// addImage counts every step-th pixel of img (opaque pictures). The art
// is flat, so the pixels counted come in long runs of one colour: a run is
// added to the map at once (the same counts, a fraction of the map
// operations; a fresh renderer counts millions of pixels for its
// palettes, and the first board of a process waits for them).
func (cc colourCounts) addImage(img *image.RGBA, step int) {
	pix := img.Pix
	run, n := uint32(0), 0
	for k := 0; k+3 < len(pix); k += 4 * step {
		c := uint32(pix[k])<<16 | uint32(pix[k+1])<<8 | uint32(pix[k+2])
		if c != run {
			if n > 0 {
				cc[run] += n
			}
			run, n = c, 0
		}
		n++
	}
	if n > 0 {
		cc[run] += n
	}
}

// newPalette takes the named colours, then the most frequent counted
// colours, each farther than a distance from those already taken (from far
// apart down to any distance: the spread first, then the detail) and in a
// table cell of its own, up to size colours; the table maps every cell to
// the colour nearest its centre, and a palette colour's own cell to it.
func newPalette(named []color.RGBA, counts colourCounts, size int) *palette {
	type kc struct {
		c uint32
		n int
	}
	all := make([]kc, 0, len(counts))
	for c, n := range counts {
		all = append(all, kc{c, n})
	}
	sort.Slice(all, func(i, j int) bool {
		if all[i].n != all[j].n {
			return all[i].n > all[j].n
		}
		return all[i].c < all[j].c
	})
	p := &palette{}
	owned := make([]bool, 1<<(3*lutBits))
	take := func(c color.RGBA) {
		c.A = 0xFF
		if cell := lutCell(c.R, c.G, c.B); !owned[cell] {
			owned[cell] = true
			p.colours = append(p.colours, c)
		}
	}
	for _, c := range named {
		take(c)
	}
	for _, minDist := range []int{300, 120, 40, 10, 0} {
		for _, e := range all {
			if len(p.colours) >= size {
				break
			}
			c := color.RGBA{uint8(e.c >> 16), uint8(e.c >> 8), uint8(e.c), 0xFF}
			if !owned[lutCell(c.R, c.G, c.B)] && p.distance(c) > minDist {
				take(c)
			}
		}
	}
	p.used = len(p.colours)
	p.png = make(color.Palette, p.used)
	for i, c := range p.colours {
		p.png[i] = c
	}
	p.buildLUT()
	return p
}

// distance is the squared RGB distance from c to the nearest colour taken.
func (p *palette) distance(c color.RGBA) int {
	best := 1 << 30
	for _, q := range p.colours {
		if d := sq(int(c.R)-int(q.R)) + sq(int(c.G)-int(q.G)) + sq(int(c.B)-int(q.B)); d < best {
			best = d
		}
	}
	return best
}

// nearest is the index of the palette colour closest to (r, g, b), by an
// exhaustive search (the lookup table is the fast way).
func (p *palette) nearest(r, g, b uint8) uint8 {
	best, bi := 1<<30, 0
	for k, q := range p.colours[:p.used] {
		if d := sq(int(r)-int(q.R)) + sq(int(g)-int(q.G)) + sq(int(b)-int(q.B)); d < best {
			best, bi = d, k
		}
	}
	return uint8(bi)
}

func sq(x int) int { return x * x }

// buildLUT fills the table with, for each cell, the colour nearest its
// centre (ties: the lower index), then gives each palette colour its own
// cell. An exhaustive search of 2^18 cells × 256 colours would take a
// tenth of a second; instead the cells are grouped in blocks of 8×8×8 and
// each block searches only the colours that can be nearest somewhere in
// it: those whose distance to the block is at most the smallest, over all
// colours, of the farthest distance to the block. Coordinates are doubled
// so that cell centres are integers.
func (p *palette) buildLUT() {
	const (
		cells  = 1 << lutBits // a channel's cells
		block  = 8            // cells a block side
		width  = 1 << (8 - lutBits)
		centre = width - 1 // doubled offset of a cell's centre in the cell
	)
	p.lut = make([]uint8, 1<<(3*lutBits))
	cols := p.colours[:p.used]
	type pt [3]int
	q := make([]pt, len(cols))
	for i, c := range cols {
		q[i] = pt{2 * int(c.R), 2 * int(c.G), 2 * int(c.B)}
	}
	cand := make([]int, 0, len(cols))
	for br := 0; br < cells; br += block {
		for bg := 0; bg < cells; bg += block {
			for bb := 0; bb < cells; bb += block {
				var lo, hi pt
				for k, b := range [3]int{br, bg, bb} {
					lo[k] = 2*width*b + centre
					hi[k] = lo[k] + 2*width*(block-1)
				}
				far := 1 << 30
				for _, c := range q {
					d := 0
					for k := range 3 {
						d += sq(max(c[k]-lo[k], hi[k]-c[k]))
					}
					far = min(far, d)
				}
				cand = cand[:0]
				for i, c := range q {
					d := 0
					for k := range 3 {
						d += sq(max(lo[k]-c[k], 0, c[k]-hi[k]))
					}
					if d <= far {
						cand = append(cand, i)
					}
				}
				for r := br; r < br+block; r++ {
					for g := bg; g < bg+block; g++ {
						for b := bb; b < bb+block; b++ {
							x := pt{2*width*r + centre, 2*width*g + centre, 2*width*b + centre}
							best, bi := 1<<30, 0
							for _, i := range cand {
								c := q[i]
								if d := sq(x[0]-c[0]) + sq(x[1]-c[1]) + sq(x[2]-c[2]); d < best {
									best, bi = d, i
								}
							}
							p.lut[r<<(2*lutBits)|g<<lutBits|b] = uint8(bi)
						}
					}
				}
			}
		}
	}
	for i, c := range cols {
		p.lut[lutCell(c.R, c.G, c.B)] = uint8(i)
	}
}

// quantize writes the palette index of each pixel of src (opaque) into
// dst, a buffer of src's width times its height.
func (p *palette) quantize(dst []uint8, src *image.RGBA) {
	w, h := src.Rect.Dx(), src.Rect.Dy()
	for y := 0; y < h; y++ {
		p.quantizeRow(dst[y*w:(y+1)*w], src.Pix[y*src.Stride:y*src.Stride+4*w])
	}
}

// quantizeRow maps the pixels of row to indices in out.
func (p *palette) quantizeRow(out []uint8, row []uint8) {
	const s = 8 - lutBits
	lut := p.lut
	last, li := ^binary.LittleEndian.Uint32(row), uint8(0) // the first pixel looks up
	for x := range out {
		v := binary.LittleEndian.Uint32(row[4*x:])
		if v != last { // runs of one colour are common
			// R, G and B are bytes 0-2: the top lutBits of each.
			li = lut[int(v>>s&(1<<lutBits-1))<<(2*lutBits)|int(v>>(8+s)&(1<<lutBits-1))<<lutBits|int(v>>(16+s)&(1<<lutBits-1))]
			last = v
		}
		out[x] = li
	}
}

// ---- the palettes of the pictures ----

// Prepare builds the palettes of the pictures now: otherwise the first
// board builds the board's (a few boards drawn, tens of milliseconds) and
// the first hand or card the cards' (every card drawn, a few hundred).
// Safe to call from any goroutine, any number of times.
func (r *Renderer) Prepare() {
	r.boardPalette()
	r.cardPalette()
}

// boardPalette builds the renderer's board palette once.
func (r *Renderer) boardPalette() *palette {
	r.boardPalOnce.Do(func() { r.boardPal = buildBoardPalette(r) })
	return r.boardPal
}

// cardPalette builds the palette of card and hand pictures once.
func (r *Renderer) cardPalette() *palette {
	r.cardPalOnce.Do(func() { r.cardPal = buildCardPalette(r) })
	return r.cardPal
}

// namedColours are the colours the renderer paints with.
func namedColours() []color.RGBA {
	cs := []color.RGBA{colBackground, colPanel, colPanelEdge, colInk, colInkSoft, colFaint, colWhite, colBody,
		colCaption, colLink, colNoCtrl, colChanged, colStar, colClosed, colVersailles, colVersaillesDark,
		colVersaillesLight, colCommune, colCommuneDark, colCommuneLight, colNeutral, colNeutralLight,
		colPoliticalVP, colMilitaryVP, colBadge}
	cs = append(cs, colDim[:]...)
	return append(cs, colDimDark[:]...)
}

// buildBoardPalette: the named colours, then the most frequent colours of
// the static art and of a few boards drawn from a fixed random game, with
// captions, in the renderer's language (pieces, highlights and the
// anti-aliased text), 254 colours; then the GIF's transparent colour.
func buildBoardPalette(r *Renderer) *palette {
	counts := colourCounts{}
	counts.addImage(r.static, 3) // every third pixel is plenty
	if g, err := engine.New(engine.Options{Seed: 20211871, BotSide: engine.NoSide}); err == nil {
		rng := rand.New(rand.NewPCG(1871, 3))
		var prev *engine.View
		draw := func() {
			v := g.ViewFor(engine.NoSide)
			c := r.getCanvas() // counted where drawn: DrawBoard's copy is not needed
			if err := r.drawBoardOn(c, &v, prev, r.Caption(&v)); err == nil {
				counts.addImage(c.img, 3)
			}
			r.putCanvas(c)
			prev = &v
		}
		for n := 0; n < 400; n++ {
			if n%100 == 40 || n == 399 {
				draw()
			}
			m, ok := g.RandomMove(rng)
			if !ok {
				draw()
				break
			}
			if g.ApplyMove(m) != nil {
				break
			}
		}
	}
	p := newPalette(namedColours(), counts, transparentIndex)
	for len(p.colours) < 256 {
		p.colours = append(p.colours, color.RGBA{0, 0, 0, 0xFF})
	}
	p.colours[transparentIndex] = color.RGBA{0xFF, 0x00, 0xFF, 0xFF}
	return p
}

// buildCardPalette: the named colours, then the most frequent colours of
// every card of the deck as it appears in pictures (on a panel, on a muted
// panel, on the background of /rfop card) and of hand pictures' titles and
// notes, in the renderer's language; 256 colours.
func buildCardPalette(r *Renderer) *palette {
	counts := colourCounts{}
	unders := []color.RGBA{colPanel, mixCol(colPanel, colBackground, 0.35), colBackground}
	for _, c := range r.deck.Cards() {
		pic, err := r.cardImageKept(c.Num, nil, false) // counted, not kept (cardImageKept)
		if err != nil {
			continue
		}
		if pic.packed == nil { // too many colours to pack: count its pixels
			for _, under := range unders {
				on := image.NewRGBA(pic.rgba.Rect)
				fill(on, under)
				drawOver(on, on.Rect, pic.rgba)
				counts.addImage(on, 2)
			}
			continue
		}
		// A packed card is counted by its colours: far fewer than pixels.
		n := make([]int, len(pic.packed.pal))
		for _, k := range pic.packed.idx {
			n[k]++
		}
		for _, under := range unders {
			px := [4]uint8{under.R, under.G, under.B, under.A}
			for k, s := range pic.packed.pal {
				if n[k] > 0 {
					d := px
					overPixel(d[:], s)
					counts.add(color.RGBA{d[0], d[1], d[2], 0xFF}, n[k])
				}
			}
		}
	}
	// The hands' own art: the head, panels, titles and notes of each kind
	// of section (the cards are counted above).
	for _, v := range sampleHands() {
		if img, err := r.DrawHand(v); err == nil {
			counts.addImage(img, 2)
		}
	}
	return newPalette(namedColours(), counts, 256)
}

// sampleHands are hand views with every kind of section, for each side.
func sampleHands() []*engine.View {
	hand := func(side engine.Side, round int8, cards, aside, offer []int8, obj int8, fc bool) *engine.View {
		v := &engine.View{Viewer: side, BotSide: engine.NoSide, Round: round, Hand: cards, SetAside: aside, ObjOffer: offer}
		v.Objective[side] = obj
		v.FCHeld[side] = fc
		return v
	}
	return []*engine.View{
		hand(engine.Versailles, 1, []int8{2, 13, 29, 40}, nil, []int8{42, 51}, 0, true),
		hand(engine.Commune, 2, []int8{11, 18, 35}, []int8{9}, nil, 48, true),
		hand(engine.Commune, 3, nil, []int8{3, 9, 21}, nil, 44, false),
		hand(engine.Versailles, 4, []int8{1, 5, 22, 34}, nil, nil, 0, false),
	}
}

// fill paints img with c.
func fill(img *image.RGBA, c color.RGBA) {
	px := []byte{c.R, c.G, c.B, c.A}
	if len(img.Pix) < 4 {
		return
	}
	copy(img.Pix, px)
	for n := 4; n < len(img.Pix); n *= 2 {
		copy(img.Pix[n:], img.Pix[:n])
	}
}

// ---- encoding ----

// encodePaletted encodes img (opaque) as an 8-bit paletted PNG with pal,
// quantizing each row as it is compressed at level (pngenc.go).
func encodePaletted(pal *palette, img *image.RGBA, level int) ([]byte, error) {
	w, h := img.Rect.Dx(), img.Rect.Dy()
	return encodePNG(pal, w, h, level, func(y int, out []uint8) {
		pal.quantizeRow(out, img.Pix[y*img.Stride:y*img.Stride+4*w])
	})
}

// encodeIndices encodes a w×h picture of pal's indices as a PNG.
func encodeIndices(pal *palette, idx []uint8, w, h, level int) ([]byte, error) {
	return encodePNG(pal, w, h, level, func(y int, out []uint8) { copy(out, idx[y*w:(y+1)*w]) })
}
