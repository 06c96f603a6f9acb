package solo

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/rfop/rfop/engine"
	"github.com/stretchr/testify/require"
)

// Short names of the spaces, as solo.md writes them.
var spaceAbbrev = map[string]engine.Space{
	"royalists": engine.Royalists, "r": engine.Royalists,
	"na": engine.NationalAssembly, "national assembly": engine.NationalAssembly,
	"republicans": engine.Republicans, "rep": engine.Republicans,
	"cc": engine.CatholicChurch, "catholic church": engine.CatholicChurch,
	"press": engine.Press,
	"sm":    engine.SocialMovements, "social movements": engine.SocialMovements,
	"mv": engine.MontValerien, "mont-valérien": engine.MontValerien,
	"fdi": engine.FortIssy, "fort d'issy": engine.FortIssy,
	"cdv": engine.ChateauVincennes, "château de vincennes": engine.ChateauVincennes,
	"bm": engine.ButteMontmartre, "butte montmartre": engine.ButteMontmartre,
	"bac": engine.ButteAuxCailles, "butte-aux-cailles": engine.ButteAuxCailles,
	"pl": engine.PereLachaise, "père lachaise": engine.PereLachaise,
}

func sp(t testing.TB, name string) engine.Space {
	t.Helper()
	x, ok := spaceAbbrev[strings.ToLower(strings.TrimSpace(name))]
	require.True(t, ok, "unknown space %q", name)
	return x
}

// setBoard writes a board in solo.md's notation onto g: "Royalists V1,
// Press V1 C1, BM C2 Vd" (V/C cubes; Vd/Cd a Fortification/Barricade).
// Unlisted spaces are emptied.
func setBoard(t testing.TB, g *engine.Game, spec string) {
	t.Helper()
	s := &g.S
	s.Cubes = [2][engine.NumMapSpaces]int8{}
	for x := range s.Disc {
		s.Disc[x] = engine.NoSide
	}
	for _, part := range strings.Split(spec, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		f := strings.Fields(part)
		i := len(f) - 1
		for i > 0 && isPieceToken(f[i]) {
			i--
		}
		x := sp(t, strings.Join(f[:i+1], " "))
		for _, tok := range f[i+1:] {
			side := engine.Versailles
			if tok[0] == 'C' {
				side = engine.Commune
			}
			if tok[1:] == "d" {
				s.Disc[x] = side
				continue
			}
			n, err := strconv.Atoi(tok[1:])
			require.NoError(t, err, "token %q", tok)
			s.Cubes[side][x] = int8(n)
		}
	}
}

func isPieceToken(tok string) bool {
	if len(tok) < 2 || tok[0] != 'V' && tok[0] != 'C' {
		return false
	}
	if tok[1:] == "d" {
		return true
	}
	_, err := strconv.Atoi(tok[1:])
	return err == nil
}

// setAvail gives side exactly n Available cubes: Versailles in its pool,
// the Commune in its Starting zone; the other non-Final-Crisis zones are
// emptied and marked breached (so no bonus cube arrives).
func setAvail(g *engine.Game, side engine.Side, n int) {
	s := &g.S
	s.Pool[side] = 0
	for z := 0; z < engine.ZoneFinalCrisis; z++ {
		s.Track[side][z] = 0
		s.Bonus[side][z] = 0
		s.Breached[side][z] = true
	}
	if side == engine.Versailles {
		s.Pool[side] = int8(n)
	} else {
		s.Track[side][engine.ZoneStarting] = int8(n)
	}
}

type opt func(g *engine.Game)

func withAvail(n int) opt { return func(g *engine.Game) { setAvail(g, g.S.BotSide, n) } }
func withObj(x engine.Space) opt {
	return func(g *engine.Game) { setObjective(g, g.S.BotSide, x) }
}
func withMomentum(side engine.Side, m int) opt {
	return func(g *engine.Game) { g.S.Momentum[side] = int8(m) }
}
func withPool(side engine.Side, n int) opt { return func(g *engine.Game) { g.S.Pool[side] = int8(n) } }
func withRound(r int) opt                  { return func(g *engine.Game) { g.S.Round = int8(r) } }

// commonePoolRoom: the Commune (Player) pool has empty cells (RM 1, empty).
func communePoolRoom() opt {
	return func(g *engine.Game) { g.S.Momentum[engine.Commune], g.S.Pool[engine.Commune] = 1, 0 }
}

