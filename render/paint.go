package render

import (
	"image"
	"image/color"
	"image/draw"
	"math"
	"runtime"
	"strings"

	"github.com/fogleman/gg"
	"github.com/golang/freetype/raster"
	"golang.org/x/image/math/fixed"

	"github.com/rfop/rfop/engine"
	"github.com/rfop/rfop/locale"
)

// painter draws on one RGBA image: axis-aligned rectangles with image/draw
// (fast, no anti-aliasing needed), everything else with gg, text with
// font.Drawer. One painter belongs to one goroutine.
type painter struct {
	img *image.RGBA
	dc  *gg.Context
	// ras and corners fill rounded rectangles' corners (roundRect).
	ras     *raster.Rasterizer
	corners *cornerPainter
	fs      *faceSet
	tr      func(string) string // game terms in the renderer's language
	pr      *locale.Printer     // sentences and card texts in that language
	deck    *engine.Deck
	ops     int // shapes and texts drawn (yield)
}

// yield lets whatever waits to run go first every yieldOps shapes or
// texts (about a millisecond): a picture is tens of milliseconds of
// one core, and the goroutines waiting behind it (a bot's acknowledgement
// of a click, which it owes Discord within 3 s) would otherwise wait for
// the scheduler's 10 ms preemption, each time. encodePNG yields likewise.
func (p *painter) yield() {
	p.ops++
	if p.ops%yieldOps == 0 {
		runtime.Gosched()
	}
}

const yieldOps = 64

// t prints a message of the catalogue in the painter's language.
func (p *painter) t(id string, args locale.Args) string {
	if p.pr == nil {
		p.pr = locale.For(locale.English)
	}
	return p.pr.T(id, args)
}

// n prints a plural message for count.
func (p *painter) n(id string, count int, args locale.Args) string {
	if p.pr == nil {
		p.pr = locale.For(locale.English)
	}
	return p.pr.N(id, count, args)
}

func newPainter(img *image.RGBA, fs *faceSet, tr func(string) string) *painter {
	if tr == nil {
		tr = func(s string) string { return s }
	}
	return &painter{img: img, dc: gg.NewContextForRGBA(img), fs: fs, tr: tr}
}

// fitText draws s translated on one line of at most maxW pixels, in the
// bold or regular face of size shrunk down to minSize, then ellipsized:
// the French and Russian terms are often longer than the English.
func (p *painter) fitText(bold bool, size, minSize int, s string, maxW, x, y int, c color.Color, a align) int {
	fc, s := p.fit(bold, size, minSize, s, maxW)
	return text(p.img, fc, s, x, y, c, a)
}

// fitTextMid is fitText centred vertically on cy.
func (p *painter) fitTextMid(bold bool, size, minSize int, s string, maxW, x, cy int, c color.Color, a align) int {
	fc, s := p.fit(bold, size, minSize, s, maxW)
	return textMid(p.img, fc, s, x, cy, c, a)
}

// fit translates s and picks the largest face from size down to minSize
// in which it fits maxW, ellipsizing it if even minSize is too wide.
func (p *painter) fit(bold bool, size, minSize int, s string, maxW int) (*face, string) {
	s = p.tr(s)
	fc := p.fs.get(bold, size)
	for ; measure(fc, s) > maxW && size > minSize; size-- {
		fc = p.fs.get(bold, size-1)
	}
	return fc, ellipsize(fc, s, maxW)
}

// centredLines wraps s (already translated) into at most maxLines lines of
// width w, centred on x from baseline y, lh apart, in the bold or regular
// face of size, shrunk down to minSize until it fits.
func (p *painter) centredLines(bold bool, size, minSize int, s string, w, x, y, lh, maxLines int, c color.Color) {
	fc := p.fs.get(bold, size)
	lines := wrap(fc, s, w)
	for ; (len(lines) > maxLines || widest(fc, strings.Fields(s)) > w) && size > minSize; size-- {
		fc = p.fs.get(bold, size-1)
		lines = wrap(fc, s, w)
	}
	if len(lines) > maxLines {
		lines = append(lines[:maxLines-1], ellipsize(fc, joinRest(lines[maxLines-1:]), w))
	}
	for i, l := range lines {
		text(p.img, fc, l, x, y+i*lh, c, center)
	}
}

