package main

import (
	"github.com/rfop/rfop/bot"
	"github.com/rfop/rfop/engine"
	"github.com/rfop/rfop/solo"
)

// The solo opponent plugs into the bot, terminal play and selfplay here.

func init() {
	botSolo = bot.DefaultSolo
	botAI = bot.DefaultAI           // the AI opponent of the two-player game (package ai)
	botAnalyst = bot.DefaultAnalyst // post-game analysis (package analysis)
	soloChooser = func(g *engine.Game, p engine.Prompt) (engine.Choice, *engine.Msg, error) {
		c, ex, err := (&solo.Policy{}).Decide(g, p)
		return c, &ex.Why, err
	}
}
