package main

// What rfop play prints: prompts and choices, the log (public lines and
// lines private to the player at the keyboard), the status line, the board
// as text and the player's cards. Every sentence comes from the catalogue
// (package locale, play.json) in the language of --lang.

import (
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/rfop/rfop/engine"
	"github.com/rfop/rfop/locale"
)

// m prints message id with typed arguments (sides declined in Russian,
// with their article in French).
func (p *playSession) m(id string, args ...engine.Arg) string {
	if p.pr == nil {
		p.pr = locale.For(p.lang)
	}
	return p.pr.Msg(p.g.Deck(), engine.Msg{ID: id, Args: args})
}

func aNum(k string, n int) engine.Arg { return engine.Arg{Name: k, Kind: engine.ArgNum, N: n} }
func aCount(n int) engine.Arg         { return aNum("Count", n) }
func aText(k, s string) engine.Arg    { return engine.Arg{Name: k, Kind: engine.ArgText, S: s} }
func aSide(k string, s engine.Side) engine.Arg {
	return engine.Arg{Name: k, Kind: engine.ArgSide, N: int(s)}
}
func aCard(k string, n int) engine.Arg { return engine.Arg{Name: k, Kind: engine.ArgCard, N: n} }
func aSpace(k string, x engine.Space) engine.Arg {
	return engine.Arg{Name: k, Kind: engine.ArgSpace, N: int(x)}
}
func aTrack(k string, s engine.Side) engine.Arg {
	return engine.Arg{Name: k, Kind: engine.ArgTrack, N: int(s)}
}
func aZone(k string, z int) engine.Arg    { return engine.Arg{Name: k, Kind: engine.ArgZone, N: z} }
func aOPShort(k string, n int) engine.Arg { return engine.Arg{Name: k, Kind: engine.ArgOPShort, N: n} }

// logText is a log line in the session's language.
func (p *playSession) logText(e engine.LogEntry) string { return p.pr.LogLine(p.g.Deck(), e) }

func (p *playSession) printChoices(pr engine.Prompt) {
	for i, c := range pr.Choices {
		fmt.Fprintf(p.out, "  %2d) %s\n", i+1, p.pr.Choice(p.g, pr, c))
	}
	if pr.CanUndo {
		fmt.Fprintln(p.out, p.m("play.undo-hint"))
	}
}

// lastSeq is the sequence number of the newest log line.
func (p *playSession) lastSeq() int {
	l := p.g.S.Log
	if len(l) == 0 {
		return 0
	}
	return l[len(l)-1].Seq
}

// showLog prints the log lines new since the last call: public lines, and
// lines private to atKeyboard (the side that has just decided). Lines
// private to the other side wait until it comes to the keyboard.
func (p *playSession) showLog(atKeyboard engine.Side) {
	from := p.shown
	if atKeyboard != engine.NoSide && p.privShown[atKeyboard] < from {
		from = p.privShown[atKeyboard]
	}
	for _, e := range p.g.LogSince(from, atKeyboard) {
		switch {
		case e.To == engine.NoSide && e.Seq > p.shown:
			fmt.Fprintln(p.out, p.m("play.log-line", aText("Text", p.logText(e))))
		case e.To != engine.NoSide && e.Seq > p.privShown[e.To]:
			fmt.Fprintln(p.out, p.m("play.private-line", aSide("Side", e.To), aText("Text", p.logText(e))))
		}
	}
	p.shown = p.lastSeq()
	if atKeyboard != engine.NoSide {
		p.privShown[atKeyboard] = p.shown
	}
}

// showPrivate prints private lines for side not shown yet.
func (p *playSession) showPrivate(side engine.Side) {
	for _, e := range p.g.LogSince(p.privShown[side], side) {
		if e.To == side {
			fmt.Fprintln(p.out, p.m("play.private-line", aSide("Side", side), aText("Text", p.logText(e))))
		}
	}
	p.privShown[side] = p.lastSeq()
}

// afterUndo: an undo rewinds the log; what was printed stays printed.
func (p *playSession) afterUndo() {
	n := p.lastSeq()
	p.shown = n
	for i := range p.privShown {
		if p.privShown[i] > n {
			p.privShown[i] = n
		}
	}
	p.boardStale = true
}

