package engine

import (
	"errors"
	"fmt"
)

// PromptKind names what a decision is about; clients map kinds to widgets.
type PromptKind string

const (
	PromptObjective      PromptKind = "objective"       // keep one of two objectives (simultaneous)
	PromptInitiative     PromptKind = "initiative"      // play first or second
	PromptCensor         PromptKind = "censor"          // Censorship Phase discard
	PromptPlay           PromptKind = "play"            // a card and how to play it
	PromptSphere         PromptKind = "sphere"          // Political or Military operations
	PromptOpsRemove      PromptKind = "ops-remove"      // removal step of operations
	PromptOpsPlace       PromptKind = "ops-place"       // placement step of operations
	PromptFreeCube       PromptKind = "free-cube"       // free cube after the opponent's momentum rise
	PromptFCDiscard      PromptKind = "fc-discard"      // discard down for the Final Crisis (simultaneous)
	PromptFCPlay         PromptKind = "fc-play"         // play a card for its event in the Final Crisis
	PromptFCDecide       PromptKind = "fc-decide"       // apply the opponent's play of your event?
	PromptBonusOrder     PromptKind = "bonus-order"     // which Pivotal bonus action next
	PromptBonusAction    PromptKind = "bonus-action"    // De-escalate / Spread / Turncoat
	PromptDeescalate     PromptKind = "deescalate"      // which cube to remove
	PromptSpread         PromptKind = "spread"          // which cube to move
	PromptTurncoat       PromptKind = "turncoat"        // where
	PromptScoreOrder     PromptKind = "score-order"     // who scores first (only when the cap matters)
	PromptObjEventOrder  PromptKind = "objective-order" // whose objective event first
	PromptObjEvent       PromptKind = "objective-event" // perform your objective's event?
	PromptOption         PromptKind = "option"          // (a) or (b)
	PromptAndOrOrder     PromptKind = "andor-order"     // which part of an AND/OR first
	PromptEventPlace     PromptKind = "event-place"
	PromptEventRemove    PromptKind = "event-remove"
	PromptEventReplace   PromptKind = "event-replace"
	PromptPlaceDisc      PromptKind = "place-disc"
	PromptRemoveDisc     PromptKind = "remove-disc"
	PromptEventDiscard   PromptKind = "event-discard"
	PromptForceDiscard   PromptKind = "force-discard"
	PromptConfirmNothing PromptKind = "confirm"
)

// ChoiceKind is the type of a choice.
type ChoiceKind int8

const (
	ChoosePlay      ChoiceKind = iota + 1 // Card + Mode
	ChooseCard                            // Card (objective kept, discard, event card)
	ChooseSide                            // Side (who goes first)
	ChooseSphere                          // N = Sphere
	ChooseRemove                          // Space, Extra = pay an extra OP for strength
	ChoosePlace                           // Space, Extra = a cube removed from play (#23)
	ChooseReplace                         // Space
	ChooseDisc                            // place a disc in Space (To = NoSpace) or move it from To... see DiscFrom
	ChooseMove                            // Space -> To
	ChooseOption                          // N = option index
	ChooseAction                          // N = bonus action
	ChooseDimension                       // N = Crisis Dimension
	ChooseYes
	ChooseNo
	ChooseDone      // stop (forfeit what is left)
	ChooseStopRem   // operations: stop removing, go on to placing
	ChooseRemoveOwn // De-escalate: one of your own cubes from Space
)

// PlayMode is how a Strategy card is played (decision 1).
type PlayMode int8

const (
	ModeEvent PlayMode = iota + 1
	ModeOps
	ModeDiscardedEvent // pay with this card to use the top discarded event
	ModeMomentum
	ModeFinalCrisisOps // discard this card to play the Final Crisis card for operations
	ModeFinalCrisis    // Final Crisis round: event only
)

// Bonus actions (Pivotal Space bonus actions).
const (
	ActionDeescalate = iota + 1
	ActionSpread
	ActionTurncoat
	ActionNone
)

// Choice is one legal answer to a prompt. Choices are plain comparable
// values: a client sends back exactly one of the prompt's choices.
type Choice struct {
	Kind  ChoiceKind `json:"kind"`
	Card  int        `json:"card,omitempty"`
	Mode  PlayMode   `json:"mode,omitempty"`
	Space Space      `json:"space,omitempty"`
	To    Space      `json:"to,omitempty"`
	Side  Side       `json:"side,omitempty"`
	N     int        `json:"n,omitempty"`
	Extra bool       `json:"extra,omitempty"`
	// Cost and Strength describe the choice (OP it costs, military strength);
	// they are part of the value so a stale choice never matches.
	Cost     int `json:"cost,omitempty"`
	Strength int `json:"strength,omitempty"`
}

