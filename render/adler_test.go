package render

import (
	"hash/adler32"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestAdler32UpdateIsHashAdler32: the eight-bytes-at-a-time checksum is
// hash/adler32's on any length, from any running sum, over bytes that
// push every lane to its largest value (RFC 1950, section 2.2, ADLER32).
func TestAdler32UpdateIsHashAdler32(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{0, 1, 7, 8, 9, 15, 16, 17, 5552, 16383, 16384, 16385, 40000, 1 << 20} {
		for _, fill := range []string{"random", "0xFF", "zero"} {
			p := make([]byte, n)
			for i := range p {
				switch fill {
				case "random":
					p[i] = byte(rng.Uint32())
				case "0xFF":
					p[i] = 0xFF
				}
			}
			require.Equal(t, adler32.Checksum(p), adler32Update(1, p), "%d bytes, %s", n, fill)
			// Split at a random place: the running sum carries over.
			k := 0
			if n > 0 {
				k = rng.IntN(n)
			}
			d := adler32.New()
			d.Write(p)
			require.Equal(t, d.Sum32(), adler32Update(adler32Update(1, p[:k]), p[k:]), "%d bytes split at %d, %s", n, k, fill)
		}
	}
}

func BenchmarkAdler32(b *testing.B) {
	p := make([]byte, 1<<20)
	for i := range p {
		p[i] = byte(i * 7)
	}
	b.SetBytes(int64(len(p)))
	b.Run("hash-adler32", func(b *testing.B) {
		for b.Loop() {
			adler32.Checksum(p)
		}
	})
	b.Run("adler32Update", func(b *testing.B) {
		for b.Loop() {
			adler32Update(1, p)
		}
	})
}