func (p *playSession) recentLog(side engine.Side, n int) {
	lines := p.g.LogSince(0, side)
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	fmt.Fprintln(p.out, p.m("play.last-log", aNum("N", len(lines)), aSide("Side", side)))
	for _, e := range lines {
		prefix := ""
		if e.To != engine.NoSide {
			prefix = p.m("play.private-prefix", aSide("Side", e.To))
		}
		fmt.Fprintf(p.out, "  %s%s\n", prefix, p.logText(e))
	}
}

func (p *playSession) vpText(vp [2]int8) string {
	f := func(ids [3]string, n int8) string {
		switch {
		case n > 0:
			return p.m(ids[0], aNum("N", int(n)))
		case n < 0:
			return p.m(ids[1], aNum("N", int(-n)))
		}
		return p.m(ids[2])
	}
	return f([3]string{"play.vp-political-v", "play.vp-political-c", "play.vp-political-0"}, vp[0]) + ", " +
		f([3]string{"play.vp-military-v", "play.vp-military-c", "play.vp-military-0"}, vp[1])
}

func (p *playSession) roundName(r int8) string {
	if r >= 4 {
		return p.m("render.final-crisis")
	}
	return p.m("render.round", aNum("N", int(r)))
}

func (p *playSession) statusLine(side engine.Side) string {
	s := &p.g.S
	return p.m("play.status", aText("Round", p.roundName(s.Round)), aText("VP", p.vpText(s.VP)),
		aNum("P", int(s.Momentum[engine.Versailles])), aNum("R", int(s.Momentum[engine.Commune])),
		aSide("Side", side), aCount(len(s.Hand[side])))
}

// showBoard prints the board as side sees it.
func (p *playSession) showBoard(side engine.Side) {
	v := p.g.ViewFor(side)
	w := p.out
	fmt.Fprintln(w, p.m("play.board-head", aText("Round", p.roundName(v.Round)), aText("VP", p.vpText(v.VP)), aSide("Side", v.Initiative)))
	fmt.Fprintln(w, p.m("play.board-momentum", aTrack("PTrack", engine.Versailles), aNum("P", int(v.Momentum[engine.Versailles])),
		aTrack("RTrack", engine.Commune), aNum("R", int(v.Momentum[engine.Commune]))))
	fmt.Fprintf(w, "  %s %s %s  %s\n", padRight(p.m("play.col-space"), 30), padLeft(p.pr.Term("Versailles"), 10), padLeft(p.pr.Term("Commune"), 8), p.m("play.col-controlled"))
	dim := engine.Dimension(-1)
	for x := engine.Space(0); x < engine.NumMapSpaces; x++ {
		in := x.Info()
		if in.Dim != dim {
			dim = in.Dim
			fmt.Fprintf(w, " %s (%s):\n", p.pr.Term(dim.String()), p.pr.Term(dim.Sphere().String()))
		}
		name := p.m("play.space", aSpace("Space", x))
		if in.Pivotal {
			name += p.m("play.pivotal")
		}
		vs, cs := fmt.Sprint(v.Cubes[engine.Versailles][x]), fmt.Sprint(v.Cubes[engine.Commune][x])
		switch v.Disc[x] {
		case engine.Versailles:
			vs += p.m("play.mark-fort")
		case engine.Commune:
			cs += p.m("play.mark-barr")
		}
		if in.Permanent == engine.Versailles {
			vs += "*"
		} else if in.Permanent == engine.Commune {
			cs += "*"
		}
		ctrl := "-"
		if c := v.Controller(x); c != engine.NoSide {
			ctrl = p.pr.Term(c.String())
		}
		fmt.Fprintf(w, "  %s %s %s  %s\n", padRight(name, 30), padLeft(vs, 10), padLeft(cs, 8), ctrl)
	}
	fmt.Fprintln(w, p.m("play.board-legend"))
	for _, s := range []engine.Side{engine.Versailles, engine.Commune} {
		var zones []string
		for z := 0; z < engine.NumZones; z++ {
			id := "play.zone"
			if v.Breached[s][z] {
				id = "play.zone-breached"
			}
			zones = append(zones, p.m(id, aZone("Zone", z), aNum("N", int(v.Track[s][z]))))
		}
		pool := p.m("play.pool", aNum("N", int(v.Pool[s])))
		if s == engine.Commune {
			pool = p.m("play.pool-cap", aNum("N", int(v.Pool[s])), aNum("Cap", int(v.PoolCap)))
		}
		fmt.Fprintln(w, p.m("play.board-side", aSide("Side", s), aText("Pool", pool), aText("Zones", strings.Join(zones, ", ")), aNum("Out", int(v.OutOfPlay[s]))))
	}
	top := p.m("play.empty")
	if n := len(v.Discard); n > 0 {
		top = p.cardName(int(v.Discard[n-1].Card))
	}
	fmt.Fprintln(w, p.m("play.board-deck", aCount(int(v.DeckSize)), aNum("N", len(v.Discard)), aText("Top", top),
		aNum("V", int(v.HandSize[engine.Versailles])), aNum("C", int(v.HandSize[engine.Commune]))))
	p.showHandLine(w, v)
}

