package render

import (
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"regexp"
	"strings"
	"sync"

	"github.com/rfop/rfop/engine"
	"github.com/rfop/rfop/locale"
)

// Card pictures. A card's picture depends only on the deck, so each card is
// drawn once and cached; a hand picture is the cached cards blitted onto
// labelled section panels.

const (
	CardWidth  = 340
	CardHeight = 430
	handCols   = 3 // phones show tall pictures better than wide ones
)

type cardCache struct {
	mu    sync.Mutex
	cards map[int]*cardPicture
}

// cardPicture is a cached card: packed (packed.go), or in RGBA in the
// unlikely case it has too many colours to pack.
type cardPicture struct {
	packed *packedImage
	rgba   *image.RGBA
}

// drawOver draws the card over dst with its top-left corner at o.
func (c *cardPicture) drawOver(dst *image.RGBA, o image.Point) {
	if c.packed != nil {
		c.packed.drawOver(dst, o)
		return
	}
	drawOver(dst, image.Rect(o.X, o.Y, o.X+CardWidth, o.Y+CardHeight), c.rgba)
}

// image returns the card's picture in RGBA (a new one if packed).
func (c *cardPicture) image() *image.RGBA {
	if c.packed != nil {
		return c.packed.rgba()
	}
	return c.rgba
}

// cardImage returns card n's cached picture, drawing it on first use with
// fs (nil: faces taken from the pool).
func (r *Renderer) cardImage(n int, fs *faceSet) (*cardPicture, error) {
	return r.cardImageKept(n, fs, true)
}

// cardImageKept is cardImage; a picture drawn with keep false is not
// cached. The card palette is counted from every card at start (Prepare),
// but a card's picture (about 290 KB packed) is kept only once a hand or
// card picture shows it: a bot that has shown few cards yet does not hold
// all 53 (15 MiB, twice that in the collector's heap target).
func (r *Renderer) cardImageKept(n int, fs *faceSet, keep bool) (*cardPicture, error) {
	c := r.deck.Card(n)
	if c == nil {
		return nil, fmt.Errorf("render: no card #%d", n)
	}
	r.cards.mu.Lock()
	pic, ok := r.cards.cards[n]
	r.cards.mu.Unlock()
	if ok {
		return pic, nil
	}
	// Transparent outside the rounded corners, so that the card sits on
	// any panel.
	img := image.NewRGBA(image.Rect(0, 0, CardWidth, CardHeight))
	if fs == nil {
		fs = r.faces.take()
		defer r.faces.give(fs)
	}
	p := r.painter(img, fs)
	drawCard(p, c, image.Pt(0, 0))
	pic = &cardPicture{packed: pack(img)}
	if pic.packed == nil {
		pic.rgba = img
	}
	if !keep {
		return pic, nil
	}
	r.cards.mu.Lock()
	if r.cards.cards == nil {
		r.cards.cards = map[int]*cardPicture{}
	}
	r.cards.cards[n] = pic
	r.cards.mu.Unlock()
	return pic, nil
}

// RenderCard returns the picture of card n (1..53) as a PNG, for /rfop card.
func (r *Renderer) RenderCard(n int) ([]byte, error) {
	ci, err := r.cardImage(n, nil)
	if err != nil {
		return nil, err
	}
	img := image.NewRGBA(image.Rect(0, 0, CardWidth, CardHeight))
	draw.Draw(img, img.Rect, image.NewUniform(colBackground), image.Point{}, draw.Src)
	ci.drawOver(img, image.Point{})
	return encodePaletted(r.cardPalette(), img, cardLevel)
}

// optionBreak finds the second option of a card text, "OR (b)" in each
// language, to start it on a new line.
var optionBreak = regexp.MustCompile(` ((?:OR|OU|ИЛИ) \((?:b|б)\))`)

// drawOver draws src (with its transparent parts) into dst at r.
func drawOver(dst *image.RGBA, r image.Rectangle, src *image.RGBA) {
	draw.Draw(dst, r, src, src.Rect.Min, draw.Over)
}

