package render

import (
	"bufio"
	"bytes"
	"compress/lzw"
	"encoding/binary"
	"errors"
	"fmt"
	"image"
	"io"
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
// The palette is the board's (palette.go, the same as the board PNG's):
// the renderer's own colours first, then the most frequent colours of
// boards actually drawn (the anti-aliased edges of text and shapes), 254
// in all, mapped through its lookup table; index 254 is the transparent
// one. No dithering: the art is flat, and dithering would defeat the
// compression.

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
	pal        *palette
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
	a.pal = r.boardPalette()
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
	a.pal.quantize(a.cur, src)
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