func (p *playSession) showHandLine(w io.Writer, v engine.View) {
	var names []string
	for _, c := range v.Hand {
		names = append(names, p.cardName(int(c)))
	}
	if len(names) == 0 {
		names = []string{p.m("common.no-cards")}
	}
	fmt.Fprintln(w, p.m("play.your-hand", aSide("Side", v.Viewer), aText("Cards", strings.Join(names, "; "))))
	if o := v.Objective[v.Viewer]; o > 0 {
		fmt.Fprintln(w, p.m("play.your-objective", aCard("Card", int(o))))
	}
}

// showCards prints side's cards with their texts.
func (p *playSession) showCards(side engine.Side) {
	v := p.g.ViewFor(side)
	d := p.g.Deck()
	show := func(title string, cards []int8) {
		if len(cards) == 0 {
			return
		}
		fmt.Fprintln(p.out, p.m("play.cards-title", aText("Title", title)))
		for _, n := range cards {
			c := d.Card(int(n))
			if c == nil {
				continue
			}
			text := aText("Text", p.pr.CardText(d, c.Num))
			if c.Kind == engine.ObjectiveCard {
				fmt.Fprintln(p.out, p.m("play.card-objective", aCard("Card", c.Num), aSpace("Space", c.Space), text))
				continue
			}
			id := "play.card-grey"
			switch c.Side {
			case engine.Versailles:
				id = "play.card-blue"
			case engine.Commune:
				id = "play.card-red"
			}
			fmt.Fprintln(p.out, p.m(id, aCard("Card", c.Num), aOPShort("OP", c.OP), text))
		}
	}
	show(p.m("play.cards-hand"), v.Hand)
	show(p.m("play.cards-set-aside"), v.SetAside)
	show(p.m("play.cards-offered"), v.ObjOffer)
	fc := v.FCHeld[side] && side != p.g.S.BotSide
	if fc {
		// Held aside, face up, until the Final Crisis (when it joins the
		// hand); the play options name it, so its text is here too.
		show(p.m("play.cards-fc"), []int8{int8(engine.FinalCrisisCardOf(side))})
	}
	if o := v.Objective[side]; o > 0 {
		show(p.m("play.cards-objective"), []int8{o})
	}
	if other := side.Other(); v.Objective[other] > 0 {
		show(p.m("play.cards-opp-objective", aSide("Side", other)), []int8{v.Objective[other]})
	}
	if len(v.Hand) == 0 && len(v.SetAside) == 0 && len(v.ObjOffer) == 0 && !fc {
		fmt.Fprintln(p.out, p.m("play.no-cards-now"))
	}
}

func (p *playSession) cardName(n int) string { return p.pr.CardName(p.g.Deck(), n) }

// padRight and padLeft pad to n characters (not bytes: Cyrillic and
// accented names are several bytes a letter).
func padRight(s string, n int) string {
	if k := utf8.RuneCountInString(s); k < n {
		return s + strings.Repeat(" ", n-k)
	}
	return s
}

func padLeft(s string, n int) string {
	if k := utf8.RuneCountInString(s); k < n {
		return strings.Repeat(" ", n-k) + s
	}
	return s
}
