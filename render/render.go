package render

import (
	"errors"
	"fmt"
	"image"
	"runtime"
	"sync"

	"github.com/fogleman/gg"
	"github.com/golang/freetype/raster"
	"github.com/rfop/rfop/engine"
	"github.com/rfop/rfop/glossary"
	"github.com/rfop/rfop/locale"
)

// Renderer draws boards and cards. Make one with New and share it: all its
// methods are safe for concurrent use.
type Renderer struct {
	deck  *engine.Deck
	fonts *fonts
	faces facePool
	terms *glossary.Terms
	tr    func(string) string // terms.Text: labels in the edition's words
	pr    *locale.Printer     // sentences, captions and card texts

	// static is the board art that never changes (read-only after New).
	static *image.RGBA
	// Pre-drawn pieces of art blitted over static when the state asks for
	// them (a controlled space, a breached zone, an open pool cell...).
	ctrl     [2][engine.NumSpaces]sprite
	dimCtrl  [2][engine.NumDimensions]sprite
	breached [2][engine.NumZones]sprite
	cellOpen [4]sprite // Commune pool cells, in order

	cards  cardCache  // card pictures, drawn on first use
	frames frameCache // the last hand pictures' frames (handframe.go)

	// The palettes of the pictures (palette.go), built on first use.
	boardPalOnce, cardPalOnce sync.Once
	boardPal, cardPal         *palette

	canvases chan *canvas // free list of board-sized canvases
	handPix  pixPool      // free list of hand-picture pixel buffers
	handIdx  pixPool      // free list of hand-picture palette indices
}

// pixPool is a bounded free list of pixel buffers for pictures whose size
// varies (hands): a buffer too small for a request is dropped, so the
// spares grow to the largest size in use.
type pixPool struct{ free chan []byte }

func (p *pixPool) get(n int) []byte {
	select {
	case b := <-p.free:
		if cap(b) >= n {
			return b[:n]
		}
	default:
	}
	return make([]byte, n)
}

func (p *pixPool) put(b []byte) {
	select {
	case p.free <- b:
	default: // enough spares; let this one go
	}
}

// sprite is a rectangle of pre-drawn art.
type sprite struct {
	img *image.RGBA // Bounds() is where it goes on the board
}

// canvas is a board-sized image with its gg context, reused between renders.
type canvas struct {
	img *image.RGBA
	dc  *gg.Context
	// The rounded rectangles' rasterizer (painter.roundRect), kept too.
	ras     *raster.Rasterizer
	corners *cornerPainter
}

// New parses the fonts and draws the static board art. deck names the cards
// (nil: the engine's embedded deck).
func New(deck *engine.Deck) (*Renderer, error) { return NewFor(deck, glossary.English) }

// NewFor is New in one edition's language: space names, tracks, zones and
// the other terms read as in that rulebook (glossary), and every caption,
// label, hand section and card name and text comes from the catalogue
// (package locale). The static art is drawn in that language, so keep one
// Renderer per language.
func NewFor(deck *engine.Deck, lang glossary.Lang) (*Renderer, error) {
	if deck == nil {
		deck = engine.DefaultDeck()
	}
	f, err := loadFonts()
	if err != nil {
		return nil, err
	}
	terms := glossary.ForDeck(lang, deck)
	r := &Renderer{deck: deck, fonts: f, terms: terms, tr: terms.Text, pr: locale.For(lang)}
	// Enough spares for every CPU to render at once; more renders than
	// that in parallel allocate extra canvases and faces, dropped after use.
	spares := runtime.GOMAXPROCS(0) + 1
	r.faces = facePool{f: f, free: make(chan *faceSet, spares)}
	r.canvases = make(chan *canvas, spares)
	r.handPix = pixPool{free: make(chan []byte, spares)}
	r.handIdx = pixPool{free: make(chan []byte, spares)}
	r.drawStatic()
	return r, nil
}

// Lang is the language of the renderer's game terms.
func (r *Renderer) Lang() glossary.Lang { return r.terms.Lang() }

// Deck returns the deck the renderer names cards from.
func (r *Renderer) Deck() *engine.Deck { return r.deck }

