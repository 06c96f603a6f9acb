package solo

import (
	"errors"
	"fmt"

	"github.com/rfop/rfop/engine"
)

// Pivotal Space bonus actions (solo.md §6.4): in each dimension whose
// Pivotal space it controls, the bot performs the first of BA1-BA6 that
// applies. The engine asks for the action and then its steps; each step
// is derived again from the position (the policy keeps no plan).

// actionNames are the bonus actions' names (why.go).
var actionNames = map[int]string{
	engine.ActionSpread:     "solo.action.spread",
	engine.ActionTurncoat:   "solo.action.turncoat",
	engine.ActionDeescalate: "solo.action.deescalate",
}

// bonusOrder: the bot's own bonus actions in a fixed order, its primary
// sphere first (§6.4).
var bonusOrder = [2][4]engine.Dimension{
	engine.Versailles: {engine.Forts, engine.Paris, engine.Institutional, engine.PublicOpinion},
	engine.Commune:    {engine.PublicOpinion, engine.Institutional, engine.Paris, engine.Forts},
}

func (d *decision) bonusOrder() (engine.Choice, string, error) {
	for _, dim := range bonusOrder[d.b.bot] {
		if c, ok := d.find(func(c engine.Choice) bool { return c.Kind == engine.ChooseDimension && c.N == int(dim) }); ok {
			d.say(smsg("solo.act.bonus-next", aDim(dim)), smsg("solo.reason.bonus-order"))
			return c, fmt.Sprintf("takes its bonus action in %s next (fixed order, §6.4)", dim), nil
		}
	}
	return engine.Choice{}, "", errors.New("no dimension offered")
}

type move struct{ from, to engine.Space }

// spreadPlans lists the plans of up to maxMoves single-cube moves inside d
// (4-cube limit, no Room) that gain control of at least gain spaces while
// losing none and giving the Player none, and keeps those with the fewest
// moves (BA1, BA3). Our reading of "without removing control": no net
// loss, and no space handed to the Player (solo.md §6.4).
func (b *board) spreadPlans(d engine.Dimension, gain, maxMoves int) [][]move {
	sp := dimSpaces(d)
	var best [][]move
	bestN := maxMoves + 1
	var rec func(cur board, plan []move)
	rec = func(cur board, plan []move) {
		if len(plan) > 0 && b.planValid(&cur, d, gain) {
			if len(plan) < bestN {
				best, bestN = nil, len(plan)
			}
			best = append(best, append([]move(nil), plan...))
		}
		if len(plan) >= maxMoves || len(plan) >= bestN {
			return
		}
		for _, f := range sp {
			if cur.cubes[b.bot][f] == 0 {
				continue
			}
			for _, t := range sp {
				if t == f || cur.cubes[b.bot][t] >= 4 {
					continue
				}
				next := cur
				next.cubes[b.bot][f]--
				next.cubes[b.bot][t]++
				rec(next, append(plan, move{f, t}))
			}
		}
	}
	rec(*b, nil)
	return best
}

// planValid compares the board after a plan (after) with b.
func (b *board) planValid(after *board, d engine.Dimension, gain int) bool {
	gained := 0
	for _, x := range dimSpaces(d) {
		switch {
		case b.botCtl(x) && !after.botCtl(x):
			return false // control lost
		case !b.plCtl(x) && after.plCtl(x):
			return false // control handed to the Player
		case !b.botCtl(x) && after.botCtl(x):
			gained++
		}
	}
	return gained >= gain
}

// turncoatCands: BA2 (gain: not bot-controlled, gap ≤ 1) or BA5 (end
// Player control: Player-controlled, gap ≤ 2); both need a Player cube,
// fewer than 4 bot cubes and an Available cube.
func (b *board) turncoatCands(d engine.Dimension, gain bool) []engine.Space {
	if b.avail < 1 {
		return nil
	}
	var out []engine.Space
	for _, x := range dimSpaces(d) {
		if b.pc(x) < 1 || b.bc(x) >= 4 {
			continue
		}
		if gain && !b.botCtl(x) && b.gap(x) <= 1 || !gain && b.plCtl(x) && b.gap(x) <= 2 {
			out = append(out, x)
		}
	}
	return out
}

// deescalateA: BA4 step A, spaces where bc − pc ≥ 2 (≥ 3 if Pivotal).
func (b *board) deescalateA(d engine.Dimension) []engine.Space {
	var out []engine.Space
	for _, x := range dimSpaces(d) {
		need := 2
		if pivotal(x) {
			need = 3
		}
		if b.bc(x) >= 1 && b.bc(x)-b.pc(x) >= need {
			out = append(out, x)
		}
	}
	return out
}

