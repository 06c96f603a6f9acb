package ai

import (
	"math"
	"slices"

	"github.com/rfop/rfop/engine"
)

// Hint is one choice as advice to a player (/rfop hint, the terminal's
// hint): the search's estimate of the win rate it gives the player, and
// how far that estimate can be trusted.
type Hint struct {
	Choice engine.Choice
	// WinRate is the mean value of the choice's playouts for the deciding
	// side (NaN: not searched, a forced choice or one the search skipped).
	WinRate float64
	// Margin is the half-width of a 95% interval around WinRate (0 with a
	// NaN WinRate): 1.96 standard errors of a mean of values in [0, 1],
	// at most sqrt(p(1-p)/visits) each (p shrunk towards 1/2 by one
	// success and one failure). MCTS samples are not independent
	// (the tree steers them), so this is a guide to the noise, not a
	// guarantee; it errs on the wide side.
	Margin float64
	Visits int
	// Close: this choice's estimate is within the noise of the first's
	// (their difference is under both margins combined), so the search
	// cannot tell which of the two is better.
	Close bool
	// Thin: searched too little to compare (ranked after the others).
	Thin bool
}

// minHintVisits is how often a choice must have been tried for its win
// rate to be ranked: with fewer visits the estimate is mostly noise (one
// lucky playout in three reads as 33%).
const minHintVisits = 20

// HintsOf orders a search's choices for a player: the choices searched
// enough (at least minHintVisits visits and 2% of the most visited) by
// estimated win rate, best first, then the others by visits. The search
// itself chooses by visits (the robust choice for playing); a player
// reading percentages expects them in order, and with the margins can see
// when the top choices are too close to call.
func HintsOf(r []Ranked) []Hint {
	most := 0
	for _, x := range r {
		most = max(most, x.Visits)
	}
	hs := make([]Hint, 0, len(r))
	for _, x := range r {
		h := Hint{Choice: x.Choice, WinRate: x.WinRate, Visits: x.Visits}
		if math.IsNaN(x.WinRate) || x.Visits == 0 {
			h.WinRate, h.Thin = math.NaN(), true
		} else {
			// p shrunk towards 1/2 by one success and one failure, so a
			// choice that always won its three playouts still has a margin.
			n := float64(x.Visits)
			p := (min(max(x.WinRate, 0), 1)*n + 1) / (n + 2)
			h.Margin = 1.96 * math.Sqrt(p*(1-p)/n)
			h.Thin = x.Visits < minHintVisits || x.Visits*50 < most
		}
		hs = append(hs, h)
	}
	slices.SortStableFunc(hs, func(a, b Hint) int {
		switch {
		case a.Thin != b.Thin:
			if a.Thin {
				return 1
			}
			return -1
		case a.Thin: // both thin: as the search left them (visits)
			return b.Visits - a.Visits
		case a.WinRate > b.WinRate:
			return -1
		case a.WinRate < b.WinRate:
			return 1
		}
		return b.Visits - a.Visits
	})
	if len(hs) > 0 && !hs[0].Thin {
		best := hs[0]
		for k := 1; k < len(hs) && !hs[k].Thin; k++ {
			se := math.Hypot(best.Margin, hs[k].Margin) // 1.96 × the difference's standard error
			hs[k].Close = best.WinRate-hs[k].WinRate < se
		}
	}
	return hs
}

// hintFloor is the least search a hint gets: Easy's 40 iterations spread
// over a dozen choices leave every estimate within the noise of the
// others, which helps no one.
const hintFloor = Normal

// Advise searches the decision of is at level l (at least Normal) and
// ranks its choices for the player (HintsOf). The search is seeded by the
// position, so asking twice gives the same answer unless the level's time
// cap cut a search short on a busy machine.
func Advise(l Level, is *engine.InfoSet) ([]Hint, error) {
	if l == Easy {
		l = hintFloor
	}
	r, err := NewSearcher(l.Config(), uint64(is.Version())).Rank(is)
	if err != nil {
		return nil, err
	}
	return HintsOf(r), nil
}
