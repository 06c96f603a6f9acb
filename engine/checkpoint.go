package engine

// CheckpointKind names a moment inside a move that a replay shows on its
// own: the game runs from one decision to the next by itself, so the end
// of a round's plays and its scoring happen inside the move that
// finished the last play (or bonus action) and are never a state between
// two moves.
type CheckpointKind int8

const (
	// CheckpointPlaysOver: the round's (or Final Crisis') plays and
	// Pivotal bonus actions are over; scoring is next.
	CheckpointPlaysOver CheckpointKind = iota + 1
	// CheckpointScored: the round has been scored (Crisis Dimensions,
	// objectives and their events; at the end of the Final Crisis,
	// momentum VP and the victory check), before the next deal.
	CheckpointScored
)

// Checkpoint is the public board at a checkpoint.
type Checkpoint struct {
	Kind  CheckpointKind
	Round int8 // 1..3, 4 = Final Crisis
	// View is the spectator view at that moment (Deciding is empty: no
	// prompt exists in the middle of a move).
	View View
}

// SetObserver makes the game call fn at every checkpoint while moves are
// applied (nil: none). It is for replays; it is not saved with the state
// and does not change the game.
func (g *Game) SetObserver(fn func(Checkpoint)) { g.observer = fn }

func (g *Game) notify(k CheckpointKind) {
	if g.observer == nil {
		return
	}
	g.observer(Checkpoint{Kind: k, Round: g.S.Round, View: g.viewState(NoSide, 0)})
}
