package bot

import (
	"context"
	"fmt"
	"strings"

	"github.com/bwmarrin/discordgo"
	"github.com/rfop/rfop/engine"
	"github.com/rfop/rfop/locale"
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
// It speaks the language of side's player (lang.go).
func (b *Bot) panel(rec storage.Game, g *engine.Game, side engine.Side, note string) msg {
	return b.panelWith(b.sidePrinter(rec, side), rec, g, side, note, true)
}

// panelWith is panel in p's language, listing the hand under the question
// when showHand (the hand DM already lists it in its note). Its words are
// measured and cut to Discord's limits in that language.
func (b *Bot) panelWith(p *locale.Printer, rec storage.Game, g *engine.Game, side engine.Side, note string, showHand bool) msg {
	content := func(sb *strings.Builder) string { return truncate(sb.String(), 2000) }
	pr, ok := g.PromptFor(side)
	var sb strings.Builder
	if note != "" {
		sb.WriteString(note)
		sb.WriteString("\n\n")
	}
	if g.S.Result != nil {
		sb.WriteString(p.T("bot.panel.game-over", locale.Args{"Result": p.Result(g.Deck(), g.S.Result)}))
		return msg{content: content(&sb)}
	}
	if !ok {
		// No buttons: Take my turn would only say this again.
		sb.WriteString(b.waitingIn(context.Background(), p, rec, g))
		return msg{content: content(&sb)}
	}
	sb.WriteString(p.T("bot.panel.head", locale.Args{"ID": rec.ID, "Round": roundNameIn(p, g.S.Round), "Side": p.Side(side), "Prompt": p.Prompt(g, pr)}))
	if hand := g.S.Hand[side]; showHand && len(hand) > 0 && (pr.Kind == engine.PromptPlay || pr.Kind == engine.PromptFCPlay || pr.Kind == engine.PromptCensor || pr.Kind == engine.PromptFCDiscard || pr.Kind == engine.PromptObjective) {
		sb.WriteString("\n" + p.T("bot.panel.your-hand", locale.Args{"Cards": b.cardList(p, g.Deck(), hand)}))
	}
	labels := make([]string, len(pr.Choices))
	// Cards are chosen from their text: a select menu shows it under each
	// option (buttons cannot); spaces stay one click away as buttons.
	short := len(pr.Choices) <= 10 && !cardChoice[pr.Kind]
	for k, c := range pr.Choices {
		labels[k] = b.choiceLabel(p, g, pr, c)
		if len([]rune(labels[k])) > 45 {
			short = false
		}
	}
	ver := int64(pr.Version)
	var rows []discordgo.MessageComponent
	if short {
		var row discordgo.ActionsRow
		for k, l := range labels {
			if len(row.Components) == maxButtonsPerRow {
				rows = append(rows, row)
				row = discordgo.ActionsRow{}
			}
			style := discordgo.PrimaryButton
			if c := pr.Choices[k]; c.Kind == engine.ChooseDone || c.Kind == engine.ChooseNo || c.Kind == engine.ChooseStopRem {
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
					Description: b.choiceDescription(p, g, pr, pr.Choices[k])})
			}
			ph := p.T("bot.panel.choose", nil)
			if len(labels) > maxSelectOptions {
				ph = p.T("bot.panel.choose-page", locale.Args{"From": page*maxSelectOptions + 1, "To": page*maxSelectOptions + len(opts), "Of": len(labels)})
			}
			rows = append(rows, discordgo.ActionsRow{Components: []discordgo.MessageComponent{discordgo.SelectMenu{
				MenuType: discordgo.StringSelectMenu, Placeholder: ph, Options: opts,
				CustomID: customID{Verb: verbSelect, Game: rec.ID, Version: ver, Side: side.Key(), Arg: page}.String(),
			}}})
		}
	}
	if pr.CanUndo && len(rows) < maxRows {
		rows = append(rows, discordgo.ActionsRow{Components: []discordgo.MessageComponent{discordgo.Button{
			Label: p.T("bot.panel.undo", nil), Style: discordgo.DangerButton,
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

// turnRow holds the public "Take my turn" and "My hand" buttons (in the
// game's public language: see turnRowIn).
func turnRow(game int64) discordgo.ActionsRow {
	return turnRowIn(locale.For(locale.English), game)
}

// turnRowIn is turnRow in p's language.
func turnRowIn(p *locale.Printer, game int64) discordgo.ActionsRow {
	return discordgo.ActionsRow{Components: []discordgo.MessageComponent{
		discordgo.Button{Label: p.T("bot.button.turn", nil), Style: discordgo.PrimaryButton, CustomID: customID{Verb: verbTurn, Game: game}.String()},
		discordgo.Button{Label: p.T("bot.button.hand", nil), Style: discordgo.SecondaryButton, CustomID: customID{Verb: verbHand, Game: game}.String()},
	}}
}

// Since your last turn: the panel opened with Take my turn (or /rfop
// turn) starts with what happened since the player's previous decision.
const (
	maxSinceLines = 10  // the newest public lines since then
	maxSinceChars = 900 // of the panel's 2000, so the question always fits
)

// sinceLastTurn is the public log lines written since side's previous
// decision (since the game began if it made none), the newest
// maxSinceLines, in p's language, under a heading; "" if nothing
// happened since. The solo opponent's explanations stay in /rfop log.
func (b *Bot) sinceLastTurn(p *locale.Printer, g *engine.Game, moves []engine.Move, side engine.Side) string {
	last := -1 // the version the side's last decision was made at
	for k := len(moves) - 1; k >= 0; k-- {
		if moves[k].Side == side {
			last = k
			break
		}
	}
	var lines []string
	for _, e := range g.S.Log {
		if _, note := e.Note(); e.Version > last && e.To == engine.NoSide && !note {
			lines = append(lines, "• "+p.LogLine(g.Deck(), e))
		}
	}
	if len(lines) > maxSinceLines {
		lines = lines[len(lines)-maxSinceLines:]
	}
	head := p.T("bot.panel.since", nil)
	for len(lines) > 0 && len([]rune(head+strings.Join(lines, "\n"))) > maxSinceChars {
		lines = lines[1:]
	}
	if len(lines) == 0 {
		return ""
	}
	return head + "\n" + strings.Join(lines, "\n")
}
