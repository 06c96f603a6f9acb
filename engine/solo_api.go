package engine

import (
	"fmt"
	"strings"
)

// The engine's interface to the solo opponent's policy (package solo):
// the redacted state it decides from, the public procedure state of the
// top frame, its die, and a way to record why it decided.

// SoloPublicState returns a copy of the state with everything the solo
// opponent may not know removed (solo.md §0 "Hidden information"): the
// Player's hand and set-aside cards, both objective offers, the Player's
// objective until objectives are revealed, the order of the Strategy and
// Objective decks (only their sizes remain, as zeroed cards), the random
// state, the log and the undo point. The bot's own objective is face up
// and stays. The policy reads the game only through this copy, TopFrame
// and Dice.
func (g *Game) SoloPublicState() State {
	s := g.S.clone(false)
	player := s.BotSide.Other()
	if s.BotSide == NoSide {
		player = NoSide
	}
	for i := 0; i < 2; i++ {
		s.Hand[i] = make([]int8, len(s.Hand[i]))
		s.SetAside[i] = make([]int8, len(s.SetAside[i]))
		s.ObjOffer[i] = nil
		if Side(i) == player || player == NoSide {
			if !s.ObjRevealed {
				s.Objective[i] = 0
			}
		}
	}
	s.Deck = make([]int8, len(s.Deck))
	s.ObjDeck = make([]int8, len(s.ObjDeck))
	s.RNG, s.Seed = 0, 0
	s.Log, s.Undo = nil, nil
	return s
}

// FrameView is the public procedure state of the frame that is asking the
// current question (the top of the stack): what is being resolved, how
// much of it is left, and the snapshots the rules fix (decision 8, D7).
type FrameView struct {
	Kind  string // "bot", "ops", "effect", "free-cube", "bonus", "bonus-action", "deescalate", "spread", "turncoat", "fc-decide", "objective-event", ...
	Side  Side   // who decides
	You   Side   // whose effect it is
	Card  int    // card being resolved (the revealed card on a bot turn)
	Phase int
	N     int       // OP or cubes or moves left
	Dim   Dimension // bonus actions: the Crisis Dimension
	Space Space     // bonus actions: the Pivotal space; one-space operations: the space chosen
	Mask  SpaceSet  // operations: the current snapshot (A while removing, B while placing); effects: the step's scope

	// Operations.
	OpsSphere   Sphere // -1 until chosen
	OpsScope    SpaceSet
	OpsOneSpace bool
	OpsRemoving bool               // removal step (Mask is snapshot A)
	StrengthA   [NumMapSpaces]int8 // military strength of each space of snapshot A

	// Effect steps.
	EffectOp string // place, remove, replace, placeDisc, removeDisc, choose, andor, ...
	UpTo     bool
	Return   bool // #23: cubes removed from play may be used
	// Allow[x]: how many more cubes this PLACE step allows in x (its count
	// left, "max N per space" and per-space caps); 0 outside its scope.
	Allow [NumMapSpaces]int8
	// Options: the option nodes of a choose step, printed order.
	Options int
}

var frameKindNames = map[FrameKind]string{
	fGame: "game", fObjectives: "objectives", fInitiative: "initiative", fCensor: "censor",
	fPlay: "play", fEndPlay: "end-play", fFreeCube: "free-cube", fOps: "ops", fFCDiscard: "fc-discard",
	fFCPlay: "fc-play", fFCDecide: "fc-decide", fBonus: "bonus", fBonusAction: "bonus-action",
	fDeescalate: "deescalate", fSpread: "spread", fTurncoat: "turncoat", fEndAction: "end-action",
	fScoreOrder: "score-order", fObjEvents: "objective-events", fObjEvent: "objective-event",
	fEffect: "effect", fBot: "bot",
}

