package solo

import (
	"errors"
	"fmt"
	"strings"

	"github.com/rfop/rfop/engine"
)

// Policy answers the prompts addressed to the solo opponent with the
// decision tables of solo.md. It is stateless: the same position always
// gives the same decision (a plan spread over several prompts is derived
// again from the position each time).
type Policy struct {
	// Roll, if set, replaces the game's die (tests script rolls with it):
	// it returns a number from 1 to k. By default the die is the game's
	// seeded one (engine.Game.Dice), a pure function of the position.
	Roll func(k int) int
}

// Explanation is why the bot decided what it did: the table rows that
// fired in order, with the candidate list after each row that changed it,
// and every die roll. Card draws for military attempts happen when the
// choice is applied and are in the game log right after the note.
type Explanation struct {
	Prompt engine.PromptKind
	Choice engine.Choice
	// Why is the decision as a player reads it, in their language: what
	// the bot does and why, with the rows as a short reference at the end
	// (why.go). It is the line the log shows (engine.Game.ApplyWithWhy).
	Why      engine.Msg
	Decision string   // what the bot does, in English, for tests and tools
	Rows     []string // rows and candidate lists, in the order they were read
	// Fired lists the ids of the rows that decided, in order: the
	// Place-or-Remove row with its variant ("PR4a"), each selection-table
	// row that narrowed the candidates ("RM4", "PL3", "SR2"), "die" for a
	// roll, the bonus-action row ("BA2"), "§5:PR9" for the row that chose
	// the sphere, "event" / "discarded" / "ops" for the use of a card.
	Fired []string
	Rolls []string // die rolls
}

// String is the whole trace in English on one line: the rows with the
// candidate lists after each and the dice (for tests and debugging; the
// log shows Why).
func (e Explanation) String() string {
	var b strings.Builder
	b.WriteString("Solo opponent: ")
	b.WriteString(e.Decision)
	if len(e.Rows) > 0 {
		b.WriteString(" — ")
		b.WriteString(strings.Join(e.Rows, "; "))
	}
	if len(e.Rolls) > 0 {
		b.WriteString(" — ")
		b.WriteString(strings.Join(e.Rolls, "; "))
	}
	return b.String()
}

// ErrNotBotPrompt: Decide was asked about a prompt that is not the solo
// opponent's.
var ErrNotBotPrompt = errors.New("not a decision of the solo opponent")

// Decide chooses one of pr's choices for the solo opponent.
//
// Hidden information (solo.md §0): Decide reads the game only through
// g.SoloPublicState (a copy without the Player's hand, set-aside cards,
// objective offers and — until revealed — objective, without the deck
// order and the random state), g.TopFrame (the public procedure state:
// snapshots, OP and cubes left) and g.Dice; it never reads g.S. A test
// scrambles the hidden information and checks that no decision changes.
func (p *Policy) Decide(g *engine.Game, pr engine.Prompt) (engine.Choice, Explanation, error) {
	pub := g.SoloPublicState()
	if pub.BotSide == engine.NoSide {
		return engine.Choice{}, Explanation{}, fmt.Errorf("solo: %w: the game has no solo opponent", ErrNotBotPrompt)
	}
	if pr.Side != pub.BotSide {
		return engine.Choice{}, Explanation{}, fmt.Errorf("solo: %w (%s decides %q)", ErrNotBotPrompt, pr.Side, pr.Kind)
	}
	fv, _ := g.TopFrame()
	d := &decision{pr: pr, fv: fv, deck: g.Deck(), pub: &pub}
	d.b = newBoard(&pub, g.Deck())
	d.t.roll = p.Roll
	if d.t.roll == nil {
		d.t.roll = g.Dice().Roll
	}
	ch, what, err := d.decide()
	if err == nil {
		err = d.t.err
	}
	ex := Explanation{Prompt: pr.Kind, Choice: ch, Decision: what, Rows: d.t.lines, Fired: d.t.keys, Rolls: d.t.rolls}
	if err == nil {
		ex.Why = d.sentence(d.t.keys)
	}
	if err != nil {
		return engine.Choice{}, ex, fmt.Errorf("solo: %q: %w", pr.Kind, err)
	}
	return ch, ex, nil
}

// Choose is Decide without the explanation (the signature of a chooser).
func (p *Policy) Choose(g *engine.Game, pr engine.Prompt) (engine.Choice, error) {
	c, _, err := p.Decide(g, pr)
	return c, err
}

