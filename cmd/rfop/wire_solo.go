package main

import (
	"github.com/rfop/rfop/bot"
	"github.com/rfop/rfop/solo"
)

// The solo opponent plugs into the bot, terminal play and selfplay here.

func init() {
	botSolo = bot.DefaultSolo
	soloChooser = (&solo.Policy{}).Choose
}
