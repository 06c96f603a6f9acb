package analysis

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/rfop/rfop/ai"
	"github.com/rfop/rfop/engine"
)

// Config is how much work an analysis does per decision.
type Config struct {
	// Level is the search of each decision (ai.Level.Config): the AI's
	// choice and the chances of the played move and its own.
	Level ai.Level
	// Samples is the number of playouts of each side's estimate.
	Samples int
}

// DefaultConfig: the normal level, 300 playouts per side's estimate.
func DefaultConfig() Config { return Config{Level: ai.Normal, Samples: 300} }

// seed of every search: a constant, so that an estimate depends on the
// InfoSet only (not on the game's seed, which fixes the hidden deck).
const seed = 0x414e414c59534953

// Point is one decision of the game. Its JSON form is what the bot
// stores and what rfop analyse --json prints.
type Point struct {
	Move     int         `json:"move"` // index of the move in the log, undos included (0-based)
	Round    int         `json:"round"`
	Final    bool        `json:"final_crisis"`
	Scorings int         `json:"scorings"` // scorings of rounds before this decision
	Side     engine.Side `json:"-"`
	SideName string      `json:"side"` // "Versailles" or "Commune"
	// Chance is the Commune's chance to win before this decision: the
	// mean of the Commune's estimate and one minus Versailles'.
	Chance float64 `json:"commune_chance"`
	// Versailles and Commune are each side's estimate of its own chance,
	// from its own information.
	Versailles float64 `json:"versailles_estimate"`
	Commune    float64 `json:"commune_estimate"`
	// Played and Best: the move made and the AI's choice; PlayedRate and
	// BestRate the deciding side's chance after each as its search found
	// (NaN, null in JSON, for a move the search did not try).
	Played     engine.Choice `json:"played_move"`
	Best       engine.Choice `json:"ai_move"`
	PlayedRate Rate          `json:"played_chance"`
	BestRate   Rate          `json:"ai_move_chance"`
	Agrees     bool          `json:"ai_agrees"`
	// The words of the prompt and of the two choices (engine messages,
	// printed in the reader's language by package locale).
	PromptMsg engine.Msg `json:"prompt_msg"`
	PlayedMsg engine.Msg `json:"played_msg"`
	BestMsg   engine.Msg `json:"ai_msg"`
}

// Rate is a chance that may be unknown (NaN), written null in JSON.
type Rate float64

// Known reports whether the rate was estimated.
func (r Rate) Known() bool { return !math.IsNaN(float64(r)) && !math.IsInf(float64(r), 0) }

func (r Rate) MarshalJSON() ([]byte, error) {
	if !r.Known() {
		return []byte("null"), nil
	}
	return json.Marshal(float64(r))
}

func (r *Rate) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		*r = Rate(math.NaN())
		return nil
	}
	var f float64
	if err := json.Unmarshal(b, &f); err != nil {
		return err
	}
	*r = Rate(f)
	return nil
}

// Turning is one of the turning points: a decision and how the
// Commune's chance moved from it to the next decision.
type Turning struct {
	Point  int     `json:"decision"` // index in Points
	Before float64 `json:"before"`
	After  float64 `json:"after"`
	// Scored: a round ended between this decision and the next (its
	// scoring, the objectives it reveals and the next deal are part of
	// the swing).
	Scored bool `json:"scored_between"`
}

// Swing is After - Before (the Commune's chance).
func (t Turning) Swing() float64 { return t.After - t.Before }

// Analysis is a finished game explained.
type Analysis struct {
	Points []Point `json:"decisions"`
	// Winner of the game; Resigned: it ended by a resignation (not a
	// loss on time).
	Winner     engine.Side `json:"-"`
	WinnerName string      `json:"winner"`
	Resigned   bool        `json:"resigned"`
	Turning    []Turning   `json:"turning_points"`
	// Level and Samples the analysis was made with.
	Level   ai.Level `json:"level"`
	Samples int      `json:"samples"`
}

// ErrNotFinished: the log does not end the game (only finished games are
// analysed, so that nothing still hidden in a running game shows).
var ErrNotFinished = errors.New("analysis: the game is not finished")