// Step makes the solo opponent's pending decision, if it has one, and
// applies it with its explanation as a note in the game log. ok is false
// when the bot has nothing to decide (or the game is over).
func (p *Policy) Step(g *engine.Game) (ex Explanation, ok bool, err error) {
	if g.S.Result != nil || g.S.BotSide == engine.NoSide {
		return ex, false, nil
	}
	pr, has := g.PromptFor(g.S.BotSide)
	if !has {
		return ex, false, nil
	}
	c, ex, err := p.Decide(g, pr)
	if err != nil {
		return ex, false, err
	}
	if err := g.ApplyWithWhy(pr.Side, c, ex.Why); err != nil {
		return ex, false, fmt.Errorf("solo: the engine refused the bot's choice on %q (%s): %w", pr.Kind, ex.Decision, err)
	}
	return ex, true, nil
}

// maxBotDecisions bounds one call of PlayBotTurns (a bot turn takes a few
// dozen decisions at most).
const maxBotDecisions = 1000

// PlayBotTurns makes the solo opponent's decisions while the pending
// decision is the bot's and the game is not over, and returns the public
// log lines written meanwhile, in English: the engine's account of what happened
// (reveals, card draws, cubes placed and removed, breaches) interleaved
// with one note per bot decision saying which table rows decided it. It
// stops when the Player must decide (his free cube, his turn, an order he
// chooses) or the game ends; call it again after each Player decision.
func PlayBotTurns(g *engine.Game, p *Policy) ([]string, error) {
	if p == nil {
		p = &Policy{}
	}
	from := len(g.S.Log)
	var err error
	for i := 0; ; i++ {
		if i == maxBotDecisions {
			err = fmt.Errorf("solo: the bot made %d decisions without ending its turn", i)
			break
		}
		var ok bool
		if _, ok, err = p.Step(g); err != nil || !ok {
			break
		}
	}
	var lines []string
	for _, e := range g.S.Log[min(from, len(g.S.Log)):] {
		if e.To == engine.NoSide {
			lines = append(lines, e.English(g.Deck()))
		}
	}
	return lines, err
}

// ---- one decision ----

type decision struct {
	pr   engine.Prompt
	fv   engine.FrameView
	deck *engine.Deck
	pub  *engine.State
	b    board
	t    trace
	// The sentence (why.go): what the bot does and why (nil: no reason
	// beyond the table reference).
	act engine.Msg
	why *engine.Msg
}

func (d *decision) find(ok func(c engine.Choice) bool) (engine.Choice, bool) {
	for _, c := range d.pr.Choices {
		if ok(c) {
			return c, true
		}
	}
	return engine.Choice{}, false
}

func (d *decision) kind(k engine.ChoiceKind) (engine.Choice, bool) {
	return d.find(func(c engine.Choice) bool { return c.Kind == k })
}

// spacesOf lists the spaces of the choices of kind k.
func (d *decision) spacesOf(k engine.ChoiceKind, ok func(c engine.Choice) bool) []engine.Space {
	var m engine.SpaceSet
	for _, c := range d.pr.Choices {
		if c.Kind == k && (ok == nil || ok(c)) {
			m = m.With(c.Space)
		}
	}
	return m.Spaces()
}

// done stops the current action (the Done choice) for reason.
func (d *decision) done(why string, reason engine.Msg) (engine.Choice, string, error) {
	d.say(smsg("solo.act.stops"), reason)
	if c, ok := d.kind(engine.ChooseDone); ok {
		return c, why, nil
	}
	return engine.Choice{}, why, fmt.Errorf("no way to stop here (%s)", why)
}

func (d *decision) cardName(n int) string {
	c := d.deck.Card(n)
	if c == nil {
		return fmt.Sprintf("#%d", n)
	}
	return fmt.Sprintf("#%d %s", n, c.Name)
}

