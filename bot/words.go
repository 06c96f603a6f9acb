package bot

import (
	"context"
	"strings"

	"github.com/rfop/rfop/engine"
	"github.com/rfop/rfop/locale"
	"github.com/rfop/rfop/storage"
)

// kindWords says what a decision is about, for the public "Waiting for …"
// line: the message completes "Waiting for <player> …". Every
// engine.PromptKind has an entry (TestEveryPromptKindHasWords); the words
// are public, so they never name a card in a hand.
var kindWords = map[engine.PromptKind]string{
	engine.PromptObjective:      "bot.decide.objective",
	engine.PromptInitiative:     "bot.decide.initiative",
	engine.PromptCensor:         "bot.decide.censor",
	engine.PromptPlay:           "bot.decide.play",
	engine.PromptSphere:         "bot.decide.sphere",
	engine.PromptOpsRemove:      "bot.decide.ops-remove",
	engine.PromptOpsPlace:       "bot.decide.ops-place",
	engine.PromptFreeCube:       "bot.decide.free-cube",
	engine.PromptFCDiscard:      "bot.decide.fc-discard",
	engine.PromptFCPlay:         "bot.decide.fc-play",
	engine.PromptFCDecide:       "bot.decide.fc-decide",
	engine.PromptBonusOrder:     "bot.decide.bonus-order",
	engine.PromptBonusAction:    "bot.decide.bonus-action",
	engine.PromptDeescalate:     "bot.decide.deescalate",
	engine.PromptSpread:         "bot.decide.spread",
	engine.PromptTurncoat:       "bot.decide.turncoat",
	engine.PromptScoreOrder:     "bot.decide.score-order",
	engine.PromptObjEventOrder:  "bot.decide.obj-event-order",
	engine.PromptObjEvent:       "bot.decide.obj-event",
	engine.PromptOption:         "bot.decide.option",
	engine.PromptAndOrOrder:     "bot.decide.andor-order",
	engine.PromptEventPlace:     "bot.decide.event-place",
	engine.PromptEventRemove:    "bot.decide.event-remove",
	engine.PromptEventReplace:   "bot.decide.event-replace",
	engine.PromptPlaceDisc:      "bot.decide.place-disc",
	engine.PromptRemoveDisc:     "bot.decide.remove-disc",
	engine.PromptEventDiscard:   "bot.decide.event-discard",
	engine.PromptForceDiscard:   "bot.decide.force-discard",
	engine.PromptConfirmNothing: "bot.decide.confirm",
}

// decisionWords is kindWords in p's language, with a fallback for a kind
// added to the engine later (never the raw identifier).
func decisionWords(p *locale.Printer, k engine.PromptKind) string {
	if id, ok := kindWords[k]; ok {
		return p.T(id, nil)
	}
	return p.T("bot.decide.other", nil)
}

// waitingText says who must decide and about what (public: the game's
// language).
func (b *Bot) waitingText(rec storage.Game, g *engine.Game) string {
	return b.waitingIn(context.Background(), b.gamePrinter(rec), rec, g)
}

// waitingIn is waitingText in p's language.
func (b *Bot) waitingIn(ctx context.Context, p *locale.Printer, rec storage.Game, g *engine.Game) string {
	ps := g.Prompts()
	if len(ps) == 0 {
		return p.T("bot.waiting.nothing", nil)
	}
	var parts, who []string
	for k, pr := range ps {
		who = append(who, playerNameIn(p, rec, pr.Side))
		// Both sides deciding the same thing at once: name the decision once.
		if k == len(ps)-1 || ps[k+1].Kind != pr.Kind {
			parts = append(parts, p.T("bot.waiting.part", locale.Args{"Who": strings.Join(who, p.T("bot.and", nil)), "What": decisionWords(p, pr.Kind)}))
			who = nil
		}
	}
	out := p.T("bot.waiting", locale.Args{"Who": strings.Join(parts, p.T("bot.waiting.sep", nil))})
	if line := b.clockLine(ctx, p, rec, g); line != "" {
		out += "\n" + line
	}
	return out
}

