package render

import (
	"image"
	"image/color"
	"math/rand/v2"
	"testing"

	"github.com/fogleman/gg"
	"github.com/stretchr/testify/require"
)

// The fast rounded rectangle paints exactly the pixels of gg's whole
// shape, over a background that is not flat (so that a pixel painted
// twice, or blended where it should be replaced, would show).
func TestRoundRectFastPathIsExact(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	bg := image.NewRGBA(image.Rect(0, 0, 120, 90))
	for i := range bg.Pix {
		bg.Pix[i] = uint8(rng.IntN(256))
		if i%4 == 3 {
			bg.Pix[i] = 0xFF
		}
	}
	for _, tc := range []struct {
		r      image.Rectangle
		radius float64
		c      color.RGBA
	}{
		{image.Rect(10, 10, 110, 80), 16, colVersailles},
		{image.Rect(3, 7, 40, 30), 5, colInk},
		{image.Rect(20, 20, 44, 44), 12, colBadge},   // corners meet
		{image.Rect(0, 0, 120, 90), 9, colPanel},     // the whole picture
		{image.Rect(30, 40, 97, 61), 10, colChanged}, // odd sizes
		{image.Rect(30, 40, 97, 61), 6.5, colChanged},
		{image.Rect(30, 40, 97, 61), 8, color.RGBA{0x40, 0x20, 0x10, 0x80}}, // translucent: gg's path
	} {
		want := image.NewRGBA(bg.Rect)
		copy(want.Pix, bg.Pix)
		dc := gg.NewContextForRGBA(want)
		dc.DrawRoundedRectangle(float64(tc.r.Min.X), float64(tc.r.Min.Y), float64(tc.r.Dx()), float64(tc.r.Dy()), tc.radius)
		dc.SetColor(tc.c)
		dc.Fill()

		got := image.NewRGBA(bg.Rect)
		copy(got.Pix, bg.Pix)
		p := &painter{img: got, dc: gg.NewContextForRGBA(got)}
		p.roundRect(tc.r, tc.radius, tc.c)
		require.Equal(t, want.Pix, got.Pix, "%v radius %v", tc.r, tc.radius)
	}
}
