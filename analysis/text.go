package analysis

import (
	"math"

	"github.com/rfop/rfop/engine"
	"github.com/rfop/rfop/locale"
)

// Percent is a chance in [0,1] as a whole percentage in p's language.
func Percent(p *locale.Printer, x float64) string {
	return p.T("analysis.percent", locale.Args{"N": int(math.Round(100 * x))})
}

// Where is a decision's place in the game: its round (or the Final
// Crisis) and its number among the decisions (1-based).
func (a *Analysis) Where(p *locale.Printer, i int) string {
	pt := a.Points[i]
	if pt.Final {
		return p.T("analysis.where.fc", locale.Args{"D": i + 1})
	}
	return p.T("analysis.where.round", locale.Args{"N": pt.Round, "D": i + 1})
}

// TurningText is one turning point in one sentence in p's language: where
// it was, what was played, what the AI would have played (and by how many
// points of chance its search preferred that), and how the Commune's
// chance moved (saying so when a round ended in between: the swing is
// then partly the scoring's, objectives revealed included, and the next
// deal's). deck is the game's deck (nil: the built-in one).
func (a *Analysis) TurningText(p *locale.Printer, deck *engine.Deck, t Turning) string {
	pt := a.Points[t.Point]
	args := locale.Args{"Where": a.Where(p, t.Point), "Side": p.Side(pt.Side), "Played": p.Msg(deck, pt.PlayedMsg),
		"Best": p.Msg(deck, pt.BestMsg), "Before": Percent(p, t.Before), "After": Percent(p, t.After), "Scoring": ""}
	if t.Scored {
		args["Scoring"] = p.T("analysis.turning.scoring", nil)
	}
	switch {
	case pt.Agrees:
		return p.T("analysis.turning.agrees", args)
	case !pt.PlayedRate.Known() || !pt.BestRate.Known():
		return p.T("analysis.turning.untried", args)
	}
	cost := int(math.Round(100 * float64(pt.BestRate-pt.PlayedRate)))
	if cost < 1 { // the search preferred it by visits, not by chance: no figure to give
		return p.T("analysis.turning.untried", args)
	}
	args["Cost"] = p.N("analysis.points", cost, nil)
	return p.T("analysis.turning.differs", args)
}

// TurningTexts are the turning points' sentences, in the order played.
func (a *Analysis) TurningTexts(p *locale.Printer, deck *engine.Deck) []string {
	out := make([]string, 0, len(a.Turning))
	for _, t := range a.Turning {
		out = append(out, a.TurningText(p, deck, t))
	}
	return out
}