// widest is the width of the widest of words: wrap cuts a word wider than
// the line, so shrink the face first.
func widest(fc *face, words []string) int {
	w := 0
	for _, l := range words {
		w = max(w, measure(fc, l))
	}
	return w
}

// text draws s with its game terms in the renderer's language (glossary);
// card names are never changed.
func (p *painter) text(fc *face, s string, x, y int, c color.Color, a align) int {
	p.yield()
	return text(p.img, fc, p.tr(s), x, y, c, a)
}

func (p *painter) textMid(fc *face, s string, x, cy int, c color.Color, a align) int {
	p.yield()
	return textMid(p.img, fc, p.tr(s), x, cy, c, a)
}

func (p *painter) rect(r image.Rectangle, c color.Color) {
	draw.Draw(p.img, r, image.NewUniform(c), image.Point{}, draw.Src)
}

// frame draws a border of width w inside r.
func (p *painter) frame(r image.Rectangle, w int, c color.Color) {
	p.rect(image.Rect(r.Min.X, r.Min.Y, r.Max.X, r.Min.Y+w), c)
	p.rect(image.Rect(r.Min.X, r.Max.Y-w, r.Max.X, r.Max.Y), c)
	p.rect(image.Rect(r.Min.X, r.Min.Y+w, r.Min.X+w, r.Max.Y-w), c)
	p.rect(image.Rect(r.Max.X-w, r.Min.Y+w, r.Max.X, r.Max.Y-w), c)
}

// roundRect fills r with rounded corners. gg's rasterizer blends every
// pixel it covers, which made filling the panels of a hand picture a third
// of its cost; for an opaque colour and a whole radius, the pixels of the
// straight parts (all fully covered) are filled directly, and the
// rasterizer paints only the four corner squares, from the same path as
// gg's: the pixels are gg's, bit for bit (TestRoundRectFastPathIsExact).
func (p *painter) roundRect(r image.Rectangle, radius float64, c color.Color) {
	p.yield()
	k := int(radius)
	if _, _, _, a := c.RGBA(); a != 0xFFFF || float64(k) != radius || k < 1 || r.Dx() < 2*k || r.Dy() < 2*k {
		p.dc.DrawRoundedRectangle(float64(r.Min.X), float64(r.Min.Y), float64(r.Dx()), float64(r.Dy()), radius)
		p.dc.SetColor(c)
		p.dc.Fill()
		return
	}
	p.rect(image.Rect(r.Min.X, r.Min.Y+k, r.Max.X, r.Max.Y-k), c)
	p.rect(image.Rect(r.Min.X+k, r.Min.Y, r.Max.X-k, r.Min.Y+k), c)
	p.rect(image.Rect(r.Min.X+k, r.Max.Y-k, r.Max.X-k, r.Max.Y), c)
	if p.ras == nil {
		b := p.img.Bounds() // as gg's own rasterizer, which flattens curves by the picture's size
		p.ras = raster.NewRasterizer(b.Dx(), b.Dy())
		p.corners = &cornerPainter{rgba: raster.NewRGBAPainter(p.img)}
	}
	p.ras.UseNonZeroWinding = true
	p.ras.Clear()
	p.ras.AddPath(roundedPath(float64(r.Min.X), float64(r.Min.Y), float64(r.Dx()), float64(r.Dy()), radius))
	cp := p.corners
	cp.rgba.SetColor(c)
	cp.y1, cp.y2 = r.Min.Y+k, r.Max.Y-k
	cp.x1, cp.x2 = r.Min.X+k, r.Max.X-k
	p.ras.Rasterize(cp)
}