// choiceDescription is a select option's second line: what a player on a
// phone cannot tell from the label (a card's OP and event, a space's
// pieces). "" when the label says it all. The panel is private, so the
// player's own cards may be described.
func (b *Bot) choiceDescription(p *locale.Printer, g *engine.Game, pr engine.Prompt, c engine.Choice) string {
	return truncate(b.describeChoice(p, g, pr, c), maxOptionLabel)
}

// describeChoice is choiceDescription before it is cut to Discord's limit.
func (b *Bot) describeChoice(p *locale.Printer, g *engine.Game, pr engine.Prompt, c engine.Choice) string {
	var d string
	switch c.Kind {
	case engine.ChoosePlay:
		if c.Mode == engine.ModeDiscardedEvent {
			d = p.T("bot.desc.discarded-event", locale.Args{"N": c.N, "Text": b.eventText(p, g.Deck(), c.N)})
		} else {
			d = b.cardSummary(p, g.Deck(), c.Card)
		}
	case engine.ChooseCard:
		if pr.Kind == engine.PromptObjective {
			d = b.objectiveSummary(p, g, c.Card)
		} else {
			d = b.cardSummary(p, g.Deck(), c.Card)
		}
	case engine.ChoosePlace, engine.ChooseRemove, engine.ChooseReplace, engine.ChooseDisc, engine.ChooseRemoveOwn:
		d = spaceSummary(p, g, c.Space, pr.Side)
	case engine.ChooseMove:
		d = p.T("bot.desc.move", locale.Args{"From": pieceCounts(p, g, c.Space), "To": pieceCounts(p, g, c.To)})
	}
	return d
}

// colourWord is a card's colour in p's language.
func colourWord(p *locale.Printer, c *engine.Card) string {
	return p.T("bot.colour."+c.Colour(), nil)
}

// The colours' ids, for the catalogue's completeness test (built at run
// time above from engine.Card.Colour).
var _ = []string{"bot.colour.blue", "bot.colour.red", "bot.colour.grey", "bot.colour.objective"}

// cardSummary: "2 OP · blue · MOMENTUM you +1. THEN PLACE…".
func (b *Bot) cardSummary(p *locale.Printer, d *engine.Deck, num int) string {
	c := d.Card(num)
	if c == nil {
		return ""
	}
	return p.T("bot.desc.card", locale.Args{"OP": p.N("common.op-short", c.OP, nil), "Colour": colourWord(p, c), "Text": b.eventText(p, d, num)})
}

// The cards' two-player marker and designers' notes, as each language's
// catalogue writes them.
var (
	twoPlayerMarkers = []string{"2P ONLY.", "PARTIE À 2 UNIQUEMENT.", "ТОЛЬКО ДЛЯ ИГРЫ ВДВОЁМ."}
	knownNotes       = []string{" (Known:", " (Connu :", " (Известно:"}
)

// eventText is a card's event text without the two-player marker (a
// two-player game plays them all; solo decks leave them out) and without
// the designers' "(Known: …)" notes.
func (b *Bot) eventText(p *locale.Printer, d *engine.Deck, num int) string {
	if d.Card(num) == nil {
		return ""
	}
	t := strings.TrimSpace(p.CardText(d, num))
	for _, m := range twoPlayerMarkers {
		t = strings.TrimSpace(strings.TrimPrefix(t, m))
	}
	for _, n := range knownNotes {
		if k := strings.Index(t, n); k > 0 {
			if end := strings.Index(t[k:], ")"); end > 0 {
				t = t[:k] + t[k+end+1:]
			}
		}
	}
	return t
}

// choiceLabel is the engine's words for a choice, shortened where they
// would not fit a button or an option (the description says the rest).
func (b *Bot) choiceLabel(p *locale.Printer, g *engine.Game, pr engine.Prompt, c engine.Choice) string {
	l := p.Choice(g, pr, c)
	if len([]rune(l)) > maxOptionLabel && c.Kind == engine.ChoosePlay && c.Mode == engine.ModeFinalCrisisOps {
		if card := g.Deck().Card(c.Card); card != nil {
			l = p.T("bot.choice.fc-ops-short", locale.Args{"Card": p.CardName(g.Deck(), card.Num), "FC": c.N, "OP": p.N("common.op-short", c.Cost, nil)})
		}
	}
	return l
}

