package engine

import "fmt"

// FrameKind names a procedure on the stack. The game is a stack machine:
// the top frame either advances by itself or waits for a decision, which
// it describes as a Prompt. Frames are plain data, so a saved game resumes
// exactly where it stopped (the Rally the Troops model, as data).
type FrameKind int8

const (
	fGame        FrameKind = iota + 1 // round sequence (Phase)
	fObjectives                       // both sides keep one objective
	fInitiative                       // Side chooses who plays first
	fCensor                           // Side discards one card (Censorship Phase)
	fPlay                             // Side plays a Strategy card
	fEndPlay                          // end of a card play: bonus cubes, discard, count
	fFreeCube                         // Side may place a cube after the opponent's momentum rise
	fOps                              // operations (Phase: sphere, remove, place)
	fFCDiscard                        // both sides discard down to N
	fFCPlay                           // Side plays a card for its event (Final Crisis)
	fFCDecide                         // Side (the card's owner) decides whether the event applies
	fBonus                            // Pivotal Space bonus actions
	fBonusAction                      // Side chooses its bonus action in dimension I
	fDeescalate                       // Phase 0: own cube; 1: own or opponent cube
	fSpread                           // N moves left
	fTurncoat                         //
	fEndAction                        // end of a bonus action or objective event: bonus cubes
	fScoreOrder                       // Initiative Player orders VP (I: 0 dimensions, 1 objectives)
	fObjEvents                        // objective events
	fObjEvent                         // Side may perform its objective's event
	fEffect                           // one node of a card effect (Card, Node)
	fBot                              // the solo opponent's turn (solo package drives it)
)

// Frame is one procedure in progress. Fields are reused per kind; see the
// kind's comment.
type Frame struct {
	K     FrameKind `json:"k"`
	Side  Side      `json:"side"`           // who decides
	You   Side      `json:"you"`            // whose effect it is ("you" on the card, D1)
	Card  int8      `json:"card,omitempty"` // card being resolved
	Node  int16     `json:"node,omitempty"` // effect node; -1 for plain operations
	Phase int8      `json:"phase,omitempty"`
	I     int8      `json:"i,omitempty"`
	N     int8      `json:"n,omitempty"`    // OP or cubes left
	Mask  SpaceSet  `json:"mask,omitempty"` // snapshot of legal spaces
	Aux   uint64    `json:"aux,omitempty"`  // packed per-space numbers
	Space Space     `json:"space,omitempty"`
	Flags uint16    `json:"flags,omitempty"`
}

// packed 4-bit per-space counters in Aux.
func auxGet(a uint64, x Space) int { return int(a>>(4*uint(x))) & 0xF }
func auxSet(a uint64, x Space, v int) uint64 {
	sh := 4 * uint(x)
	return a&^(0xF<<sh) | uint64(v&0xF)<<sh
}

func (g *Game) push(f Frame) { g.S.Stack = append(g.S.Stack, f) }

func (g *Game) pop() { g.S.Stack = g.S.Stack[:len(g.S.Stack)-1] }

func (g *Game) top() *Frame { return &g.S.Stack[len(g.S.Stack)-1] }

// run advances the game until a decision is needed or the game ends.
func (g *Game) run() {
	for g.S.Result == nil && len(g.S.Stack) > 0 {
		f := g.top()
		g.prompts = g.prompts[:0]
		if !g.step(f) {
			if len(g.prompts) == 0 {
				// A waiting frame must have offered a choice.
				panic(fmt.Sprintf("engine: frame %d waits without choices", f.K))
			}
			g.cached, g.cachedVer = true, g.S.Version
			return
		}
	}
	g.prompts = g.prompts[:0]
	g.cached, g.cachedVer = true, g.S.Version
}

// collectPrompts rebuilds the prompts of a waiting top frame (after Load).
func (g *Game) collectPrompts(f *Frame) {
	g.offer(f)
}

// step advances f by itself, or offers its prompts and returns false.
func (g *Game) step(f *Frame) bool {
	switch f.K {
	case fGame:
		return g.stepGame(f)
	case fEndPlay:
		g.stepEndPlay(f)
		return true
	case fEndAction:
		g.payBonuses()
		g.pop()
		return true
	case fBonus:
		return g.stepBonus(f)
	case fObjEvents:
		return g.stepObjEvents(f)
	case fOps:
		return g.stepOps(f)
	case fEffect:
		return g.stepEffect(f)
	case fBot:
		return g.stepBot(f)
	}
	return g.waitOrSkip(f)
}

// waitOrSkip offers the frame's choices; a frame with nothing to choose
// ends by itself.
func (g *Game) waitOrSkip(f *Frame) bool {
	g.offer(f)
	if len(g.prompts) > 0 {
		return false
	}
	g.pop()
	return true
}

