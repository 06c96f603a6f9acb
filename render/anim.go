package render

import (
	"bufio"
	"bytes"
	"compress/lzw"
	"encoding/binary"
	"errors"
	"fmt"
	"image"
	"image/color"
	"io"
	"math/rand/v2"
	"sort"
	"time"

	"github.com/rfop/rfop/engine"
	"github.com/rfop/rfop/replay"
)

// Animated replays (GIF89a, written frame by frame).
//
// image/gif's EncodeAll needs every frame in memory at once; a replay of
// a long game at 1600×1000 would hold hundreds of megabytes. Animation
// writes the GIF stream itself (header, one global colour table, then per
// frame a graphic control extension and an LZW-compressed image from
// compress/lzw, as image/gif does) and keeps only two frames of palette
// indices. Each frame after the first is cropped to the rectangle that
// changed since the previous one, and pixels unchanged inside it are
// transparent ("do not dispose" keeps the previous picture under them):
// most plays touch a few spaces, the caption and the tracks, so frames
// are small.
//
// The palette is built for the board (boardPalette): the renderer's own
// colours first, then the most frequent colours of boards actually drawn
// (the anti-aliased edges of text and shapes), at least a small distance
// apart, 254 in all; index 254 is the transparent one. No dithering: the
// art is flat, and dithering would defeat the compression.

// transparentIndex is the palette index of "unchanged since the last frame".
const transparentIndex = 254

// ErrTooLarge: the replay does not fit in the size limit even at half size.
var ErrTooLarge = errors.New("render: replay too large")

// Animation writes an animated GIF frame by frame. Make one with
// NewAnimation, Add frames, then Close.
type Animation struct {
	r          *Renderer
	w          *bufio.Writer
	half       bool
	width, hgt int
	pal        *boardPalette
	lut        []uint8 // 6 bits per channel -> palette index; 255: not yet known
	prev, cur  []uint8
	small      *image.RGBA // the half-size picture
	frames     int
	err        error
}

// NewAnimation starts a GIF on w: the full board (1600×1000) or, with
// half, 800×500.
func (r *Renderer) NewAnimation(w io.Writer, half bool) (*Animation, error) {
	a := &Animation{r: r, w: bufio.NewWriterSize(w, 64<<10), half: half, width: BoardWidth, hgt: BoardHeight}
	if half {
		a.width, a.hgt = BoardWidth/2, BoardHeight/2
		a.small = image.NewRGBA(image.Rect(0, 0, a.width, a.hgt))
	}
	a.pal = r.palette()
	a.lut = make([]uint8, 1<<18)
	for k := range a.lut {
		a.lut[k] = 255
	}
	a.prev = make([]uint8, a.width*a.hgt)
	a.cur = make([]uint8, a.width*a.hgt)
	a.header()
	return a, a.err
}

// Frames is the number of frames added so far.
func (a *Animation) Frames() int { return a.frames }

// Add draws the board for v (prev: the previous frame's view, to
// highlight what changed; caption on top) and appends it, shown for delay.
func (a *Animation) Add(v, prev *engine.View, caption string, delay time.Duration) error {
	if a.err != nil {
		return a.err
	}
	c := a.r.getCanvas()
	defer a.r.putCanvas(c)
	if err := a.r.drawBoardOn(c, v, prev, caption); err != nil {
		a.err = err
		return err
	}
	src := c.img
	if a.half {
		halve(a.small, src)
		src = a.small
	}
	a.quantize(src)
	a.writeFrame(delay)
	a.prev, a.cur = a.cur, a.prev
	a.frames++
	return a.err
}

// Close ends the GIF and flushes it.
func (a *Animation) Close() error {
	if a.err != nil {
		return a.err
	}
	a.w.WriteByte(0x3B) // trailer
	if err := a.w.Flush(); err != nil {
		a.err = fmt.Errorf("render: writing GIF: %w", err)
	}
	return a.err
}

