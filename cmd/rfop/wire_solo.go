package main

import (
	"github.com/rfop/rfop/bot"
	"github.com/rfop/rfop/engine"
	"github.com/rfop/rfop/solo"
)

// The solo opponent plugs into the bot, terminal play and selfplay here.

func init() {
	policy := &solo.Policy{}
	botSolo = func() bot.SoloPolicy { return soloPolicy{policy} }
	soloChooser = policy.Choose
}

// soloPolicy adapts *solo.Policy to bot.SoloPolicy: the explanation names
// the decision-table rows and goes into the game log.
type soloPolicy struct{ p *solo.Policy }

func (s soloPolicy) Decide(g *engine.Game, p engine.Prompt) (engine.Choice, string, error) {
	c, ex, err := s.p.Decide(g, p)
	if err != nil {
		return c, "", err
	}
	return c, ex.String(), nil
}
