package render

import (
	"strings"

	"github.com/rfop/rfop/engine"
	"github.com/rfop/rfop/locale"
)

// DefaultCaption builds a one-line caption from a view in English, with
// the embedded deck's card names; Renderer.Caption is the same in the
// renderer's language. E.g.
//
//	Round 2 · Versailles played #11 Adolphe Thiers for 2 OP · Commune to play
//
// It gives the round, the most recent card play of the current phase from
// the log (or the last public log line) and who must decide now; once the
// game is over, the result. Only public log entries are used, so a caption
// made from a player's own view never quotes that player's private lines.
func DefaultCaption(v *engine.View) string {
	return caption(locale.For(locale.English), nil, v)
}

// Caption is DefaultCaption in the renderer's language and deck.
func (r *Renderer) Caption(v *engine.View) string { return caption(r.pr, r.deck, v) }

func caption(pr *locale.Printer, deck *engine.Deck, v *engine.View) string {
	if v == nil {
		return ""
	}
	round := roundName(pr, v.Round)
	if v.Result != nil {
		sum := strings.TrimSuffix(strings.TrimSpace(pr.Result(deck, v.Result)), ".")
		if sum == "" && (v.Result.Winner == engine.Versailles || v.Result.Winner == engine.Commune) {
			sum = pr.Msg(deck, engine.Msg{ID: "render.caption.wins", Args: []engine.Arg{{Name: "Side", Kind: engine.ArgSide, N: int(v.Result.Winner)}}})
		}
		if sum == "" {
			return pr.T("render.caption.game-over-plain", locale.Args{"Round": round})
		}
		return pr.T("render.caption.game-over", locale.Args{"Round": round, "Summary": sum})
	}
	var parts []string
	e, namesRound := lastPlay(pr, deck, v.Log)
	// A log line that names the round itself ("Round 2 begins.") replaces
	// the round prefix rather than repeating it.
	if !namesRound {
		parts = append(parts, round)
	}
	if e != "" {
		parts = append(parts, e)
	}
	if len(v.Deciding) > 0 {
		parts = append(parts, whoDecides(pr, deck, v.Deciding))
	}
	return strings.Join(parts, " · ")
}

func roundName(pr *locale.Printer, r int8) string {
	if r >= 4 {
		return pr.T("render.final-crisis", nil)
	}
	if r < 1 {
		r = 1
	}
	return pr.T("render.round", locale.Args{"N": int(r)})
}

// pastPlays maps the log's card plays to their past tense for a caption.
var pastPlays = map[string]string{
	"engine.log.play-event":     "render.caption.played-event",
	"engine.log.play-ops":       "render.caption.played-ops",
	"engine.log.play-discarded": "render.caption.played-discarded",
	"engine.log.play-momentum":  "render.caption.played-momentum",
	"engine.log.play-fc-ops":    "render.caption.played-fc-ops",
	"engine.log.fc-play":        "render.caption.played-fc",
}

// phaseStarts are the log lines that open a phase of the round in which
// no card is played (scoring), or a new round; engine.NamesRound tells the
// lines that name the round themselves.
var (
	phaseStarts = map[string]bool{"engine.log.set-aside": true, "engine.log.round-begins": true,
		"engine.log.deal": true, "engine.log.fc-begins": true, "engine.log.fc-early": true}
)

// lastPlay finds the latest public card play in the log (within the last
// few dozen lines, and not before the start of the current phase) and
// phrases it in the past tense; failing that, the last public line.
// namesRound: the line returned names the round itself.
func lastPlay(pr *locale.Printer, deck *engine.Deck, log []engine.LogEntry) (line string, namesRound bool) {
	found := false
	for i := len(log) - 1; i >= 0 && i >= len(log)-40; i-- {
		e := log[i]
		if e.To != engine.NoSide {
			continue
		}
		if e.Msg == nil { // saved before the log carried messages
			return legacyLastPlay(pr, deck, log[:i+1])
		}
		id := e.Msg.ID
		if !found {
			line = strings.TrimSuffix(strings.TrimSpace(pr.Msg(deck, *e.Msg)), ".")
			namesRound, found = engine.NamesRound(id), true
		}
		if phaseStarts[id] {
			// The plays are over (end-of-round scoring) or not begun: a
			// card played before this line would read as the latest news.
			return line, namesRound
		}
		if past, ok := pastTense(pr, deck, *e.Msg); ok {
			return past, false
		}
	}
	return line, namesRound
}