func (a *Animation) header() {
	w := a.w
	w.WriteString("GIF89a")
	binary.Write(w, binary.LittleEndian, [2]uint16{uint16(a.width), uint16(a.hgt)})
	// Global colour table of 256 entries, colour resolution 8 bits.
	w.Write([]byte{0x80 | 0x70 | 0x07, 0, 0})
	var tab [256 * 3]byte
	for k, c := range a.pal.colours {
		tab[3*k], tab[3*k+1], tab[3*k+2] = c.R, c.G, c.B
	}
	w.Write(tab[:])
	// Loop forever (NETSCAPE2.0 application extension).
	w.Write([]byte{0x21, 0xFF, 0x0B})
	w.WriteString("NETSCAPE2.0")
	w.Write([]byte{0x03, 0x01, 0x00, 0x00, 0x00})
}

// quantize maps src to palette indices in a.cur.
func (a *Animation) quantize(src *image.RGBA) {
	pix, stride := src.Pix, src.Stride
	for y := 0; y < a.hgt; y++ {
		row := pix[y*stride : y*stride+4*a.width]
		out := a.cur[y*a.width : (y+1)*a.width]
		for x := range out {
			r, g, b := row[4*x], row[4*x+1], row[4*x+2]
			k := int(r>>2)<<12 | int(g>>2)<<6 | int(b>>2)
			i := a.lut[k]
			if i == 255 {
				i = a.pal.nearest(r, g, b)
				a.lut[k] = i
			}
			out[x] = i
		}
	}
}

// writeFrame writes the part of a.cur that differs from a.prev.
func (a *Animation) writeFrame(delay time.Duration) {
	x0, y0, x1, y1 := 0, 0, a.width, a.hgt
	if a.frames > 0 {
		x0, y0, x1, y1 = a.changed()
		if x1 <= x0 { // nothing changed: one transparent pixel carries the delay
			x0, y0, x1, y1 = 0, 0, 1, 1
		}
	}
	cs := int(delay / (10 * time.Millisecond))
	if cs > 0xFFFF {
		cs = 0xFFFF
	}
	w := a.w
	// Graphic control extension: do not dispose, transparent index, delay.
	w.Write([]byte{0x21, 0xF9, 0x04, 1<<2 | 1, byte(cs), byte(cs >> 8), transparentIndex, 0x00})
	w.WriteByte(0x2C)
	binary.Write(w, binary.LittleEndian, [4]uint16{uint16(x0), uint16(y0), uint16(x1 - x0), uint16(y1 - y0)})
	w.WriteByte(0x00) // no local colour table, not interlaced
	w.WriteByte(8)    // LZW minimum code size
	bw := &blockWriter{w: w}
	lz := lzw.NewWriter(bw, lzw.LSB, 8)
	row := make([]byte, x1-x0)
	for y := y0; y < y1; y++ {
		cur := a.cur[y*a.width+x0 : y*a.width+x1]
		if a.frames == 0 {
			copy(row, cur)
		} else {
			prev := a.prev[y*a.width+x0 : y*a.width+x1]
			for k := range row {
				if cur[k] == prev[k] {
					row[k] = transparentIndex
				} else {
					row[k] = cur[k]
				}
			}
		}
		if _, err := lz.Write(row); err != nil {
			a.err = fmt.Errorf("render: writing GIF: %w", err)
			return
		}
	}
	if err := lz.Close(); err != nil {
		a.err = fmt.Errorf("render: writing GIF: %w", err)
		return
	}
	bw.flush()
	w.WriteByte(0x00) // block terminator
	if bw.err != nil {
		a.err = fmt.Errorf("render: writing GIF: %w", bw.err)
	}
}

// changed is the bounding box of the pixels that differ from the last frame.
func (a *Animation) changed() (x0, y0, x1, y1 int) {
	x0, y0 = a.width, a.hgt
	for y := 0; y < a.hgt; y++ {
		cur := a.cur[y*a.width : (y+1)*a.width]
		prev := a.prev[y*a.width : (y+1)*a.width]
		if bytes.Equal(cur, prev) {
			continue
		}
		lo := 0
		for cur[lo] == prev[lo] {
			lo++
		}
		hi := a.width
		for cur[hi-1] == prev[hi-1] {
			hi--
		}
		x0, x1 = min(x0, lo), max(x1, hi)
		if y < y0 {
			y0 = y
		}
		y1 = y + 1
	}
	return
}