// ErrEmptyHand is returned by RenderHand and DrawHand when the viewer holds
// no card at all (no hand, nothing set aside, no Final Crisis card, no
// objective): there is no picture to send.
var ErrEmptyHand = errors.New("render: nothing in hand")

// RenderHand returns one picture of everything the viewer of v holds, in
// labelled sections: the cards in hand (what can be played now), the cards
// set aside for the Final Crisis, the Final Crisis card held face up, and the
// objective cards (the offer to choose from, or the one kept). In the Final
// Crisis the hand already holds everything. v must be a player's own view
// (g.ViewFor(side)); the picture is for that player's eyes only: send it in
// a DM or an ephemeral reply.
//
// The cards are not blitted in RGBA: each card's packed colours are mapped
// to the palette once (as they look over their panel) and its indices
// written straight into the quantized picture, the same indices as
// quantizing the blitted card would give (TestRenderHandIsTheQuantized
// DrawHand).
func (r *Renderer) RenderHand(v *engine.View) ([]byte, error) {
	secs, err := r.handSectionsOf(v)
	if err != nil {
		return nil, err
	}
	key := frameKey(v, secs)
	if f := r.frames.get(key); f != nil {
		if png, ok, err := r.handOnFrame(f, secs); ok || err != nil {
			return png, err
		}
	}
	var pix []byte
	var cards []placedCard
	img, err := r.drawHand(v, secs, func(rect image.Rectangle) *image.RGBA {
		pix = r.handPix.get(4 * rect.Dx() * rect.Dy())
		return &image.RGBA{Pix: pix, Stride: 4 * rect.Dx(), Rect: rect}
	}, &cards)
	if pix != nil {
		defer r.handPix.put(pix)
	}
	if err != nil {
		return nil, err
	}
	pal := r.cardPalette()
	w, h := img.Rect.Dx(), img.Rect.Dy()
	idx := r.handIdx.get(w * h)
	defer r.handIdx.put(idx)
	places := make([]framePlace, len(cards))
	for i, c := range cards {
		places[i] = framePlace{at: c.at, under: c.under}
	}
	// Quantize what is not under a card (most of the picture is cards),
	// keeping it as the frame if every card is left to write (none was
	// painted in RGBA), then write the cards' indices.
	var f *handFrame
	if len(cards) == cardsIn(secs) {
		f = &handFrame{w: w, h: h, places: places, gaps: make([]uint8, 0, max(0, w*h-len(cards)*CardWidth*CardHeight))}
	}
	var gaps []int // [x0, x1) pairs of a row left to quantize
	for y := 0; y < h; y++ {
		gaps = rowGaps(gaps, y, w, places)
		row := img.Pix[y*img.Stride:]
		for k := 0; k < len(gaps); k += 2 {
			x0, x1 := gaps[k], gaps[k+1]
			pal.quantizeRow(idx[y*w+x0:y*w+x1], row[4*x0:4*x1])
			if f != nil {
				f.gaps = append(f.gaps, idx[y*w+x0:y*w+x1]...)
			}
		}
	}
	if f != nil {
		r.frames.put(key, f)
	}
	for _, c := range cards {
		c.pic.packed.writeIndices(idx, w, c.at, pal, c.under)
	}
	return encodeIndices(pal, idx, w, h, cardLevel)
}

// handOnFrame is RenderHand with the hand's frame kept: the frame's
// indices copied, the cards' written over them. ok is false (and nothing
// done) if a card's picture is not packed: then the hand is drawn.
func (r *Renderer) handOnFrame(f *handFrame, secs []handSection) (png []byte, ok bool, err error) {
	pics := make([]*cardPicture, 0, len(f.places))
	for _, s := range secs {
		for _, n := range s.cards {
			ci, err := r.cardImage(n, nil)
			if err != nil {
				return nil, false, err
			}
			if ci.packed == nil {
				return nil, false, nil
			}
			pics = append(pics, ci)
		}
	}
	if len(pics) != len(f.places) {
		return nil, false, nil
	}
	pal := r.cardPalette()
	maps := make([][]uint8, len(pics))
	for i, c := range pics {
		maps[i] = c.packed.indexMap(pal, f.places[i].under)
	}
	// Each row is written straight into the encoder's: the frame's
	// indices outside the cards, then each card's row that crosses it.
	var gaps []int
	off := 0
	png, err = encodePNG(pal, f.w, f.h, cardLevel, func(y int, out []uint8) {
		gaps = rowGaps(gaps, y, f.w, f.places)
		for k := 0; k < len(gaps); k += 2 {
			off += copy(out[gaps[k]:gaps[k+1]], f.gaps[off:])
		}
		for i, c := range pics {
			at := f.places[i].at
			if y >= at.Y && y < at.Y+CardHeight {
				c.packed.writeRow(out[at.X:], y-at.Y, maps[i])
			}
		}
	})
	return png, true, err
}

