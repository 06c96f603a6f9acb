package render

import (
	"bytes"
	"encoding/binary"
	"image/color"
	"math/rand/v2"
	"testing"

	"github.com/klauspost/compress/zlib"
	"github.com/stretchr/testify/require"
)

// TestZlibStreamIsKlauspostZlibs: the zlib stream encodePNG frames around
// the deflate data (its head, its Adler-32 checksum) is byte for byte the
// one klauspost's zlib writer gives for the same rows, at the levels the
// renderer uses and the others (RFC 1950, section 2.2).
func TestZlibStreamIsKlauspostZlibs(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	const w, h = 301, 257
	pix := make([]uint8, w*h)
	for i := range pix {
		if rng.IntN(4) == 0 { // runs, as in a picture, and noise
			pix[i] = uint8(rng.IntN(40))
		} else if i > 0 {
			pix[i] = pix[i-1]
		}
	}
	pal := &palette{used: 1, colours: make([]color.RGBA, 1)}
	for level := 0; level <= 9; level++ {
		got, err := encodePNG(pal, w, h, level, func(y int, out []uint8) { copy(out, pix[y*w:(y+1)*w]) })
		require.NoError(t, err)

		var raw, want bytes.Buffer
		for y := 0; y < h; y++ {
			raw.WriteByte(0)
			raw.Write(pix[y*w : (y+1)*w])
		}
		z, err := zlib.NewWriterLevel(&want, level)
		require.NoError(t, err)
		_, err = z.Write(raw.Bytes())
		require.NoError(t, err)
		require.NoError(t, z.Close())
		require.Equal(t, want.Bytes(), idat(t, got), "level %d", level)
	}
}

// idat returns the data of a PNG's IDAT chunk (encodePNG writes one).
func idat(t *testing.T, png []byte) []byte {
	p := png[8:]
	for len(p) >= 12 {
		n := binary.BigEndian.Uint32(p)
		if string(p[4:8]) == "IDAT" {
			return p[8 : 8+n]
		}
		p = p[12+n:]
	}
	t.Fatal("no IDAT chunk")
	return nil
}
