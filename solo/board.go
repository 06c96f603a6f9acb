package solo

import (
	"strings"

	"github.com/rfop/rfop/engine"
)

// board is the public position as the tables see it (solo.md §1), built
// from engine.Game.SoloPublicState: never the Player's hand, set-aside
// cards or objective, never the deck order. It is a value: hypothetical
// moves (Spread plans, a disc lifted) are tried on copies.
type board struct {
	bot, pl   engine.Side
	cubes     [2][engine.NumMapSpaces]int
	disc      [engine.NumMapSpaces]engine.Side
	momentum  [2]int
	pool      [2]int
	poolCap   int // Commune pool cells
	outOfPlay [2]int
	avail     int // the bot's Available cubes (§1.3)
	round     int
	obj       engine.Space // BotObj, or NoSpace
}

func newBoard(s *engine.State, deck *engine.Deck) board {
	b := board{bot: s.BotSide, pl: s.BotSide.Other(), round: int(s.Round), obj: engine.NoSpace}
	for side := 0; side < 2; side++ {
		for x := 0; x < engine.NumMapSpaces; x++ {
			b.cubes[side][x] = int(s.Cubes[side][x])
		}
		b.momentum[side] = int(s.Momentum[side])
		b.pool[side] = int(s.Pool[side])
		b.outOfPlay[side] = int(s.OutOfPlay[side])
	}
	b.disc = s.Disc
	b.poolCap = s.PoolCap(engine.Commune)
	b.avail = s.Available(s.BotSide)
	if o := int(s.Objective[s.BotSide]); o > 0 {
		if c := deck.Card(o); c != nil {
			b.obj = c.Space
		}
	}
	return b
}

// spaces lists the twelve map spaces in canonical order (§0).
func allSpaces() []engine.Space {
	out := make([]engine.Space, engine.NumMapSpaces)
	for i := range out {
		out[i] = engine.Space(i)
	}
	return out
}

func inSet(m engine.SpaceSet) []engine.Space { return m.Spaces() }

func pivotal(x engine.Space) bool                 { return x.Info().Pivotal }
func sphereOf(x engine.Space) engine.Sphere       { return x.Info().Sphere }
func dimOf(x engine.Space) engine.Dimension       { return x.Info().Dim }
func military(x engine.Space) bool                { return sphereOf(x) == engine.Military }
func dimSpaces(d engine.Dimension) []engine.Space { return d.Spaces().Spaces() }

func (b *board) pieces(side engine.Side, x engine.Space) int {
	if x < 0 || x >= engine.NumMapSpaces {
		return 0
	}
	n := b.cubes[side][x]
	if b.disc[x] == side {
		n++
	}
	return n
}

func (b *board) bc(x engine.Space) int { return b.cubes[b.bot][x] }
func (b *board) pc(x engine.Space) int { return b.cubes[b.pl][x] }
func (b *board) bp(x engine.Space) int { return b.pieces(b.bot, x) }
func (b *board) pp(x engine.Space) int { return b.pieces(b.pl, x) }

// lead = b − p, gap = p − b (pieces, §1.3).
func (b *board) lead(x engine.Space) int { return b.bp(x) - b.pp(x) }
func (b *board) gap(x engine.Space) int  { return -b.lead(x) }

// controls: more pieces; Versailles always holds its HQ, and the Prussian
// Occupied Territory at Prussian Collaboration 3.
func (b *board) controls(side engine.Side, x engine.Space) bool {
	switch x {
	case engine.VersaillesHQ:
		return side == engine.Versailles
	case engine.PrussianTerritory:
		return side == engine.Versailles && b.momentum[engine.Versailles] == 3
	}
	return b.pieces(side, x) > b.pieces(side.Other(), x)
}

func (b *board) botCtl(x engine.Space) bool { return b.controls(b.bot, x) }
func (b *board) plCtl(x engine.Space) bool  { return b.controls(b.pl, x) }

func (b *board) present(side engine.Side, x engine.Space) bool {
	return x.Info().Permanent == side || b.pieces(side, x) > 0
}

// feedsFor: side controls a feeder of x.
func (b *board) feedsFor(side engine.Side, x engine.Space) bool {
	for _, f := range x.Feeders().Spaces() {
		if b.controls(side, f) {
			return true
		}
	}
	return false
}

// accessible: the bot may operate in x (present, or a feeder controlled).
func (b *board) accessible(x engine.Space) bool {
	return b.present(b.bot, x) || b.feedsFor(b.bot, x)
}

// strength of a bot removal attempt in x on this board (decision 10).
func (b *board) strength(x engine.Space) int {
	n := 0
	for _, f := range x.Feeders().Spaces() {
		if b.controls(b.bot, f) {
			n++
		}
	}
	if b.present(b.bot, x) {
		n++
	}
	if b.botCtl(x) {
		n++
	}
	return n
}

// room: the bot has Room for a cube in x (cubes, §1.3).
func (b *board) room(x engine.Space) bool {
	lim := 1
	if pivotal(x) {
		lim = 2
	}
	return b.bc(x) < 4 && b.bc(x)-b.pc(x) < lim
}

func (b *board) fullDim(side engine.Side, d engine.Dimension) bool {
	for _, x := range dimSpaces(d) {
		if !b.controls(side, x) {
			return false
		}
	}
	return true
}

// otherTwoB: the bot controls both other spaces of x's dimension.
func (b *board) otherTwoB(x engine.Space) bool {
	for _, y := range dimSpaces(dimOf(x)) {
		if y != x && !b.botCtl(y) {
			return false
		}
	}
	return true
}

// playerTwo: the Player controls x and exactly two of its dimension.
func (b *board) playerTwo(x engine.Space) bool {
	if !b.plCtl(x) {
		return false
	}
	n := 0
	for _, y := range dimSpaces(dimOf(x)) {
		if b.plCtl(y) {
			n++
		}
	}
	return n == 2
}

// neverIsolated lists where a side's cubes are never Isolated (§1.2).
func neverIsolated(side engine.Side, x engine.Space) bool {
	if side == engine.Versailles {
		return x == engine.Royalists || x == engine.MontValerien || x == engine.FortIssy
	}
	return x == engine.SocialMovements || x == engine.PereLachaise
}

// plIsolated: the Player's cubes in x are Isolated.
func (b *board) plIsolated(x engine.Space) bool {
	return b.pc(x) >= 1 && !neverIsolated(b.pl, x) && !b.feedsFor(b.pl, x)
}

// botIsolated: a bot cube placed in x would be Isolated.
func (b *board) botIsolated(x engine.Space) bool {
	return !neverIsolated(b.bot, x) && !b.feedsFor(b.bot, x)
}

// home: x lies in one of the bot's home dimensions (PL15, RM10).
func (b *board) home(x engine.Space) bool {
	d := dimOf(x)
	if b.bot == engine.Versailles {
		return d == engine.Forts || d == engine.Institutional
	}
	return d == engine.Paris || d == engine.PublicOpinion
}

func (b *board) primarySphere() engine.Sphere {
	if b.bot == engine.Versailles {
		return engine.Military
	}
	return engine.Political
}

// ---- words ----

func names(xs []engine.Space) string {
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = x.String()
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}