func (d *decision) decide() (engine.Choice, string, error) {
	switch d.pr.Kind {
	case engine.PromptPlay:
		return d.play()
	case engine.PromptSphere:
		return d.sphere()
	case engine.PromptOpsRemove:
		return d.opsRemove()
	case engine.PromptOpsPlace:
		return d.opsPlace()
	case engine.PromptFreeCube:
		return d.freeCube()
	case engine.PromptEventPlace:
		return d.eventPlace()
	case engine.PromptEventRemove, engine.PromptRemoveDisc:
		return d.eventRemove()
	case engine.PromptEventReplace:
		return d.eventReplace()
	case engine.PromptPlaceDisc:
		return d.placeDisc()
	case engine.PromptOption:
		return d.option()
	case engine.PromptAndOrOrder:
		if c, ok := d.find(func(c engine.Choice) bool { return c.Kind == engine.ChooseOption && c.N == 0 }); ok {
			d.say(smsg("solo.act.andor", aCard("Card", d.pr.Card)), smsg("solo.reason.printed-order"))
			return c, "resolves the parts of " + d.cardName(d.pr.Card) + " in printed order (§6.2 AND/OR)", nil
		}
	case engine.PromptFCDecide, engine.PromptObjEvent:
		return d.yesIfEffective()
	case engine.PromptBonusOrder:
		return d.bonusOrder()
	case engine.PromptBonusAction:
		return d.bonusAction()
	case engine.PromptDeescalate:
		return d.deescalate()
	case engine.PromptSpread:
		return d.spread()
	case engine.PromptTurncoat:
		return d.turncoat()
	}
	return engine.Choice{}, "", fmt.Errorf("the solo opponent has no rule for a %q decision", d.pr.Kind)
}

// ---- the bot's turn (§6.1) ----

func (d *decision) play() (engine.Choice, string, error) {
	r := d.deck.Card(d.pr.Card)
	bot := d.b.bot
	d.t.add("revealed %s (%s, %d OP)", d.cardName(r.Num), r.Colour(), r.OP)
	card := aCard("Card", r.Num)
	if c, ok := d.find(func(c engine.Choice) bool { return c.Mode == engine.ModeEvent }); ok {
		d.t.add("Friendly, and its event would have an effect (§6.1 step 3)")
		d.t.key("event")
		d.say(smsg("solo.act.event", card), smsg("solo.reason.own-event"))
		return c, "uses the event of " + d.cardName(r.Num), nil
	}
	revealed := smsg("solo.reason.not-own", card)
	if r.Side != bot {
		d.t.add("not Friendly")
	} else {
		d.t.add("Friendly, but its event would have no effect (dry run, §6.2)")
		revealed = smsg("solo.reason.no-effect", card)
	}
	if c, ok := d.find(func(c engine.Choice) bool { return c.Mode == engine.ModeDiscardedEvent }); ok {
		d.t.add("top discard %s: put there by the Player this round, Friendly, OP ≤ %d, with an effect (§6.1 step 4, #3)", d.cardName(c.N), r.OP)
		d.t.key("discarded")
		d.say(smsg("solo.act.discarded", aCard("Event", c.N)), smsg("solo.reason.both", aMsg("First", revealed),
			aMsg("Second", smsg("solo.reason.discard-usable", aSide("Player", d.b.pl), aCard("Event", c.N), card))))
		return c, "uses the discarded event of " + d.cardName(c.N), nil
	}
	discard := smsg("solo.reason.discard-empty")
	if n := len(d.pub.Discard); n > 0 {
		top := d.pub.Discard[n-1]
		d.t.add("top discard %s: not usable (§6.1 step 4)", d.cardName(int(top.Card)))
		discard = smsg("solo.reason.discard-no")
	} else {
		d.t.add("discard pile empty")
	}
	d.t.key("ops")
	c, ok := d.find(func(c engine.Choice) bool { return c.Mode == engine.ModeOps })
	if !ok {
		return engine.Choice{}, "", errors.New("no operations choice offered")
	}
	d.say(smsg("solo.act.ops", aOP(r.OP)), smsg("solo.reason.both", aMsg("First", revealed), aMsg("Second", discard)))
	return c, fmt.Sprintf("conducts operations with %d OP (§6.1 step 5)", r.OP), nil
}

// ---- operations (§2, §3, §5) ----

func (d *decision) sphere() (engine.Choice, string, error) {
	scope := d.fv.OpsScope
	sp, ok := chooseSphere(&d.t, &d.b, d.fv.N, scope)
	c, found := d.find(func(c engine.Choice) bool { return c.Kind == engine.ChooseSphere && c.N == int(sp) })
	if !found {
		return engine.Choice{}, "", fmt.Errorf("sphere %s not offered", sp)
	}
	if !ok {
		d.say(smsg("solo.act.sphere-lost", aSphere(sp), aOP(d.fv.N)), smsg("solo.reason.sphere-none"))
		return c, fmt.Sprintf("operates in %s spaces, where it has nothing to do: %d OP lost (§5)", sp, d.fv.N), nil
	}
	d.say(smsg("solo.act.sphere", aSphere(sp)), d.sphereReason())
	return c, fmt.Sprintf("operates in %s spaces (§5)", sp), nil
}

