package bot

import (
	"errors"
	"fmt"
	"sync"

	"github.com/rfop/rfop/engine"
	"github.com/rfop/rfop/glossary"
	"github.com/rfop/rfop/render"
	"github.com/rfop/rfop/replay"
	"github.com/rfop/rfop/solo"
)

// DefaultPictures is the production renderer (package render), with one
// renderer per language in use (each draws its static art once).
func DefaultPictures(deck *engine.Deck) (Pictures, error) {
	r, err := render.New(deck)
	if err != nil {
		return nil, err
	}
	return &pictures{deck: deck, by: map[glossary.Lang]*render.Renderer{glossary.English: r}}, nil
}

type pictures struct {
	deck *engine.Deck
	mu   sync.Mutex
	by   map[glossary.Lang]*render.Renderer
}

func (p *pictures) renderer(l glossary.Lang) (*render.Renderer, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if r, ok := p.by[l]; ok {
		return r, nil
	}
	r, err := render.NewFor(p.deck, l)
	if err != nil {
		return nil, fmt.Errorf("renderer for %s: %w", l, err)
	}
	p.by[l] = r
	return r, nil
}

func (p *pictures) Board(l glossary.Lang, v engine.View, prev *engine.View, caption string) ([]byte, error) {
	r, err := p.renderer(l)
	if err != nil {
		return nil, err
	}
	return r.RenderBoard(&v, prev, caption)
}

func (p *pictures) Hand(l glossary.Lang, v engine.View) ([]byte, error) {
	r, err := p.renderer(l)
	if err != nil {
		return nil, err
	}
	png, err := r.RenderHand(&v)
	if errors.Is(err, render.ErrEmptyHand) {
		return nil, nil // no card held: no picture, and nothing wrong
	}
	return png, err
}

func (p *pictures) Card(l glossary.Lang, num int) ([]byte, error) {
	r, err := p.renderer(l)
	if err != nil {
		return nil, err
	}
	return r.RenderCard(num)
}

// Replay draws a replay GIF within Discord's attachment limit (half size
// if needed): ReplayPictures.
func (p *pictures) Replay(l glossary.Lang, o engine.Options, moves []engine.Move) ([]byte, replay.Summary, bool, error) {
	r, err := p.renderer(l)
	if err != nil {
		return nil, replay.Summary{}, false, err
	}
	gif, info, err := r.ReplayGIF(o, moves, render.ReplayOptions{MaxBytes: render.DiscordLimit})
	if errors.Is(err, render.ErrTooLarge) {
		return nil, replay.Summary{}, false, fmt.Errorf("%w: %w", ErrReplayTooLarge, err)
	}
	return gif, info.Summary, info.Half, err
}

// DefaultSolo is the production solo opponent (package solo): its
// explanation names the decision-table rows and goes into the game log.
func DefaultSolo() SoloPolicy { return soloPolicy{&solo.Policy{}} }

type soloPolicy struct{ p *solo.Policy }

func (s soloPolicy) Decide(g *engine.Game, p engine.Prompt) (engine.Choice, string, error) {
	c, ex, err := s.p.Decide(g, p)
	if err != nil {
		return c, "", err
	}
	return c, ex.String(), nil
}