// TopFrame describes the frame on top of the stack; ok is false when the
// stack is empty.
func (g *Game) TopFrame() (v FrameView, ok bool) {
	if len(g.S.Stack) == 0 {
		return v, false
	}
	f := g.top()
	v = FrameView{Kind: frameKindNames[f.K], Side: f.Side, You: f.You, Card: int(f.Card), Phase: int(f.Phase),
		N: int(f.N), Space: f.Space, Mask: f.Mask, OpsSphere: -1}
	switch f.K {
	case fBonusAction, fDeescalate, fSpread, fTurncoat:
		v.Dim = Dimension(f.I)
	case fOps:
		v.OpsSphere = Sphere(f.I)
		v.OpsScope, v.OpsOneSpace = g.opsScope(f)
		v.OpsRemoving = f.Phase == opsRemove
		for x := Space(0); x < NumMapSpaces; x++ {
			v.StrengthA[x] = int8(auxGet(f.Aux, x))
		}
	case fEffect:
		n := g.node(f)
		v.EffectOp = opNames[n.op]
		v.UpTo, v.Return = n.upTo, n.ret
		if n.op == opChoose {
			v.Options = len(n.kids)
		}
		if n.op == opPlace && f.Phase > 0 {
			for _, x := range f.Mask.Spaces() {
				a := int(f.N)
				done := auxGet(f.Aux, x)
				if n.maxPer > 0 {
					a = min(a, int(n.maxPer)-done)
				}
				if n.capMask.Has(x) {
					a = min(a, int(n.caps[x])-done)
				}
				v.Allow[x] = int8(max(a, 0))
			}
		}
	}
	return v, true
}

// Dice is the solo opponent's die for one decision (solo.md §6.9). Its
// rolls are a pure function of the game state (the seeded random state and
// the version), so the same position always gets the same rolls: a game
// replayed from its move log (Replay), or re-decided by the policy, is
// identical. The rolls do not advance the state's random source: a roll
// that did would not be in the move log, and a replay would diverge at the
// next shuffle.
type Dice struct{ state uint64 }

// Dice returns the die of the decision pending now.
func (g *Game) Dice() *Dice {
	return &Dice{state: g.S.RNG ^ (uint64(g.S.Version)+1)*0xD1B54A32D192ED03}
}

func (d *Dice) next() uint64 {
	d.state += 0x9E3779B97F4A7C15
	z := d.state
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9
	z = (z ^ (z >> 27)) * 0x94D049BB133111EB
	return z ^ (z >> 31)
}

// Roll returns a uniform number from 1 to k (each call is a new roll).
func (d *Dice) Roll(k int) int {
	if k <= 1 {
		return 1
	}
	limit := ^uint64(0) - (^uint64(0) % uint64(k))
	for {
		if r := d.next(); r < limit {
			return int(r%uint64(k)) + 1
		}
	}
}

// RollDie is the first roll of the pending decision's die: a number from
// 1 to k, drawn from the game's seeded random state (see Dice).
func (g *Game) RollDie(k int) int { return g.Dice().Roll(k) }

// ApplyWithNote applies a choice like Apply and, when it is accepted, puts
// note in the public log just before the lines the choice produces. The
// solo opponent uses it so that log readers see which table row decided.
// Nothing changes when the choice is refused.
func (g *Game) ApplyWithNote(side Side, c Choice, note string) error {
	if err := g.checkChoice(side, c); err != nil {
		return err
	}
	note = strings.TrimSpace(note)
	if note != "" {
		g.log(side, msg("engine.log.note", aText("Note", note)))
	}
	return g.Apply(side, c)
}

// ApplyWithWhy is ApplyWithNote with the explanation as a message (the
// solo opponent's sentence of package solo, in the players' languages):
// the same public note line, its text made when it is read.
func (g *Game) ApplyWithWhy(side Side, c Choice, why Msg) error {
	if err := g.checkChoice(side, c); err != nil {
		return err
	}
	g.log(side, msg("engine.log.note", aMsg("Note", why)))
	return g.Apply(side, c)
}

// checkChoice runs Apply's checks without applying.
func (g *Game) checkChoice(side Side, c Choice) error {
	if g.S.Result != nil {
		return ErrGameOver
	}
	if side != Versailles && side != Commune {
		return fmt.Errorf("%w: unknown side %d", ErrNotYourDecision, side)
	}
	p, ok := g.PromptFor(side)
	if !ok {
		return fmt.Errorf("%w: %s has no decision to make now", ErrNotYourDecision, side)
	}
	for _, pc := range p.Choices {
		if pc == c {
			return nil
		}
	}
	return fmt.Errorf("%w: %s", ErrIllegal, g.describeIllegal(p, c))
}