// communePoolFull: RM 1 with both cells filled.
func communePoolFull() opt {
	return func(g *engine.Game) { g.S.Momentum[engine.Commune], g.S.Pool[engine.Commune] = 1, 2 }
}

// newGame builds a solo position (nothing on the stack yet); resume then
// starts the procedures to test from it.
func newGame(t testing.TB, bot engine.Side, spec string, opts ...opt) *engine.Game {
	t.Helper()
	g := soloPosition(t, bot, 1)
	setBoard(t, g, spec)
	for _, o := range opts {
		o(g)
	}
	return g
}

// boardOf is the policy's view of g.
func boardOf(g *engine.Game) board {
	pub := g.SoloPublicState()
	return newBoard(&pub, g.Deck())
}

// dice returns a Policy whose die gives the scripted rolls, failing the
// test on an unexpected roll.
func dice(t testing.TB, rolls ...int) *Policy {
	return &Policy{Roll: func(k int) int {
		t.Helper()
		if len(rolls) == 0 {
			t.Fatalf("unexpected die roll (1-%d)", k)
		}
		r := rolls[0]
		rolls = rolls[1:]
		require.LessOrEqual(t, r, k, "scripted roll above the number of candidates")
		return r
	}}
}

// runBot makes the bot's decisions until the Player must decide or the
// stack is empty; it returns the explanations.
func runBot(t testing.TB, g *engine.Game, p *Policy) []Explanation {
	t.Helper()
	var out []Explanation
	for i := 0; i < 200; i++ {
		ex, ok, err := p.Step(g)
		require.NoError(t, err)
		if !ok {
			return out
		}
		out = append(out, ex)
	}
	t.Fatal("the bot does not stop")
	return nil
}

// player answers the Player's pending prompt with the choice matching ok.
func player(t testing.TB, g *engine.Game, kind engine.PromptKind, ok func(c engine.Choice) bool) {
	t.Helper()
	side := g.S.BotSide.Other()
	pr, has := g.PromptFor(side)
	require.True(t, has, "the Player has no decision; prompts: %v", g.Prompts())
	require.Equal(t, kind, pr.Kind)
	for _, c := range pr.Choices {
		if ok(c) {
			require.NoError(t, g.Apply(side, c))
			return
		}
	}
	t.Fatalf("no matching choice among %+v", pr.Choices)
}

// cubes describes x as "V2 C1" (for assertions).
func cubes(g *engine.Game, x engine.Space) string {
	s := &g.S
	out := fmt.Sprintf("V%d C%d", s.Cubes[engine.Versailles][x], s.Cubes[engine.Commune][x])
	if s.Disc[x] != engine.NoSide {
		out += " " + s.Disc[x].String()[:1] + "d"
	}
	return out
}

// firedOf lists the Fired keys of several explanations.
func firedOf(exs []Explanation) [][]string {
	out := make([][]string, len(exs))
	for i, e := range exs {
		out[i] = e.Fired
	}
	return out
}

// choicesOf lists the spaces chosen.
func spacesChosen(exs []Explanation, kind engine.PromptKind) []engine.Space {
	var out []engine.Space
	for _, e := range exs {
		if e.Prompt == kind {
			out = append(out, e.Choice.Space)
		}
	}
	return out
}

// opRows evaluates the Place-or-Remove table on g's board for the bot,
// snapshot A taken now, in one sphere with op OP.
func opRows(g *engine.Game, op int, sphere engine.Sphere, all bool) []prHit {
	b := boardOf(g)
	e := newOpEvalLive(&b, op, sphere, sphereSet(sphere))
	return e.rows(all)
}

