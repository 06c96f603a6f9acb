package engine

import "fmt"

// LogEntry is one human-readable line of the game log. Private entries
// (To != NoSide) are shown only to that side: a revealed hand, the
// objective a player kept.
type LogEntry struct {
	Seq   int  `json:"seq"`
	Round int8 `json:"round"`
	// Version is the state version the entry was written at: entries of the
	// move that took the game from version v to v+1 carry v.
	Version int    `json:"version"`
	Actor   Side   `json:"actor"` // who acted (for colouring), NoSide for the game
	To      Side   `json:"to"`    // NoSide: public
	Text    string `json:"text"`
}

func (g *Game) logf(actor Side, format string, args ...any) {
	g.appendLog(LogEntry{Actor: actor, To: NoSide, Text: fmt.Sprintf(format, args...)})
}

func (g *Game) private(to Side, format string, args ...any) {
	g.appendLog(LogEntry{Actor: to, To: to, Text: fmt.Sprintf(format, args...)})
}

func (g *Game) appendLog(e LogEntry) {
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

func (g *Game) cardList(a []int8) string {
	if len(a) == 0 {
		return "no cards"
	}
	out := ""
	for i, c := range a {
		if i > 0 {
			out += ", "
		}
		out += g.cardName(int(c))
	}
	return out
}

// LogSince returns the entries after seq visible to viewer (NoSide: public only).
func (g *Game) LogSince(seq int, viewer Side) []LogEntry {
	var out []LogEntry
	log := g.S.Log
	if seq > 0 && seq <= len(log) {
		log = log[seq:] // Seq is the 1-based position
	}
	for _, e := range log {
		if e.Seq > seq && (e.To == NoSide || e.To == viewer && viewer != NoSide) {
			out = append(out, e)
		}
	}
	return out
}