// pastTense is a card play's log line in the past tense, for a caption
// ("Versailles played #11 Adolphe Thiers for 2 OP"); ok is false for a
// line that is not a card play.
func pastTense(pr *locale.Printer, deck *engine.Deck, line engine.Msg) (string, bool) {
	past, ok := pastPlays[line.ID]
	if !ok {
		return "", false
	}
	m := engine.Msg{ID: past, Args: append([]engine.Arg(nil), line.Args...)}
	for k := range m.Args {
		if m.Args[k].Kind == engine.ArgOP {
			m.Args[k].Kind = engine.ArgOPShort // "for 2 OP" on a picture
		}
	}
	return pr.Msg(deck, m), true
}

// legacyLastPlay is lastPlay for log lines saved as English text only:
// the English is read as before, with the game terms translated.
func legacyLastPlay(pr *locale.Printer, deck *engine.Deck, log []engine.LogEntry) (string, bool) {
	last := ""
	for i := len(log) - 1; i >= 0 && i >= len(log)-40; i-- {
		e := log[i]
		if e.To != engine.NoSide {
			continue
		}
		t := strings.TrimSuffix(strings.TrimSpace(e.LegacyText), ".")
		if last == "" {
			last = t
		}
		if legacyPhaseStart(t) {
			return pr.LogLine(deck, engine.LogEntry{LegacyText: last}), strings.HasPrefix(last, "Round ") || strings.HasPrefix(last, "The Final Crisis")
		}
		if e.Actor == engine.NoSide || !strings.Contains(t, "#") {
			continue
		}
		if strings.Contains(t, " plays ") || strings.Contains(t, " discards ") && strings.Contains(t, " to ") {
			return pr.LogLine(deck, engine.LogEntry{LegacyText: legacyPastTense(t)}), false
		}
	}
	return pr.LogLine(deck, engine.LogEntry{LegacyText: last}), strings.HasPrefix(last, "Round ") || strings.HasPrefix(last, "The Final Crisis")
}

func legacyPhaseStart(t string) bool {
	for _, p := range []string{"Each player sets aside", "Round ", "The Final Crisis begins", "Both Final Crisis zones"} {
		if strings.HasPrefix(t, p) {
			return true
		}
	}
	return false
}

var pastReplacer = strings.NewReplacer(
	" plays ", " played ",
	" discards ", " discarded ",
	" operations point(s)", " OP",
	" operations points", " OP",
	" for its event", " for the event",
	" to advance ", " to raise ",
)

func legacyPastTense(s string) string {
	s = pastReplacer.Replace(s)
	// "…; the card is removed from the game" adds nothing on a picture.
	if i := strings.Index(s, "; "); i > 0 {
		s = s[:i]
	}
	return s
}

func whoDecides(pr *locale.Printer, deck *engine.Deck, ds []engine.Deciding) string {
	var who [2]bool
	for _, d := range ds {
		if d.Side == engine.Versailles || d.Side == engine.Commune {
			who[d.Side] = true
		}
	}
	play := ds[0].Kind == engine.PromptPlay || ds[0].Kind == engine.PromptFCPlay
	both, one := "render.caption.both-decide", "render.caption.side-decide"
	if play {
		both, one = "render.caption.both-play", "render.caption.side-play"
	}
	side := func(s engine.Side) string {
		return pr.Msg(deck, engine.Msg{ID: one, Args: []engine.Arg{{Name: "Side", Kind: engine.ArgSide, N: int(s)}}})
	}
	switch {
	case who[0] && who[1]:
		return pr.T(both, nil)
	case who[0]:
		return side(engine.Versailles)
	case who[1]:
		return side(engine.Commune)
	}
	return ""
}