// cardsIn counts the cards of secs.
func cardsIn(secs []handSection) int {
	n := 0
	for _, s := range secs {
		n += len(s.cards)
	}
	return n
}

// cutGap removes [a, b) from the sorted [x0, x1) pairs of gaps.
func cutGap(gaps []int, a, b int) []int {
	out := gaps[len(gaps):] // the spare capacity, so a row allocates nothing
	for k := 0; k < len(gaps); k += 2 {
		x0, x1 := gaps[k], gaps[k+1]
		if x0 < min(a, x1) {
			out = append(out, x0, min(a, x1))
		}
		if max(b, x0) < x1 {
			out = append(out, max(b, x0), x1)
		}
	}
	return append(gaps[:0], out...)
}

// placedCard is a card of a hand picture left for RenderHand to write in
// palette indices: the picture under it is the flat colour under.
type placedCard struct {
	pic   *cardPicture
	at    image.Point
	under color.RGBA
}

// handSection is one labelled group of cards in a hand picture.
type handSection struct {
	title string
	note  string // a short hint after (or under) the title; may be empty
	cards []int
	muted bool // not playable now: drawn on a paler panel
}

// handSections splits the viewer's cards into the sections of the hand
// picture, in the order they are drawn.
func handSections(pr *locale.Printer, v *engine.View) ([]handSection, error) {
	if v == nil {
		return nil, errors.New("render: nil view")
	}
	me := v.Viewer
	if me != engine.Versailles && me != engine.Commune {
		return nil, fmt.Errorf("render: a hand needs a player's view, not %s's", me)
	}
	ints := func(a []int8) []int {
		out := make([]int, 0, len(a))
		for _, c := range a {
			out = append(out, int(c))
		}
		return out
	}
	fc := v.FCHeld[me] && me != v.BotSide
	var secs []handSection
	if v.Round >= 4 {
		// The Final Crisis gathered the set-aside cards and the Final Crisis
		// card into the hand.
		note := pr.T("render.hand.fc-note", nil)
		if deciding(v, me, engine.PromptFCDiscard) {
			note = pr.T("render.hand.fc-note-discard", nil)
		}
		secs = append(secs, handSection{title: pr.T("render.hand.fc-hand", locale.Args{"N": len(v.Hand)}), note: note, cards: ints(v.Hand)})
		if len(v.SetAside) > 0 { // not expected; never hide a card
			secs = append(secs, handSection{title: pr.T("render.hand.set-aside", locale.Args{"N": len(v.SetAside)}), cards: ints(v.SetAside), muted: true})
		}
		if fc {
			secs = append(secs, handSection{title: pr.T("render.hand.fc-card", nil), cards: []int{engine.FinalCrisisCardOf(me)}})
		}
	} else {
		in := handSection{title: pr.T("render.hand.in-hand", locale.Args{"N": len(v.Hand)}), cards: ints(v.Hand)}
		if len(v.Hand) == 0 {
			in.note = pr.T("render.hand.nothing", nil)
		}
		secs = append(secs, in)
		if len(v.SetAside) > 0 {
			secs = append(secs, handSection{title: pr.T("render.hand.set-aside-fc", locale.Args{"N": len(v.SetAside)}), note: pr.T("render.hand.not-playable", nil), cards: ints(v.SetAside), muted: true})
		}
		if fc {
			// Playable now for its OP by discarding a card (its text says so).
			secs = append(secs, handSection{title: pr.T("render.hand.fc-card", nil), cards: []int{engine.FinalCrisisCardOf(me)}})
		}
	}
	switch {
	case len(v.ObjOffer) > 0:
		secs = append(secs, handSection{title: pr.T("render.hand.offered", nil), cards: ints(v.ObjOffer)})
	case v.Objective[me] > 0:
		secs = append(secs, handSection{title: pr.T("render.hand.yours", nil), cards: []int{int(v.Objective[me])}})
	}
	n := 0
	for _, s := range secs {
		n += len(s.cards)
	}
	if n == 0 {
		return nil, ErrEmptyHand
	}
	return secs, nil
}

