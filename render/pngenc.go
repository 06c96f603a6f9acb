package render

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"runtime"
	"sync"

	"github.com/klauspost/compress/flate"
)

// pngEncoder writes 8-bit paletted PNGs a row at a time: the chunks that
// image/png writes for an image.Paletted (IHDR, PLTE, IDAT, IEND), each
// row unfiltered (as image/png does for paletted images: filters rarely
// help them) and compressed as soon as it is quantized. Writing it here
// saves image/png's copies of the picture and of every row, and lets the
// compression be github.com/klauspost/compress's deflate, the Go field's
// standard fast deflate: at its best speed it compresses a board's indices
// in a little over half the time of compress/zlib's, a few per cent
// smaller. The zlib stream around the deflate data (RFC 1950: a two-byte
// head, the Adler-32 checksum after) is written here as klauspost's zlib
// writes it, byte for byte (TestZlibStreamIsKlauspostZlibs), with a faster
// checksum (adler32Update). The output decodes with image/png
// (TestPalettedPNGDecodes).
//
// Boards use the best speed (level 1). Hands and cards use level 4: a
// hand is mostly card text, which level 4 packs 7-8% smaller (the
// Russian round-1 hand of seven cards from 81 to 74 KB) for about a
// millisecond more; their indices are partly copied, not quantized
// (RenderHand), which pays for it.
const (
	boardLevel = flate.BestSpeed
	cardLevel  = 4
)

type pngEncoder struct {
	z   *flate.Writer
	buf bytes.Buffer // the zlib stream
	row []byte       // filter byte, then the row's indices
}

// pngEncoders reuses encoders by compression level (a deflate writer's
// state is costly to set up).
var pngEncoders [flate.BestCompression + 1]sync.Pool

// yieldRows is how many rows are encoded between two yields to the
// scheduler (one to two milliseconds of a board's encoding; a yield
// every 64 rows cost 5-10 % of a picture's time in rfop render --bench).
const yieldRows = 128

// encodePNG returns the PNG of a w×h picture whose palette indices row(y,
// out) writes into out, one row at a time, with palette pal, compressed
// at level (1-9).
func encodePNG(pal *palette, w, h, level int, row func(y int, out []uint8)) ([]byte, error) {
	pool := &pngEncoders[level]
	e, _ := pool.Get().(*pngEncoder)
	if e == nil {
		e = &pngEncoder{}
	}
	defer pool.Put(e)
	e.buf.Reset()
	e.buf.Write(zlibHead(level))
	if e.z == nil {
		z, err := flate.NewWriter(&e.buf, level)
		if err != nil {
			return nil, fmt.Errorf("render: encode PNG: %w", err)
		}
		e.z = z
	} else {
		e.z.Reset(&e.buf)
	}
	if cap(e.row) < w+1 {
		e.row = make([]byte, w+1)
	}
	line := e.row[:w+1]
	line[0] = 0 // filter type None
	sum := uint32(1)
	for y := 0; y < h; y++ {
		if y%yieldRows == yieldRows-1 {
			runtime.Gosched() // as painter.yield: about every millisecond
		}
		row(y, line[1:])
		sum = adler32Update(sum, line)
		if _, err := e.z.Write(line); err != nil {
			return nil, fmt.Errorf("render: encode PNG: %w", err)
		}
	}
	if err := e.z.Close(); err != nil {
		return nil, fmt.Errorf("render: encode PNG: %w", err)
	}
	e.buf.Write(binary.BigEndian.AppendUint32(nil, sum))

	n := pal.used
	size := 8 + (12 + 13) + (12 + 3*n) + (12 + e.buf.Len()) + 12
	out := make([]byte, 0, size)
	out = append(out, "\x89PNG\r\n\x1a\n"...)
	var ihdr [13]byte
	binary.BigEndian.PutUint32(ihdr[0:], uint32(w))
	binary.BigEndian.PutUint32(ihdr[4:], uint32(h))
	ihdr[8], ihdr[9] = 8, 3 // 8 bits a pixel, palette indices; deflate, adaptive filters, no interlace
	out = chunk(out, "IHDR", ihdr[:])
	plte := make([]byte, 0, 3*n)
	for _, c := range pal.colours[:n] {
		plte = append(plte, c.R, c.G, c.B)
	}
	out = chunk(out, "PLTE", plte)
	out = chunk(out, "IDAT", e.buf.Bytes())
	out = chunk(out, "IEND", nil)
	return out, nil
}

// chunk appends a PNG chunk: length, type, data and the CRC of type and data.
func chunk(out []byte, typ string, data []byte) []byte {
	out = binary.BigEndian.AppendUint32(out, uint32(len(data)))
	start := len(out)
	out = append(out, typ...)
	out = append(out, data...)
	return binary.BigEndian.AppendUint32(out, crc32.ChecksumIEEE(out[start:]))
}

// zlibHead is the two bytes that open a zlib stream of deflate data
// compressed at level (RFC 1950, section 2.2): deflate with a 32 KB window, the
// level's class as klauspost's zlib writer names it, and the check bits
// that make the pair a multiple of 31.
func zlibHead(level int) []byte {
	var class byte
	switch {
	case level == 6 || level == flate.DefaultCompression:
		class = 2
	case level <= 1:
		class = 0
	case level <= 5:
		class = 1
	default:
		class = 3
	}
	h := [2]byte{0x78, class << 6}
	h[1] += byte(31 - binary.BigEndian.Uint16(h[:])%31)
	return h[:]
}
