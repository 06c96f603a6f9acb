package render

import (
	"strings"

	"github.com/rfop/rfop/engine"
)

// DefaultCaption builds a one-line caption from a view: the round, the most
// recent card play of the current phase from the log (or the last public
// log line) and who must decide now, e.g.
//
//	Round 2 · Versailles played #11 Adolphe Thiers for 2 OP · Commune to play
//
// Once the game is over it gives the result's summary instead. Only public
// log entries are used, so a caption made from a player's own view never
// quotes that player's private lines.
func DefaultCaption(v *engine.View) string {
	if v == nil {
		return ""
	}
	if v.Result != nil {
		sum := strings.TrimSuffix(strings.TrimSpace(v.Result.Summary), ".")
		if sum == "" && (v.Result.Winner == engine.Versailles || v.Result.Winner == engine.Commune) {
			sum = v.Result.Winner.String() + " wins"
		}
		if sum == "" {
			return roundName(v.Round) + " · Game over"
		}
		return roundName(v.Round) + " · Game over: " + sum
	}
	var parts []string
	e := lastPlay(v.Log)
	// A log line that names the round itself ("Round 2 begins.") replaces
	// the round prefix rather than repeating it.
	if !strings.HasPrefix(e, "Round ") && !strings.HasPrefix(e, "The Final Crisis") {
		parts = append(parts, roundName(v.Round))
	}
	if e != "" {
		parts = append(parts, e)
	}
	if len(v.Deciding) > 0 {
		parts = append(parts, whoDecides(v.Deciding))
	}
	return strings.Join(parts, " · ")
}

func roundName(r int8) string {
	if r >= 4 {
		return "Final Crisis"
	}
	if r < 1 {
		r = 1
	}
	return "Round " + itoa(int(r))
}

// lastPlay finds the latest public card play in the log (within the last
// few dozen lines, and not before the start of the current phase) and
// phrases it in the past tense; failing that, the last public line.
func lastPlay(log []engine.LogEntry) string {
	last := ""
	for i := len(log) - 1; i >= 0 && i >= len(log)-40; i-- {
		e := log[i]
		if e.To != engine.NoSide {
			continue
		}
		t := strings.TrimSuffix(strings.TrimSpace(e.Text), ".")
		if last == "" {
			last = t
		}
		if phaseStart(t) {
			// The plays are over (end-of-round scoring) or not begun: a
			// card played before this line would read as the latest news.
			return last
		}
		if e.Actor == engine.NoSide || !strings.Contains(t, "#") {
			continue
		}
		if strings.Contains(t, " plays ") || strings.Contains(t, " discards ") && strings.Contains(t, " to ") {
			return pastTense(t)
		}
	}
	return last
}

// phaseStart reports whether a log line opens a phase of the round in
// which no card is played (scoring), or a new round.
func phaseStart(t string) bool {
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

func pastTense(s string) string {
	s = pastReplacer.Replace(s)
	// "…; the card is removed from the game" adds nothing on a picture.
	if i := strings.Index(s, "; "); i > 0 {
		s = s[:i]
	}
	return s
}

func whoDecides(ds []engine.Deciding) string {
	var who [2]bool
	for _, d := range ds {
		if d.Side == engine.Versailles || d.Side == engine.Commune {
			who[d.Side] = true
		}
	}
	verb := "to decide"
	if ds[0].Kind == engine.PromptPlay || ds[0].Kind == engine.PromptFCPlay {
		verb = "to play"
	}
	switch {
	case who[0] && who[1]:
		return "both players " + verb
	case who[0]:
		return "Versailles " + verb
	case who[1]:
		return "Commune " + verb
	}
	return ""
}
