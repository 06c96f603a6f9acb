package bot

import (
	"time"

	"github.com/rfop/rfop/engine"
	"github.com/rfop/rfop/locale"
	"github.com/rfop/rfop/storage"
)

// The sentences of /rfop replay, /rfop history, /rfop stats and the
// Rematch button are catalogue messages of the "history" area (package
// locale); these builders put a result's parts into them.

// historyLine: number, date, players and sides, variant, result and how it
// was decided, length in days and plays.
func historyLine(p *locale.Printer, r storage.GameResult) string {
	who := func(side storage.Side) string {
		name := p.T("history.solo-opponent", nil)
		if id := r.Player(side); id != "" {
			name = mention(id)
		}
		return name + " (" + p.Term(engineSide(side).String()) + ")"
	}
	return say(p, "history.line", argNum("Game", r.GameID), argText("Date", r.EndedAt.UTC().Format("2006-01-02")),
		argText("Versailles", who(storage.SideVersailles)), argText("Commune", who(storage.SideCommune)),
		argText("Variant", historyVariant(p, r.Variant)), argText("Result", decided(p, r)),
		argText("Length", length(p, r.EndedAt.Sub(r.StartedAt))), argText("Plays", p.N("history.plays", r.Plays, nil)))
}

// historyVariant names a variant in a history line.
func historyVariant(p *locale.Printer, v string) string {
	if v == string(engine.Censorship) {
		return p.T("history.variant.censorship", nil)
	}
	return p.T("history.variant.standard", nil)
}

// decided says who won and how: a VP condition, the tiebreakers, a
// resignation, or (solo) no condition met.
func decided(p *locale.Printer, r storage.GameResult) string {
	w := argSide("Winner", engineSide(r.Winner))
	switch r.Reason {
	case "victory":
		return say(p, "history.won.vp", w, argNum("Military", int64(max(r.VP[1], 0))), argNum("Political", int64(max(-r.VP[0], 0))))
	case "tiebreaker":
		return say(p, "history.won.tiebreak", w, argNum("Versailles", int64(r.Tiebreak[0])), argNum("Commune", int64(r.Tiebreak[1])))
	case "resigned":
		return say(p, "history.won.resign", w, argSide("Loser", engineSide(r.Winner).Other()))
	case "timeout":
		return say(p, "history.won.timeout", w, argSide("Loser", engineSide(r.Winner).Other()))
	case "solo-tie":
		return say(p, "history.won.solo-tie", w)
	}
	return say(p, "history.won.other", w)
}

// length is a game's length in days.
func length(p *locale.Printer, d time.Duration) string {
	if d < 24*time.Hour {
		return p.T("history.length.under-day", nil)
	}
	return p.N("history.length.days", int(d.Hours()/24+0.5), nil)
}

// recordLine is a player's record in /rfop stats.
func recordLine(p *locale.Printer, r storage.PlayerRecord) string {
	return p.N("history.stats.player-line", r.Games, locale.Args{"Member": mention(r.UserID), "Won": r.Wins,
		"WonV": r.Won[0], "LostV": r.Played[0] - r.Won[0], "WonC": r.Won[1], "LostC": r.Played[1] - r.Won[1], "Rated": r.Rated})
}
