package bot

import (
	"fmt"
	"strings"

	"github.com/bwmarrin/discordgo"
	"github.com/rfop/rfop/engine"
	"github.com/rfop/rfop/storage"
)

// Discord component limits.
const (
	maxButtonsPerRow = 5
	maxRows          = 5
	maxSelectOptions = 25
	maxButtonLabel   = 80
	maxOptionLabel   = 100
)

// panel renders side's current prompt as a private message: the question,
// the choices as buttons (few, short) or select menus (many, long), and
// Undo when allowed. The custom_ids carry the game, the version and side.
func (b *Bot) panel(rec storage.Game, g *engine.Game, side engine.Side, note string) msg {
	return b.panelWith(rec, g, side, note, true)
}

// panelWith is panel, listing the hand under the question when showHand
// (the hand DM already lists it in its note). Its words use the game terms
// of the server's edition (terms.go), translated before they are measured
// and cut to Discord's limits.
func (b *Bot) panelWith(rec storage.Game, g *engine.Game, side engine.Side, note string, showHand bool) msg {
	t := b.termsFor(rec.GuildID)
	content := func(sb *strings.Builder) string { return truncate(t.Text(sb.String()), 2000) }
	p, ok := g.PromptFor(side)
	var sb strings.Builder
	if note != "" {
		sb.WriteString(note)
		sb.WriteString("\n\n")
	}
	if g.S.Result != nil {
		sb.WriteString("**Game over.** " + g.S.Result.Summary)
		return msg{content: content(&sb)}
	}
	if !ok {
		// No buttons: Take my turn would only say this again.
		sb.WriteString(b.waitingText(rec, g))
		return msg{content: content(&sb)}
	}
	fmt.Fprintf(&sb, "**Game #%d · %s · you play %s**\n%s", rec.ID, roundName(g.S.Round), side, g.PromptText(p))
	if hand := g.S.Hand[side]; showHand && len(hand) > 0 && (p.Kind == engine.PromptPlay || p.Kind == engine.PromptFCPlay || p.Kind == engine.PromptCensor || p.Kind == engine.PromptFCDiscard || p.Kind == engine.PromptObjective) {
		sb.WriteString("\nYour hand: " + b.cardList(g.Deck(), hand))
	}
	labels := make([]string, len(p.Choices))
	// Cards are chosen from their text: a select menu shows it under each
	// option (buttons cannot); spaces stay one click away as buttons.
	short := len(p.Choices) <= 10 && !cardChoice[p.Kind]
	for k, c := range p.Choices {
		labels[k] = t.Text(b.choiceLabel(g, p, c))
		if len([]rune(labels[k])) > 45 {
			short = false
		}
	}
	ver := int64(p.Version)
	var rows []discordgo.MessageComponent
	if short {
		var row discordgo.ActionsRow
		for k, l := range labels {
			if len(row.Components) == maxButtonsPerRow {
				rows = append(rows, row)
				row = discordgo.ActionsRow{}
			}
			style := discordgo.PrimaryButton
			if c := p.Choices[k]; c.Kind == engine.ChooseDone || c.Kind == engine.ChooseNo || c.Kind == engine.ChooseStopRem {
				style = discordgo.SecondaryButton
			}
			row.Components = append(row.Components, discordgo.Button{
				Label: truncate(l, maxButtonLabel), Style: style,
				CustomID: customID{Verb: verbChoose, Game: rec.ID, Version: ver, Side: side.Key(), Arg: k}.String(),
			})
		}
		rows = append(rows, row)
	} else {
		for page := 0; page*maxSelectOptions < len(labels) && len(rows) < maxRows-1; page++ {
			var opts []discordgo.SelectMenuOption
			for k := page * maxSelectOptions; k < len(labels) && k < (page+1)*maxSelectOptions; k++ {
				opts = append(opts, discordgo.SelectMenuOption{Label: truncate(labels[k], maxOptionLabel), Value: fmt.Sprint(k),
					Description: truncate(t.Text(b.describeChoice(g, p, p.Choices[k])), maxOptionLabel)})
			}
			ph := "Choose…"
			if len(labels) > maxSelectOptions {
				ph = fmt.Sprintf("Choose (%d–%d of %d)…", page*maxSelectOptions+1, page*maxSelectOptions+len(opts), len(labels))
			}
			rows = append(rows, discordgo.ActionsRow{Components: []discordgo.MessageComponent{discordgo.SelectMenu{
				MenuType: discordgo.StringSelectMenu, Placeholder: ph, Options: opts,
				CustomID: customID{Verb: verbSelect, Game: rec.ID, Version: ver, Side: side.Key(), Arg: page}.String(),
			}}})
		}
	}
	if p.CanUndo && len(rows) < maxRows {
		rows = append(rows, discordgo.ActionsRow{Components: []discordgo.MessageComponent{discordgo.Button{
			Label: "Undo my last choice", Style: discordgo.DangerButton,
			CustomID: customID{Verb: verbUndo, Game: rec.ID, Version: ver, Side: side.Key()}.String(),
		}}})
	}
	return msg{content: content(&sb), comps: rows}
}

// cardChoice: prompt kinds whose choices are cards.
var cardChoice = map[engine.PromptKind]bool{
	engine.PromptObjective: true, engine.PromptCensor: true, engine.PromptFCDiscard: true,
	engine.PromptFCPlay: true, engine.PromptEventDiscard: true, engine.PromptForceDiscard: true,
}

// turnRow holds the public "Take my turn" and "My hand" buttons.
func turnRow(game int64) discordgo.ActionsRow {
	return discordgo.ActionsRow{Components: []discordgo.MessageComponent{
		discordgo.Button{Label: "Take my turn", Style: discordgo.PrimaryButton, CustomID: customID{Verb: verbTurn, Game: game}.String()},
		discordgo.Button{Label: "My hand", Style: discordgo.SecondaryButton, CustomID: customID{Verb: verbHand, Game: game}.String()},
	}}
}

func roundName(r int8) string {
	if r >= 4 {
		return "Final Crisis"
	}
	return fmt.Sprintf("Round %d", r)
}

func (b *Bot) cardList(d *engine.Deck, cards []int8) string {
	var out []string
	for _, n := range cards {
		c := d.Card(int(n))
		if c == nil {
			continue
		}
		out = append(out, fmt.Sprintf("#%d %s (%d OP, %s)", c.Num, c.Name, c.OP, c.Colour()))
	}
	if len(out) == 0 {
		return "none"
	}
	return strings.Join(out, ", ")
}
