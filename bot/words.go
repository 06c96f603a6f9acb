package bot

import (
	"fmt"
	"strings"

	"github.com/rfop/rfop/engine"
	"github.com/rfop/rfop/storage"
)

// kindWords says what a decision is about, for the public "Waiting for …"
// line: it completes "Waiting for <player> …". Every engine.PromptKind has
// an entry (TestEveryPromptKindHasWords); the words are public, so they
// never name a card in a hand.
var kindWords = map[engine.PromptKind]string{
	engine.PromptObjective:      "to choose an objective",
	engine.PromptInitiative:     "to choose who plays first",
	engine.PromptCensor:         "to make the Censorship discard",
	engine.PromptPlay:           "to play a card",
	engine.PromptSphere:         "to choose Political or Military operations",
	engine.PromptOpsRemove:      "to remove pieces with operations",
	engine.PromptOpsPlace:       "to place cubes with operations",
	engine.PromptFreeCube:       "to place a free cube",
	engine.PromptFCDiscard:      "to make the Final Crisis discard",
	engine.PromptFCPlay:         "to play a Final Crisis event",
	engine.PromptFCDecide:       "to decide whether the opponent's play of their event applies",
	engine.PromptBonusOrder:     "to choose the order of the bonus actions",
	engine.PromptBonusAction:    "to choose a Pivotal Space bonus action",
	engine.PromptDeescalate:     "to De-escalate (remove cubes)",
	engine.PromptSpread:         "to Spread Influence (move cubes)",
	engine.PromptTurncoat:       "to choose where to Turncoat",
	engine.PromptScoreOrder:     "to choose who scores first",
	engine.PromptObjEventOrder:  "to choose whose objective event comes first",
	engine.PromptObjEvent:       "to decide whether to perform their objective's event",
	engine.PromptOption:         "to choose an event option",
	engine.PromptAndOrOrder:     "to choose which part of the event comes first",
	engine.PromptEventPlace:     "to place cubes for an event",
	engine.PromptEventRemove:    "to remove cubes for an event",
	engine.PromptEventReplace:   "to replace a cube for an event",
	engine.PromptPlaceDisc:      "to place a disc",
	engine.PromptRemoveDisc:     "to remove a disc",
	engine.PromptEventDiscard:   "to discard a card for an event",
	engine.PromptForceDiscard:   "to choose a card for the Commune to discard",
	engine.PromptConfirmNothing: "to confirm",
}

// decisionWords is kindWords with a fallback for a kind added to the
// engine later (never the raw identifier).
func decisionWords(k engine.PromptKind) string {
	if w, ok := kindWords[k]; ok {
		return w
	}
	return "to decide"
}

// waitingText says who must decide and about what (public).
func (b *Bot) waitingText(rec storage.Game, g *engine.Game) string {
	ps := g.Prompts()
	if len(ps) == 0 {
		return "Nothing to decide."
	}
	var parts []string
	for k, p := range ps {
		who := playerName(rec, p.Side)
		// Both sides deciding the same thing at once: name the decision once.
		if k == len(ps)-1 || ps[k+1].Kind != p.Kind {
			who += " " + decisionWords(p.Kind)
		}
		parts = append(parts, who)
	}
	return "Waiting for " + strings.Join(parts, " and ") + "."
}

// choiceDescription is a select option's second line: what a player on a
// phone cannot tell from the label (a card's OP and event, a space's
// pieces). "" when the label says it all. The panel is private, so the
// player's own cards may be described.
func (b *Bot) choiceDescription(g *engine.Game, p engine.Prompt, c engine.Choice) string {
	return truncate(b.describeChoice(g, p, c), maxOptionLabel)
}

// describeChoice is choiceDescription before it is cut to Discord's limit
// (the panel translates its terms first).
func (b *Bot) describeChoice(g *engine.Game, p engine.Prompt, c engine.Choice) string {
	var d string
	switch c.Kind {
	case engine.ChoosePlay:
		if c.Mode == engine.ModeDiscardedEvent {
			d = fmt.Sprintf("#%d's event: %s", c.N, b.eventText(g.Deck(), c.N))
		} else {
			d = b.cardSummary(g.Deck(), c.Card)
		}
	case engine.ChooseCard:
		if p.Kind == engine.PromptObjective {
			d = b.objectiveSummary(g, c.Card)
		} else {
			d = b.cardSummary(g.Deck(), c.Card)
		}
	case engine.ChoosePlace, engine.ChooseRemove, engine.ChooseReplace, engine.ChooseDisc, engine.ChooseRemoveOwn:
		d = spaceSummary(g, c.Space, p.Side)
	case engine.ChooseMove:
		d = "From: " + pieceCounts(g, c.Space) + " → to: " + pieceCounts(g, c.To)
	}
	return d
}

