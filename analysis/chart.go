package analysis

import (
	"bytes"
	"fmt"
	"image/color"
	"image/png"
	"math"
	"sync"

	"github.com/fogleman/gg"
	"github.com/golang/freetype/truetype"
	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/goregular"

	"github.com/rfop/rfop/engine"
	"github.com/rfop/rfop/locale"
)

// The chart is drawn for a phone: Discord shows a picture about 400
// pixels wide there, so a 1200-pixel chart is read at a third of its
// size and its smallest text is 26 pixels (about 9 on the phone). Colours
// are the board's: the Commune red, Versailles blue.
const (
	chartW, chartH = 1200, 760
	padL, padR     = 110, 40
	padT, padB     = 118, 150
)

var (
	colBG         = color.RGBA{0xF2, 0xEE, 0xE4, 0xFF}
	colPlot       = color.RGBA{0xFB, 0xF9, 0xF4, 0xFF}
	colInk        = color.RGBA{0x22, 0x22, 0x22, 0xFF}
	colSoft       = color.RGBA{0x5C, 0x58, 0x52, 0xFF}
	colGrid       = color.RGBA{0xD6, 0xD1, 0xC6, 0xFF}
	colCommune    = color.RGBA{0xC4, 0x22, 0x2A, 0xFF}
	colBand       = color.NRGBA{0xC4, 0x22, 0x2A, 0x40}
	colVersailles = color.RGBA{0x1F, 0x4F, 0xB0, 0xFF}
	colRoundA     = color.RGBA{0xEC, 0xE6, 0xD8, 0xFF}
	colFC         = color.RGBA{0xF3, 0xDC, 0xB0, 0xFF}
	colMark       = color.RGBA{0xF0, 0xA8, 0x00, 0xFF}
)

var (
	fontsOnce     sync.Once
	regular, bold *truetype.Font
	fontsErr      error
)

// The Go fonts (embedded in golang.org/x/image) cover Latin, accented
// Latin and Cyrillic, so the chart needs no system font.
func loadFonts() error {
	fontsOnce.Do(func() {
		if regular, fontsErr = truetype.Parse(goregular.TTF); fontsErr != nil {
			return
		}
		bold, fontsErr = truetype.Parse(gobold.TTF)
	})
	return fontsErr
}

func face(f *truetype.Font, size float64) font.Face {
	return truetype.NewFace(f, &truetype.Options{Size: size, Hinting: font.HintingFull})
}

