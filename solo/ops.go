package solo

import (
	"strings"

	"github.com/rfop/rfop/engine"
)

// Operations: the Place-or-Remove tables (solo.md §3), the terms of §1.4
// and the sphere choice (§5), with the default switches
// EXTRA_STRENGTH_OP = paid and STRENGTH_TIMING = snapshot.

// opEval is one operation at one moment: its board, OP left, sphere and
// scope, and snapshot A (the legal removal targets and their strength).
type opEval struct {
	b           *board
	op          int
	sphere      engine.Sphere
	scope       engine.SpaceSet // the operation's spaces: sphere ∩ scope (∩ its one space)
	legalRemove engine.SpaceSet // snapshot A
	strA        [engine.NumMapSpaces]int
}

// newOpEvalLive builds an operation whose snapshot A is taken now (the
// sphere choice reads it before the engine does; it is the same board).
func newOpEvalLive(b *board, op int, sphere engine.Sphere, scope engine.SpaceSet) *opEval {
	e := &opEval{b: b, op: op, sphere: sphere, scope: scope}
	for _, x := range inSet(scope) {
		if b.accessible(x) {
			e.legalRemove = e.legalRemove.With(x)
			if military(x) {
				e.strA[x] = b.strength(x)
			}
		}
	}
	return e
}

// unit(X): 2 if a Player disc is there, else 1 (#10, #11).
func (e *opEval) unit(x engine.Space) int {
	if e.b.disc[x] == e.b.pl {
		return 2
	}
	return 1
}

// xop(X): the bot buys the +1 in a Military space at StrA 1 (paid).
func (e *opEval) xop(x engine.Space) int {
	if military(x) && e.strA[x] == 1 {
		return 1
	}
	return 0
}

func (e *opEval) rmcost(x engine.Space) int { return e.unit(x) + e.xop(x) }

func (e *opEval) removable(x engine.Space) bool {
	return e.legalRemove.Has(x) && e.b.pp(x) >= 1 && e.op >= e.unit(x)
}

// placeable: a live estimate of snapshot B (removals can only enlarge it).
func (e *opEval) placeable(x engine.Space) bool {
	return e.scope.Has(x) && e.b.accessible(x) && e.b.bc(x) < 4 && e.b.avail >= 1 && e.op >= e.unit(x)
}

// attempts(X): ⌊OP/rmcost⌋, plus one more at strength 1 if what remains
// still pays unit(X) (§1.4).
func (e *opEval) attempts(x engine.Space) int {
	rc, u := e.rmcost(x), e.unit(x)
	n := e.op / rc
	if e.op%rc >= u {
		n++
	}
	return n
}

// swings(X) is the largest r+q over feasible plans of r removals then q
// placements in X (§1.4); with plus, plans must begin with a removal
// (Swings⁺).
func (e *opEval) swings(x engine.Space, plus bool) int {
	R, Q := 0, 0
	if e.removable(x) {
		R = e.b.pp(x)
	}
	if e.placeable(x) {
		Q = min(e.b.avail, 4-e.b.bc(x))
	}
	if plus && R == 0 {
		return 0
	}
	rc, u := e.rmcost(x), e.unit(x)
	best := 0
	r0 := 0
	if plus {
		r0 = 1
	}
	for r := r0; r <= R; r++ {
		for q := 0; q <= Q; q++ {
			ok := q >= 1 && r*rc+q*u <= e.op || q == 0 && r <= e.attempts(x)
			if ok && r+q > best {
				best = r + q
			}
		}
	}
	return best
}

func (e *opEval) canEnd(x engine.Space, plus bool) bool {
	return e.b.plCtl(x) && e.b.gap(x) <= e.swings(x, plus)
}

func (e *opEval) canGain(x engine.Space, plus bool) bool {
	return !e.b.botCtl(x) && e.b.gap(x)+1 <= e.swings(x, plus)
}

