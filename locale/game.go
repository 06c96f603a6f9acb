package locale

import (
	"strconv"
	"sync"

	"github.com/rfop/rfop/engine"
	"github.com/rfop/rfop/glossary"
)

// The game's own words: what a prompt asks, what a choice does, a log
// line, a card's name and text, the result, in the Printer's language.
// Every caller (bot, render, terminal play) goes through these, so the
// engine's messages are translated in one place.

// Prompt is the question prompt pr asks.
func (p *Printer) Prompt(g *engine.Game, pr engine.Prompt) string {
	return p.Msg(g.Deck(), g.PromptMsg(pr))
}

// Choice describes choice c of prompt pr.
func (p *Printer) Choice(g *engine.Game, pr engine.Prompt, c engine.Choice) string {
	return p.Msg(g.Deck(), g.ChoiceMsg(pr, c))
}

// LogLine is log entry e in words: the way to read a log line (the engine
// stores its message, not its words). An entry saved before the log
// carried messages has only its English text: it prints as it was shown
// then, with the game terms in the edition's words.
func (p *Printer) LogLine(deck *engine.Deck, e engine.LogEntry) string {
	if e.Msg != nil {
		return p.Msg(deck, *e.Msg)
	}
	return p.terms(deck).Text(e.LegacyText)
}

// Result is the game's result in words: who won and why (a result saved
// before messages prints its English summary, terms translated).
func (p *Printer) Result(deck *engine.Deck, r *engine.Result) string {
	if r == nil {
		return ""
	}
	if r.Msg != nil {
		return p.Msg(deck, *r.Msg)
	}
	return p.terms(deck).Text(r.LegacySummary)
}

// CardName is "#N Name" of card n of deck (nil: the embedded deck): the
// number always shows, so a player can match a printed card of any
// edition. See CardTitle for which name.
func (p *Printer) CardName(deck *engine.Deck, n int) string {
	t := p.CardTitle(deck, n)
	if t == "" {
		return "#" + strconv.Itoa(n)
	}
	return "#" + strconv.Itoa(n) + " " + t
}

// CardTitle is card n's name without its number. A card whose name, text
// and effect are the built-in deck's shows the catalogue's name in the
// Printer's language (the edition's printed name where one is known). A
// card a custom deck changed shows the deck file's own name, or its
// "names" entry for the language when the file gives one: a translation
// of a card that no longer says the same would mislead.
func (p *Printer) CardTitle(deck *engine.Deck, n int) string {
	if deck == nil {
		deck = engine.DefaultDeck()
	}
	c := deck.Card(n)
	if c == nil {
		return ""
	}
	if c.SameCard(engine.DefaultDeck().Card(n)) {
		if id := "cards." + strconv.Itoa(n) + ".name"; p.Has(id) {
			return p.T(id, nil)
		}
	}
	if s := c.Names[string(p.lang)]; s != "" {
		return s
	}
	return c.Name
}

// CardText is card n's event text, chosen like CardTitle: the catalogue's
// for a built-in card, else the deck file's "texts" entry for the
// language, else its own text (with the game terms in the edition's words).
func (p *Printer) CardText(deck *engine.Deck, n int) string {
	if deck == nil {
		deck = engine.DefaultDeck()
	}
	c := deck.Card(n)
	if c == nil {
		return ""
	}
	if c.SameCard(engine.DefaultDeck().Card(n)) {
		if id := "cards." + strconv.Itoa(n) + ".text"; p.Has(id) {
			return p.T(id, nil)
		}
	}
	if s := c.Texts[string(p.lang)]; s != "" {
		return s
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

// Side is side s's name as a template argument: {{.Side}} is the
// nominative, and the sentence may decline it ({{.Side.Gen}} in Russian)
// or give it its article ({{.Side.Cap}}, {{.Side.De}} in French).
func (p *Printer) Side(s engine.Side) any {
	return p.sideWord(nil, s)
}