// deciding reports whether side has a pending decision of kind k.
func deciding(v *engine.View, side engine.Side, k engine.PromptKind) bool {
	for _, d := range v.Deciding {
		if d.Side == side && d.Kind == k {
			return true
		}
	}
	return false
}

// Hand picture geometry: card columns of CardWidth with handGap between
// them; each section is a panel (its title strip, then its cards) with
// handPad around the cards. Sections of up to handCols cards share a row
// of panels when they fit, which keeps the picture short.
const (
	handGap    = 24
	handPad    = 8
	handTitleH = 40
	handNoteH  = 22
	handHeadH  = 44
)

func handColX(c int) int { return handGap + c*(CardWidth+handGap) }

// DrawHand is RenderHand without the PNG encoding: it returns a new image
// that the caller owns.
func (r *Renderer) DrawHand(v *engine.View) (*image.RGBA, error) {
	secs, err := r.handSectionsOf(v)
	if err != nil {
		return nil, err
	}
	return r.drawHand(v, secs, image.NewRGBA, nil)
}

// handSectionsOf is handSections in the renderer's language, its titles
// and notes translated (they are measured as drawn).
func (r *Renderer) handSectionsOf(v *engine.View) ([]handSection, error) {
	secs, err := handSections(r.pr, v)
	if err != nil {
		return nil, err
	}
	for i := range secs {
		secs[i].title, secs[i].note = r.tr(secs[i].title), r.tr(secs[i].note)
	}
	return secs, nil
}

