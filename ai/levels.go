package ai

import (
	"fmt"
	"time"
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
	return "", fmt.Errorf("unknown AI level %q (want easy, normal or hard)", s)
}

// Config is the level's budget: iterations define it; the time caps
// (normal 1 s, hard 5 s per decision, on one core) only bind on a slow or
// busy machine.
func (l Level) Config() Config {
	c := Config{Epsilon: 0.25, Horizon: 1, HorizonPlays: 8, PriorAfter: 8, RootTurn: true, Bias: 2, ShareBudget: true}
	switch l {
	case Easy:
		c.Iterations, c.TimeCap = 40, 300*time.Millisecond
	case Hard:
		c.Iterations, c.TimeCap = 4000, 5*time.Second
	default:
		c.Iterations, c.TimeCap = 1200, time.Second
	}
	return c
}