func (d *decision) bonusAction() (engine.Choice, string, error) {
	dim := d.fv.Dim
	b := &d.b
	offered := func(a int) (engine.Choice, bool) {
		return d.find(func(c engine.Choice) bool { return c.Kind == engine.ChooseAction && c.N == a })
	}
	type baRow struct {
		id, what string
		action   int
		applies  func() bool
	}
	rows := []baRow{
		{"BA1", "Spread ×2: gain control of 2 spaces", engine.ActionSpread, func() bool { return len(b.spreadPlans(dim, 2, 2)) > 0 }},
		{"BA2", "Turncoat to gain a space", engine.ActionTurncoat, func() bool { return len(b.turncoatCands(dim, true)) > 0 }},
		{"BA3", "Spread ×1: gain control of 1 space", engine.ActionSpread, func() bool { return len(b.spreadPlans(dim, 1, 2)) > 0 }},
		{"BA4", "De-escalate", engine.ActionDeescalate, func() bool { return len(b.deescalateA(dim)) > 0 }},
		{"BA5", "Turncoat to end Player control", engine.ActionTurncoat, func() bool { return len(b.turncoatCands(dim, false)) > 0 }},
	}
	for _, r := range rows {
		if !r.applies() {
			continue
		}
		if c, ok := offered(r.action); ok {
			d.t.add("%s applies", r.id)
			d.t.key(r.id)
			d.say(smsg("solo.act.bonus", aDim(dim), aMsg("Action", smsg(actionNames[r.action]))), d.reason(r.id))
			return c, fmt.Sprintf("bonus action in %s: %s %s (§6.4)", dim, r.id, r.what), nil
		}
	}
	c, ok := offered(engine.ActionNone)
	if !ok {
		return engine.Choice{}, "", errors.New("no 'nothing' action offered")
	}
	d.t.add("BA1-BA5 do not apply")
	d.t.key("BA6")
	d.say(smsg("solo.act.bonus-none", aDim(dim)), d.reason("BA6"))
	return c, fmt.Sprintf("bonus action in %s: BA6 nothing (§6.4)", dim), nil
}

// spread: the first move from the BA1 or BA3 plans (N = 2), or the second
// move, re-derived (N = 1): a single move that gains a space, losing none
// and giving none — after the first move of a two-move plan exactly the
// rest of that plan qualifies; after a one-move plan nothing does.
func (d *decision) spread() (engine.Choice, string, error) {
	dim := d.fv.Dim
	b := &d.b
	var plans [][]move
	row := ""
	if d.fv.N >= 2 {
		if plans = b.spreadPlans(dim, 2, 2); len(plans) > 0 {
			row = "BA1"
		} else if plans = b.spreadPlans(dim, 1, 2); len(plans) > 0 {
			row = "BA3"
		}
	} else if plans = b.spreadPlans(dim, 1, 1); len(plans) > 0 {
		row = "Spread, second move"
	}
	if len(plans) == 0 {
		return d.done("Spread: no further move gains a space", smsg("solo.reason.spread-none"))
	}
	// Destinations, with the moves each needs (the least over plans).
	need := map[engine.Space]int{}
	for _, p := range plans {
		cnt := map[engine.Space]int{}
		for _, m := range p {
			cnt[m.to]++
		}
		for x, n := range cnt {
			if old, ok := need[x]; !ok || n < old {
				need[x] = n
			}
		}
	}
	var dests []engine.Space
	for x := range need {
		dests = append(dests, x)
	}
	d.t.add("%s: %d valid plan(s) with %d move(s)", row, len(plans), len(plans[0]))
	to, ok := d.t.selectSpace("Place", dests, placeRows(b, func(x engine.Space) int { return need[x] }, false))
	if !ok {
		return engine.Choice{}, "", errors.New("no destination")
	}
	var from engine.SpaceSet
	for _, p := range plans {
		for _, m := range p {
			if m.to == to {
				from = from.With(m.from)
			}
		}
	}
	src, ok := d.t.selectSpace("Source", from.Spaces(), sourceRows(b, true, false))
	if !ok {
		return d.done("Spread: no safe source", smsg("solo.reason.no-source"))
	}
	c, found := d.find(func(c engine.Choice) bool { return c.Kind == engine.ChooseMove && c.Space == src && c.To == to })
	if !found {
		return engine.Choice{}, "", fmt.Errorf("move %s → %s not offered", src, to)
	}
	why := smsg("solo.reason.spread-second")
	if row == "BA1" || row == "BA3" {
		why = d.reason(row)
	}
	d.say(smsg("solo.act.spread", aSpace("From", src), aSpace("Space", to)), why)
	return c, fmt.Sprintf("Spread (%s): moves a cube from %s to %s", row, src, to), nil
}