// offer adds the prompts of a waiting frame.
func (g *Game) offer(f *Frame) {
	switch f.K {
	case fObjectives:
		g.offerObjectives(f)
	case fInitiative:
		g.offerInitiative(f)
	case fCensor:
		g.offerCensor(f)
	case fPlay:
		g.offerPlay(f)
	case fFreeCube:
		g.offerFreeCube(f)
	case fOps:
		g.offerOps(f)
	case fFCDiscard:
		g.offerFCDiscard(f)
	case fFCPlay:
		g.offerFCPlay(f)
	case fFCDecide:
		g.addPrompt(f.Side, PromptFCDecide, f, []Choice{{Kind: ChooseYes}, {Kind: ChooseNo}})
	case fBonus:
		g.offerBonus(f)
	case fBonusAction:
		g.offerBonusAction(f)
	case fDeescalate:
		g.offerDeescalate(f)
	case fSpread:
		g.offerSpread(f)
	case fTurncoat:
		g.offerTurncoat(f)
	case fScoreOrder:
		g.addPrompt(f.Side, PromptScoreOrder, f, []Choice{{Kind: ChooseSide, Side: Versailles}, {Kind: ChooseSide, Side: Commune}})
	case fObjEvents:
		g.offerObjEvents(f)
	case fObjEvent:
		g.addPrompt(f.Side, PromptObjEvent, f, []Choice{{Kind: ChooseYes}, {Kind: ChooseNo}})
	case fEffect:
		g.offerEffect(f)
	case fBot:
		g.offerBot(f)
	}
}

// apply carries out a validated choice on the top frame.
func (g *Game) apply(f *Frame, side Side, c Choice) {
	switch f.K {
	case fObjectives:
		g.applyObjective(f, side, c)
	case fInitiative:
		g.applyInitiative(f, c)
	case fCensor:
		g.applyCensor(f, c)
	case fPlay:
		g.applyPlay(f, c)
	case fFreeCube:
		g.applyFreeCube(f, c)
	case fOps:
		g.applyOps(f, c)
	case fFCDiscard:
		g.applyFCDiscard(f, side, c)
	case fFCPlay:
		g.applyFCPlay(f, c)
	case fFCDecide:
		g.applyFCDecide(f, c)
	case fBonus:
		g.applyBonus(f, c)
	case fBonusAction:
		g.applyBonusAction(f, c)
	case fDeescalate:
		g.applyDeescalate(f, c)
	case fSpread:
		g.applySpread(f, c)
	case fTurncoat:
		g.applyTurncoat(f, c)
	case fScoreOrder:
		g.applyScoreOrder(f, c)
	case fObjEvents:
		g.applyObjEvents(f, c)
	case fObjEvent:
		g.applyObjEvent(f, c)
	case fEffect:
		g.applyEffect(f, c)
	case fBot:
		g.applyBot(f, c)
	}
}

// checkStack validates a loaded stack so a corrupt save cannot crash the engine.
func (g *Game) checkStack() error {
	for i, f := range g.S.Stack {
		if f.K < fGame || f.K > fBot {
			return fmt.Errorf("stack frame %d: unknown kind %d", i, f.K)
		}
		if f.Side != Versailles && f.Side != Commune {
			return fmt.Errorf("stack frame %d: invalid side %d", i, f.Side)
		}
		if f.You != Versailles && f.You != Commune {
			return fmt.Errorf("stack frame %d: invalid side %d", i, f.You)
		}
		if f.K == fEffect {
			c := g.deck.Card(int(f.Card))
			if c == nil || f.Node < 0 || int(f.Node) >= len(c.nodes) {
				return fmt.Errorf("stack frame %d: invalid card %d node %d", i, f.Card, f.Node)
			}
		}
		if f.K == fOps && f.Node >= 0 {
			c := g.deck.Card(int(f.Card))
			if c == nil || int(f.Node) >= len(c.nodes) {
				return fmt.Errorf("stack frame %d: invalid card %d node %d", i, f.Card, f.Node)
			}
		}
		if f.Space < NoSpace || f.Space >= NumSpaces {
			return fmt.Errorf("stack frame %d: invalid space %d", i, f.Space)
		}
		if f.K == fBonusAction || f.K == fDeescalate || f.K == fSpread || f.K == fTurncoat {
			if f.I < 0 || f.I >= NumDimensions {
				return fmt.Errorf("stack frame %d: invalid dimension %d", i, f.I)
			}
		}
	}
	if len(g.S.Stack) == 0 && g.S.Result == nil {
		return fmt.Errorf("no procedure in progress and no result")
	}
	return nil
}
