package render

import (
	"image"
	"image/color"
)

// packedImage is a picture with few colours in two bytes a pixel: an
// index into its own palette of RGBA (premultiplied) colours. A card
// picture has about a thousand colours (anti-aliased text over a few
// fills), so the card cache holds the 53 cards in about 15 MiB instead of
// 31 MiB of RGBA, which also keeps the garbage collector's heap target
// (twice what is live) lower.
type packedImage struct {
	rect image.Rectangle
	idx  []uint16
	pal  [][4]uint8
}

// pack returns img packed, or nil if it has more colours than an index
// holds.
func pack(img *image.RGBA) *packedImage {
	w, h := img.Rect.Dx(), img.Rect.Dy()
	p := &packedImage{rect: img.Rect, idx: make([]uint16, w*h)}
	at := map[[4]uint8]uint16{}
	for y := 0; y < h; y++ {
		row := img.Pix[y*img.Stride : y*img.Stride+4*w]
		for x := 0; x < w; x++ {
			c := [4]uint8(row[4*x : 4*x+4])
			k, ok := at[c]
			if !ok {
				if len(p.pal) > 0xFFFF {
					return nil
				}
				k = uint16(len(p.pal))
				at[c] = k
				p.pal = append(p.pal, c)
			}
			p.idx[y*w+x] = k
		}
	}
	return p
}

// drawOver draws p over dst with its top-left corner at o, exactly as
// draw.Draw(dst, r, rgba, rgba.Rect.Min, draw.Over) draws the RGBA picture
// p was packed from (same arithmetic), clipped to dst.
func (p *packedImage) drawOver(dst *image.RGBA, o image.Point) {
	w, h := p.rect.Dx(), p.rect.Dy()
	r := image.Rect(o.X, o.Y, o.X+w, o.Y+h).Intersect(dst.Rect)
	for y := r.Min.Y; y < r.Max.Y; y++ {
		src := p.idx[(y-o.Y)*w+(r.Min.X-o.X) : (y-o.Y)*w+(r.Max.X-o.X)]
		d0 := dst.PixOffset(r.Min.X, y)
		dpix := dst.Pix[d0 : d0+4*len(src)]
		for i, k := range src {
			if s := p.pal[k]; s[3] == 0xFF { // most pixels: kept inline
				copy(dpix[4*i:4*i+4], s[:])
			} else {
				overPixel(dpix[4*i:4*i+4:4*i+4], s)
			}
		}
	}
}

// overPixel draws the premultiplied colour s over the pixel d with
// draw.Over's arithmetic.
func overPixel(d []uint8, s [4]uint8) {
	const m = 1<<16 - 1
	switch s[3] {
	case 0xFF:
		copy(d, s[:])
	case 0:
		// Nothing to draw: draw.Over leaves the pixel as it is.
	default:
		sr, sg, sb, sa := uint32(s[0])*0x101, uint32(s[1])*0x101, uint32(s[2])*0x101, uint32(s[3])*0x101
		a := (m - sa) * 0x101
		d[0] = uint8((uint32(d[0])*a/m + sr) >> 8)
		d[1] = uint8((uint32(d[1])*a/m + sg) >> 8)
		d[2] = uint8((uint32(d[2])*a/m + sb) >> 8)
		d[3] = uint8((uint32(d[3])*a/m + sa) >> 8)
	}
}

// writeIndices writes into idx (a picture w pixels wide, in pal's
// indices) the indices of p drawn over the flat colour under with its
// top-left corner at o: each of p's colours is drawn over under and looked
// up once, so the indices are those of quantizing p drawn over under.
// Clipped to the picture.
func (p *packedImage) writeIndices(idx []uint8, w int, o image.Point, pal *palette, under color.RGBA) {
	m := p.indexMap(pal, under)
	pw, ph := p.rect.Dx(), p.rect.Dy()
	r := image.Rect(o.X, o.Y, o.X+pw, o.Y+ph).Intersect(image.Rect(0, 0, w, len(idx)/max(w, 1)))
	for y := r.Min.Y; y < r.Max.Y; y++ {
		src := p.idx[(y-o.Y)*pw+(r.Min.X-o.X) : (y-o.Y)*pw+(r.Max.X-o.X)]
		mapRow(idx[y*w+r.Min.X:y*w+r.Max.X], src, m)
	}
}

// indexMap maps each of p's colours, drawn over the flat colour under, to
// its index in pal.
func (p *packedImage) indexMap(pal *palette, under color.RGBA) []uint8 {
	m := make([]uint8, len(p.pal))
	for k, s := range p.pal {
		d := [4]uint8{under.R, under.G, under.B, under.A}
		overPixel(d[:], s)
		m[k] = pal.lut[lutCell(d[0], d[1], d[2])]
	}
	return m
}

// writeRow writes row y of p into out through m (indexMap), as much of
// it as out holds.
func (p *packedImage) writeRow(out []uint8, y int, m []uint8) {
	w := p.rect.Dx()
	n := min(w, len(out))
	mapRow(out[:n], p.idx[y*w:y*w+n], m)
}

// mapRow sets out[i] = m[src[i]]; out is as long as src.
func mapRow(out []uint8, src []uint16, m []uint8) {
	out = out[:len(src)]
	for i, k := range src {
		out[i] = m[k]
	}
}

// rgba unpacks p.
func (p *packedImage) rgba() *image.RGBA {
	img := image.NewRGBA(p.rect)
	for i, k := range p.idx {
		copy(img.Pix[4*i:4*i+4], p.pal[k][:])
	}
	return img
}