func (d *decision) turncoat() (engine.Choice, string, error) {
	dim := d.fv.Dim
	b := &d.b
	row := "BA2"
	cands := b.turncoatCands(dim, true)
	if len(cands) == 0 {
		row, cands = "BA5", b.turncoatCands(dim, false)
	}
	var ok []engine.Space
	for _, x := range cands {
		if _, o := d.find(func(c engine.Choice) bool { return c.Kind == engine.ChooseReplace && c.Space == x }); o {
			ok = append(ok, x)
		}
	}
	if len(ok) == 0 {
		return d.done("Turncoat: no space qualifies", smsg("solo.reason.turncoat-none"))
	}
	x, _ := d.t.selectSpace("Place", ok, placeRows(b, func(engine.Space) int { return 2 }, false))
	c, _ := d.find(func(c engine.Choice) bool { return c.Kind == engine.ChooseReplace && c.Space == x })
	d.say(smsg("solo.act.replace", aSide("Player", b.pl), aSpace("Space", x)), d.reason(row))
	return c, fmt.Sprintf("Turncoat (%s): replaces a %s cube in %s", row, b.pl, x), nil
}

// deescalate: step A (phase 0) one bot cube from an over-stacked space,
// ties by die; step B (phase 1) one Player cube (§6.4 BA4).
func (d *decision) deescalate() (engine.Choice, string, error) {
	dim := d.fv.Dim
	b := &d.b
	if d.fv.Phase == 0 {
		cands := b.deescalateA(dim)
		if len(cands) == 0 {
			return d.done("De-escalate: no over-stacked space", smsg("solo.reason.de-none-a"))
		}
		x := cands[0]
		d.t.add("step A: over-stacked %s", names(cands))
		if len(cands) > 1 {
			r := d.t.die(len(cands), "De-escalate step A "+names(cands))
			x = cands[r-1]
		}
		c, ok := d.find(func(c engine.Choice) bool { return c.Kind == engine.ChooseRemoveOwn && c.Space == x })
		if !ok {
			return engine.Choice{}, "", fmt.Errorf("own cube in %s not offered", x)
		}
		why := d.reason("SR1")
		if len(cands) > 1 {
			why = smsg("solo.reason.and-die", aMsg("Reason", why), aNum("N", len(cands)))
		}
		d.say(smsg("solo.act.deescalate-own", aSpace("Space", x)), why)
		return c, fmt.Sprintf("De-escalate step A: takes one of its cubes from %s", x), nil
	}
	var withCube, tie, oneMore []engine.Space
	for _, x := range dimSpaces(dim) {
		if b.pc(x) < 1 {
			continue
		}
		withCube = append(withCube, x)
		if b.lead(x) == 0 {
			tie = append(tie, x)
		}
		if b.pc(x)-b.bc(x) == 1 {
			oneMore = append(oneMore, x)
		}
	}
	var cands []engine.Space
	var why engine.Msg
	switch {
	case len(withCube) == 0:
		return d.done("De-escalate step B: no Player cube in "+dim.String(), smsg("solo.reason.de-none-b", aSide("Player", b.pl), aDim(dim)))
	case len(tie) > 0:
		cands = tie
		d.t.add("step B: a removal gives control in %s", names(tie))
		why = d.reason("de-tie")
	case len(oneMore) > 0:
		cands = oneMore
		d.t.add("step B: the Player has one cube more in %s", names(oneMore))
		why = d.reason("de-one-more")
	default:
		why = d.reason("de-fewest")
		least := 99
		for _, x := range withCube {
			least = min(least, b.pc(x))
		}
		for _, x := range withCube {
			if b.pc(x) == least {
				cands = append(cands, x)
			}
		}
		d.t.add("step B: fewest Player cubes in %s", names(cands))
	}
	x, _ := d.t.selectSpace("Remove", cands, removeRows(b, nil))
	c, ok := d.find(func(c engine.Choice) bool { return c.Kind == engine.ChooseRemove && c.Space == x })
	if !ok {
		return engine.Choice{}, "", fmt.Errorf("Player cube in %s not offered", x)
	}
	if len(cands) > 1 {
		why = smsg("solo.reason.both", aMsg("First", why), aMsg("Second", d.selReason(d.t.sel)))
	}
	d.say(smsg("solo.act.deescalate-remove", aSide("Player", b.pl), aSpace("Space", x)), why)
	return c, fmt.Sprintf("De-escalate step B: removes a %s cube from %s", b.pl, x), nil
}
