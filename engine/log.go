package engine

import "strings"

// LogEntry is one line of the game log. Private entries (To != NoSide)
// are shown only to that side: a revealed hand, the objective a player
// kept. Msg is the line as a message (an id and typed arguments): the
// engine writes no words while it plays, so a line costs no more than its
// arguments. Words are made only when someone reads the line: package
// locale's Printer.LogLine in a player's language, English here (tests,
// logs of the operator's tools).
//
// Games saved before the log carried messages have lines with their
// English text only (LegacyText, Msg nil): they print as they are, and
// SameState compares logs without their wording. Saves made while both
// were stored drop the text when loaded, so it is not written again.
type LogEntry struct {
	Seq   int  `json:"seq"`
	Round int8 `json:"round"`
	// Version is the state version the entry was written at: entries of the
	// move that took the game from version v to v+1 carry v.
	Version int  `json:"version"`
	Actor   Side `json:"actor"` // who acted (for colouring), NoSide for the game
	To      Side `json:"to"`    // NoSide: public
	Msg     *Msg `json:"msg,omitempty"`
	// LegacyText is the English of a line saved before lines carried
	// messages (Msg is nil); empty otherwise. Read a line through English
	// or locale's Printer.LogLine, never this field.
	LegacyText string `json:"text,omitempty"`
}

// English is the line in English with the deck's card names (nil: the
// embedded deck); a line saved before messages prints its stored text.
func (e *LogEntry) English(d *Deck) string {
	if e.Msg == nil {
		return e.LegacyText
	}
	return e.Msg.English(d)
}

// Note is the verbatim text of a note line (ApplyWithNote: the solo
// opponent's explanation of its decision); ok is false for other lines
// and for lines saved before messages, whose kind is not known.
func (e *LogEntry) Note() (note string, ok bool) {
	if e.Msg == nil || e.Msg.ID != noteID {
		return "", false
	}
	for _, a := range e.Msg.Args {
		if a.Kind == ArgText {
			return a.S, true
		}
	}
	return "", true
}

// Cards calls fn with the number of every card the line names, in order
// (a card may come more than once): the card arguments of its message,
// nested ones included, and each "#N" in its verbatim text (a note, a
// line saved before messages). A privacy check or a reader adding card
// details needs no words for that.
func (e *LogEntry) Cards(fn func(n int)) {
	if e.Msg == nil {
		cardRefs(e.LegacyText, fn)
		return
	}
	e.Msg.Walk(func(m Msg) {
		for _, a := range m.Args {
			switch a.Kind {
			case ArgCard:
				fn(a.N)
			case ArgCardSet:
				for _, n := range a.List {
					fn(n)
				}
			case ArgText:
				cardRefs(a.S, fn)
			}
		}
	})
}

// cardRefs calls fn with N for each "#N" (one to three digits) in text.
func cardRefs(text string, fn func(n int)) {
	for {
		i := strings.IndexByte(text, '#')
		if i < 0 {
			return
		}
		text = text[i+1:]
		n, j := 0, 0
		for j < len(text) && j < 3 && text[j] >= '0' && text[j] <= '9' {
			n = n*10 + int(text[j]-'0')
			j++
		}
		if j > 0 {
			fn(n)
		}
		text = text[j:]
	}
}

// noteID is the message of a note line.
const noteID = "engine.log.note"

// log writes a public line.
func (g *Game) log(actor Side, m Msg) {
	if g.sim {
		return // a simulation keeps no log
	}
	g.appendLog(LogEntry{Actor: actor, To: NoSide, Msg: g.keepMsg(m)})
}

// private writes a line only side to sees.
func (g *Game) private(to Side, m Msg) {
	if g.sim {
		return
	}
	g.appendLog(LogEntry{Actor: to, To: to, Msg: g.keepMsg(m)})
}

// keepMsg copies a line's message into the game's chunks. (Its argument
// list stays where it is: it has its exact size, and the escape analysis
// cannot keep it on the caller's stack while the id goes to the heap.)
func (g *Game) keepMsg(m Msg) *Msg { return g.msgMem.one(m) }

func (g *Game) appendLog(e LogEntry) {
	if g.sim {
		return
	}
	s := &g.S
	e.Seq = len(s.Log) + 1
	e.Round = s.Round
	e.Version = s.Version
	if g.inMove {
		e.Version = g.moveFrom
	}
	s.Log = append(s.Log, e)
}

func (g *Game) cardName(n int) string {
	c := g.deck.Card(n)
	if c == nil {
		return "#" + itoa(n)
	}
	return "#" + itoa(n) + " " + c.Name
}

// LogSince returns the entries after seq visible to viewer (NoSide: public only).
func (g *Game) LogSince(seq int, viewer Side) []LogEntry {
	return g.appendLogSince(nil, seq, viewer)
}

// appendLogSince appends LogSince's entries to out (cut to length 0). The
// result is nil only when there is no entry after seq at all, visible or
// not, as LogSince always returned.
func (g *Game) appendLogSince(out []LogEntry, seq int, viewer Side) []LogEntry {
	log := g.S.Log
	if seq > 0 && seq <= len(log) {
		log = log[seq:] // Seq is the 1-based position
	}
	if len(log) == 0 {
		return nil
	}
	if out == nil {
		out = make([]LogEntry, 0, len(log)) // one allocation (a view is made after every move)
	}
	for _, e := range log {
		if e.Seq > seq && (e.To == NoSide || e.To == viewer && viewer != NoSide) {
			out = append(out, e)
		}
	}
	return out
}