// ErrSolo: solo games have no analysis (the solo opponent has no InfoSet).
var ErrSolo = errors.New("analysis: solo games are not analysed")

// Progress is told how many decisions are done, of how many.
type Progress func(done, total int)

// Analyse replays the game and analyses every decision. progress (may be
// nil) is called after each decision. A cancelled ctx stops it between
// two decisions, with ctx's error.
func Analyse(ctx context.Context, o engine.Options, moves []engine.Move, cfg Config, progress Progress) (*Analysis, error) {
	if o.BotSide != engine.NoSide {
		return nil, ErrSolo
	}
	if cfg.Samples <= 0 {
		cfg.Samples = DefaultConfig().Samples
	}
	if cfg.Level == "" {
		cfg.Level = ai.Normal
	}
	idx := standing(moves)
	// First pass: the decisions, so that progress knows the total.
	g, err := engine.New(o)
	if err != nil {
		return nil, fmt.Errorf("analysis: %w", err)
	}
	total := 0
	for _, k := range idx {
		m := moves[k]
		if !m.Resign && !m.Timeout {
			if p, ok := g.PromptFor(m.Side); ok && len(p.Choices) > 1 {
				total++
			}
		}
		if err := g.ApplyMove(m); err != nil {
			return nil, fmt.Errorf("analysis: move %d: %w", k+1, err)
		}
	}
	if g.S.Result == nil {
		return nil, ErrNotFinished
	}
	a := &Analysis{Winner: g.S.Result.Winner, WinnerName: g.S.Result.Winner.String(), Resigned: g.S.Result.Reason == "resigned", Level: cfg.Level, Samples: cfg.Samples}

	if g, err = engine.New(o); err != nil {
		return nil, fmt.Errorf("analysis: %w", err)
	}
	scorings := 0
	g.SetObserver(func(c engine.Checkpoint) {
		if c.Kind == engine.CheckpointPlaysOver { // a round's (or the Final Crisis') scoring begins
			scorings++
		}
	})
	for _, k := range idx {
		m := moves[k]
		if p, ok := g.PromptFor(m.Side); ok && !m.Resign && !m.Timeout && len(p.Choices) > 1 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			pt, err := Decision(g, m.Side, m.Choice, cfg)
			if err != nil {
				return nil, fmt.Errorf("analysis: move %d: %w", k+1, err)
			}
			pt.Move, pt.Scorings = k, scorings
			a.Points = append(a.Points, pt)
			if progress != nil {
				progress(len(a.Points), total)
			}
		}
		if err := g.ApplyMove(m); err != nil {
			return nil, fmt.Errorf("analysis: move %d: %w", k+1, err)
		}
	}
	a.Turning = turningPoints(a.Points, 3)
	return a, nil
}

// Decision analyses one decision: side is to choose in g, and played is
// what it chose. Everything it computes comes from the two sides'
// InfoSets (nothing of g that a side cannot see).
func Decision(g *engine.Game, side engine.Side, played engine.Choice, cfg Config) (Point, error) {
	if cfg.Samples <= 0 {
		cfg.Samples = DefaultConfig().Samples
	}
	if cfg.Level == "" {
		cfg.Level = ai.Normal
	}
	pr, ok := g.PromptFor(side)
	if !ok {
		return Point{}, ai.ErrNoDecision
	}
	pt := Point{Round: int(g.S.Round), Final: g.S.Round >= 4, Side: side, SideName: side.String(), Played: played,
		PromptMsg: g.PromptMsg(pr), PlayedMsg: g.ChoiceMsg(pr, played), PlayedRate: Rate(math.NaN()), BestRate: Rate(math.NaN())}
	for _, sd := range [2]engine.Side{engine.Versailles, engine.Commune} {
		is, err := g.InfoSet(sd)
		if err != nil {
			if errors.Is(err, engine.ErrNoInfoSet) {
				return Point{}, ErrSolo
			}
			return Point{}, err
		}
		est := ai.NewSearcher(estimateConfig(cfg.Level), seed).Estimate(is, cfg.Samples)
		if sd == engine.Versailles {
			pt.Versailles = est
		} else {
			pt.Commune = est
		}
		if sd != side {
			continue
		}
		// A search without a time cap: the analysis is the same on any
		// machine (the cap only guards a live game's pace).
		c := cfg.Level.Config()
		c.TimeCap = 0
		ranked, err := ai.NewSearcher(c, seed).Rank(is)
		if err != nil {
			return Point{}, err
		}
		pt.Best, pt.BestRate = ranked[0].Choice, Rate(ranked[0].WinRate)
		for _, r := range ranked {
			if r.Choice == played {
				pt.PlayedRate = Rate(r.WinRate)
			}
		}
	}
	pt.Chance = (pt.Commune + 1 - pt.Versailles) / 2
	pt.Agrees = pt.Best == played
	pt.BestMsg = g.ChoiceMsg(pr, pt.Best)
	return pt, nil
}