// drawHand draws the hand picture of v, whose sections are secs
// (handSectionsOf), on a canvas from canvas(bounds), whose
// pixels it paints over entirely (a reused buffer needs no clearing).
// With cards not nil, the packed cards are not drawn but listed there
// (RenderHand writes them as palette indices).
func (r *Renderer) drawHand(v *engine.View, secs []handSection, canvas func(image.Rectangle) *image.RGBA, cards *[]placedCard) (img *image.RGBA, err error) {
	defer func() {
		// A bug here must not take the bot down with it.
		if e := recover(); e != nil {
			img, err = nil, fmt.Errorf("render: hand: %v", e)
		}
	}()
	fs := r.faces.take()
	defer r.faces.give(fs)

	// Lay the sections out in bands (rows of panels).
	type placed struct {
		sec        handSection
		col, cols  int
		rows       int
		titleLines []string
		titleFace  *face
		noteLine   bool // the note goes on its own line
	}
	var bands [][]placed
	used, maxCols := handCols, 1
	for _, s := range secs {
		n := len(s.cards)
		cols := min(max(n, 1), handCols)
		if n > handCols || used+cols > handCols {
			bands = append(bands, nil)
			used = 0
		}
		p := placed{sec: s, col: used, cols: cols, rows: (n + handCols - 1) / handCols}
		inner := cols*(CardWidth+handGap) - handGap
		p.titleFace, p.titleLines = fitTitle(fs, s.title, inner)
		if s.note != "" && (len(p.titleLines) > 1 || measure(p.titleFace, p.titleLines[0])+12+measure(fs.reg(16), s.note) > inner) {
			p.noteLine = true
		}
		bands[len(bands)-1] = append(bands[len(bands)-1], p)
		used += cols
		maxCols = max(maxCols, used)
	}
	stripH := func(p placed) int {
		h := handTitleH + (len(p.titleLines)-1)*26
		if p.noteLine {
			h += handNoteH
		}
		return h
	}
	w := max(handColX(maxCols), 440)
	h := handHeadH
	bandH := make([]int, len(bands))
	for i, b := range bands {
		strip, rows := 0, 0
		for _, p := range b {
			strip = max(strip, stripH(p))
			rows = max(rows, p.rows)
		}
		cardsH := 0
		if rows > 0 {
			cardsH = rows*(CardHeight+handGap) - handGap + handPad
		}
		bandH[i] = handPad + strip + cardsH
		h += bandH[i] + handGap
	}

	img = canvas(image.Rect(0, 0, w, h))
	p := r.painter(img, fs)
	p.rect(img.Rect, colBackground)
	// Whose cards, and when.
	head := p.t("render.hand.head", locale.Args{"Side": p.tr(strings.ToUpper(v.Viewer.String())), "Round": roundName(p.pr, v.Round)})
	p.textMid(fs.bold(20), head, handGap, handHeadH/2+4, sideDark(v.Viewer), left)
	y := handHeadH
	for i, b := range bands {
		strip := 0
		for _, pl := range b {
			strip = max(strip, stripH(pl))
		}
		for _, pl := range b {
			x0 := handColX(pl.col) - handPad
			x1 := handColX(pl.col+pl.cols-1) + CardWidth + handPad
			panel := colPanel
			if pl.sec.muted {
				panel = mixCol(colPanel, colBackground, 0.35)
			}
			pr := image.Rect(x0, y, x1, y+bandH[i])
			p.roundRect(pr, 10, panel)
			p.roundFrame(pr, 10, 2, colPanelEdge)
			ty := y + handPad + 26
			tx := x0 + handPad + 4
			for k, l := range pl.titleLines {
				lw := text(img, pl.titleFace, l, tx, ty+k*26, colInk, left)
				if k == len(pl.titleLines)-1 && pl.sec.note != "" && !pl.noteLine {
					p.text(fs.reg(16), pl.sec.note, tx+lw+12, ty+k*26, colInkSoft, left)
				}
			}
			if pl.noteLine {
				p.text(fs.reg(16), pl.sec.note, tx, ty+(len(pl.titleLines)-1)*26+handNoteH, colInkSoft, left)
			}
			cy := y + handPad + strip
			for k, n := range pl.sec.cards {
				ci, err := r.cardImage(n, fs)
				if err != nil {
					return nil, err
				}
				x := handColX(pl.col + k%handCols)
				yy := cy + (k/handCols)*(CardHeight+handGap)
				if cards != nil && ci.packed != nil {
					*cards = append(*cards, placedCard{pic: ci, at: image.Pt(x, yy), under: panel})
					continue
				}
				ci.drawOver(img, image.Pt(x, yy))
			}
		}
		y += bandH[i] + handGap
	}
	return img, nil
}

