package engine

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
)

// Move is one entry of a game's action log: a choice, an undo, a
// resignation by a side, or a side's loss on time.
type Move struct {
	Side   Side   `json:"side"`
	Choice Choice `json:"choice,omitempty"`
	Undo   bool   `json:"undo,omitempty"`
	Resign bool   `json:"resign,omitempty"`
	// Timeout: Side ran out of time and the opponent claimed the win. The
	// engine has no clock: whoever hosts the game decides when (the bot's
	// pace); the move itself is as deterministic as a resignation.
	Timeout bool `json:"timeout,omitempty"`
	// Why is the solo opponent's explanation of its choice, a message in
	// the players' languages, logged before the lines the choice makes.
	Why *Msg `json:"why,omitempty"`
	// Note is the English explanation of moves stored before Why (the
	// decision-table rows); such moves replay with it.
	Note string `json:"note,omitempty"`
}

// ApplyMove applies one logged move.
func (g *Game) ApplyMove(m Move) error {
	switch {
	case m.Undo:
		return g.Undo(m.Side)
	case m.Resign:
		return g.Resign(m.Side)
	case m.Timeout:
		return g.TimeOut(m.Side)
	case m.Why != nil:
		return g.ApplyWithWhy(m.Side, m.Choice, *m.Why)
	case m.Note != "":
		return g.ApplyWithNote(m.Side, m.Choice, m.Note)
	}
	return g.Apply(m.Side, m.Choice)
}

// Replay rebuilds a game from its options and move log: the same seed and
// the same moves always give the same state.
func Replay(o Options, moves []Move) (*Game, error) {
	g, err := New(o)
	if err != nil {
		return nil, err
	}
	for i, m := range moves {
		if err := g.ApplyMove(m); err != nil {
			return nil, fmt.Errorf("replay: move %d (%s): %w", i+1, m.Side, err)
		}
	}
	return g, nil
}

// Resign ends the game in the opponent's favour.
func (g *Game) Resign(side Side) error {
	return g.concede(side, "resigned", "engine.result.resigns")
}

// TimeOut ends the game in the opponent's favour because side ran out of
// time (Reason "timeout"): a result like a resignation.
func (g *Game) TimeOut(side Side) error {
	return g.concede(side, "timeout", "engine.result.timeout")
}

// concede ends the game with side's loss for reason, logging the result.
func (g *Game) concede(side Side, reason, id string) error {
	if g.S.Result != nil {
		return ErrGameOver
	}
	if side != Versailles && side != Commune {
		return errors.New(reason + ": unknown side")
	}
	w := side.Other()
	g.S.Result = &Result{Winner: w, Reason: reason, VP: g.S.VP}
	g.S.Result.setSummary(msg(id, aSide("Side", side), aSide("Winner", w)))
	g.S.Undo = nil
	g.beginMove()
	defer g.endMove()
	g.S.Version++
	g.cached = false
	g.log(side, *g.S.Result.Msg)
	return nil
}

// Options returns the options the game was created with (for Replay).
func (g *Game) Options() Options {
	return Options{Variant: g.S.Variant, Seed: g.S.Seed, Deck: g.deck, BotSide: g.S.BotSide}
}

// SameState compares two saved states of a game (Save's output), as the
// start-up integrity check does with a stored state and a replay of its
// action log, and says where they differ (nil: the same game). Log lines
// and the result are compared by their message, not their wording, and an
// entry saved before the log carried messages (Text only) is compared by
// everything but its words: a replay writes the same line as a message, so
// games saved by an older version keep passing the check.
func SameState(a, b []byte) error {
	var sa, sb State
	if err := json.Unmarshal(a, &sa); err != nil {
		return fmt.Errorf("compare states: %w", err)
	}
	if err := json.Unmarshal(b, &sb); err != nil {
		return fmt.Errorf("compare states: %w", err)
	}
	if len(sa.Log) != len(sb.Log) {
		return fmt.Errorf("the logs differ in length (%d and %d lines)", len(sa.Log), len(sb.Log))
	}
	la, lb := append([]LogEntry(nil), sa.Log...), append([]LogEntry(nil), sb.Log...)
	for i := range la {
		la[i].LegacyText, lb[i].LegacyText = "", ""
		if la[i].Msg == nil || lb[i].Msg == nil {
			la[i].Msg, lb[i].Msg = nil, nil
		}
		ja, _ := json.Marshal(la[i])
		jb, _ := json.Marshal(lb[i])
		if !bytes.Equal(ja, jb) {
			return fmt.Errorf("log line %d differs: %s / %s", i+1, ja, jb)
		}
	}
	sa.Log, sb.Log = nil, nil
	for _, r := range []**Result{&sa.Result, &sb.Result} {
		if *r != nil {
			c := **r
			*r = &c
		}
	}
	if sa.Result != nil && sb.Result != nil {
		sa.Result.LegacySummary, sb.Result.LegacySummary = "", ""
		if sa.Result.Msg == nil || sb.Result.Msg == nil {
			sa.Result.Msg, sb.Result.Msg = nil, nil
		}
	}
	ja, _ := json.Marshal(&sa)
	jb, _ := json.Marshal(&sb)
	if !bytes.Equal(ja, jb) {
		return errors.New("the states differ outside the log")
	}
	return nil
}