// opFromFrame is the operation being conducted, with the engine's snapshot A.
func (d *decision) opFromFrame() *opEval {
	sp := d.fv.OpsSphere
	scope := d.fv.OpsScope & sphereSet(sp)
	if d.fv.OpsOneSpace && d.fv.Space != engine.NoSpace {
		scope &= engine.SpaceSet(0).With(d.fv.Space)
	}
	e := &opEval{b: &d.b, op: d.fv.N, sphere: sp, scope: scope, legalRemove: d.fv.Mask & scope}
	for x := range e.strA {
		e.strA[x] = int(d.fv.StrengthA[x])
	}
	return e
}

func (d *decision) opsRemove() (engine.Choice, string, error) {
	e := d.opFromFrame()
	hits := e.rows(false)
	if len(hits) == 0 {
		d.t.add("no Place-or-Remove row fires (§3)")
		d.t.key("none")
		if c, ok := d.kind(engine.ChooseDone); ok {
			d.say(smsg("solo.act.stop-ops", aOP(e.op)), smsg("solo.reason.no-row"))
			return c, fmt.Sprintf("stops: %d OP lost", e.op), nil
		}
		return engine.Choice{}, "", errors.New("cannot stop")
	}
	h := hits[0]
	d.t.add("%d OP: %s", e.op, h.String())
	d.t.key(h.id + h.variant)
	if !h.remove {
		c, ok := d.kind(engine.ChooseStopRem)
		if !ok {
			return engine.Choice{}, "", errors.New("cannot go on to placing")
		}
		d.say(smsg("solo.act.to-placing", aOP(e.op)), d.reason(prRow(h)))
		return c, fmt.Sprintf("goes on to placing with %d OP", e.op), nil
	}
	x, ok := d.t.selectSpace("Remove", h.cands(), removeRows(&d.b, &e.strA))
	if !ok {
		return engine.Choice{}, "", errors.New("Remove table found no space")
	}
	extra := military(x) && e.strA[x] == 1 && e.op >= e.unit(x)+1
	c, found := d.find(func(c engine.Choice) bool {
		return c.Kind == engine.ChooseRemove && c.Space == x && c.Extra == extra
	})
	if !found {
		return engine.Choice{}, "", fmt.Errorf("removal in %s (extra %v) not offered", x, extra)
	}
	what := fmt.Sprintf("removes a %s piece from %s", d.b.pl, x)
	d.say(smsg("solo.act.remove", aSide("Player", d.b.pl), aSpace("Space", x)), d.reason(prRow(h)))
	if military(x) {
		d.say(smsg("solo.act.attack", aSide("Player", d.b.pl), aSpace("Space", x), aNum("Strength", c.Strength)), d.reason(prRow(h)))
		switch {
		case extra:
			what = fmt.Sprintf("attacks %s at strength %d, paying %d OP with the +1 (§2.4)", x, c.Strength, c.Cost)
		case e.strA[x] == 1:
			what = fmt.Sprintf("attacks %s at strength 1 for %d OP: no OP left for the +1 (§2.4)", x, c.Cost)
		default:
			what = fmt.Sprintf("attacks %s at strength %d for %d OP (§2.4)", x, c.Strength, c.Cost)
		}
	}
	return c, what, nil
}

func (d *decision) opsPlace() (engine.Choice, string, error) {
	cands := d.spacesOf(engine.ChoosePlace, nil)
	if len(cands) == 0 {
		return d.done("no cube can be placed: the OP are lost", smsg("solo.reason.no-placement"))
	}
	op := d.fv.N
	e := &opEval{b: &d.b}
	ps := func(x engine.Space) int { return min(op/e.unit(x), d.b.avail, 4-d.b.bc(x)) }
	x, ok := d.t.selectSpace("Place", cands, placeRows(&d.b, ps, false))
	if !ok {
		return engine.Choice{}, "", errors.New("Place table found no space")
	}
	c, _ := d.find(func(c engine.Choice) bool { return c.Kind == engine.ChoosePlace && c.Space == x })
	d.say(smsg("solo.act.place", aSpace("Space", x)), d.selReason(d.t.sel))
	return c, fmt.Sprintf("places a cube in %s (%d OP left)", x, op), nil
}

// ---- the free momentum cube (§6.5) ----

