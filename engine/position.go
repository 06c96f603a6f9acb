package engine

import (
	"errors"
	"fmt"
)

// Positions: a game that starts from a state built outside a game (the
// rulebook's and solo.md's worked examples, an analysis) with procedures
// of the rules to resolve from there. Resume never changes an existing
// game: it checks the position as Load checks a save (the limits of
// docs/map.md and the card census) and returns a new game that resolves the
// procedures by the rules, prompt by prompt.

// AnySphere lets the acting side choose the sphere of an operation.
const AnySphere Sphere = -1

// Procedure is a procedure of the rules a position starts with; build one
// with the Proc functions.
type Procedure struct {
	kind   FrameKind
	side   Side
	card   int
	op     int
	sphere Sphere
}

// ProcBotTurn: the solo opponent's turn of a normal round (momentum check,
// reveal of the top Strategy card, its use, the extra OP, the discard).
func ProcBotTurn() Procedure { return Procedure{kind: fBot, side: NoSide} }

// ProcBotFinalCrisisPlay: one Final Crisis play of the solo opponent;
// Plays and FCHand of the position decide whether it reveals a card or
// plays its Final Crisis card.
func ProcBotFinalCrisisPlay() Procedure {
	return Procedure{kind: fBot, side: NoSide, card: -1}
}

// ProcCardPlay: side plays a Strategy card from its hand (normal round).
func ProcCardPlay(side Side) Procedure { return Procedure{kind: fPlay, side: side} }

// ProcOperations: side conducts op operations points over the whole map,
// in sphere (or AnySphere: side chooses).
func ProcOperations(side Side, op int, sphere Sphere) Procedure {
	return Procedure{kind: fOps, side: side, op: op, sphere: sphere}
}

// ProcEvent: the event of card resolves for you (you decide its choices).
func ProcEvent(card int, you Side) Procedure { return Procedure{kind: fEffect, side: you, card: card} }

// ProcFreeCube: side may place a cube after its opponent's momentum rose
// to 2 or 3 (decision 17).
func ProcFreeCube(side Side) Procedure { return Procedure{kind: fFreeCube, side: side} }

// ProcBonusActions: the Pivotal Space bonus actions of the end of a round
// (control is read when they start).
func ProcBonusActions() Procedure { return Procedure{kind: fBonus, side: NoSide} }

// ProcObjectiveEvents: the objective events of the end of a round (the
// position's Objective decides who may perform one).
func ProcObjectiveEvents() Procedure { return Procedure{kind: fObjEvents, side: NoSide} }

// ProcFinalCrisisPlays: the rest of the game from the Final Crisis card
// plays: the alternating plays (Plays, First, FCHand and the hands decide
// who plays next), the final bonus actions and scoring, and victory.
func ProcFinalCrisisPlays() Procedure { return Procedure{kind: fGame, side: NoSide} }

// ErrPosition is wrapped by every error of Resume.
var ErrPosition = errors.New("invalid position")

// Resume returns a new game that starts from the position s (a copy is
// taken; s is not changed) with procs resolved in the order given, the
// first one first, and runs it to its first decision. The position must
// have nothing in progress (no stack, no undo point, no result), be
// played with deck (nil: the embedded deck), and pass the checks of a
// saved game — the limits of docs/map.md (at most 4 cubes of a side in a space,
// discs, momentum, VP, the Commune pool's cells) and the card census — but
// one: the cubes of a side need not add up to 18, because a worked example
// states the board and the tracks separately, each as it matters.
func Resume(s State, deck *Deck, procs ...Procedure) (g *Game, err error) {
	if deck == nil {
		deck = DefaultDeck()
	}
	if s.DeckID != deck.ID {
		return nil, fmt.Errorf("%w: the position is for deck %s, not %s", ErrPosition, s.DeckID, deck.ID)
	}
	if len(s.Stack) != 0 || s.Undo != nil || s.Result != nil {
		return nil, fmt.Errorf("%w: a procedure is in progress (stack, undo point or result)", ErrPosition)
	}
	if len(procs) == 0 {
		return nil, fmt.Errorf("%w: no procedure to resolve", ErrPosition)
	}
	g = &Game{deck: deck, S: s.clone(true)}
	g.S.Census = true
	if err := g.S.checkPieces(false); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrPosition, err)
	}
	if err := g.S.checkCensus(); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrPosition, err)
	}
	for i := len(procs) - 1; i >= 0; i-- {
		f, err := g.procedureFrame(procs[i])
		if err != nil {
			return nil, fmt.Errorf("%w: procedure %d: %w", ErrPosition, i+1, err)
		}
		g.push(f)
	}
	defer func() {
		// A position the rules cannot continue from must not bring the
		// caller down (the frames assume positions a game can reach).
		if r := recover(); r != nil {
			g, err = nil, fmt.Errorf("%w: the rules cannot continue from it: %v", ErrPosition, r)
		}
	}()
	g.S.Version++
	g.cached = false
	g.run()
	return g, nil
}

func (g *Game) procedureFrame(p Procedure) (Frame, error) {
	s := &g.S
	side := p.side
	switch p.kind {
	case fBot:
		if s.BotSide == NoSide {
			return Frame{}, errors.New("the solo opponent's turn in a game without a solo opponent")
		}
		f := Frame{K: fBot, Side: s.BotSide, You: s.BotSide}
		if p.card == -1 {
			f.Flags = botFinalCrisis
		}
		return f, nil
	case fBonus, fObjEvents:
		return Frame{K: p.kind}, nil
	case fGame:
		return Frame{K: fGame, Phase: gFCPlays}, nil
	}
	if side != Versailles && side != Commune {
		return Frame{}, fmt.Errorf("invalid side %d", side)
	}
	switch p.kind {
	case fPlay, fFreeCube:
		return Frame{K: p.kind, Side: side, You: side}, nil
	case fOps:
		if p.op < 0 || p.op > 10 {
			return Frame{}, fmt.Errorf("operations of %d OP", p.op)
		}
		if p.sphere != AnySphere && p.sphere != Political && p.sphere != Military {
			return Frame{}, fmt.Errorf("invalid sphere %d", p.sphere)
		}
		f := Frame{K: fOps, Side: side, You: side, N: int8(p.op), Node: -1, Space: NoSpace, I: int8(p.sphere)}
		if p.sphere != AnySphere {
			f.Phase = opsSnapA
		}
		return f, nil
	case fEffect:
		if g.deck.Card(p.card) == nil {
			return Frame{}, fmt.Errorf("no card #%d", p.card)
		}
		s.LastSpace, s.Drawn = NoSpace, 0
		return Frame{K: fEffect, Side: side, You: side, Card: int8(p.card), Node: 0, Space: NoSpace}, nil
	}
	return Frame{}, fmt.Errorf("unknown procedure %d", p.kind)
}
