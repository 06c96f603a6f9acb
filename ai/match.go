package ai

import (
	"fmt"
	"time"

	"github.com/rfop/rfop/engine"
)

// GameStats are one game's decision counts and thinking time per side
// (decisions with more than one legal choice only).
type GameStats struct {
	Decisions [2]int
	Elapsed   [2]time.Duration
}

// PlayGame plays a whole 2-player game: players[side] decides for side,
// each from its own InfoSet. Simultaneous decisions (objectives, Final
// Crisis discards) are asked of both sides before either is applied.
func PlayGame(o engine.Options, players [2]Player) (*engine.Game, GameStats, error) {
	var st GameStats
	o.BotSide = engine.NoSide
	g, err := engine.New(o)
	if err != nil {
		return nil, st, err
	}
	for steps := 0; steps < 100000; steps++ {
		ps := g.Prompts()
		if len(ps) == 0 {
			return g, st, nil
		}
		type decided struct {
			side engine.Side
			c    engine.Choice
		}
		var ds []decided
		for _, p := range ps {
			is, err := g.InfoSet(p.Side)
			if err != nil {
				return g, st, err
			}
			t := time.Now()
			c, err := players[p.Side].Choose(is)
			if err != nil {
				return g, st, fmt.Errorf("%s (%s): %w", players[p.Side].Name(), p.Side, err)
			}
			if len(p.Choices) > 1 {
				st.Decisions[p.Side]++
				st.Elapsed[p.Side] += time.Since(t)
			}
			ds = append(ds, decided{p.Side, c})
		}
		for _, d := range ds {
			if err := g.Apply(d.side, d.c); err != nil {
				return g, st, fmt.Errorf("%s (%s) chose an illegal move: %w", players[d.side].Name(), d.side, err)
			}
		}
	}
	return g, st, fmt.Errorf("game did not end")
}
