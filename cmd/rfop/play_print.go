package main

// What rfop play prints: prompts and choices, the log (public lines and
// lines private to the player at the keyboard), the status line, the board
// as text and the player's cards.

import (
	"fmt"
	"io"
	"strings"

	"github.com/rfop/rfop/engine"
)

func (p *playSession) printChoices(pr engine.Prompt) {
	for i, c := range pr.Choices {
		fmt.Fprintf(p.out, "  %2d) %s\n", i+1, p.g.ChoiceText(pr, c))
	}
	if pr.CanUndo {
		fmt.Fprintln(p.out, "   (u: take back your last choice)")
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
			fmt.Fprintf(p.out, "  · %s\n", e.Text)
		case e.To != engine.NoSide && e.Seq > p.privShown[e.To]:
			fmt.Fprintf(p.out, "  · [private to %s] %s\n", e.To, e.Text)
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
			fmt.Fprintf(p.out, "  · [private to %s] %s\n", side, e.Text)
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
	fmt.Fprintf(p.out, "Last %d log lines (as %s sees them):\n", len(lines), side)
	for _, e := range lines {
		prefix := ""
		if e.To != engine.NoSide {
			prefix = "[private to " + e.To.String() + "] "
		}
		fmt.Fprintf(p.out, "  %s%s\n", prefix, e.Text)
	}
}

func vpText(vp [2]int8) string {
	f := func(name string, n int8) string {
		switch {
		case n > 0:
			return fmt.Sprintf("%s VP: Versailles %d", name, n)
		case n < 0:
			return fmt.Sprintf("%s VP: Commune %d", name, -n)
		}
		return name + " VP: 0"
	}
	return f("Political", vp[0]) + ", " + f("Military", vp[1])
}

func roundName(r int8) string {
	if r >= 4 {
		return "Final Crisis"
	}
	return fmt.Sprintf("Round %d", r)
}

func (p *playSession) statusLine(side engine.Side) string {
	s := &p.g.S
	return fmt.Sprintf("[%s · %s · momentum: Prussian %d/3, Revolutionary %d/3 · %s has %d card(s) in hand]",
		roundName(s.Round), vpText(s.VP), s.Momentum[engine.Versailles], s.Momentum[engine.Commune], side, len(s.Hand[side]))
}

// showBoard prints the board as side sees it.
func (p *playSession) showBoard(side engine.Side) {
	v := p.g.ViewFor(side)
	w := p.out
	fmt.Fprintf(w, "%s. %s. Initiative: %s.\n", roundName(v.Round), vpText(v.VP), v.Initiative)
	fmt.Fprintf(w, "Momentum: %s %d/3 (Versailles), %s %d/3 (Commune).\n",
		engine.MomentumTrackName(engine.Versailles), v.Momentum[engine.Versailles],
		engine.MomentumTrackName(engine.Commune), v.Momentum[engine.Commune])
	fmt.Fprintf(w, "  %-30s %10s %8s  %s\n", "Space", "Versailles", "Commune", "controlled by")
	dim := engine.Dimension(-1)
	for x := engine.Space(0); x < engine.NumMapSpaces; x++ {
		in := x.Info()
		if in.Dim != dim {
			dim = in.Dim
			fmt.Fprintf(w, " %s (%s):\n", dim, dim.Sphere())
		}
		name := in.Name
		if in.Pivotal {
			name += " (pivotal)"
		}
		vs, cs := fmt.Sprint(v.Cubes[engine.Versailles][x]), fmt.Sprint(v.Cubes[engine.Commune][x])
		switch v.Disc[x] {
		case engine.Versailles:
			vs += "+fort"
		case engine.Commune:
			cs += "+barr"
		}
		if in.Permanent == engine.Versailles {
			vs += "*"
		} else if in.Permanent == engine.Commune {
			cs += "*"
		}
		ctrl := "-"
		if c := v.Controller(x); c != engine.NoSide {
			ctrl = c.String()
		}
		fmt.Fprintf(w, "  %-30s %10s %8s  %s\n", name, vs, cs, ctrl)
	}
	fmt.Fprintln(w, "  (* always present there; fort/barr: Fortification/Barricade disc)")
	for _, s := range []engine.Side{engine.Versailles, engine.Commune} {
		var zones []string
		for z := 0; z < engine.NumZones; z++ {
			b := ""
			if v.Breached[s][z] {
				b = ", breached"
			}
			zones = append(zones, fmt.Sprintf("%s %d%s", engine.ZoneName(z), v.Track[s][z], b))
		}
		pool := fmt.Sprintf("pool %d", v.Pool[s])
		if s == engine.Commune {
			pool += fmt.Sprintf("/%d", v.PoolCap)
		}
		fmt.Fprintf(w, "%s cubes: %s; Crisis Track: %s; removed from play %d.\n", s, pool, strings.Join(zones, ", "), v.OutOfPlay[s])
	}
	top := "empty"
	if n := len(v.Discard); n > 0 {
		top = p.cardName(int(v.Discard[n-1].Card))
	}
	fmt.Fprintf(w, "Deck %d card(s); discard pile %d (top: %s). Hands: Versailles %d, Commune %d.\n",
		v.DeckSize, len(v.Discard), top, v.HandSize[engine.Versailles], v.HandSize[engine.Commune])
	p.showHandLine(w, v)
}

func (p *playSession) showHandLine(w io.Writer, v engine.View) {
	var names []string
	for _, c := range v.Hand {
		names = append(names, p.cardName(int(c)))
	}
	if len(names) == 0 {
		names = []string{"no cards"}
	}
	fmt.Fprintf(w, "Your hand (%s): %s.\n", v.Viewer, strings.Join(names, "; "))
	if o := v.Objective[v.Viewer]; o > 0 {
		fmt.Fprintf(w, "Your objective: %s.\n", p.cardName(int(o)))
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
		fmt.Fprintf(p.out, "%s:\n", title)
		for _, n := range cards {
			c := d.Card(int(n))
			if c == nil {
				continue
			}
			if c.Kind == engine.ObjectiveCard {
				fmt.Fprintf(p.out, "  #%d %s — objective: control %s; event: %s\n", c.Num, c.Name, c.Space, c.Text)
				continue
			}
			fmt.Fprintf(p.out, "  #%d %s — %s card, %d OP: %s\n", c.Num, c.Name, c.Colour(), c.OP, c.Text)
		}
	}
	show("Your hand", v.Hand)
	show("Set aside for the Final Crisis", v.SetAside)
	show("Objectives offered to you", v.ObjOffer)
	if o := v.Objective[side]; o > 0 {
		show("Your objective this round", []int8{o})
	}
	if other := side.Other(); v.Objective[other] > 0 {
		show(other.String()+"'s objective", []int8{v.Objective[other]})
	}
	if len(v.Hand) == 0 && len(v.SetAside) == 0 && len(v.ObjOffer) == 0 {
		fmt.Fprintln(p.out, "You hold no cards right now.")
	}
}

func (p *playSession) cardName(n int) string {
	if c := p.g.Deck().Card(n); c != nil {
		return fmt.Sprintf("#%d %s", n, c.Name)
	}
	return fmt.Sprintf("#%d", n)
}