// prHit is a row of the Place-or-Remove table that fires.
type prHit struct {
	id      string // PR1 … PR12, PR9-V / PR9-C
	variant string // "a", "b", or "" for REMOVE-only rows and PR12
	remove  bool
	T       []engine.Space // trigger spaces
	Tplus   []engine.Space // goal rows: T⁺; REMOVE rows: the Removable T
}

// cands is what goes to the Remove table.
func (h *prHit) cands() []engine.Space {
	if h.variant == "" {
		return h.T
	}
	return h.Tplus
}

func (h *prHit) String() string {
	s := h.id + h.variant + " " + prTitles[h.id]
	if h.variant != "" {
		s += ": T=" + names(h.T)
		if h.remove {
			s += ", T⁺=" + names(h.Tplus)
		} else {
			s += ", T⁺ empty"
		}
	}
	if h.remove {
		return s + " → REMOVE among " + names(h.cands())
	}
	return s + " → PLACE"
}

var prTitles = map[string]string{
	"PR1": "deny a Player dimension", "PR2": "complete a bot dimension", "PR3": "take the objective",
	"PR4": "take a Pivotal space", "PR5": "break a Player Pivotal space", "PR6": "guard a thin lead",
	"PR7": "stop a Player 2-of-3", "PR8": "clear an Isolated foothold", "PR9-V": "attrition",
	"PR9-C": "Paris defence", "PR10": "swing by removal", "PR11": "nothing to place", "PR12": "place",
}

// rows evaluates the Place-or-Remove table from the top. With all false it
// stops at the first row that fires; with all it lists every row that
// fires (the sphere choice, §5).
func (e *opEval) rows(all bool) []prHit {
	b := e.b
	var hits []prHit
	scope := inSet(e.scope)
	goal := func(id string, cond func(x engine.Space) bool, end bool) bool {
		var h prHit
		h.id = id
		for _, x := range scope {
			if !cond(x) {
				continue
			}
			can := e.canGain
			if end {
				can = e.canEnd
			}
			if !can(x, false) {
				continue
			}
			h.T = append(h.T, x)
			if e.removable(x) && can(x, true) {
				h.Tplus = append(h.Tplus, x)
			}
		}
		if len(h.T) == 0 {
			return false
		}
		h.variant, h.remove = "b", false
		if len(h.Tplus) > 0 {
			h.variant, h.remove = "a", true
		}
		hits = append(hits, h)
		return true
	}
	removeOnly := func(id string, cond func(x engine.Space) bool) bool {
		var h prHit
		h.id, h.remove = id, true
		for _, x := range scope {
			if e.removable(x) && cond(x) {
				h.T = append(h.T, x)
			}
		}
		if len(h.T) == 0 {
			return false
		}
		hits = append(hits, h)
		return true
	}
	type rowFn func() bool
	rows := []rowFn{
		func() bool {
			return goal("PR1", func(x engine.Space) bool { return b.fullDim(b.pl, dimOf(x)) }, true)
		},
		func() bool {
			return goal("PR2", func(x engine.Space) bool { return b.otherTwoB(x) && !b.botCtl(x) }, false)
		},
		func() bool {
			return goal("PR3", func(x engine.Space) bool { return x == b.obj && !b.botCtl(x) }, false)
		},
		func() bool {
			return goal("PR4", func(x engine.Space) bool { return pivotal(x) && !b.botCtl(x) }, false)
		},
		func() bool {
			return goal("PR5", func(x engine.Space) bool { return pivotal(x) && b.plCtl(x) }, true)
		},
		func() bool {
			return removeOnly("PR6", func(x engine.Space) bool {
				return b.lead(x) == 1 && (pivotal(x) || x == b.obj || b.fullDim(b.bot, dimOf(x)))
			})
		},
		func() bool { return goal("PR7", b.playerTwo, true) },
		func() bool {
			return removeOnly("PR8", func(x engine.Space) bool { return b.plIsolated(x) && b.pp(x) <= e.attempts(x) })
		},
		func() bool {
			if b.bot == engine.Versailles {
				if b.pool[engine.Commune] < b.poolCap {
					return false
				}
				return removeOnly("PR9-V", func(x engine.Space) bool { return b.pc(x) >= 1 })
			}
			return goal("PR9-C", func(x engine.Space) bool { return dimOf(x) == engine.Paris && b.plCtl(x) }, true)
		},
		func() bool {
			return removeOnly("PR10", func(x engine.Space) bool { return (b.gap(x) == 0 || b.gap(x) == 1) && b.pp(x) >= 1 })
		},
		func() bool {
			var rem []engine.Space
			for _, x := range scope {
				if e.placeable(x) {
					return false
				}
				if e.removable(x) {
					rem = append(rem, x)
				}
			}
			if len(rem) == 0 {
				return false
			}
			hits = append(hits, prHit{id: "PR11", remove: true, T: rem})
			return true
		},
		func() bool {
			for _, x := range scope {
				if e.placeable(x) {
					hits = append(hits, prHit{id: "PR12"})
					return true
				}
			}
			return false
		},
	}
	for _, r := range rows {
		if r() && !all {
			break
		}
	}
	return hits
}

