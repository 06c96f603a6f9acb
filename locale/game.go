package locale

import (
	"strconv"
	"sync"

	"github.com/rfop/rfop/engine"
	"github.com/rfop/rfop/glossary"
)

// The game's own words: what a prompt asks, what a choice does, a log
// line, a card's name and text, in the Printer's language. Every caller
// (bot, render, terminal play) goes through these, so the engine's
// messages are translated in one place.
//
// BRIDGE (to be replaced within issue 13): these currently print the
// engine's English and swap the game terms through the glossary, which is
// what the bot did before the catalogue existed. The engine's message ids
// and arguments replace the English text here; the signatures stay.

// Prompt is the question prompt pr asks.
func (p *Printer) Prompt(g *engine.Game, pr engine.Prompt) string {
	return p.terms(g.Deck()).Text(g.PromptText(pr))
}

// Choice describes choice c of prompt pr.
func (p *Printer) Choice(g *engine.Game, pr engine.Prompt, c engine.Choice) string {
	return p.terms(g.Deck()).Text(g.ChoiceText(pr, c))
}

// LogLine is log entry e in words.
func (p *Printer) LogLine(deck *engine.Deck, e engine.LogEntry) string {
	return p.terms(deck).Text(e.Text)
}

// CardName is "#N Name" of card n of deck (nil: the embedded deck).
func (p *Printer) CardName(deck *engine.Deck, n int) string {
	if deck == nil {
		deck = engine.DefaultDeck()
	}
	c := deck.Card(n)
	if c == nil {
		return "#" + strconv.Itoa(n)
	}
	return "#" + strconv.Itoa(n) + " " + c.Name
}

// CardText is card n's effect text.
func (p *Printer) CardText(deck *engine.Deck, n int) string {
	if deck == nil {
		deck = engine.DefaultDeck()
	}
	c := deck.Card(n)
	if c == nil {
		return ""
	}
	return p.terms(deck).Text(c.Text)
}

// Term is one game term (a space, track, zone…) in the edition's words.
func (p *Printer) Term(english string) string {
	return p.terms(nil).Text(english)
}

type termsKey struct {
	lang Lang
	deck *engine.Deck
}

var (
	termsMu    sync.Mutex
	termsCache = map[termsKey]*glossary.Terms{}
)

func (p *Printer) terms(deck *engine.Deck) *glossary.Terms {
	termsMu.Lock()
	defer termsMu.Unlock()
	k := termsKey{p.lang, deck}
	t, ok := termsCache[k]
	if !ok {
		t = glossary.ForDeck(p.lang, deck)
		termsCache[k] = t
	}
	return t
}