// Chart draws the Commune's win chance across the game as a PNG, its
// words in p's language: the rounds and the Final Crisis as bands, the
// line of the two sides' averaged estimates with the band between them,
// the three turning points numbered (as in TurningTexts) with their
// swing, and the winner at the end. game is the game's number for the
// title (0: none).
func (a *Analysis) Chart(p *locale.Printer, game int64) ([]byte, error) {
	if err := loadFonts(); err != nil {
		return nil, fmt.Errorf("analysis: chart fonts: %w", err)
	}
	dc := gg.NewContext(chartW, chartH)
	dc.SetColor(colBG)
	dc.Clear()

	// Title.
	title := p.T("analysis.chart.title-plain", nil)
	if game > 0 {
		title = p.T("analysis.chart.title", locale.Args{"Game": game})
	}
	dc.SetFontFace(face(bold, 38))
	dc.SetColor(colInk)
	drawFit(dc, title, padL-60, 58, chartW-padL+60-padR)

	x0, x1 := float64(padL), float64(chartW-padR)
	y0, y1 := float64(padT), float64(chartH-padB) // y0 top (100%), y1 bottom (0%)
	n := len(a.Points)
	// x of decision i; the result is one step after the last decision.
	xOf := func(i float64) float64 {
		if n == 0 {
			return x0
		}
		return x0 + (x1-x0)*i/float64(n)
	}
	yOf := func(c float64) float64 { return y1 - (y1-y0)*c }

	dc.SetColor(colPlot)
	dc.DrawRectangle(x0, y0, x1-x0, y1-y0)
	dc.Fill()

	// Rounds and the Final Crisis: alternating bands, named at the top.
	type seg struct {
		from, to int
		round    int
		final    bool
	}
	var segs []seg
	for i, pt := range a.Points {
		if len(segs) == 0 || segs[len(segs)-1].round != pt.Round {
			segs = append(segs, seg{from: i, to: i + 1, round: pt.Round, final: pt.Final})
		} else {
			segs[len(segs)-1].to = i + 1
		}
	}
	if len(segs) > 0 {
		segs[len(segs)-1].to = n
	}
	dc.SetFontFace(face(regular, 26))
	for k, s := range segs {
		sx0, sx1 := xOf(float64(s.from)), xOf(float64(s.to))
		if k == len(segs)-1 {
			sx1 = x1
		}
		switch {
		case s.final:
			dc.SetColor(colFC)
		case k%2 == 1:
			dc.SetColor(colRoundA)
		default:
			dc.SetColor(colPlot)
		}
		dc.DrawRectangle(sx0, y0, sx1-sx0, y1-y0)
		dc.Fill()
		long, short := p.T("analysis.chart.round", locale.Args{"N": s.round}), p.T("analysis.chart.round-short", locale.Args{"N": s.round})
		if s.final {
			long, short = p.T("analysis.chart.fc", nil), p.T("analysis.chart.fc-short", nil)
		}
		// The name if it fits over the band (smaller if need be), else
		// the short form, else nothing.
		for _, try := range []struct {
			s    string
			size float64
		}{{long, 26}, {long, 22}, {long, 19}, {short, 26}} {
			dc.SetFontFace(face(regular, try.size))
			if w, _ := dc.MeasureString(try.s); w <= sx1-sx0-6 {
				dc.SetColor(colSoft)
				dc.DrawStringAnchored(try.s, (sx0+sx1)/2, y0-14, 0.5, 0)
				break
			}
		}
	}

	// Grid: 0, 25, 50, 75, 100 %.
	dc.SetFontFace(face(regular, 26))
	for k := 0; k <= 4; k++ {
		c := float64(k) / 4
		y := yOf(c)
		dc.SetColor(colGrid)
		dc.SetLineWidth(2)
		if k == 2 {
			dc.SetColor(colSoft)
			dc.SetDash(8, 8)
		}
		dc.DrawLine(x0, y, x1, y)
		dc.Stroke()
		dc.SetDash()
		dc.SetColor(colSoft)
		dc.DrawStringAnchored(Percent(p, c), x0-12, y, 1, 0.35)
	}

	if n > 0 {
		// The band between the two sides' views of the Commune's chance.
		dc.SetColor(colBand)
		for i := 0; i < n; i++ {
			pt := a.Points[i]
			lo, hi := math.Min(pt.Commune, 1-pt.Versailles), math.Max(pt.Commune, 1-pt.Versailles)
			dc.DrawRectangle(xOf(float64(i)), yOf(hi), xOf(float64(i+1))-xOf(float64(i)), yOf(lo)-yOf(hi))
		}
		dc.Fill()
		// The line, to the result.
		dc.SetColor(colCommune)
		dc.SetLineWidth(5)
		dc.SetLineJoin(gg.LineJoinRound)
		for i, pt := range a.Points {
			if i == 0 {
				dc.MoveTo(xOf(0), yOf(pt.Chance))
			} else {
				dc.LineTo(xOf(float64(i)), yOf(pt.Chance))
			}
		}
		dc.LineTo(xOf(float64(n)), yOf(a.After(n-1)))
		dc.Stroke()
		dc.DrawCircle(xOf(float64(n)), yOf(a.After(n-1)), 9)
		dc.Fill()

		// The turning points: a numbered badge and the swing.
		for k, t := range a.Turning {
			xa, xb := xOf(float64(t.Point)), xOf(float64(t.Point+1))
			ya, yb := yOf(t.Before), yOf(t.After)
			dc.SetColor(colMark)
			dc.SetLineWidth(9)
			dc.DrawLine(xa, ya, xb, yb)
			dc.Stroke()
			bx, by := (xa+xb)/2, math.Min(ya, yb)-34
			if by < y0+28 {
				by = math.Max(ya, yb) + 34
			}
			dc.SetColor(color.White)
			dc.DrawCircle(bx, by, 25)
			dc.Fill()
			dc.SetColor(colInk)
			dc.DrawCircle(bx, by, 22)
			dc.Fill()
			dc.SetColor(color.White)
			dc.SetFontFace(face(bold, 28))
			dc.DrawStringAnchored(fmt.Sprint(k+1), bx, by, 0.5, 0.38)
			// The swing of the rounded percentages, as the sentence gives them.
			sw := int(math.Round(100*t.After)) - int(math.Round(100*t.Before))
			label := fmt.Sprintf("%+d", sw)
			if sw < 0 {
				label = "−" + fmt.Sprint(-sw) // a true minus sign
			}
			dc.SetFontFace(face(bold, 26))
			lw, _ := dc.MeasureString(label)
			lx := bx + 34
			if bx > x1-100 {
				lx = bx - 34 - lw // keep the label inside the plot on the right edge
			}
			dc.SetColor(color.NRGBA{0xFF, 0xFF, 0xFF, 0xD8})
			dc.DrawRoundedRectangle(lx-5, by-17, lw+10, 34, 6)
			dc.Fill()
			dc.SetColor(colInk)
			dc.DrawStringAnchored(label, lx, by, 0, 0.38)
		}
	}

	// Frame and the axis' name.
	dc.SetColor(colSoft)
	dc.SetLineWidth(2)
	dc.DrawRectangle(x0, y0, x1-x0, y1-y0)
	dc.Stroke()
	dc.SetFontFace(face(regular, 26))
	dc.DrawStringAnchored(p.N("analysis.chart.decisions", n, nil), x0, y1+34, 0, 0.5)
	if a.Winner == engine.Commune || a.Winner == engine.Versailles {
		dc.SetFontFace(face(bold, 28))
		if a.Winner == engine.Commune {
			dc.SetColor(colCommune)
		} else {
			dc.SetColor(colVersailles)
		}
		dc.DrawStringAnchored(p.T("analysis.chart.won", locale.Args{"Side": p.Side(a.Winner)}), x1, y1+34, 1, 0.5)
	}
	dc.SetFontFace(face(regular, 24))
	dc.SetColor(colSoft)
	wrapped := dc.WordWrap(p.T("analysis.chart.legend", nil), x1-x0+padL-40)
	for k, line := range wrapped {
		dc.DrawString(line, float64(padL-70), y1+84+float64(k)*32)
	}

	var buf bytes.Buffer
	if err := png.Encode(&buf, dc.Image()); err != nil {
		return nil, fmt.Errorf("analysis: encode chart: %w", err)
	}
	return buf.Bytes(), nil
}

// drawFit draws s from x at baseline y, shrinking the font until it fits w.
func drawFit(dc *gg.Context, s string, x, y, w float64) {
	for size := 38.0; size >= 24; size -= 2 {
		dc.SetFontFace(face(bold, size))
		if tw, _ := dc.MeasureString(s); tw <= w {
			break
		}
	}
	dc.DrawString(s, x, y)
}
