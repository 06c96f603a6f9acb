package bot

import (
	"github.com/rfop/rfop/engine"
	"github.com/rfop/rfop/render"
	"github.com/rfop/rfop/solo"
)

// DefaultPictures is the production renderer (package render).
func DefaultPictures(deck *engine.Deck) (Pictures, error) {
	r, err := render.New(deck)
	if err != nil {
		return nil, err
	}
	return pictures{r}, nil
}

type pictures struct{ r *render.Renderer }

func (p pictures) Board(v engine.View, prev *engine.View, caption string) ([]byte, error) {
	return p.r.RenderBoard(&v, prev, caption)
}
func (p pictures) Hand(cards, objectives []int) ([]byte, error) {
	return p.r.RenderHand(cards, objectives)
}
func (p pictures) Card(num int) ([]byte, error) { return p.r.RenderCard(num) }

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
