package render

import "encoding/binary"

// adler32Update returns the Adler-32 checksum (RFC 1950) adler extended by
// p, as hash/adler32 computes it, sixteen bytes at a time (the last few
// one by one): the standard library's loop adds byte by byte, each sum
// waiting for the one before, and was a seventh of a hand picture's time
// (issue 30).
//
// For eight bytes b0..b7 after sums s1, s2: s1 grows by their sum and s2
// by 8·s1 plus 8·b0 + 7·b1 + … + 1·b7. Both sums are taken in one
// multiplication each, of the even and the odd bytes spread over four
// 16-bit lanes: a product's top lane is the lanes weighted by the
// constant's lanes in reverse order, and no lane's partial sum reaches
// 2^16 (at most 255·20), so none carries into the next.
func adler32Update(adler uint32, p []byte) uint32 {
	const (
		mod   = 65521
		chunk = 1 << 14 // bytes between two reductions: s2 stays far below 2^64
		lanes = 0x00FF00FF00FF00FF
	)
	s1, s2 := uint64(adler&0xFFFF), uint64(adler>>16)
	for len(p) >= 16 {
		n := min(len(p), chunk) &^ 15
		q := p[:n]
		p = p[n:]
		var before, weighted uint64 // Σ s1 before each word, Σ weighted bytes
		for ; len(q) > 0; q = q[16:] {
			x, y := binary.LittleEndian.Uint64(q), binary.LittleEndian.Uint64(q[8:16])
			xe, xo := x&lanes, (x>>8)&lanes
			ye, yo := y&lanes, (y>>8)&lanes
			sx := (xe + xo) * 0x0001000100010001 >> 48
			sy := (ye + yo) * 0x0001000100010001 >> 48
			before += 2*s1 + sx
			s1 += sx + sy
			weighted += (xe*0x0008000600040002 + xo*0x0007000500030001 + ye*0x0008000600040002 + yo*0x0007000500030001) >> 48
		}
		s2 += 8*before + weighted
		s1 %= mod
		s2 %= mod
	}
	for _, b := range p {
		s1 += uint64(b)
		s2 += s1
	}
	return uint32(s2%mod)<<16 | uint32(s1%mod)
}
