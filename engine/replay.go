package engine

import (
	"errors"
	"fmt"
)

// Move is one entry of a game's action log: a choice, an undo, or a
// resignation by a side.
type Move struct {
	Side   Side   `json:"side"`
	Choice Choice `json:"choice,omitempty"`
	Undo   bool   `json:"undo,omitempty"`
	Resign bool   `json:"resign,omitempty"`
	// Note is the solo opponent's explanation, logged before its choice.
	Note string `json:"note,omitempty"`
}

// ApplyMove applies one logged move.
func (g *Game) ApplyMove(m Move) error {
	switch {
	case m.Undo:
		return g.Undo(m.Side)
	case m.Resign:
		return g.Resign(m.Side)
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
	if g.S.Result != nil {
		return ErrGameOver
	}
	if side != Versailles && side != Commune {
		return errors.New("resign: unknown side")
	}
	w := side.Other()
	g.S.Result = &Result{Winner: w, Reason: "resigned", VP: g.S.VP,
		Summary: side.String() + " resigns: " + w.String() + " wins."}
	g.S.Undo = nil
	g.beginMove()
	defer g.endMove()
	g.S.Version++
	g.cached = false
	g.logf(side, "%s", g.S.Result.Summary)
	return nil
}

// Options returns the options the game was created with (for Replay).
func (g *Game) Options() Options {
	return Options{Variant: g.S.Variant, Seed: g.S.Seed, Deck: g.deck, BotSide: g.S.BotSide}
}
