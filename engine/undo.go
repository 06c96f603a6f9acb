package engine

import "fmt"

// UndoPoint lets a side take back its own choices until hidden information
// is revealed (a card drawn, a deal, a revealed hand or objective) or the
// opponent acts.
type UndoPoint struct {
	Side    Side     `json:"side"`
	Base    *State   `json:"base"`    // state before the first choice of the chain, without log
	LogLen  int      `json:"logLen"`  // log length at Base
	Choices []Choice `json:"choices"` // choices applied since Base
}

func (g *Game) canUndo(side Side) bool {
	u := g.S.Undo
	return u != nil && u.Side == side && len(u.Choices) > 0
}

// CanUndo reports whether side may take back its last choice now.
func (g *Game) CanUndo(side Side) bool { return g.canUndo(side) }

// undoAlloc is an undo point with its base and room for a few choices,
// in one allocation, plus the buffers of the base's lists.
type undoAlloc struct {
	u       UndoPoint
	base    State
	ch      [4]Choice
	lists   []int8
	discard []DiscardEntry
	stack   []Frame
}

func (g *Game) beginUndo(side Side) {
	if u := g.S.Undo; u != nil && u.Side == side {
		return
	}
	// The undo point being replaced is dropped: when no one else can see it
	// (Game.undoMine), it is reused, base and lists, so a game that
	// alternates sides allocates no undo point per decision.
	a := g.undoMine
	if a == nil {
		a = new(undoAlloc)
		g.undoMine = a
	}
	g.S.cloneInto(&a.base, &a.lists, &a.discard, &a.stack)
	a.ch = [4]Choice{}
	a.u = UndoPoint{Side: side, Base: &a.base, LogLen: len(g.S.Log), Choices: a.ch[:0]}
	g.S.Undo = &a.u
}

func (g *Game) endUndo(side Side, c Choice) {
	if g.revealed || g.S.Result != nil {
		g.S.Undo = nil
		return
	}
	if u := g.S.Undo; u != nil {
		u.Choices = append(u.Choices, c)
	}
}

// Undo takes back side's last choice. The version still increases, so any
// prompt shown before the undo is stale.
func (g *Game) Undo(side Side) error {
	if !g.canUndo(side) {
		return fmt.Errorf("%w for %s", ErrNoUndo, side)
	}
	u := g.S.Undo
	ver := g.S.Version
	g.undoMine = nil // the new point below keeps u's base
	g.beginMove()
	defer g.endMove()
	log := g.S.Log[:u.LogLen:u.LogLen]
	g.S = u.Base.clone(false)
	g.S.Log = log
	keep := u.Choices[:len(u.Choices)-1]
	for _, c := range keep {
		g.moveFrom = g.S.Version // the replayed entries keep their versions
		g.revealed = false
		g.apply(g.top(), side, c)
		g.S.Version++
		g.cached = false
		g.run()
	}
	g.S.Undo = &UndoPoint{Side: side, Base: u.Base, LogLen: u.LogLen, Choices: append([]Choice(nil), keep...)}
	g.S.Version = ver + 1
	g.moveFrom = ver
	g.cached = false
	g.run()
	g.log(side, msg("engine.log.undo", aSide("Side", side)))
	return nil
}
