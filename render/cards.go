package render

import (
	"bytes"
	"fmt"
	"image"
	"image/draw"
	"strings"
	"sync"

	"github.com/rfop/rfop/engine"
)

// Card pictures. A card's picture depends only on the deck, so each card is
// drawn once and cached; a hand picture is the cached cards blitted into a
// grid plus two section titles.

const (
	CardWidth  = 340
	CardHeight = 430
	cardGap    = 16
	handCols   = 3 // phones show tall pictures better than wide ones
	sectionH   = 40
)

type cardCache struct {
	mu    sync.Mutex
	cards map[int]*image.RGBA
}

func (r *Renderer) cardImage(n int) (*image.RGBA, error) {
	c := r.deck.Card(n)
	if c == nil {
		return nil, fmt.Errorf("render: no card #%d", n)
	}
	r.cards.mu.Lock()
	img, ok := r.cards.cards[n]
	r.cards.mu.Unlock()
	if ok {
		return img, nil
	}
	img = image.NewRGBA(image.Rect(0, 0, CardWidth, CardHeight))
	fs := r.faces.take()
	p := newPainter(img, fs)
	p.rect(img.Rect, colBackground)
	drawCard(p, c, image.Pt(0, 0))
	r.faces.give(fs)
	r.cards.mu.Lock()
	if r.cards.cards == nil {
		r.cards.cards = map[int]*image.RGBA{}
	}
	r.cards.cards[n] = img
	r.cards.mu.Unlock()
	return img, nil
}

// RenderCard returns the picture of card n (1..53) as a PNG, for /rfop card.
func (r *Renderer) RenderCard(n int) ([]byte, error) {
	img, err := r.cardImage(n)
	if err != nil {
		return nil, err
	}
	return r.encodeBytes(img)
}

// RenderHand returns one picture of a hand: the strategy cards (hand,
// set-aside, Final Crisis card, in the order given) and, in a second row,
// the objective cards (the offer to choose from, or the one kept). Either
// list may be empty, not both. It is for the owner's eyes only: send it in
// a DM or an ephemeral reply.
func (r *Renderer) RenderHand(cards []int, objectives []int) ([]byte, error) {
	img, err := r.DrawHand(cards, objectives)
	if err != nil {
		return nil, err
	}
	return r.encodeBytes(img)
}

// DrawHand is RenderHand without the PNG encoding.
func (r *Renderer) DrawHand(cards []int, objectives []int) (*image.RGBA, error) {
	if len(cards) == 0 && len(objectives) == 0 {
		return nil, fmt.Errorf("render: empty hand")
	}
	type section struct {
		title string
		nums  []int
	}
	var secs []section
	if len(cards) > 0 {
		secs = append(secs, section{fmt.Sprintf("Your cards (%d)", len(cards)), cards})
	}
	if len(objectives) > 0 {
		t := "Your objective"
		if len(objectives) > 1 {
			t = "Objectives offered (keep one)"
		}
		secs = append(secs, section{t, objectives})
	}
	cols := 1
	h := cardGap
	for _, s := range secs {
		n := len(s.nums)
		c := min(n, handCols)
		cols = max(cols, c)
		rows := (n + handCols - 1) / handCols
		h += sectionH + rows*(CardHeight+cardGap)
	}
	w := cardGap + cols*(CardWidth+cardGap)
	w = max(w, 420)
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	fs := r.faces.take()
	defer r.faces.give(fs)
	p := newPainter(img, fs)
	p.rect(img.Rect, colBackground)
	y := cardGap
	for _, s := range secs {
		text(img, fs.bold(22), s.title, cardGap, y+26, colInk, left)
		y += sectionH
		for i, n := range s.nums {
			ci, err := r.cardImage(n)
			if err != nil {
				return nil, err
			}
			x := cardGap + (i%handCols)*(CardWidth+cardGap)
			yy := y + (i/handCols)*(CardHeight+cardGap)
			draw.Draw(img, image.Rect(x, yy, x+CardWidth, yy+CardHeight), ci, image.Point{}, draw.Src)
		}
		y += (len(s.nums) + handCols - 1) / handCols * (CardHeight + cardGap)
	}
	return img, nil
}

