package solo

import (
	"fmt"

	"github.com/rfop/rfop/engine"
)

// The space selection tables of solo.md §4: Place-or-Replace (PL, with D0
// for discs), Remove (RM) and Source (SR). A table never decides what is
// legal: the caller passes the legal candidates.

// trace collects the explanation of one decision: the rows that fired,
// the candidate lists after each row that changed them, the dice.
type trace struct {
	lines []string
	keys  []string // row ids that fired or narrowed the candidates, in order
	rolls []string
	dice  []int // the rolls themselves
	roll  func(k int) int
	err   error     // a die that rolled outside 1..k (a faulty Policy.Roll)
	sel   selection // the last selectSpace's result, for the sentence
}

// selection is what decided one use of a selection table: the first row
// that narrowed the candidates ("" if none did) and, when a die broke the
// tie after the last row, how many it chose among.
type selection struct {
	first string
	die   int
}

func (t *trace) add(format string, a ...any) { t.lines = append(t.lines, fmt.Sprintf(format, a...)) }

func (t *trace) key(id string) { t.keys = append(t.keys, id) }

// die rolls among k candidates (§6.9) and logs it. A roll outside 1..k is
// recorded in t.err (Decide then fails) and counts as 1, so the caller can
// finish without indexing out of range.
func (t *trace) die(k int, what string) int {
	r := t.roll(k)
	if r < 1 || r > k {
		if t.err == nil {
			t.err = fmt.Errorf("the die for %d candidates (%s) rolled %d", k, what, r)
		}
		r = 1
	}
	t.rolls = append(t.rolls, fmt.Sprintf("die 1-%d for %s: %d", k, what, r))
	t.dice = append(t.dice, r)
	t.key("die")
	return r
}

// selRow is one row of a selection table: it keeps some of the candidates.
type selRow struct {
	id        string
	keep      func(c []engine.Space) []engine.Space
	mandatory bool // never skipped: keeping none means no candidate at all (SR2 for moves)
}

func rowIf(id string, pred func(x engine.Space) bool) selRow {
	return selRow{id: id, keep: func(c []engine.Space) []engine.Space {
		var out []engine.Space
		for _, x := range c {
			if pred(x) {
				out = append(out, x)
			}
		}
		return out
	}}
}

// rowBest keeps the candidates with the best score (highest).
func rowBest(id string, score func(x engine.Space) int) selRow {
	return selRow{id: id, keep: func(c []engine.Space) []engine.Space {
		best := 0
		for i, x := range c {
			if s := score(x); i == 0 || s > best {
				best = s
			}
		}
		var out []engine.Space
		for _, x := range c {
			if score(x) == best {
				out = append(out, x)
			}
		}
		return out
	}}
}

// selectSpace applies a table (§0 "How a selection table works"): from the
// legal candidates, each row keeps those that satisfy it; a row that would
// keep none is skipped (a mandatory row is not: then nothing qualifies);
// stop at one candidate; several after the last row → a die, the
// candidates numbered in canonical order.
func (t *trace) selectSpace(table string, cands []engine.Space, rows []selRow) (engine.Space, bool) {
	c := sortSpaces(cands)
	t.sel = selection{}
	if len(c) == 0 {
		t.add("%s table: no candidate", table)
		return engine.NoSpace, false
	}
	t.add("%s table on %s", table, names(c))
	for _, r := range rows {
		if len(c) == 1 && !r.mandatory {
			continue
		}
		k := r.keep(c)
		if len(k) == 0 {
			if r.mandatory {
				t.add("%s keeps none: no candidate", r.id)
				return engine.NoSpace, false
			}
			continue
		}
		if len(k) < len(c) {
			c = k
			t.add("%s → %s", r.id, names(c))
			t.key(r.id)
			if t.sel.first == "" {
				t.sel.first = r.id
			}
		}
	}
	if len(c) > 1 {
		t.sel.die = len(c)
		r := t.die(len(c), table+" table tie "+names(c))
		c = c[r-1 : r]
		t.add("die → %s", c[0])
	}
	return c[0], true
}

func sortSpaces(in []engine.Space) []engine.Space {
	var m engine.SpaceSet
	for _, x := range in {
		m = m.With(x)
	}
	return m.Spaces()
}