// roundedPath is the path gg's DrawRoundedRectangle and Fill rasterize
// (no transform), point for point: its arcs, its fixed-point rounding and
// its closing segments.
func roundedPath(x, y, w, h, r float64) raster.Path {
	fix := func(x, y float64) fixed.Point26_6 {
		return fixed.Point26_6{X: fixed.Int26_6(x * 64), Y: fixed.Int26_6(y * 64)}
	}
	x0, x1, x2, x3 := x, x+r, x+w-r, x+w
	y0, y1, y2, y3 := y, y+r, y+h-r, y+h
	var path raster.Path
	path.Start(fix(x1, y0))
	arc := func(cx, cy, from float64) { // gg's DrawEllipticalArc, entered with a line
		a0, a1 := gg.Radians(from), gg.Radians(from+90)
		const n = 16
		for i := 0; i < n; i++ {
			p1, p2 := float64(i)/n, float64(i+1)/n
			b1, b2 := a0+(a1-a0)*p1, a0+(a1-a0)*p2
			sx, sy := cx+r*math.Cos(b1), cy+r*math.Sin(b1)
			mx, my := cx+r*math.Cos((b1+b2)/2), cy+r*math.Sin((b1+b2)/2)
			ex, ey := cx+r*math.Cos(b2), cy+r*math.Sin(b2)
			if i == 0 {
				path.Add1(fix(sx, sy))
			}
			path.Add2(fix(2*mx-sx/2-ex/2, 2*my-sy/2-ey/2), fix(ex, ey))
		}
	}
	path.Add1(fix(x2, y0))
	arc(x2, y1, 270)
	path.Add1(fix(x3, y2))
	arc(x2, y2, 0)
	path.Add1(fix(x1, y3))
	arc(x1, y2, 90)
	path.Add1(fix(x0, y1))
	arc(x1, y1, 180)
	path.Add1(fix(x1, y0)) // ClosePath
	path.Add1(fix(x1, y0)) // and Fill closes it again
	return path
}

// cornerPainter paints only the spans in the corner squares of a rounded
// rectangle (outside [x1, x2) × [y1, y2) on both axes), as gg paints them.
type cornerPainter struct {
	rgba           *raster.RGBAPainter
	x1, x2, y1, y2 int
	buf            []raster.Span
}

func (cp *cornerPainter) Paint(ss []raster.Span, done bool) {
	buf := cp.buf[:0]
	for _, s := range ss {
		if s.Y >= cp.y1 && s.Y < cp.y2 {
			continue
		}
		if x1 := min(s.X1, cp.x1); s.X0 < x1 {
			buf = append(buf, raster.Span{Y: s.Y, X0: s.X0, X1: x1, Alpha: s.Alpha})
		}
		if x0 := max(s.X0, cp.x2); x0 < s.X1 {
			buf = append(buf, raster.Span{Y: s.Y, X0: x0, X1: s.X1, Alpha: s.Alpha})
		}
	}
	cp.buf = buf
	cp.rgba.Paint(buf, done)
}

func (p *painter) roundFrame(r image.Rectangle, radius, w float64, c color.Color) {
	p.dc.DrawRoundedRectangle(float64(r.Min.X)+w/2, float64(r.Min.Y)+w/2, float64(r.Dx())-w, float64(r.Dy())-w, radius)
	p.dc.SetColor(c)
	p.dc.SetLineWidth(w)
	p.dc.Stroke()
}

func (p *painter) circle(cx, cy, r float64, c color.Color) {
	p.dc.DrawCircle(cx, cy, r)
	p.dc.SetColor(c)
	p.dc.Fill()
}

func (p *painter) ring(cx, cy, r, w float64, c color.Color) {
	p.dc.DrawCircle(cx, cy, r)
	p.dc.SetColor(c)
	p.dc.SetLineWidth(w)
	p.dc.Stroke()
}

func (p *painter) line(x0, y0, x1, y1, w float64, c color.Color) {
	p.dc.SetLineCap(gg.LineCapRound)
	p.dc.DrawLine(x0, y0, x1, y1)
	p.dc.SetColor(c)
	p.dc.SetLineWidth(w)
	p.dc.Stroke()
}

func (p *painter) poly(pts []gg.Point, c color.Color) {
	for i, pt := range pts {
		if i == 0 {
			p.dc.MoveTo(pt.X, pt.Y)
		} else {
			p.dc.LineTo(pt.X, pt.Y)
		}
	}
	p.dc.ClosePath()
	p.dc.SetColor(c)
	p.dc.Fill()
}