func (r *Renderer) encodeBytes(img image.Image) ([]byte, error) {
	var buf bytes.Buffer
	if err := r.Encode(&buf, img); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// drawCard draws card c with its top-left corner at o.
func drawCard(p *painter, c *engine.Card, o image.Point) {
	fs := p.fs
	cr := image.Rect(o.X, o.Y, o.X+CardWidth, o.Y+CardHeight)
	main, dark := sideCol(c.Side), sideDark(c.Side)
	isObj := c.Kind == engine.ObjectiveCard
	var dim engine.Dimension
	if isObj && c.Space >= 0 && c.Space < engine.NumMapSpaces {
		dim = c.Space.Info().Dim
		main, dark = colDim[dim], colDimDark[dim]
	} else if isObj {
		main, dark = colNeutral, colInk
	}
	p.roundRect(cr, 16, dark)
	p.roundRect(cr.Inset(5), 12, colBody)

	// Header band.
	head := image.Rect(cr.Min.X+5, cr.Min.Y+5, cr.Max.X-5, cr.Min.Y+112)
	p.roundRect(head, 12, main)
	p.rect(image.Rect(head.Min.X, head.Max.Y-12, head.Max.X, head.Max.Y), main)
	text(p.img, fs.bold(24), fmt.Sprintf("#%d", c.Num), head.Min.X+14, head.Min.Y+30, colWhite, left)
	kind := ""
	switch {
	case isObj:
		kind = "OBJECTIVE"
	case c.Kind == engine.FinalCrisisCard:
		kind = "FINAL CRISIS CARD"
	case c.Side == engine.Versailles:
		kind = "VERSAILLES"
	case c.Side == engine.Commune:
		kind = "COMMUNE"
	default:
		kind = "NEUTRAL"
	}
	text(p.img, fs.bold(14), kind, head.Min.X+74, head.Min.Y+27, colWhite, left)
	if !isObj {
		// OP value: a white disc.
		cx, cy := float64(head.Max.X-34), float64(head.Min.Y+32)
		p.circle(cx, cy, 27, colWhite)
		p.ring(cx, cy, 27, 3, dark)
		textMid(p.img, fs.bold(28), itoa(c.OP), int(cx), int(cy)-5, dark, center)
		text(p.img, fs.bold(11), "OP", int(cx), int(cy)+19, dark, center)
	} else if c.Space >= 0 {
		p.dimIcon(int(dim), float64(head.Max.X-34), float64(head.Min.Y+30), 30, colWhite, dark)
	}
	nameW := head.Dx() - 28
	fc := fs.bold(22)
	if !isObj {
		nameW -= 50 // room for the OP disc
	}
	lines := wrap(fc, c.Name, nameW)
	if len(lines) > 2 {
		fc = fs.bold(18)
		lines = wrap(fc, c.Name, nameW)
		if len(lines) > 2 {
			lines = []string{lines[0], ellipsize(fc, joinRest(lines[1:]), nameW)}
		}
	}
	y := head.Min.Y + 62
	if len(lines) == 1 {
		y += 12
	}
	for _, l := range lines {
		text(p.img, fc, l, head.Min.X+14, y, colWhite, left)
		y += 26
	}

	// Objective: the space and its dimension.
	ty := head.Max.Y + 14
	if isObj && c.Space >= 0 {
		sr := image.Rect(cr.Min.X+16, ty, cr.Max.X-16, ty+34)
		p.roundRect(sr, 8, mixCol(main, colBody, 0.18))
		p.roundFrame(sr, 8, 2, main)
		p.dimIcon(int(dim), float64(sr.Min.X+20), float64(mid(sr).Y), 18, main, dark)
		textMid(p.img, fs.bold(17), c.Space.String(), sr.Min.X+38, mid(sr).Y, dark, left)
		textMid(p.img, fs.reg(13), dim.String(), sr.Max.X-10, mid(sr).Y, dark, right)
		ty = sr.Max.Y + 8
	}

	// Effect text, shrunk until it fits.
	foot := 40
	textBox := image.Rect(cr.Min.X+18, ty+8, cr.Max.X-18, cr.Max.Y-foot)
	body := strings.ReplaceAll(c.Text, " OR (b)", "\nOR (b)")
	for _, size := range []int{20, 19, 18, 17, 16, 15, 14, 13, 12} {
		f := fs.reg(size)
		lh := size + size/3 + 1
		ls := wrap(f, body, textBox.Dx())
		if len(ls)*lh <= textBox.Dy() || size == 12 {
			yy := textBox.Min.Y + size
			for _, l := range ls {
				if yy > textBox.Max.Y {
					break
				}
				text(p.img, f, l, textBox.Min.X, yy, colInk, left)
				yy += lh
			}
			break
		}
	}

	// Footer: status badge, 2-player-only mark.
	fy := cr.Max.Y - 24
	if c.Status == engine.StatusProvisional || c.Status == engine.StatusPartial {
		label := "PROVISIONAL TEXT"
		if c.Status == engine.StatusPartial {
			label = "PARTIAL TEXT"
		}
		f := fs.bold(13)
		w := measure(f, label) + 20
		b := image.Rect(cr.Max.X-16-w, fy-12, cr.Max.X-16, fy+12)
		p.roundRect(b, 12, colBadge)
		textMid(p.img, f, label, mid(b).X, mid(b).Y, colInk, center)
	}
	if c.TwoPlayerOnly {
		text(p.img, fs.bold(14), "2-player only", cr.Min.X+18, fy+5, colInkSoft, left)
	} else if c.Kind == engine.FinalCrisisCard {
		text(p.img, fs.bold(14), "held face up", cr.Min.X+18, fy+5, colInkSoft, left)
	}
}