// Prompt is a decision a side must make now, with every legal choice.
type Prompt struct {
	Side    Side       `json:"side"`
	Kind    PromptKind `json:"kind"`
	Card    int        `json:"card,omitempty"`  // the card being resolved, if any
	Space   Space      `json:"space,omitempty"` // context space, if any
	N       int        `json:"n,omitempty"`     // OP or cubes left, where relevant
	Choices []Choice   `json:"choices"`
	Version int        `json:"version"`
	// CanUndo: the deciding side may take back its previous choice.
	CanUndo bool `json:"canUndo"`
}

// Errors returned by Apply. Test with errors.Is.
var (
	ErrNotYourDecision = errors.New("it is not your decision")
	ErrIllegal         = errors.New("that choice is not legal now")
	ErrStale           = errors.New("that choice was made for an earlier position")
	ErrGameOver        = errors.New("the game is over")
	ErrNoUndo          = errors.New("nothing to undo")
)

// Prompts returns the decisions pending now: one, or two when both sides
// decide at once (objective choice, Final Crisis discards). Empty when the
// game is over.
func (g *Game) Prompts() []Prompt {
	if !g.cached || g.cachedVer != g.S.Version {
		g.prompts = g.prompts[:0]
		g.cached = true
		g.cachedVer = g.S.Version
		if g.S.Result == nil && len(g.S.Stack) > 0 {
			g.collectPrompts(&g.S.Stack[len(g.S.Stack)-1])
		}
	}
	if len(g.prompts) == 0 {
		return nil
	}
	return g.prompts
}

// PromptFor returns the side's pending decision, if it has one.
func (g *Game) PromptFor(side Side) (Prompt, bool) {
	for _, p := range g.Prompts() {
		if p.Side == side {
			return p, true
		}
	}
	return Prompt{}, false
}

// ApplyAt applies a choice made on the prompt of the given version.
func (g *Game) ApplyAt(version int, side Side, c Choice) error {
	if version != g.S.Version {
		return fmt.Errorf("%w (made for version %d, the game is at %d)", ErrStale, version, g.S.Version)
	}
	return g.Apply(side, c)
}

// Apply checks the choice against side's prompt and applies it. On error
// nothing changes.
func (g *Game) Apply(side Side, c Choice) error {
	if err := g.checkChoice(side, c); err != nil {
		return err
	}
	if g.sim {
		g.revealed = false
		g.apply(&g.S.Stack[len(g.S.Stack)-1], side, c)
		g.S.Version++
		g.cached = false
		g.run()
		return nil
	}
	g.beginUndo(side)
	g.beginMove()
	defer g.endMove()
	g.revealed = false
	f := &g.S.Stack[len(g.S.Stack)-1]
	g.apply(f, side, c)
	g.S.Version++
	g.cached = false
	g.run()
	g.endUndo(side, c)
	for i := range g.prompts { // run() built them before the undo chain grew
		g.prompts[i].CanUndo = g.canUndo(g.prompts[i].Side)
	}
	return nil
}

func (g *Game) describeIllegal(p Prompt, c Choice) string {
	if c.Kind != 0 && c.Kind != p.Choices[0].Kind {
		return fmt.Sprintf("the decision is %q", p.Kind)
	}
	return "not one of the " + itoa(len(p.Choices)) + " choices offered"
}

// addPrompt publishes the prompt of the top frame. It keeps a copy of
// choices, so offers may build them in memory of their own.
func (g *Game) addPrompt(side Side, kind PromptKind, f *Frame, choices []Choice) {
	kept := g.choiceMem.copyOf(choices) // first: the filter below may return what it is given
	if side == g.S.BotSide {            // solo: what the solo rules allow the bot (solo_rules.go)
		if kept = g.soloFilter(kind, f, kept); len(kept) == 0 {
			return
		}
	}
	g.prompts = append(g.prompts, Prompt{
		Side: side, Kind: kind, Card: int(f.Card), Space: f.Space, N: int(f.N),
		Choices: kept, Version: g.S.Version, CanUndo: g.canUndo(side),
	})
}