func starPoints(cx, cy, r float64) []gg.Point {
	pts := make([]gg.Point, 10)
	for i := range pts {
		a := -math.Pi/2 + float64(i)*math.Pi/5
		rr := r
		if i%2 == 1 {
			rr = r * 0.45
		}
		pts[i] = gg.Point{X: cx + rr*math.Cos(a), Y: cy + rr*math.Sin(a)}
	}
	return pts
}

// star draws a five-pointed star with an outline.
func (p *painter) star(cx, cy, r float64, fill, edge color.Color) {
	p.poly(starPoints(cx, cy, r+2), edge)
	p.poly(starPoints(cx, cy, r), fill)
}

// dimIcon draws a dimension's icon (square, triangle, circle, diamond)
// centred on (cx, cy), size s.
func (p *painter) dimIcon(d int, cx, cy, s float64, fill, edge color.Color) {
	shape := func(k float64, c color.Color) {
		h := s/2 + k
		switch d {
		case 0: // Institutional: square
			p.dc.DrawRectangle(cx-h*0.85, cy-h*0.85, 2*h*0.85, 2*h*0.85)
			p.dc.SetColor(c)
			p.dc.Fill()
		case 1: // Public Opinion: triangle
			p.poly([]gg.Point{{X: cx, Y: cy - h}, {X: cx + h*1.05, Y: cy + h*0.8}, {X: cx - h*1.05, Y: cy + h*0.8}}, c)
		case 2: // Forts: circle
			p.circle(cx, cy, h*0.9, c)
		case 3: // Paris: diamond
			p.poly([]gg.Point{{X: cx, Y: cy - h}, {X: cx + h*0.8, Y: cy}, {X: cx, Y: cy + h}, {X: cx - h*0.8, Y: cy}}, c)
		}
	}
	shape(2, edge)
	shape(0, fill)
}

// arrowHead draws a filled arrowhead whose tip is at (x, y), pointing along
// the direction (dx, dy).
func (p *painter) arrowHead(x, y, dx, dy, size float64, c color.Color) {
	l := math.Hypot(dx, dy)
	if l == 0 {
		return
	}
	ux, uy := dx/l, dy/l
	bx, by := x-ux*size, y-uy*size
	px, py := -uy*size*0.55, ux*size*0.55
	p.poly([]gg.Point{{X: x, Y: y}, {X: bx + px, Y: by + py}, {X: bx - px, Y: by - py}}, c)
}

// cube draws an influence cube: a rounded square with a darker base.
func (p *painter) cube(r image.Rectangle, c, dark color.Color) {
	rad := float64(r.Dx()) / 7
	p.roundRect(r.Add(image.Pt(0, 2)), rad, dark)
	p.roundRect(r, rad, c)
}

// slot draws an empty place for a cube.
func (p *painter) slot(r image.Rectangle, c color.Color) {
	p.roundFrame(r, float64(r.Dx())/7, 2, c)
}

// hatch draws 45° stripes inside r (clipped by hand: gg's Clip allocates a
// full-size mask).
func (p *painter) hatch(r image.Rectangle, c color.Color, step int) {
	h := r.Dy()
	for x := r.Min.X - h; x < r.Max.X; x += step {
		x0, y0 := x, r.Max.Y
		x1, y1 := x+h, r.Min.Y
		if x0 < r.Min.X {
			d := r.Min.X - x0
			x0, y0 = r.Min.X, y0-d
		}
		if x1 > r.Max.X {
			e := x1 - r.Max.X
			x1, y1 = r.Max.X, y1+e
		}
		if x1 <= x0 || y0 <= y1 {
			continue
		}
		p.dc.SetLineCap(gg.LineCapButt)
		p.dc.DrawLine(float64(x0), float64(y0), float64(x1), float64(y1))
		p.dc.SetColor(c)
		p.dc.SetLineWidth(2)
		p.dc.Stroke()
	}
}

func rectCenter(r image.Rectangle) (float64, float64) {
	return float64(r.Min.X+r.Max.X) / 2, float64(r.Min.Y+r.Max.Y) / 2
}

func mid(r image.Rectangle) image.Point {
	return image.Pt((r.Min.X+r.Max.X)/2, (r.Min.Y+r.Max.Y)/2)
}