// soloPosition returns a solo position, bot playing bot, in round 1 with an
// empty board: no cubes, no discs, empty pools, full Crisis Tracks and
// bonus areas, cubes under Prussian Collaboration (as set up), momentum and
// VP 0, the Commune as Initiative Player, and nothing in progress. The
// Player holds the 4 cards dealt at setup; his objective offer is back in
// the Objective deck. Edit g.S, then resume.
func soloPosition(t testing.TB, bot engine.Side, seed int64) *engine.Game {
	t.Helper()
	g, err := engine.New(engine.Options{Seed: seed, BotSide: bot})
	require.NoError(t, err)
	s := &g.S
	for i := 0; i < 2; i++ {
		s.ObjDeck = append(s.ObjDeck, s.ObjOffer[i]...)
		s.ObjOffer[i] = nil
	}
	s.Cubes = [2][engine.NumMapSpaces]int8{}
	for x := range s.Disc {
		s.Disc[x] = engine.NoSide
	}
	s.Pool, s.OutOfPlay, s.Momentum, s.VP = [2]int8{}, [2]int8{}, [2]int8{}, [2]int8{}
	s.Breached, s.Pending = [2][engine.NumZones]bool{}, [2][engine.NumZones]bool{}
	s.FCFirst = engine.NoSide
	s.Objective = [2]int8{}
	s.Plays = [2]int8{}
	s.Stack, s.Undo = nil, nil
	return g
}

// resume starts procs (the first resolves first) from g's position
// through engine.Resume, which checks the position; g becomes the resumed
// game, at its first decision (so pointers to g.S stay valid).
func resume(t testing.TB, g *engine.Game, procs ...engine.Procedure) {
	t.Helper()
	h, err := engine.Resume(g.S, g.Deck(), procs...)
	require.NoError(t, err)
	*g = *h
}

// takeCard removes card from every place a Strategy card can be in
// (the Final Crisis cards held face up excepted).
func takeCard(s *engine.State, card int) {
	del := func(a []int8) []int8 {
		out := a[:0]
		for _, c := range a {
			if int(c) != card {
				out = append(out, c)
			}
		}
		return out
	}
	s.Deck, s.Removed, s.OutOfGame = del(s.Deck), del(s.Removed), del(s.OutOfGame)
	for i := 0; i < 2; i++ {
		s.Hand[i], s.SetAside[i] = del(s.Hand[i]), del(s.SetAside[i])
	}
	d := s.Discard[:0]
	for _, e := range s.Discard {
		if int(e.Card) != card {
			d = append(d, e)
		}
	}
	s.Discard = d
}

// putOnDeck takes the given Strategy cards from wherever they are and puts
// them on top of the deck, the first given drawn first.
func putOnDeck(g *engine.Game, cards ...int) {
	s := &g.S
	for _, c := range cards {
		takeCard(s, c)
	}
	for i := len(cards) - 1; i >= 0; i-- {
		s.Deck = append(s.Deck, int8(cards[i]))
	}
}

// discardCard puts card on top of the discard pile as played by `by` in
// the current round (taking it from wherever it is).
func discardCard(g *engine.Game, card int, by engine.Side) {
	s := &g.S
	takeCard(s, card)
	s.Discard = append(s.Discard, engine.DiscardEntry{Card: int8(card), By: by, Round: s.Round})
}

// giveCard puts card into side's hand (taking it from wherever it is).
func giveCard(g *engine.Game, side engine.Side, card int) {
	s := &g.S
	takeCard(s, card)
	s.Hand[side] = append(s.Hand[side], int8(card))
}

// setObjective gives side the objective card naming space x, taken from
// wherever it is; side's previous objective goes back to the deck.
func setObjective(g *engine.Game, side engine.Side, x engine.Space) {
	s := &g.S
	for _, c := range g.Deck().Cards() {
		if c.Kind != engine.ObjectiveCard || c.Space != x {
			continue
		}
		n := int8(c.Num)
		del := func(a []int8) []int8 {
			out := a[:0]
			for _, o := range a {
				if o != n {
					out = append(out, o)
				}
			}
			return out
		}
		s.ObjDeck, s.ObjOut = del(s.ObjDeck), del(s.ObjOut)
		for i := 0; i < 2; i++ {
			s.ObjOffer[i], s.Fulfilled[i] = del(s.ObjOffer[i]), del(s.Fulfilled[i])
			if s.Objective[i] == n {
				s.Objective[i] = 0
			}
		}
		if old := s.Objective[side]; old != 0 {
			s.ObjDeck = append(s.ObjDeck, old)
		}
		s.Objective[side] = n
		return
	}
}

// leaveGame puts cards out of the game (State.OutOfGame, in number order),
// for positions whose story does not say where cards already played went.
func leaveGame(g *engine.Game, cards ...int8) {
	s := &g.S
	s.OutOfGame = append(s.OutOfGame, cards...)
	slices.Sort(s.OutOfGame)
}
