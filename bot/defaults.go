package bot

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/rfop/rfop/ai"
	"github.com/rfop/rfop/analysis"
	"github.com/rfop/rfop/engine"
	"github.com/rfop/rfop/glossary"
	"github.com/rfop/rfop/render"
	"github.com/rfop/rfop/replay"
	"github.com/rfop/rfop/solo"
)

// DefaultPictures is the production renderer (package render): one
// renderer per deck and language in use (each draws its static art once),
// so that every picture names the cards of the game's own deck.
func DefaultPictures() (Pictures, error) {
	p := &pictures{by: map[pictureKey]*render.Renderer{}}
	// The common case is drawn now, so a broken renderer stops the start.
	r, err := p.renderer(glossary.English, engine.DefaultDeck())
	if err != nil {
		return nil, err
	}
	// Its palettes too (the board's tens of milliseconds, the cards' a
	// few hundred: every card drawn, cached for the hands): built in the
	// background, they competed with the first burst of a busy start for
	// the cores, and the first board waited for the board palette.
	// Measured with BenchmarkE2E200GamesStart (200 games started at once)
	// against building them in the background: first board p50 0.85 to
	// 0.73 s, acknowledgement p99 216 to 127 ms (medians of 10 alternated
	// runs at load 2.4-3.4). Other languages' renderers still prepare in
	// the background when first asked for.
	r.Prepare()
	return p, nil
}

type pictureKey struct {
	lang glossary.Lang
	deck string
}

type pictures struct {
	mu sync.Mutex
	by map[pictureKey]*render.Renderer
}

func (p *pictures) renderer(l glossary.Lang, d *engine.Deck) (*render.Renderer, error) {
	if d == nil {
		d = engine.DefaultDeck()
	}
	k := pictureKey{l, d.ID}
	p.mu.Lock()
	defer p.mu.Unlock()
	if r, ok := p.by[k]; ok {
		return r, nil
	}
	r, err := render.NewFor(d, l)
	if err != nil {
		return nil, fmt.Errorf("renderer for %s and deck %s: %w", l, d.ID, err)
	}
	// The palettes take a few hundred milliseconds of one core: built
	// meanwhile, not by the first player to want a picture (who waits for
	// them if they come first).
	go r.Prepare()
	p.by[k] = r
	return r, nil
}

func (p *pictures) Board(l glossary.Lang, d *engine.Deck, v engine.View, prev *engine.View, caption string) ([]byte, error) {
	r, err := p.renderer(l, d)
	if err != nil {
		return nil, err
	}
	return r.RenderBoard(&v, prev, caption)
}

func (p *pictures) Hand(l glossary.Lang, d *engine.Deck, v engine.View) ([]byte, error) {
	r, err := p.renderer(l, d)
	if err != nil {
		return nil, err
	}
	png, err := r.RenderHand(&v)
	if errors.Is(err, render.ErrEmptyHand) {
		return nil, nil // no card held: no picture, and nothing wrong
	}
	return png, err
}

func (p *pictures) Card(l glossary.Lang, d *engine.Deck, num int) ([]byte, error) {
	r, err := p.renderer(l, d)
	if err != nil {
		return nil, err
	}
	return r.RenderCard(num)
}

// Replay draws a replay GIF within Discord's attachment limit (half size
// if needed): ReplayPictures.
func (p *pictures) Replay(l glossary.Lang, o engine.Options, moves []engine.Move) ([]byte, replay.Summary, bool, error) {
	r, err := p.renderer(l, o.Deck)
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
// explanation, what it does and why with the decision-table rows, goes into
// the game log as a message each reader sees in their language.
func DefaultSolo() SoloPolicy { return soloPolicy{&solo.Policy{}} }

type soloPolicy struct{ p *solo.Policy }

func (s soloPolicy) Decide(g *engine.Game, p engine.Prompt) (engine.Choice, *engine.Msg, error) {
	c, ex, err := s.p.Decide(g, p)
	if err != nil {
		return c, nil, err
	}
	return c, &ex.Why, nil
}

// DefaultAI is the production AI opponent (package ai). It keeps the
// search player of the game it last decided for, so that the AI's
// consecutive decisions of one turn share their search tree; the bot's
// single AI worker is its only caller.
func DefaultAI() AIOpponent { return &aiOpponent{} }

type aiOpponent struct {
	mu   sync.Mutex
	game int64
	name string
	p    ai.Player
}

func (a *aiOpponent) Choose(game int64, level string, seed uint64, is *engine.InfoSet) (engine.Choice, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	name := "ai:" + level
	if a.p == nil || a.game != game || a.name != name {
		p, err := ai.NewPlayer(name, seed)
		if err != nil {
			return engine.Choice{}, err
		}
		a.game, a.name, a.p = game, name, p
	}
	return a.p.Choose(is)
}

func (a *aiOpponent) Hint(level string, is *engine.InfoSet, n int) ([]AIHint, error) {
	l, err := ai.ParseLevel(level)
	if err != nil {
		return nil, err
	}
	hs, err := ai.Advise(l, is)
	if err != nil {
		return nil, err
	}
	var out []AIHint
	for _, x := range hs[:min(n, len(hs))] {
		out = append(out, AIHint{Choice: x.Choice, WinRate: x.WinRate, Margin: x.Margin, Close: x.Close, Thin: x.Thin})
	}
	return out, nil
}

func (a *aiOpponent) Levels() []string {
	var out []string
	for _, l := range ai.Levels {
		out = append(out, string(l))
	}
	return out
}

// DefaultAnalyst is the production post-game analysis (package analysis)
// at its default budget: the normal level's search at each decision.
func DefaultAnalyst() Analyst { return analyst{cfg: analysis.DefaultConfig()} }

// NewAnalyst analyses with the given budget (tests use a small one).
func NewAnalyst(cfg analysis.Config) Analyst { return analyst{cfg: cfg} }

type analyst struct{ cfg analysis.Config }

func (a analyst) Analyse(ctx context.Context, o engine.Options, moves []engine.Move, progress analysis.Progress) (*analysis.Analysis, error) {
	return analysis.Analyse(ctx, o, moves, a.cfg, progress)
}