// estimateConfig is the level's search with playouts to the end of the
// game: an estimate whose playouts stopped at the round's end would look
// a whole round further from a decision just after a round's scoring
// than from the one just before it, and the line would jump at every
// round's end for that alone.
func estimateConfig(l ai.Level) ai.Config {
	c := l.Config()
	c.Horizon, c.HorizonPlays = 0, 0
	return c
}

// After is the Commune's chance after decision i: at the next decision,
// or the result after the last.
func (a *Analysis) After(i int) float64 {
	if i+1 < len(a.Points) {
		return a.Points[i+1].Chance
	}
	if a.Winner == engine.Commune {
		return 1
	}
	return 0
}

// turningPoints: the n decisions whose swing (to the next decision) is
// largest, in the order they were played. The last decision's move to
// the final result is left out: the end of the game settles every
// remaining doubt at once, which is not a turn of the game.
func turningPoints(ps []Point, n int) []Turning {
	var ts []Turning
	for i := 0; i+1 < len(ps); i++ {
		ts = append(ts, Turning{Point: i, Before: ps[i].Chance, After: ps[i+1].Chance, Scored: ps[i+1].Scorings != ps[i].Scorings || ps[i+1].Round != ps[i].Round})
	}
	slices.SortStableFunc(ts, func(a, b Turning) int {
		x, y := math.Abs(a.Swing()), math.Abs(b.Swing())
		switch {
		case x > y:
			return -1
		case x < y:
			return 1
		}
		return 0
	})
	if len(ts) > n {
		ts = ts[:n]
	}
	slices.SortFunc(ts, func(a, b Turning) int { return a.Point - b.Point })
	return ts
}

// standing is the indices of the moves that stand: undone moves and the
// undos themselves are left out (as package replay does).
func standing(moves []engine.Move) []int {
	out := make([]int, 0, len(moves))
	for k, m := range moves {
		if !m.Undo {
			out = append(out, k)
			continue
		}
		for j := len(out) - 1; j >= 0; j-- {
			if mv := moves[out[j]]; mv.Side == m.Side && !mv.Resign && !mv.Timeout {
				out = append(out[:j], out[j+1:]...)
				break
			}
		}
	}
	return out
}

// Version is the version of the stored form (Encode): a stored analysis
// of another version is made again. Raise it when the analysis changes
// (its method, its level, the evaluation it uses).
const Version = 3

// Encode is the analysis as the bot stores it (JSON).
func (a *Analysis) Encode() ([]byte, error) { return json.Marshal(a) }

// Decode reads what Encode wrote.
func Decode(b []byte) (*Analysis, error) {
	var a Analysis
	if err := json.Unmarshal(b, &a); err != nil {
		return nil, fmt.Errorf("analysis: decode: %w", err)
	}
	sideOf := func(name string) engine.Side {
		switch name {
		case engine.Versailles.String():
			return engine.Versailles
		case engine.Commune.String():
			return engine.Commune
		}
		return engine.NoSide
	}
	a.Winner = sideOf(a.WinnerName)
	for i := range a.Points {
		a.Points[i].Side = sideOf(a.Points[i].SideName)
	}
	return &a, nil
}