// blockWriter cuts the LZW stream into GIF sub-blocks of up to 255 bytes.
type blockWriter struct {
	w   *bufio.Writer
	buf [255]byte
	n   int
	err error
}

func (b *blockWriter) Write(p []byte) (int, error) {
	if b.err != nil {
		return 0, b.err
	}
	for _, c := range p {
		b.buf[b.n] = c
		b.n++
		if b.n == len(b.buf) {
			if b.flush(); b.err != nil {
				return 0, b.err
			}
		}
	}
	return len(p), b.err
}

func (b *blockWriter) flush() {
	if b.n == 0 || b.err != nil {
		return
	}
	b.w.WriteByte(byte(b.n))
	_, b.err = b.w.Write(b.buf[:b.n])
	b.n = 0
}

// halve box-filters src (BoardWidth×BoardHeight) into dst at half size.
func halve(dst, src *image.RGBA) {
	w, h := dst.Rect.Dx(), dst.Rect.Dy()
	for y := 0; y < h; y++ {
		r0 := src.Pix[2*y*src.Stride:]
		r1 := src.Pix[(2*y+1)*src.Stride:]
		out := dst.Pix[y*dst.Stride:]
		for x := 0; x < w; x++ {
			i := 8 * x
			for c := 0; c < 3; c++ {
				out[4*x+c] = uint8((int(r0[i+c]) + int(r0[i+4+c]) + int(r1[i+c]) + int(r1[i+4+c]) + 2) / 4)
			}
			out[4*x+3] = 0xFF
		}
	}
}

// ---- the board palette ----

type boardPalette struct {
	colours []color.RGBA // 256 entries; 254 is transparent, 255 unused
}

// palette builds the renderer's board palette once.
func (r *Renderer) palette() *boardPalette {
	r.palOnce.Do(func() { r.pal = buildPalette(r) })
	return r.pal
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

// buildPalette: the named colours, then the most frequent colours of a
// few boards drawn from a fixed random game (the static art, pieces,
// highlights and the anti-aliased text), each at least a small distance
// from those already taken, up to 254 colours.
func buildPalette(r *Renderer) *boardPalette {
	counts := map[color.RGBA]int{}
	count := func(img *image.RGBA) {
		for k := 0; k+3 < len(img.Pix); k += 4 * 3 { // every third pixel is plenty
			counts[color.RGBA{img.Pix[k], img.Pix[k+1], img.Pix[k+2], 0xFF}]++
		}
	}
	count(r.static)
	if g, err := engine.New(engine.Options{Seed: 20211871, BotSide: engine.NoSide}); err == nil {
		rng := rand.New(rand.NewPCG(1871, 3))
		var prev *engine.View
		for n := 0; n < 400; n++ {
			if n%100 == 40 || n == 399 {
				v := g.ViewFor(engine.NoSide)
				if img, err := r.DrawBoard(&v, prev, DefaultCaption(&v)); err == nil {
					count(img)
				}
				prev = &v
			}
			m, ok := g.RandomMove(rng)
			if !ok {
				v := g.ViewFor(engine.NoSide)
				if img, err := r.DrawBoard(&v, prev, DefaultCaption(&v)); err == nil {
					count(img)
				}
				break
			}
			if g.ApplyMove(m) != nil {
				break
			}
		}
	}
	type kc struct {
		c color.RGBA
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
		a, b := all[i].c, all[j].c
		return uint32(a.R)<<16|uint32(a.G)<<8|uint32(a.B) < uint32(b.R)<<16|uint32(b.G)<<8|uint32(b.B)
	})
	p := &boardPalette{}
	p.colours = append(p.colours, namedColours()...)
	for _, minDist := range []int{300, 120, 40, 10, 0} {
		for _, e := range all {
			if len(p.colours) == transparentIndex {
				break
			}
			if p.distance(e.c) > minDist {
				p.colours = append(p.colours, e.c)
			}
		}
	}
	for len(p.colours) < 256 {
		p.colours = append(p.colours, color.RGBA{0, 0, 0, 0xFF})
	}
	p.colours[transparentIndex] = color.RGBA{0xFF, 0x00, 0xFF, 0xFF}
	return p
}

