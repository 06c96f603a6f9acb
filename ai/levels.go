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
	switch l {
	case Easy:
		return Config{Iterations: 40, TimeCap: 300 * time.Millisecond, Epsilon: 0.3}
	case Hard:
		return Config{Iterations: 1600, TimeCap: 5 * time.Second, Epsilon: 0.25}
	}
	return Config{Iterations: 400, TimeCap: time.Second, Epsilon: 0.25}
}