// fitTitle sets a section title in bold 22 on one line, or smaller, or on
// two lines, within w pixels.
func fitTitle(fs *faceSet, s string, w int) (*face, []string) {
	for _, size := range []int{22, 20} {
		if fc := fs.bold(size); measure(fc, s) <= w {
			return fc, []string{s}
		}
	}
	fc := fs.bold(20)
	lines := wrap(fc, s, w)
	if len(lines) > 2 {
		lines = []string{lines[0], ellipsize(fc, joinRest(lines[1:]), w)}
	}
	return fc, lines
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
	p.text(fs.bold(24), fmt.Sprintf("#%d", c.Num), head.Min.X+14, head.Min.Y+30, colWhite, left)
	kind := ""
	switch {
	case isObj:
		kind = p.t("render.card.kind-objective", nil)
	case c.Kind == engine.FinalCrisisCard:
		kind = p.t("render.card.kind-fc", nil)
	case c.Side == engine.Versailles:
		kind = p.t("render.card.kind-versailles", nil)
	case c.Side == engine.Commune:
		kind = p.t("render.card.kind-commune", nil)
	default:
		kind = p.t("render.card.kind-neutral", nil)
	}
	p.text(fs.bold(14), kind, head.Min.X+74, head.Min.Y+27, colWhite, left)
	if !isObj {
		// OP value: a white disc.
		cx, cy := float64(head.Max.X-34), float64(head.Min.Y+32)
		p.circle(cx, cy, 27, colWhite)
		p.ring(cx, cy, 27, 3, dark)
		p.textMid(fs.bold(28), itoa(c.OP), int(cx), int(cy)-5, dark, center)
		p.text(fs.bold(11), p.t("render.card.op", nil), int(cx), int(cy)+19, dark, center)
	} else if c.Space >= 0 {
		p.dimIcon(int(dim), float64(head.Max.X-34), float64(head.Min.Y+30), 30, colWhite, dark)
	}
	nameW := head.Dx() - 28
	fc := fs.bold(22)
	if !isObj {
		nameW -= 50 // room for the OP disc
	}
	name := p.pr.CardTitle(p.deck, c.Num)
	lines := wrap(fc, name, nameW)
	if len(lines) > 2 {
		fc = fs.bold(18)
		lines = wrap(fc, name, nameW)
		if len(lines) > 2 {
			lines = []string{lines[0], ellipsize(fc, joinRest(lines[1:]), nameW)}
		}
	}
	y := head.Min.Y + 62
	if len(lines) == 1 {
		y += 12
	}
	for _, l := range lines { // the name as locale.CardTitle gives it: not a term swap
		text(p.img, fc, l, head.Min.X+14, y, colWhite, left)
		y += 26
	}

	// Objective: the space and its dimension.
	ty := head.Max.Y + 14
	if isObj && c.Space >= 0 {
		// The space, and its dimension on the right when both fit on one
		// line; otherwise the dimension goes under the space (the French
		// and Russian names once overlapped: "Mouvements Sociaux" over
		// "Opinion Publique").
		sr := image.Rect(cr.Min.X+16, ty, cr.Max.X-16, ty+34)
		room := sr.Dx() - 38 - 10
		name, dname := p.tr(c.Space.String()), p.tr(dim.String())
		nfc, dfc := fs.bold(17), fs.reg(14)
		oneLine := measure(nfc, name)+12+measure(dfc, dname) <= room
		if !oneLine {
			sr.Max.Y = ty + 50
		}
		p.roundRect(sr, 8, mixCol(main, colBody, 0.18))
		p.roundFrame(sr, 8, 2, main)
		p.dimIcon(int(dim), float64(sr.Min.X+20), float64(mid(sr).Y), 18, main, dark)
		if oneLine {
			textMid(p.img, nfc, name, sr.Min.X+38, mid(sr).Y, dark, left)
			textMid(p.img, dfc, dname, sr.Max.X-10, mid(sr).Y, dark, right)
		} else {
			p.fitText(true, 17, 12, name, room, sr.Min.X+38, sr.Min.Y+21, dark, left)
			p.fitText(false, 14, 11, dname, room, sr.Min.X+38, sr.Min.Y+41, dark, left)
		}
		ty = sr.Max.Y + 8
	}

	// Effect text, shrunk until it fits.
	foot := 40
	textBox := image.Rect(cr.Min.X+18, ty+8, cr.Max.X-18, cr.Max.Y-foot)
	body := optionBreak.ReplaceAllString(p.pr.CardText(p.deck, c.Num), "\n$1")
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
	footRight := cr.Max.X - 16 // where the status badge starts
	if c.Status == engine.StatusProvisional || c.Status == engine.StatusPartial {
		label := p.t("render.card.provisional", nil)
		if c.Status == engine.StatusPartial {
			label = p.t("render.card.partial", nil)
		}
		f := fs.bold(13)
		w := measure(f, label) + 20
		b := image.Rect(cr.Max.X-16-w, fy-12, cr.Max.X-16, fy+12)
		footRight = b.Min.X
		p.roundRect(b, 12, colBadge)
		p.textMid(f, label, mid(b).X, mid(b).Y, colInk, center)
	}
	note := ""
	if c.TwoPlayerOnly {
		note = p.t("render.card.two-player", nil)
	} else if c.Kind == engine.FinalCrisisCard {
		note = p.t("render.card.held", nil)
	}
	if note != "" { // shrunk to the room left of the badge
		p.fitText(true, 14, 10, note, footRight-8-(cr.Min.X+18), cr.Min.X+18, fy+5, colInkSoft, left)
	}
}