// placeRows is the Place-or-Replace table (§4.1). ps(x) is PlaceSwings(x):
// Budget(x) × s (s = 1 for a placement or a disc, 2 for a replacement).
// disc adds row D0 (has Room) in front (§6.3).
func placeRows(b *board, ps func(x engine.Space) int, disc bool) []selRow {
	var rows []selRow
	if disc {
		rows = append(rows, rowIf("D0", b.room))
	}
	rows = append(rows,
		rowIf("PL1", func(x engine.Space) bool { return b.fullDim(b.pl, dimOf(x)) && b.plCtl(x) && b.gap(x) <= ps(x) }),
		rowIf("PL2", func(x engine.Space) bool { return b.otherTwoB(x) && !b.botCtl(x) && b.gap(x)+1 <= ps(x) }),
		rowIf("PL3", func(x engine.Space) bool { return x == b.obj && !b.botCtl(x) && b.gap(x)+1 <= ps(x) }),
		rowIf("PL4", func(x engine.Space) bool { return pivotal(x) && !b.botCtl(x) && b.gap(x)+1 <= ps(x) }),
		rowIf("PL5", func(x engine.Space) bool { return pivotal(x) && b.plCtl(x) && b.gap(x) <= ps(x) }),
		rowIf("PL6", func(x engine.Space) bool { return !b.botCtl(x) && b.gap(x)+1 <= ps(x) }),
		rowIf("PL7", func(x engine.Space) bool { return b.plCtl(x) && b.gap(x) <= ps(x) }),
		rowIf("PL8", b.room),
		rowIf("PL9", func(x engine.Space) bool { return pivotal(x) && b.lead(x) == 1 }),
		rowIf("PL10", func(x engine.Space) bool { return pivotal(x) || x == b.obj }),
		rowIf("PL11", func(x engine.Space) bool { return !b.botIsolated(x) }),
		rowIf("PL12", func(x engine.Space) bool {
			for _, y := range dimSpaces(dimOf(x)) {
				if y != x && b.botCtl(y) {
					return true
				}
			}
			return false
		}),
		rowIf("PL13", func(x engine.Space) bool { return !b.botCtl(x) }),
		rowBest("PL14", func(x engine.Space) int { return -abs(b.lead(x)) }),
		rowIf("PL15", b.home),
	)
	return rows
}

// removeRows is the Remove table (§4.2). strA holds the military strength
// of snapshot A in operations; nil for events, which skip RM7.
func removeRows(b *board, strA *[engine.NumMapSpaces]int) []selRow {
	rows := []selRow{
		rowIf("RM1", func(x engine.Space) bool { return b.plCtl(x) && b.fullDim(b.pl, dimOf(x)) }),
		rowIf("RM2", func(x engine.Space) bool { return b.otherTwoB(x) && !b.botCtl(x) }),
		rowIf("RM3", func(x engine.Space) bool { return x == b.obj && b.lead(x) <= 1 }),
		rowIf("RM4", func(x engine.Space) bool { return pivotal(x) && b.lead(x) <= 1 }),
		rowIf("RM5", func(x engine.Space) bool { return b.gap(x) == 0 || b.gap(x) == 1 }),
		rowIf("RM6", b.plIsolated),
	}
	if strA != nil {
		rows = append(rows, rowIf("RM7", func(x engine.Space) bool { return !military(x) || strA[x] >= 3 }))
	}
	rows = append(rows,
		rowIf("RM8", func(x engine.Space) bool { return b.pp(x) == 1 }),
		rowIf("RM9", b.plCtl),
		rowIf("RM10", b.home),
		rowBest("RM11", b.pp),
	)
	return rows
}

// sourceRows is the Source table (§4.3) for the bot's own cubes (or, with
// discs, its disc counting as a piece). SR2 is mandatory for moves.
func sourceRows(b *board, sr2Mandatory, discs bool) []selRow {
	over := func(x engine.Space) int {
		if discs {
			return b.bp(x) - b.pp(x)
		}
		return b.bc(x) - b.pc(x)
	}
	sr2 := rowIf("SR2", func(x engine.Space) bool { return b.lead(x) >= 2 || b.lead(x) <= -1 })
	sr2.mandatory = sr2Mandatory
	return []selRow{
		rowIf("SR1", func(x engine.Space) bool {
			if pivotal(x) {
				return over(x) >= 3
			}
			return over(x) >= 2
		}),
		sr2,
		rowIf("SR3", func(x engine.Space) bool { return x != b.obj }),
		rowIf("SR4", func(x engine.Space) bool { return !pivotal(x) }),
		rowIf("SR5", func(x engine.Space) bool { return !b.fullDim(b.bot, dimOf(x)) }),
		rowBest("SR6", b.bc),
	}
}
