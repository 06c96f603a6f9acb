package ai

import (
	"fmt"
	"time"

	"github.com/rfop/rfop/engine"
)

// Level is a named strength of the search player.
type Level string

const (
	Easy   Level = "easy"
	Normal Level = "normal"
	Hard   Level = "hard"
)

// Levels lists the levels, weakest first.
var Levels = []Level{Easy, Normal, Hard}

// ParseLevel reads easy, normal or hard.
func ParseLevel(s string) (Level, error) {
	for _, l := range Levels {
		if string(l) == s {
			return l, nil
		}
	}
	return "", fmt.Errorf("unknown AI level %s (want easy, normal or hard)", engine.Quote(s))
}

// Config is the level's budget: iterations and playout depth define it; the time caps
// (normal 1 s, hard 5 s per decision, on one core) only bind on a slow or
// busy machine.
func (l Level) Config() Config {
	// Every level scores its playouts' ends with the fitted evaluation
	// (fitted.go): against greedy it lifted normal from 80.0 % to 85.5 %
	// of 400 games, and as the Commune from 71.5 % to 78.5 % (docs/ai.md).
	c := Config{Epsilon: 0.25, Horizon: 1, HorizonPlays: 8, PriorAfter: 8, RootTurn: true, Bias: 2, ShareBudget: true,
		Leaf: FittedEval}
	switch l {
	case Easy:
		c.Iterations, c.TimeCap = 40, 300*time.Millisecond
	case Hard:
		// Hard searches deeper, not only longer: its playouts run through
		// the next round too and its selection explores less. More
		// iterations alone did not help (12,000 won 32 of 60 against
		// normal, 4,000 57.5% of 160); these two changes did (docs/ai.md).
		c.Iterations, c.TimeCap = 4000, 5*time.Second
		c.Horizon, c.HorizonPlays, c.Explore = 2, 0, 0.4
	default:
		c.Iterations, c.TimeCap = 1200, time.Second
	}
	return c
}
