package engine

// LogEntry is one line of the game log. Private entries (To != NoSide)
// are shown only to that side: a revealed hand, the objective a player
// kept. Msg is the line for players (package locale prints it in their
// language); Text is its English (Msg.English). Games saved before the log
// carried messages have entries with Text only: they print as they are,
// and SameGame compares logs without their wording.
type LogEntry struct {
	Seq   int  `json:"seq"`
	Round int8 `json:"round"`
	// Version is the state version the entry was written at: entries of the
	// move that took the game from version v to v+1 carry v.
	Version int    `json:"version"`
	Actor   Side   `json:"actor"` // who acted (for colouring), NoSide for the game
	To      Side   `json:"to"`    // NoSide: public
	Text    string `json:"text"`
	Msg     *Msg   `json:"msg,omitempty"`
}

// log writes a public line.
func (g *Game) log(actor Side, m Msg) {
	if g.sim {
		return // a simulation keeps no log: skip the wording too
	}
	g.appendLog(LogEntry{Actor: actor, To: NoSide, Text: m.English(g.deck), Msg: &m})
}

// private writes a line only side to sees.
func (g *Game) private(to Side, m Msg) {
	if g.sim {
		return
	}
	g.appendLog(LogEntry{Actor: to, To: to, Text: m.English(g.deck), Msg: &m})
}

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