// painter draws on img in the renderer's language.
func (r *Renderer) painter(img *image.RGBA, fs *faceSet) *painter {
	p := newPainter(img, fs, r.tr)
	p.pr, p.deck = r.pr, r.deck
	return p
}

func (r *Renderer) getCanvas() *canvas {
	select {
	case c := <-r.canvases:
		return c
	default:
	}
	img := image.NewRGBA(image.Rect(0, 0, BoardWidth, BoardHeight))
	return &canvas{img: img, dc: gg.NewContextForRGBA(img)}
}

func (r *Renderer) putCanvas(c *canvas) {
	select {
	case r.canvases <- c:
	default:
	}
}

// RenderBoard draws the board for v and returns it as a PNG (8-bit
// paletted, with the board palette: palette.go).
//
// prev, if not nil, is the view of the previous picture: what changed since
// (pieces in a space, a Crisis Track zone, a pool, VP, momentum, the round)
// is highlighted in gold. caption is the line at the top of the picture;
// DefaultCaption builds one.
//
// The renderer draws only public information from the view (never a hand,
// a set-aside card, an objective offer or an unrevealed objective), but a
// picture posted in a channel must still be made from the spectator view
// g.ViewFor(engine.NoSide), so that nothing private reaches it by accident.
func (r *Renderer) RenderBoard(v *engine.View, prev *engine.View, caption string) ([]byte, error) {
	c := r.getCanvas()
	defer r.putCanvas(c)
	if err := r.drawBoardOn(c, v, prev, caption); err != nil {
		return nil, err
	}
	return encodePaletted(r.boardPalette(), c.img, boardLevel)
}

// DrawBoard is RenderBoard without the PNG encoding: it returns a new image
// that the caller owns.
func (r *Renderer) DrawBoard(v *engine.View, prev *engine.View, caption string) (*image.RGBA, error) {
	c := r.getCanvas()
	defer r.putCanvas(c)
	if err := r.drawBoardOn(c, v, prev, caption); err != nil {
		return nil, err
	}
	out := image.NewRGBA(c.img.Rect)
	copy(out.Pix, c.img.Pix)
	return out, nil
}

func (r *Renderer) drawBoardOn(c *canvas, v *engine.View, prev *engine.View, caption string) (err error) {
	if v == nil {
		return errors.New("render: nil view")
	}
	defer func() {
		// A bug here must not take the bot down with it.
		if e := recover(); e != nil {
			err = fmt.Errorf("render: board: %v", e)
		}
	}()
	copy(c.img.Pix, r.static.Pix)
	fs := r.faces.take()
	defer r.faces.give(fs)
	p := &painter{img: c.img, dc: c.dc, fs: fs, tr: r.tr, pr: r.pr, deck: r.deck, ras: c.ras, corners: c.corners}
	defer func() { c.ras, c.corners = p.ras, p.corners }()
	p.dc.Identity()
	b := boardState{v: sanitize(v)}
	if prev != nil {
		pv := sanitize(prev)
		b.prev = &pv
	}
	r.drawDynamic(p, &b, caption)
	return nil
}

// sanitize clamps the view's counters to the ranges the board can show, so
// that a corrupt or future view never indexes out of range.
func sanitize(in *engine.View) engine.View {
	v := *in
	clamp := func(x *int8, lo, hi int8) {
		if *x < lo {
			*x = lo
		}
		if *x > hi {
			*x = hi
		}
	}
	clamp(&v.Round, 1, 4)
	for s := 0; s < 2; s++ {
		clamp(&v.Momentum[s], 0, 3)
		clamp(&v.VP[s], -5, 5)
		clamp(&v.Pool[s], 0, 99)
		clamp(&v.OutOfPlay[s], 0, 99)
		for x := range v.Cubes[s] {
			clamp(&v.Cubes[s][x], 0, 99)
		}
		for z := range v.Track[s] {
			clamp(&v.Track[s][z], 0, 9)
			clamp(&v.Bonus[s][z], 0, 9)
		}
	}
	clamp(&v.PoolCap, 0, 4)
	for i := range v.Prussian {
		clamp(&v.Prussian[i], 0, 9)
	}
	for x := range v.Disc {
		if v.Disc[x] != engine.Versailles && v.Disc[x] != engine.Commune {
			v.Disc[x] = engine.NoSide
		}
	}
	return v
}