// distance is the squared RGB distance from c to the nearest colour taken.
func (p *boardPalette) distance(c color.RGBA) int {
	best := 1 << 30
	for _, q := range p.colours {
		if d := sq(int(c.R)-int(q.R)) + sq(int(c.G)-int(q.G)) + sq(int(c.B)-int(q.B)); d < best {
			best = d
		}
	}
	return best
}

// nearest is the palette index closest to (r, g, b), never the transparent one.
func (p *boardPalette) nearest(r, g, b uint8) uint8 {
	best, bi := 1<<30, 0
	for k := 0; k < transparentIndex; k++ {
		q := p.colours[k]
		if d := sq(int(r)-int(q.R)) + sq(int(g)-int(q.G)) + sq(int(b)-int(q.B)); d < best {
			best, bi = d, k
		}
	}
	return uint8(bi)
}

func sq(x int) int { return x * x }

// ---- replays ----

// ReplayOptions tune ReplayGIF.
type ReplayOptions struct {
	// MaxBytes is the size limit (0: none). A replay that would exceed it
	// at full size is made at half size; ErrTooLarge if even that is too
	// big.
	MaxBytes int
	// Half makes it at half size from the start.
	Half bool
}

// DiscordLimit is Discord's attachment limit for a bot without boosts.
const DiscordLimit = 8 << 20

// ReplayInfo says what ReplayGIF made.
type ReplayInfo struct {
	replay.Summary
	Half  bool
	Bytes int
}

// ReplayGIF draws the replay of a game (its options and action log) as
// an animated GIF: one frame per play and per scoring (package replay),
// each captioned, with what changed since the previous frame highlighted.
// Pictures are made from the public view only.
func (r *Renderer) ReplayGIF(o engine.Options, moves []engine.Move, opt ReplayOptions) ([]byte, ReplayInfo, error) {
	total, err := replay.Count(o, moves)
	if err != nil {
		return nil, ReplayInfo{}, err
	}
	half := opt.Half
	for {
		b, info, err := r.replayAt(o, moves, half, opt.MaxBytes, total.Frames)
		if errors.Is(err, ErrTooLarge) && !half {
			half = true
			continue
		}
		return b, info, err
	}
}

// limitBuffer fails once more than max bytes are written.
type limitBuffer struct {
	bytes.Buffer
	max int
}

func (l *limitBuffer) Write(p []byte) (int, error) {
	if l.max > 0 && l.Len()+len(p) > l.max {
		return 0, ErrTooLarge
	}
	return l.Buffer.Write(p)
}

func (r *Renderer) replayAt(o engine.Options, moves []engine.Move, half bool, max, frames int) ([]byte, ReplayInfo, error) {
	out := &limitBuffer{max: max}
	a, err := r.NewAnimation(out, half)
	if err != nil {
		return nil, ReplayInfo{}, err
	}
	sum, err := replay.Walk(o, moves, func(f replay.Frame, prev *engine.View) error {
		if err := a.Add(&f.View, prev, r.replayCaption(f), f.Delay()); err != nil {
			return err
		}
		// After a dozen full-size frames, project the size: if the whole
		// replay would not fit, start again at half size now rather than
		// at the limit.
		if n := a.Frames(); max > 0 && !half && n == 12 && n < frames {
			a.w.Flush()
			if out.Len()/n*frames > max*9/10 {
				return ErrTooLarge
			}
		}
		return nil
	})
	if err == nil {
		err = a.Close()
	}
	if err != nil {
		if errors.Is(err, ErrTooLarge) {
			return nil, ReplayInfo{}, fmt.Errorf("%w: over %d bytes (half size: %v)", ErrTooLarge, max, half)
		}
		return nil, ReplayInfo{}, err
	}
	return out.Bytes(), ReplayInfo{Summary: sum, Half: half, Bytes: out.Len()}, nil
}