// rowKey is the row id for the sphere comparison (PR9-V/-C count as PR9;
// variants a and b as the same row).
func rowKey(id string) string {
	if strings.HasPrefix(id, "PR9") {
		return "PR9"
	}
	return id
}

var prOrder = []string{"PR1", "PR2", "PR3", "PR4", "PR5", "PR6", "PR7", "PR8", "PR9", "PR10", "PR11", "PR12"}

func hitKeys(h []prHit) []string {
	out := make([]string, len(h))
	for i := range h {
		out[i] = h[i].id
	}
	return out
}

// chooseSphere is §5: for each sphere, the rows that fire there with the
// full OP; the first row (PR1 → PR12) that fires in exactly one sphere
// picks it; identical non-empty lists → d6, 1-4 the primary sphere;
// both empty → nothing to do (the OP are lost).
func chooseSphere(t *trace, b *board, op int, scope engine.SpaceSet) (engine.Sphere, bool) {
	var fired [2]map[string]bool
	var lists [2][]prHit
	for _, sp := range []engine.Sphere{engine.Political, engine.Military} {
		e := newOpEvalLive(b, op, sp, scope&sphereSet(sp))
		lists[sp] = e.rows(true)
		fired[sp] = map[string]bool{}
		for _, h := range lists[sp] {
			fired[sp][rowKey(h.id)] = true
		}
	}
	t.add("sphere choice (§5), %d OP: Political %s; Military %s", op,
		strings.Join(hitKeys(lists[engine.Political]), ", "), strings.Join(hitKeys(lists[engine.Military]), ", "))
	for _, k := range prOrder {
		p, m := fired[engine.Political][k], fired[engine.Military][k]
		if p != m {
			sp := engine.Political
			if m {
				sp = engine.Military
			}
			t.add("%s fires only in %s → %s", k, sp, sp)
			t.key("§5:" + k)
			return sp, true
		}
	}
	prim := b.primarySphere()
	if len(lists[0]) == 0 {
		t.add("no row fires in either sphere: the OP are lost")
		t.key("§5:none")
		return prim, false
	}
	r := t.die(6, "the sphere (1-4 "+prim.String()+")")
	sp := prim
	if r > 4 {
		sp = 1 - prim
	}
	t.add("same rows in both spheres: die %d → %s", r, sp)
	t.key("§5:die")
	return sp, true
}

func sphereSet(sp engine.Sphere) engine.SpaceSet {
	var m engine.SpaceSet
	for x := engine.Space(0); x < engine.NumMapSpaces; x++ {
		if sphereOf(x) == sp {
			m = m.With(x)
		}
	}
	return m
}
