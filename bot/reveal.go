package bot

import (
	"strings"

	"github.com/bwmarrin/discordgo"
	"github.com/rfop/rfop/engine"
	"github.com/rfop/rfop/locale"
	"github.com/rfop/rfop/storage"
)

// Hidden cards shown to a player. An event that reveals a hand writes a
// private log line to the player who sees it; such a line names cards
// that player does not hold. It goes to that player's panel and DM, with
// each card's OP, never to the channel.

// revealLines are the private lines to side, written since version from,
// that show side cards it does not hold (not "You keep objective …").
func (b *Bot) revealLines(p *locale.Printer, g *engine.Game, side engine.Side, from int) []string {
	s := &g.S
	own := map[int]bool{int(s.Objective[side]): true}
	for _, cards := range [][]int8{s.Hand[side], s.SetAside[side], s.ObjOffer[side]} {
		for _, c := range cards {
			own[int(c)] = true
		}
	}
	var out []string
	for _, e := range s.Log {
		if e.To != side || e.Version < from {
			continue
		}
		var named []int
		shows := false
		e.Cards(func(n int) {
			named = append(named, n)
			shows = shows || !own[n]
		})
		if shows {
			out = append(out, withOP(p, g.Deck(), named, p.LogLine(g.Deck(), e)))
		}
	}
	return out
}

// withOP adds to line (in p's language) the OP and colour of each of the
// cards it names: "#12 Name (2 OP, red)".
func withOP(p *locale.Printer, deck *engine.Deck, cards []int, line string) string {
	done := map[int]bool{}
	for _, n := range cards {
		if done[n] {
			continue
		}
		done[n] = true
		c := deck.Card(n)
		if c == nil || c.Kind == engine.ObjectiveCard {
			continue
		}
		named := p.CardName(deck, c.Num)
		line = strings.ReplaceAll(line, named, p.T("bot.card-in-list", locale.Args{"Card": named, "OP": p.N("common.op-short", c.OP, nil), "Colour": colourWord(p, c)}))
	}
	return line
}

// revealDM is the DM of what side was shown since from.
func (b *Bot) revealDM(rec storage.Game, g *engine.Game, side engine.Side, from int) string {
	p := b.sidePrinter(rec, side)
	return truncate(revealDMText(p, rec.ID, rec.ChannelID, roundNameIn(p, g.S.Round), b.revealLines(p, g, side, from)), 2000)
}

// afterPanel is what the mover's panel shows after a choice: the next
// question if they decide on (with what they were just shown), "Done",
// or the result. A hand DM the choice came from keeps its text, with the
// choice added, and its picture is redrawn.
func (b *Bot) afterPanel(rec storage.Game, g *engine.Game, side engine.Side, p outPayload) msg {
	pr := b.sidePrinter(rec, side)
	var notes []string
	if lines := b.revealLines(pr, g, side, p.From); len(lines) > 0 {
		notes = append(notes, pr.T("bot.reveal.heading", nil)+"\n"+strings.Join(lines, "\n"))
	}
	var m msg
	_, again := g.PromptFor(side)
	switch {
	case g.S.Result != nil:
		m = msg{content: "🏁 " + pr.Result(g.Deck(), g.S.Result)}
	case again:
		if g.S.Version > p.From+1 && rec.Mode == storage.ModeSolo {
			notes = append([]string{pr.T("bot.note.solo-played", nil)}, notes...)
		} else if p.Token != "" && g.S.Version > p.From && roundAt(g, p.From) != g.S.Round {
			notes = append([]string{pr.T("bot.note.new-deal", nil)}, notes...)
		}
		m = b.panelWith(pr, rec, g, side, strings.Join(notes, "\n\n"), true)
	default:
		m = msg{content: truncate(strings.Join(append([]string{pr.T("bot.note.done", nil)}, notes...), "\n\n"), 2000)}
	}
	if p.Record != "" {
		text := p.Record + "\n\n" + choseLine(pr, p.Chose)
		if again && g.S.Result == nil {
			text += "\n\n" + m.content
		} else {
			m.comps = nil
		}
		m.content = truncate(text, 2000)
		if png := b.handPicture(rec, g, side); png != nil {
			m.files = []*discordgo.File{pngFile("hand.png", png)}
		}
	}
	return m
}

// roundAt is the round of the log's first entry at or after version v
// (the current round if none).
func roundAt(g *engine.Game, v int) int8 {
	for _, e := range g.S.Log {
		if e.Version >= v {
			return e.Round
		}
	}
	return g.S.Round
}