// controls says who controls a space: "nobody controls it", "you
// control it" (when you is true and ctl is the reader's side), "Versailles
// controls it".
func controls(p *locale.Printer, ctl engine.Side, you bool) string {
	switch {
	case ctl == engine.NoSide:
		return p.T("bot.desc.nobody-controls", nil)
	case you:
		return p.T("bot.desc.you-control", nil)
	}
	return p.T("bot.desc.controls", locale.Args{"Side": p.Side(ctl)})
}

// objectiveSummary: who controls the objective's space now, then its event.
func (b *Bot) objectiveSummary(p *locale.Printer, g *engine.Game, num int) string {
	c := g.Deck().Card(num)
	if c == nil {
		return ""
	}
	return p.T("bot.desc.objective", locale.Args{"Space": p.Term(c.Space.String()),
		"Control": controls(p, g.S.Controller(c.Space), false), "Text": b.eventText(p, g.Deck(), num)})
}

// spaceSummary: "Versailles 2 · Commune 1 + disc · you control it · Pivotal".
func spaceSummary(p *locale.Printer, g *engine.Game, x engine.Space, you engine.Side) string {
	if x < 0 || x >= engine.NumMapSpaces {
		return ""
	}
	ctl := g.S.Controller(x)
	parts := []string{pieceCounts(p, g, x), controls(p, ctl, ctl == you)}
	if x.Info().Pivotal {
		parts = append(parts, p.T("bot.desc.pivotal", nil))
	}
	return strings.Join(parts, " · ")
}

// pieceCounts: "Versailles 2 · Commune 1 + disc" (cubes, and a disc).
func pieceCounts(p *locale.Printer, g *engine.Game, x engine.Space) string {
	if x < 0 || x >= engine.NumMapSpaces {
		return p.Term(x.String())
	}
	var parts []string
	for _, s := range []engine.Side{engine.Versailles, engine.Commune} {
		id := "bot.desc.pieces"
		if g.S.Disc[x] == s {
			id = "bot.desc.pieces-disc"
		}
		parts = append(parts, p.T(id, locale.Args{"Side": p.Side(s), "N": g.S.Cubes[s][x]}))
	}
	return strings.Join(parts, " · ")
}

// roundName is the round's name in English (see roundNameIn).
func roundName(r int8) string { return roundNameIn(locale.For(locale.English), r) }

// roundNameIn: "Round 2", "Final Crisis" in p's language.
func roundNameIn(p *locale.Printer, r int8) string {
	if r >= 4 {
		return p.T("bot.round.final-crisis", nil)
	}
	return p.T("bot.round", locale.Args{"N": int(r)})
}

// cardList: "#12 Name (2 OP, red), …" or "none".
func (b *Bot) cardList(p *locale.Printer, d *engine.Deck, cards []int8) string {
	var out []string
	for _, n := range cards {
		c := d.Card(int(n))
		if c == nil {
			continue
		}
		out = append(out, p.T("bot.card-in-list", locale.Args{"Card": p.CardName(d, c.Num), "OP": p.N("common.op-short", c.OP, nil), "Colour": colourWord(p, c)}))
	}
	if len(out) == 0 {
		return p.T("bot.none", nil)
	}
	return strings.Join(out, ", ")
}

// closedDMsNote goes on the board, revealing nothing, when a player's
// hand could not be sent by DM: the board's My hand button answers
// privately.
func closedDMsNote(p *locale.Printer, user string) string {
	return p.T("bot.note.closed-dms", locale.Args{"User": mention(user)})
}

// choseLine records, under a hand DM, the choice made from it.
func choseLine(p *locale.Printer, chose string) string {
	return p.T("bot.note.chose", locale.Args{"Choice": chose})
}

// revealDMText is the DM of hidden cards an event showed a player.
func revealDMText(p *locale.Printer, gameID int64, channelID, round string, lines []string) string {
	return p.T("bot.reveal.dm", locale.Args{"ID": gameID, "Channel": "<#" + channelID + ">", "Round": round,
		"Heading": p.T("bot.reveal.heading", nil), "Lines": strings.Join(lines, "\n")})
}