func (d *decision) freeCube() (engine.Choice, string, error) {
	cands := d.spacesOf(engine.ChoosePlace, nil)
	if len(cands) == 0 {
		return d.done("no Available cube for its free cube (§6.5)", smsg("solo.reason.no-available"))
	}
	x, ok := d.t.selectSpace("Place", cands, placeRows(&d.b, func(engine.Space) int { return 1 }, false))
	if !ok {
		return engine.Choice{}, "", errors.New("Place table found no space")
	}
	c, _ := d.find(func(c engine.Choice) bool { return c.Kind == engine.ChoosePlace && c.Space == x })
	d.say(smsg("solo.act.free-cube", aSpace("Space", x)), d.selReason(d.t.sel))
	return c, fmt.Sprintf("places its free cube in %s (§6.5)", x), nil
}

// ---- events (§6.2, §6.3) ----

func (d *decision) eventPlace() (engine.Choice, string, error) {
	cands := d.spacesOf(engine.ChoosePlace, nil)
	card := d.cardName(d.pr.Card)
	if len(cands) == 0 {
		return d.done(card+": no space with Room for an Available cube (§6.2)", smsg("solo.reason.no-room", aCard("Card", d.pr.Card)))
	}
	supply := d.b.avail
	if d.fv.Return {
		supply += d.b.outOfPlay[d.b.bot]
	}
	ps := func(x engine.Space) int { return min(int(d.fv.Allow[x]), supply, 4-d.b.bc(x)) }
	x, ok := d.t.selectSpace("Place", cands, placeRows(&d.b, ps, false))
	if !ok {
		return engine.Choice{}, "", errors.New("Place table found no space")
	}
	// RETURN (#23): cubes removed from play are used first.
	why := d.selReason(d.t.sel)
	if c, ok := d.find(func(c engine.Choice) bool { return c.Kind == engine.ChoosePlace && c.Space == x && c.Extra }); ok {
		d.say(smsg("solo.act.event-return", aCard("Card", d.pr.Card), aSpace("Space", x)), why)
		return c, fmt.Sprintf("%s: returns a cube removed from play to %s", card, x), nil
	}
	c, _ := d.find(func(c engine.Choice) bool { return c.Kind == engine.ChoosePlace && c.Space == x })
	d.say(smsg("solo.act.event-place", aCard("Card", d.pr.Card), aSpace("Space", x)), why)
	return c, fmt.Sprintf("%s: places a cube in %s", card, x), nil
}

func (d *decision) eventRemove() (engine.Choice, string, error) {
	cands := d.spacesOf(engine.ChooseRemove, nil)
	card := d.cardName(d.pr.Card)
	if len(cands) == 0 {
		return d.done(card+": nothing to remove", smsg("solo.reason.nothing-to-remove", aCard("Card", d.pr.Card)))
	}
	x, ok := d.t.selectSpace("Remove", cands, removeRows(&d.b, nil))
	if !ok {
		return engine.Choice{}, "", errors.New("Remove table found no space")
	}
	c, _ := d.find(func(c engine.Choice) bool { return c.Kind == engine.ChooseRemove && c.Space == x })
	why := d.selReason(d.t.sel)
	if d.pr.Kind == engine.PromptRemoveDisc {
		d.say(smsg("solo.act.event-remove-disc", aSide("Player", d.b.pl), aDisc(d.b.pl), aSpace("Space", x), aCard("Card", d.pr.Card)), why)
		return c, fmt.Sprintf("%s: removes the %s disc from %s", card, d.b.pl, x), nil
	}
	d.say(smsg("solo.act.event-remove", aSide("Player", d.b.pl), aSpace("Space", x), aCard("Card", d.pr.Card)), why)
	return c, fmt.Sprintf("%s: removes a %s cube from %s", card, d.b.pl, x), nil
}

func (d *decision) eventReplace() (engine.Choice, string, error) {
	cands := d.spacesOf(engine.ChooseReplace, nil)
	card := d.cardName(d.pr.Card)
	if len(cands) == 0 {
		return d.done(card+": no space to replace in (Room, Available cube)", smsg("solo.reason.no-replace", aCard("Card", d.pr.Card)))
	}
	// PlaceSwings = Budget × 2; Budget = replacements left (after the
	// 4-cube limit and the cubes the bot can supply).
	ps := func(x engine.Space) int { return 2 * max(1, min(d.fv.N, d.b.avail, 4-d.b.bc(x))) }
	x, ok := d.t.selectSpace("Place", cands, placeRows(&d.b, ps, false))
	if !ok {
		return engine.Choice{}, "", errors.New("Place table found no space")
	}
	c, _ := d.find(func(c engine.Choice) bool { return c.Kind == engine.ChooseReplace && c.Space == x })
	d.say(smsg("solo.act.replace", aSide("Player", d.b.pl), aSpace("Space", x)), d.selReason(d.t.sel))
	return c, fmt.Sprintf("%s: replaces a %s cube in %s", card, d.b.pl, x), nil
}