// cardSummary: "2 OP · blue · MOMENTUM you +1. THEN PLACE…".
func (b *Bot) cardSummary(d *engine.Deck, num int) string {
	c := d.Card(num)
	if c == nil {
		return ""
	}
	return fmt.Sprintf("%d OP · %s · %s", c.OP, c.Colour(), b.eventText(d, num))
}

// eventText is a card's event text without the "2P ONLY." marker (a
// two-player game plays them all; solo decks leave them out) and without
// the designers' "(Known: …)" notes.
func (b *Bot) eventText(d *engine.Deck, num int) string {
	c := d.Card(num)
	if c == nil {
		return ""
	}
	t := strings.TrimSpace(strings.TrimPrefix(c.Text, "2P ONLY."))
	if k := strings.Index(t, " (Known:"); k > 0 {
		if end := strings.Index(t[k:], ")"); end > 0 {
			t = t[:k] + t[k+end+1:]
		}
	}
	return t
}

// choiceLabel is the engine's words for a choice, shortened where they
// would not fit a button or an option (the description says the rest).
func (b *Bot) choiceLabel(g *engine.Game, p engine.Prompt, c engine.Choice) string {
	l := g.ChoiceText(p, c)
	if len([]rune(l)) > maxOptionLabel && c.Kind == engine.ChoosePlay && c.Mode == engine.ModeFinalCrisisOps {
		if card := g.Deck().Card(c.Card); card != nil {
			l = fmt.Sprintf("Discard #%d %s to play #%d for %d OP", card.Num, card.Name, c.N, c.Cost)
		}
	}
	return l
}

// objectiveSummary: who controls the objective's space now, then its event.
func (b *Bot) objectiveSummary(g *engine.Game, num int) string {
	c := g.Deck().Card(num)
	if c == nil {
		return ""
	}
	ctl := "nobody controls it"
	if s := g.S.Controller(c.Space); s != engine.NoSide {
		ctl = s.String() + " controls it"
	}
	return fmt.Sprintf("%s: %s · %s", c.Space, ctl, b.eventText(g.Deck(), num))
}

// spaceSummary: "Versailles 2 · Commune 1 + disc · you control it · Pivotal".
func spaceSummary(g *engine.Game, x engine.Space, you engine.Side) string {
	if x < 0 || x >= engine.NumMapSpaces {
		return ""
	}
	d := pieceCounts(g, x)
	switch ctl := g.S.Controller(x); {
	case ctl == engine.NoSide:
		d += " · nobody controls it"
	case ctl == you:
		d += " · you control it"
	default:
		d += " · " + ctl.String() + " controls it"
	}
	if x.Info().Pivotal {
		d += " · Pivotal"
	}
	return d
}

// pieceCounts: "Versailles 2 · Commune 1 + disc" (cubes, and a disc).
func pieceCounts(g *engine.Game, x engine.Space) string {
	if x < 0 || x >= engine.NumMapSpaces {
		return x.String()
	}
	var parts []string
	for _, s := range []engine.Side{engine.Versailles, engine.Commune} {
		part := fmt.Sprintf("%s %d", s, g.S.Cubes[s][x])
		if g.S.Disc[x] == s {
			part += " + disc"
		}
		parts = append(parts, part)
	}
	return strings.Join(parts, " · ")
}

// Sentences of the publication (outbox.go, reveal.go), in one place for
// the message catalogue.
const (
	doneText       = "✅ Done — your play goes to the board."
	soloPlayedNote = "The solo opponent has played (see the board)."
	newDealNote    = "A new deal: the board and your hand DM go out now; choose here or from the DM, in any order with your opponent."
	revealHeading  = "🔒 Shown to you only:"
)

// closedDMsNote goes on the board, revealing nothing, when a player's
// hand could not be sent by DM: the board's My hand button answers
// privately.
func closedDMsNote(user string) string {
	return "⚠️ " + mention(user) + ", I can't send you direct messages: press **My hand** below to see your cards (only you will see them)."
}

// choseLine records, under a hand DM, the choice made from it.
func choseLine(chose string) string { return "✅ You chose: " + chose }

// revealDMText is the DM of hidden cards an event showed a player.
func revealDMText(gameID int64, channelID, round string, lines []string) string {
	return fmt.Sprintf("Game #%d in <#%s> — %s. %s\n%s", gameID, channelID, round, revealHeading, strings.Join(lines, "\n"))
}
