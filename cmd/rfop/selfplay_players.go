package main

// rfop selfplay --players A,B: a match between two players of package ai
// (random, greedy, ai:LEVEL), alternating sides game by game, summarised
// as one JSON object with 95% confidence intervals (the strength ladder).

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strings"
	"time"

	"github.com/rfop/rfop/ai"
	"github.com/rfop/rfop/engine"
)

// matchStats is the JSON printed by selfplay --players. Field order is the output order.
type matchStats struct {
	Games         int                       `json:"games"`
	Players       [2]string                 `json:"players"`
	Wins          map[string]int            `json:"wins"`
	WinsBySide    map[string]map[string]int `json:"wins_by_side"`
	CI95          map[string][2]float64     `json:"ci95"`
	Errors        int                       `json:"errors"`
	AvgDecisionMS map[string]float64        `json:"avg_decision_ms"`
}

// parsePlayers reads "A,B" into two player names, distinct so that the
// JSON can key by name (the same player twice: the second is "NAME#2").
func parsePlayers(v string) ([2]string, error) {
	parts := strings.Split(v, ",")
	if len(parts) != 2 {
		return [2]string{}, fmt.Errorf("--players wants two players separated by a comma, e.g. ai:normal,greedy")
	}
	var names [2]string
	for i, p := range parts {
		p = strings.TrimSpace(p)
		if _, err := ai.NewPlayer(p, 0); err != nil {
			return names, err
		}
		names[i] = p
	}
	if names[0] == names[1] {
		names[1] += "#2"
	}
	return names, nil
}

// runMatch plays games games; player 0 takes Versailles in even games and
// the Commune in odd ones. Game i uses seed+i for its deal and derives the
// players' seeds from it, so any game can be replayed.
func runMatch(names [2]string, games int, seed int64, variant engine.Variant, stdout, stderr io.Writer) int {
	st := matchStats{Games: games, Players: names, Wins: map[string]int{}, WinsBySide: map[string]map[string]int{},
		CI95: map[string][2]float64{}, AvgDecisionMS: map[string]float64{}}
	var dec [2]int
	var el [2]time.Duration
	for _, n := range names {
		st.Wins[n] = 0
		st.WinsBySide[n] = map[string]int{"commune": 0, "versailles": 0}
	}
	reported := 0
	for i := 0; i < games; i++ {
		s := seed + int64(i)
		var ps [2]ai.Player
		var idx [2]int // idx[side] = player index
		for k, n := range names {
			p, err := ai.NewPlayer(strings.TrimSuffix(n, "#2"), uint64(s)*2+uint64(k)+1)
			if err != nil {
				return usageError(stderr, "selfplay", err.Error())
			}
			side := engine.Side((i + k) % 2)
			ps[side], idx[side] = p, k
		}
		g, gs, err := playMatchGame(engine.Options{Seed: s, Variant: variant}, ps)
		if err != nil {
			st.Errors++
			if reported < maxReported {
				fmt.Fprintf(stderr, "selfplay: %s seed %d: %v\n", variant, s, err)
			}
			reported++
			continue
		}
		for side := range 2 {
			dec[idx[side]] += gs.Decisions[side]
			el[idx[side]] += gs.Elapsed[side]
		}
		w := g.S.Result.Winner
		n := names[idx[w]]
		st.Wins[n]++
		st.WinsBySide[n][w.Key()]++
	}
	for k, n := range names {
		lo, hi := wilson(st.Wins[n], games)
		st.CI95[n] = [2]float64{round3(lo), round3(hi)}
		if dec[k] > 0 {
			st.AvgDecisionMS[n] = round3(el[k].Seconds() * 1000 / float64(dec[k]))
		} else {
			st.AvgDecisionMS[n] = 0
		}
	}
	b, err := json.Marshal(st)
	if err != nil {
		fmt.Fprintf(stderr, "selfplay: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "%s\n", b)
	if st.Errors > 0 {
		return 1
	}
	return 0
}

// playMatchGame is ai.PlayGame with an engine panic turned into an error.
func playMatchGame(o engine.Options, ps [2]ai.Player) (g *engine.Game, gs ai.GameStats, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("panic: %v", p)
		}
	}()
	return ai.PlayGame(o, ps)
}

// wilson is the Wilson score 95% interval of a win rate.
func wilson(wins, n int) (lo, hi float64) {
	if n == 0 {
		return 0, 1
	}
	const z = 1.959964
	p := float64(wins) / float64(n)
	d := 1 + z*z/float64(n)
	c := (p + z*z/(2*float64(n))) / d
	h := z * math.Sqrt(p*(1-p)/float64(n)+z*z/(4*float64(n)*float64(n))) / d
	return math.Max(0, c-h), math.Min(1, c+h)
}

func round3(x float64) float64 { return math.Round(x*1000) / 1000 }