// placeDisc: D0 then the Place table (s = 1, Budget 1); with both discs
// on the map, a safe source by the Source table, then the destination.
func (d *decision) placeDisc() (engine.Choice, string, error) {
	card := d.cardName(d.pr.Card)
	one := func(engine.Space) int { return 1 }
	places := d.spacesOf(engine.ChooseDisc, func(c engine.Choice) bool { return !c.Extra })
	if len(places) > 0 {
		x, ok := d.t.selectSpace("Place", places, placeRows(&d.b, one, true))
		if !ok {
			return engine.Choice{}, "", errors.New("Place table found no space")
		}
		c, _ := d.find(func(c engine.Choice) bool { return c.Kind == engine.ChooseDisc && !c.Extra && c.Space == x })
		d.say(smsg("solo.act.disc", aDisc(d.b.bot), aSpace("Space", x)), d.selReason(d.t.sel))
		return c, fmt.Sprintf("%s: places its disc in %s (§6.3)", card, x), nil
	}
	var from engine.SpaceSet
	for _, c := range d.pr.Choices {
		if c.Kind == engine.ChooseDisc && c.Extra {
			from = from.With(c.To)
		}
	}
	src, ok := d.t.selectSpace("Source", from.Spaces(), sourceRows(&d.b, true, true))
	if !ok {
		return d.done(card+": both discs are on the map and none can leave safely (§6.3)", smsg("solo.reason.no-safe-disc"))
	}
	lifted := d.b
	lifted.disc[src] = engine.NoSide
	dests := d.spacesOf(engine.ChooseDisc, func(c engine.Choice) bool { return c.Extra && c.To == src })
	x, ok := d.t.selectSpace("Place", dests, placeRows(&lifted, one, true))
	if !ok {
		return engine.Choice{}, "", errors.New("Place table found no space")
	}
	c, _ := d.find(func(c engine.Choice) bool {
		return c.Kind == engine.ChooseDisc && c.Extra && c.To == src && c.Space == x
	})
	d.say(smsg("solo.act.disc-move", aDisc(d.b.bot), aSpace("From", src), aSpace("Space", x)), d.selReason(d.t.sel))
	return c, fmt.Sprintf("%s: moves its disc from %s to %s (§6.3)", card, src, x), nil
}

// option: the first option, in printed order, that would have an effect
// (D9; the engine offers the bot only options that would, by dry run).
func (d *decision) option() (engine.Choice, string, error) {
	best := engine.Choice{}
	found := false
	for _, c := range d.pr.Choices {
		if c.Kind == engine.ChooseOption && (!found || c.N < best.N) {
			best, found = c, true
		}
	}
	if !found {
		return engine.Choice{}, "", errors.New("no option offered")
	}
	for n := 0; n < best.N; n++ {
		d.t.add("option (%c) would have no effect", 'a'+rune(n))
	}
	d.say(smsg("solo.act.option", aCard("Card", d.pr.Card), aLetter(best.N)), smsg("solo.reason.option-first"))
	return best, fmt.Sprintf("%s: option (%c), the first that would have an effect (§6.2)", d.cardName(d.pr.Card), 'a'+rune(best.N)), nil
}

func (d *decision) yesIfEffective() (engine.Choice, string, error) {
	card := d.cardName(d.pr.Card)
	if c, ok := d.kind(engine.ChooseYes); ok {
		if d.pr.Kind == engine.PromptObjEvent {
			d.say(smsg("solo.act.obj-event", aCard("Card", d.pr.Card)), smsg("solo.reason.obj-event"))
			return c, "performs the event of its objective " + card + " (§6.6)", nil
		}
		d.say(smsg("solo.act.apply", aCard("Card", d.pr.Card)), smsg("solo.reason.effective"))
		return c, "applies its event " + card + ", which would have an effect (§6.8)", nil
	}
	c, ok := d.kind(engine.ChooseNo)
	if !ok {
		return engine.Choice{}, "", errors.New("neither yes nor no offered")
	}
	d.say(smsg("solo.act.decline", aCard("Card", d.pr.Card)), d.reason("no-effect-beyond"))
	return c, "declines " + card + ": it would have no effect beyond the Player's momentum (§6.2)", nil
}
