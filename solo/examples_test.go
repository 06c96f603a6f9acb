package solo

import (
	"testing"

	"github.com/rfop/rfop/engine"
	"github.com/stretchr/testify/require"
)

// Cards used to script military draws, by OP value (never in the examples' hands).
const (
	draw1  = 2  // #2 The Murder of Vincenzini, 1 OP
	draw1b = 3  // #3 Brassardiers, 1 OP
	draw2  = 10 // #10 Fortification of Mont-Valérien, 2 OP
	draw2b = 11 // #11 Adolphe Thiers, 2 OP
	draw3  = 41 // #41 Freemason Parade, 3 OP
)

func onlyKind(exs []Explanation, kinds ...engine.PromptKind) []Explanation {
	var out []Explanation
	for _, e := range exs {
		for _, k := range kinds {
			if e.Prompt == k {
				out = append(out, e)
			}
		}
	}
	return out
}

// TestExample1 — solo.md §9 Example 1: Versailles bot, first play of the
// game; attrition pulls it into politics.
func TestExample1(t *testing.T) {
	g := newGame(t, V, "Royalists V1, Press V1 C1, SM C1, PL C1", withObj(rep))
	s := &g.S
	s.Initiative, s.First = V, V
	putOnDeck(g, 38) // #38 Victor Hugo (Neutral, 3 OP)
	s.Discard = nil
	resume(t, g, engine.ProcBotTurn())
	exs := runBot(t, g, dice(t))
	require.Empty(t, g.Prompts(), "the turn is over")

	// 1. Momentum check: Available 4 → no change. 2. Reveal #38 → operations.
	require.Equal(t, int8(0), s.Momentum[V])
	require.Equal(t, engine.PromptPlay, exs[0].Prompt)
	require.Equal(t, engine.ModeOps, exs[0].Choice.Mode)
	// 3. Sphere: PR9 is the first row found in only one sphere → Political.
	require.Equal(t, engine.PromptSphere, exs[1].Prompt)
	require.Equal(t, int(Pol), exs[1].Choice.N)
	require.Contains(t, exs[1].Fired, "§5:PR9")
	// 5. PR4a with T⁺ = [Press] → remove in Press; the Commune cube is removed from play.
	rem := onlyKind(exs, engine.PromptOpsRemove)
	require.Len(t, rem, 1)
	require.Equal(t, []string{"PR4a"}, rem[0].Fired)
	require.Equal(t, press, rem[0].Choice.Space)
	// 6. PR3b → PLACE. (No Commune piece is left in snapshot A, so the
	// engine goes on to placing without asking; the table agrees.)
	after := newGame(t, V, "Royalists V1, Press V1, SM C1, PL C1", withObj(rep)) // Available 4
	b := boardOf(after)
	e := &opEval{b: &b, op: 2, sphere: Pol, scope: sphereSet(Pol),
		legalRemove: engine.SpaceSet(0).With(royalists).With(na).With(cc).With(press)}
	h := e.rows(false)
	require.Equal(t, "PR3b", h[0].id+h[0].variant)
	require.Equal(t, []engine.Space{rep}, h[0].T)
	// 7. Placements [Republicans (PL3), National Assembly (PL2)].
	place := onlyKind(exs, engine.PromptOpsPlace)
	require.Len(t, place, 2)
	require.Equal(t, rep, place[0].Choice.Space)
	require.Equal(t, []string{"PL3"}, place[0].Fired)
	require.Equal(t, na, place[1].Choice.Space)
	require.Equal(t, []string{"PL2"}, place[1].Fired)
	// Result: Institutional wholly Versailles and Press; one Commune cube out
	// of play; Available 3 (pool 1, Escalation 1, Tension 1).
	require.Equal(t, engine.Versailles, s.DimensionController(engine.Institutional))
	require.True(t, s.Controls(V, press))
	require.Equal(t, int8(1), s.OutOfPlay[C])
	require.Equal(t, 3, s.Available(V))
	require.Equal(t, int8(1), s.Pool[V])
	require.Equal(t, [4]int8{0, 1, 1, 2}, s.Track[V])
	// 8. Discard #38.
	require.Equal(t, engine.DiscardEntry{Card: 38, By: V, Round: 1}, s.Discard[len(s.Discard)-1])
}

// TestExample2 — §9 Example 2: Versailles bot; the free momentum cube,
// then denying the Commune a dimension.
func TestExample2(t *testing.T) {
	g := newGame(t, V, "Royalists V1, Republicans C1, CC C1, Press V1 C2, SM C2, MV V2, FdI V1, BM C1, PL C1",
		withObj(mv), withRound(2), withMomentum(V, 1), withMomentum(C, 1), withPool(C, 1))
	s := &g.S
	setAvail(g, V, 4)
	s.Prussian[0] = 0 // PC 1: the level-1 cubes were taken
	giveCard(g, C, 31)
	discardCard(g, 19, C) // #19 Walery Wroblewski, a Commune card
	putOnDeck(g, 26)      // #26 Gaston Crémieux (Commune, 2 OP)
	resume(t, g, engine.ProcCardPlay(C), engine.ProcBotTurn())

	// The Player plays #31 Blanquists for momentum: RM 1 → 2.
	player(t, g, engine.PromptPlay, func(c engine.Choice) bool { return c.Card == 31 && c.Mode == engine.ModeMomentum })
	require.Equal(t, int8(2), s.Momentum[C])
	require.Equal(t, 3, s.PoolCap(C))
	// The bot's free cube: PL4 → National Assembly; Available 3.
	exs := runBot(t, g, dice(t))
	require.Equal(t, engine.PromptFreeCube, exs[0].Prompt)
	require.Equal(t, na, exs[0].Choice.Space)
	require.Equal(t, []string{"PL4"}, exs[0].Fired)
	require.Equal(t, "V1 C0", cubes(g, na))
	// Bot turn: no momentum change (Available 3); #26 not Friendly, #19 not usable → 2 OP.
	require.Equal(t, int8(1), s.Momentum[V])
	require.Equal(t, engine.ModeOps, exs[1].Choice.Mode)
	// Sphere Political via PR1.
	require.Contains(t, exs[2].Fired, "§5:PR1")
	require.Equal(t, int(Pol), exs[2].Choice.N)
	// Removals [Press (PR1a, RM4), Press (PR4a, single candidate)].
	rem := onlyKind(exs, engine.PromptOpsRemove)
	require.Len(t, rem, 2)
	require.Equal(t, []string{"PR1a", "RM4"}, rem[0].Fired)
	require.Equal(t, press, rem[0].Choice.Space)
	require.Equal(t, []string{"PR4a"}, rem[1].Fired)
	require.Equal(t, press, rem[1].Choice.Space)
	require.Equal(t, "V1 C0", cubes(g, press))
	require.Equal(t, int8(3), s.Pool[C], "the Commune pool is full")
	require.Equal(t, 3, s.Available(V))
	require.Equal(t, engine.DiscardEntry{Card: 26, By: V, Round: 2}, s.Discard[len(s.Discard)-1])
}

// example3 is §9 Example 3's position: Commune bot, RM 1 with a full pool.
func example3(t *testing.T, revealed int, draws ...int) *engine.Game {
	// Royalists V1 before the Player's free cube, V2 after it ("as shown above").
	g := newGame(t, C, "Royalists V1, NA V1, Press V1 C1, SM C1, MV V2, FdI V1, BM V1, BaC V1 C1, PL C1",
		withObj(bm), withMomentum(C, 1), withPool(C, 2))
	s := &g.S
	s.Track[C] = [4]int8{3, 1, 0, 2} // Available 6 with the 2 pool cubes
	s.Breached[C] = [4]bool{false, true, true, false}
	s.Bonus[C] = [4]int8{0, 0, 0, 2}
	require.Equal(t, 6, s.Available(C))
	discardCard(g, 16, V) // #16 Hostage Decree, a Versailles card
	putOnDeck(g, append([]int{revealed}, draws...)...)
	resume(t, g, engine.ProcBotTurn())
	// Momentum check: no empty pool cell → RM 2; the Player puts his free
	// Institutional cube in Royalists.
	require.Equal(t, int8(2), s.Momentum[C])
	player(t, g, engine.PromptFreeCube, func(c engine.Choice) bool { return c.Space == royalists })
	require.Equal(t, "V2 C0", cubes(g, royalists))
	return g
}

// TestExample3 — §9 Example 3: Commune bot; a paid +1, a fresh look after
// a failure, and a last attempt at strength 1. Draws [3, 1].
func TestExample3(t *testing.T) {
	g := example3(t, 40, draw3, draw1)
	s := &g.S
	exs := runBot(t, g, dice(t))
	require.Equal(t, engine.ModeOps, exs[0].Choice.Mode, "#40 is Neutral, #16 is Versailles'")
	require.Contains(t, exs[1].Fired, "§5:PR3")
	require.Equal(t, int(Mil), exs[1].Choice.N)
	rem := onlyKind(exs, engine.PromptOpsRemove)
	require.Len(t, rem, 2)
	// Attempt 1: PR3a, paid +1: 2 OP at strength 2 → a 3-OP card → failure.
	require.Equal(t, []string{"PR3a"}, rem[0].Fired)
	require.Equal(t, engine.Choice{Kind: engine.ChooseRemove, Space: bm, Cost: 2, Strength: 2, Extra: true}, rem[0].Choice)
	// Attempt 2: PR5a, 1 OP at strength 1 → a 1-OP card → success.
	require.Equal(t, []string{"PR5a"}, rem[1].Fired)
	require.Equal(t, engine.Choice{Kind: engine.ChooseRemove, Space: bm, Cost: 1, Strength: 1}, rem[1].Choice)
	require.Equal(t, "V0 C0", cubes(g, bm))
	require.Equal(t, []int8{draw3, draw1}, s.Removed[len(s.Removed)-2:], "cards drawn [3, 1], out of the game")
	require.Equal(t, engine.DiscardEntry{Card: 40, By: C, Round: 1}, s.Discard[len(s.Discard)-1])
}

// TestExample3VariantA — the first card drawn is a 2-OP card (success):
// at OP 1, PR3b → snapshot B → PL3 → Butte Montmartre C1.
func TestExample3VariantA(t *testing.T) {
	g := example3(t, 40, draw2)
	exs := runBot(t, g, dice(t))
	rem := onlyKind(exs, engine.PromptOpsRemove)
	require.Len(t, rem, 2)
	require.Equal(t, []string{"PR3a"}, rem[0].Fired)
	require.Equal(t, []string{"PR3b"}, rem[1].Fired)
	place := onlyKind(exs, engine.PromptOpsPlace)
	require.Len(t, place, 1)
	require.Equal(t, bm, place[0].Choice.Space)
	require.Equal(t, []string{"PL3"}, place[0].Fired)
	require.Equal(t, "V0 C1", cubes(g, bm))
	require.True(t, g.S.Controls(C, bm))
}

// TestExample3VariantB — the revealed card is #9 (Versailles, 2 OP):
// PR3b, no removal, placements [BM, BM] → C2 V1, no card drawn.
func TestExample3VariantB(t *testing.T) {
	g := example3(t, 9)
	removed := len(g.S.Removed)
	exs := runBot(t, g, dice(t))
	require.Contains(t, exs[1].Fired, "§5:PR3")
	rem := onlyKind(exs, engine.PromptOpsRemove)
	require.Len(t, rem, 1)
	require.Equal(t, []string{"PR3b"}, rem[0].Fired)
	require.Equal(t, engine.ChooseStopRem, rem[0].Choice.Kind)
	require.Equal(t, []engine.Space{bm, bm}, spacesChosen(exs, engine.PromptOpsPlace))
	require.Equal(t, "V1 C2", cubes(g, bm))
	require.Len(t, g.S.Removed, removed, "no card drawn")
}

// TestExample4 — §9 Example 4: Commune bot; a Friendly event (#23 Les
// Cantinières) and the extra OP.
func TestExample4(t *testing.T) {
	g := newGame(t, C, "Royalists V1, NA V1, Republicans C1, Press V1 C1, SM C1, MV V2, FdI V1, CdV V1 C1, BM V1 C1, BaC V1, PL C1",
		withObj(cdv), withMomentum(C, 1))
	s := &g.S
	s.Track[C] = [4]int8{3, 1, 0, 2}
	s.Breached[C] = [4]bool{false, true, true, false}
	s.Bonus[C] = [4]int8{0, 0, 0, 2}
	s.OutOfPlay[C] = 1
	require.Equal(t, 4, s.Available(C))
	putOnDeck(g, 23)
	resume(t, g, engine.ProcBotTurn())
	exs := runBot(t, g, dice(t))
	require.Equal(t, int8(1), s.Momentum[C], "2 empty cells: no momentum change")
	require.Equal(t, engine.ModeEvent, exs[0].Choice.Mode)
	place := onlyKind(exs, engine.PromptEventPlace)
	require.Len(t, place, 2)
	// Cube 1: PL3 → Château de Vincennes, the cube removed from play (RETURN first).
	require.Equal(t, engine.Choice{Kind: engine.ChoosePlace, Space: cdv, Extra: true}, place[0].Choice)
	require.Equal(t, []string{"PL3"}, place[0].Fired)
	// Cube 2: Château de Vincennes has no Room any more: only Butte Montmartre.
	require.Equal(t, bm, place[1].Choice.Space)
	require.False(t, place[1].Choice.Extra, "an Available cube")
	require.Empty(t, place[1].Fired, "single candidate")
	require.Equal(t, "V1 C2", cubes(g, cdv))
	require.Equal(t, "V1 C2", cubes(g, bm))
	require.Equal(t, int8(0), s.OutOfPlay[C])
	// Extra 1 OP, either sphere: PR4 → Political; remove the Versailles cube in Press.
	sph := onlyKind(exs, engine.PromptSphere)
	require.Len(t, sph, 1)
	require.Contains(t, sph[0].Fired, "§5:PR4")
	require.Equal(t, int(Pol), sph[0].Choice.N)
	rem := onlyKind(exs, engine.PromptOpsRemove)
	require.Len(t, rem, 1)
	require.Equal(t, []string{"PR4a"}, rem[0].Fired)
	require.Equal(t, press, rem[0].Choice.Space)
	require.Equal(t, "V0 C1", cubes(g, press))
	require.Equal(t, engine.DiscardEntry{Card: 23, By: C, Round: 1}, s.Discard[len(s.Discard)-1])
}

// TestExample4Rows pins the two row lists of the extra OP's sphere choice.
func TestExample4Rows(t *testing.T) {
	g := newGame(t, C, "Royalists V1, NA V1, Republicans C1, Press V1 C1, SM C1, MV V2, FdI V1, CdV V1 C2, BM V1 C2, BaC V1, PL C1",
		withObj(cdv), withMomentum(C, 1), withAvail(3))
	require.Equal(t, []string{"PR4", "PR5", "PR7", "PR10", "PR12"}, hitKeys(opRows(g, 1, Pol, true)))
	require.Equal(t, []string{"PR6", "PR7", "PR9-C", "PR10", "PR12"}, hitKeys(opRows(g, 1, Mil, true)))
}

// TestExample5 — §9 Example 5: Versailles bot, Pivotal bonus actions at
// the end of a round; the Player (Initiative) orders Forts, Institutional,
// Public Opinion, then his own Paris action.
func TestExample5(t *testing.T) {
	g := newGame(t, V, "Royalists V1 C3, NA V4 C1, Republicans C3, CC V1 C1, Press V2 C1, SM C2, MV V4 C1, FdI V1 C1, BM C2, BaC V1, PL C1",
		withRound(2), withAvail(2), communePoolRoom())
	s := &g.S
	s.Initiative, s.First = C, C
	resume(t, g, engine.ProcBonusActions())
	var all []Explanation
	for _, dim := range []engine.Dimension{engine.Forts, engine.Institutional, engine.PublicOpinion} {
		player(t, g, engine.PromptBonusOrder, func(c engine.Choice) bool { return c.N == int(dim) })
		all = append(all, runBot(t, g, dice(t))...)
	}
	// Only the Player's Paris action is left: it starts by itself.
	player(t, g, engine.PromptBonusAction, func(c engine.Choice) bool { return c.N == engine.ActionNone })
	require.Empty(t, g.Prompts())

	acts := onlyKind(all, engine.PromptBonusAction)
	require.Len(t, acts, 3)
	require.Equal(t, []string{"BA1"}, acts[0].Fired, "Forts")
	require.Equal(t, []string{"BA4"}, acts[1].Fired, "Institutional")
	require.Equal(t, []string{"BA2"}, acts[2].Fired, "Public Opinion")
	// Forts: moves [MV→FdI, MV→CdV].
	var moves [][2]engine.Space
	for _, e := range onlyKind(all, engine.PromptSpread) {
		moves = append(moves, [2]engine.Space{e.Choice.Space, e.Choice.To})
	}
	require.Equal(t, [][2]engine.Space{{mv, fdi}, {mv, cdv}}, moves)
	require.Equal(t, "V2 C1", cubes(g, mv))
	require.Equal(t, engine.Versailles, s.DimensionController(engine.Forts))
	// Institutional: own cube from NA, Commune cube from NA.
	de := onlyKind(all, engine.PromptDeescalate)
	require.Len(t, de, 2)
	require.Equal(t, engine.Choice{Kind: engine.ChooseRemoveOwn, Space: na}, de[0].Choice)
	require.Equal(t, engine.Choice{Kind: engine.ChooseRemove, Space: na}, de[1].Choice)
	require.Equal(t, "V3 C0", cubes(g, na))
	// Public Opinion: Turncoat in Catholic Church → V2.
	tc := onlyKind(all, engine.PromptTurncoat)
	require.Len(t, tc, 1)
	require.Equal(t, cc, tc[0].Choice.Space)
	require.Equal(t, "V2 C0", cubes(g, cc))
	// Bot Available 2 at the end.
	require.Equal(t, 2, s.Available(V))
}

// TestExample6 — §9 Example 6: Commune bot in the Final Crisis, to the end
// of the game.
func TestExample6(t *testing.T) {
	g := newGame(t, C, "Royalists V2, NA V1 C1, Republicans C2, CC C1, Press V1 C2, SM C1, MV V2, FdI V2, CdV V1, BM V1 C1, BaC V2 C1, PL C2",
		withMomentum(C, 2), withMomentum(V, 2))
	s := &g.S
	s.Prussian[0], s.Prussian[1] = 0, 0
	s.VP = [2]int8{-1, 1} // Political +1 Commune, Military +1 Versailles
	s.Round, s.FCHand = 4, 3
	s.Initiative, s.First = V, V
	s.Plays = [2]int8{2, 1}
	s.FCHeld = [2]bool{false, true}
	// The cards already played are not on the discard pile in the example
	// (its first discard is the bot's reveal), and where the Player's
	// Final Crisis card went it does not say: all out of the game.
	leaveGame(g, 17)
	leaveGame(g, s.Hand[V]...)
	leaveGame(g, s.SetAside[V]...)
	s.Hand[V], s.SetAside = nil, [2][]int8{}
	giveCard(g, V, 5) // the Player's third card (#5 Le Figaro)
	s.Pool[C] = 1
	s.Track[C] = [4]int8{0, 2, 2, 2}
	s.Breached[C] = [4]bool{true, false, false, false}
	require.Equal(t, 5, s.Available(C))
	require.Equal(t, int8(0), s.OutOfPlay[C])
	// Reveals #39 (Neutral), #7 (Versailles), #23; then the draws 2, 1.
	putOnDeck(g, 39, 7, 23, draw2, draw1)
	resume(t, g, engine.ProcFinalCrisisPlays())

	// Bot play 2.
	exs := runBot(t, g, dice(t))
	require.Equal(t, engine.DiscardEntry{Card: 39, By: engine.NoSide, Round: 4}, s.Discard[0])
	require.Equal(t, engine.DiscardEntry{Card: 7, By: engine.NoSide, Round: 4}, s.Discard[1])
	place := onlyKind(exs, engine.PromptEventPlace)
	require.Len(t, place, 2)
	require.Equal(t, bm, place[0].Choice.Space)
	require.Equal(t, []string{"PL4"}, place[0].Fired)
	require.Equal(t, bac, place[1].Choice.Space)
	require.Equal(t, []string{"PL7"}, place[1].Fired)
	require.Empty(t, onlyKind(exs, engine.PromptSphere, engine.PromptOpsRemove), "no extra OP in the Final Crisis")
	// The Player's third card leaves these spaces alone.
	player(t, g, engine.PromptFCPlay, func(c engine.Choice) bool { return c.Card == 5 })
	player(t, g, engine.PromptEventPlace, func(c engine.Choice) bool { return c.Kind == engine.ChooseDone })

	// Bot play 3: #34 Delescluze, Military part first.
	exs = runBot(t, g, dice(t))
	rem := onlyKind(exs, engine.PromptOpsRemove)
	require.Len(t, rem, 3)
	require.Equal(t, []string{"PR1a", "RM4"}, rem[0].Fired)
	require.Equal(t, engine.Choice{Kind: engine.ChooseRemove, Space: mv, Cost: 2, Strength: 2, Extra: true}, rem[0].Choice)
	require.Equal(t, []string{"PR1a", "RM4"}, rem[1].Fired)
	require.Equal(t, engine.Choice{Kind: engine.ChooseRemove, Space: mv, Cost: 1, Strength: 1}, rem[1].Choice)
	require.Equal(t, []int8{draw2, draw1}, s.Removed[len(s.Removed)-2:])
	require.Equal(t, []string{"PR4a"}, rem[2].Fired, "part 2")
	require.Equal(t, na, rem[2].Choice.Space)

	// Final bonus actions, ordered by the Player (Initiative): Paris, Public Opinion, Institutional.
	var bonus []Explanation
	for _, dim := range []engine.Dimension{engine.Paris, engine.PublicOpinion, engine.Institutional} {
		if len(g.Prompts()) > 0 && g.Prompts()[0].Side == V {
			player(t, g, engine.PromptBonusOrder, func(c engine.Choice) bool { return c.N == int(dim) })
		}
		bonus = append(bonus, runBot(t, g, dice(t))...)
	}
	acts := onlyKind(bonus, engine.PromptBonusAction)
	require.Len(t, acts, 3)
	require.Equal(t, []string{"BA2"}, acts[0].Fired, "Paris")
	require.Equal(t, []string{"BA6"}, acts[1].Fired, "Public Opinion")
	require.Equal(t, []string{"BA4"}, acts[2].Fired, "Institutional")
	require.Equal(t, bac, onlyKind(bonus, engine.PromptTurncoat)[0].Choice.Space)
	de := onlyKind(bonus, engine.PromptDeescalate)
	require.Equal(t, rep, de[0].Choice.Space)
	require.Equal(t, royalists, de[1].Choice.Space)

	// The board and the end of the game.
	require.Equal(t, "V0 C0", cubes(g, mv))
	require.Equal(t, "V0 C1", cubes(g, na))
	require.Equal(t, "V1 C3", cubes(g, bac))
	require.Equal(t, "V1 C0", cubes(g, royalists))
	require.Equal(t, engine.Commune, s.DimensionController(engine.Paris))
	require.Equal(t, engine.Commune, s.DimensionController(engine.PublicOpinion))
	require.NotEqual(t, engine.Versailles, s.DimensionController(engine.Forts))
	require.NotNil(t, s.Result)
	require.Equal(t, engine.Commune, s.Result.Winner)
	require.Equal(t, "victory", s.Result.Reason)
	require.Equal(t, [2]int8{-2, 0}, s.VP)
}

// TestA2Switches reproduces Appendix A.2 X1-X5 with the default switches.
func TestA2Switches(t *testing.T) {
	t.Run("X1 the paid +1 changes the row", func(t *testing.T) {
		g := newGame(t, C, "BM V2 C1, MV V1", withAvail(5))
		removed := len(g.S.Removed)
		resume(t, g, engine.ProcOperations(C, 2, Mil))
		exs := runBot(t, g, dice(t))
		require.Equal(t, []string{"PR4b"}, onlyKind(exs, engine.PromptOpsRemove)[0].Fired)
		place := onlyKind(exs, engine.PromptOpsPlace)
		require.Equal(t, []engine.Space{bm, bm}, spacesChosen(exs, engine.PromptOpsPlace))
		require.Equal(t, []string{"PL4"}, place[0].Fired)
		require.Equal(t, "V2 C3", cubes(g, bm))
		require.Len(t, g.S.Removed, removed, "no card drawn")
	})
	x2 := func(t *testing.T, draws []int, want string) {
		g := newGame(t, C, "BM V2 C1, MV V1", withAvail(5))
		putOnDeck(g, draws...)
		resume(t, g, engine.ProcOperations(C, 3, Mil))
		exs := runBot(t, g, dice(t))
		rem := onlyKind(exs, engine.PromptOpsRemove)
		require.Len(t, rem, 2)
		require.Equal(t, []string{"PR4a"}, rem[0].Fired)
		require.Equal(t, engine.Choice{Kind: engine.ChooseRemove, Space: bm, Cost: 2, Strength: 2, Extra: true}, rem[0].Choice)
		require.Equal(t, []string{"PR4a"}, rem[1].Fired)
		require.Equal(t, engine.Choice{Kind: engine.ChooseRemove, Space: bm, Cost: 1, Strength: 1}, rem[1].Choice, "the +1 cannot be paid")
		require.Equal(t, want, cubes(g, bm))
	}
	t.Run("X2 paid, then unpaid (draws 2, 1)", func(t *testing.T) { x2(t, []int{draw2, draw1}, "V0 C1") })
	t.Run("X2 paid, then unpaid (draws 2, 2)", func(t *testing.T) { x2(t, []int{draw2, draw2b}, "V1 C1") })
	t.Run("X3 no re-reading in the same space", func(t *testing.T) {
		g := newGame(t, V, "MV V2 C2, BM C3", withAvail(5), communePoolRoom())
		putOnDeck(g, draw2, draw3)
		resume(t, g, engine.ProcOperations(V, 2, Mil))
		exs := runBot(t, g, dice(t))
		rem := onlyKind(exs, engine.PromptOpsRemove)
		require.Len(t, rem, 2)
		require.Equal(t, []string{"PR4a"}, rem[0].Fired)
		require.Equal(t, engine.Choice{Kind: engine.ChooseRemove, Space: mv, Cost: 1, Strength: 2}, rem[0].Choice)
		require.Equal(t, []string{"PR6"}, rem[1].Fired)
		require.Equal(t, engine.Choice{Kind: engine.ChooseRemove, Space: mv, Cost: 1, Strength: 2}, rem[1].Choice, "still strength 2")
		require.Equal(t, "V2 C1", cubes(g, mv))
	})
	t.Run("X4 no daisy-chain through a feeder", func(t *testing.T) {
		g := newGame(t, V, "MV V1 C1, BM V1 C2, PL C1", withAvail(5), communePoolRoom())
		putOnDeck(g, draw2)
		resume(t, g, engine.ProcOperations(V, 3, Mil))
		exs := runBot(t, g, dice(t))
		rem := onlyKind(exs, engine.PromptOpsRemove)
		require.Len(t, rem, 2)
		require.Equal(t, []string{"PR4a", "RM8"}, rem[0].Fired)
		require.Equal(t, engine.Choice{Kind: engine.ChooseRemove, Space: mv, Cost: 1, Strength: 2}, rem[0].Choice)
		require.Equal(t, []string{"PR4b"}, rem[1].Fired, "BM keeps StrA 1: Swings⁺ 1 < 2")
		require.Equal(t, []engine.Space{bm, bm}, spacesChosen(exs, engine.PromptOpsPlace))
		require.Equal(t, "V3 C2", cubes(g, bm))
	})
	t.Run("X5 Attempts(X)", func(t *testing.T) {
		b := boardOf(newGame(t, C, "BM V1, FdI V1 Vd"))
		for _, tc := range []struct {
			x    engine.Space
			want []int
		}{{bm, []int{1, 1, 2, 2, 3, 3}}, {fdi, []int{0, 1, 1, 1, 2, 2}}} {
			var got []int
			for op := 1; op <= 6; op++ {
				e := &opEval{b: &b, op: op, sphere: Mil}
				e.strA[tc.x] = 1
				got = append(got, e.attempts(tc.x))
			}
			require.Equal(t, tc.want, got, "%s", tc.x)
		}
	})
}

// TestExampleRowLists pins the intermediate facts the worked examples state
// beyond their Assert lines (solo.md §9): the rows firing in each sphere at
// the sphere choice, snapshot A with its strengths, and the trigger sets.
func TestExampleRowLists(t *testing.T) {
	t.Run("Example 2 step 3", func(t *testing.T) {
		// After the free cube in National Assembly; PC 1, Available 3; RM 2 with 1 of 3 cells filled.
		g := newGame(t, V, "Royalists V1, NA V1, Republicans C1, CC C1, Press V1 C2, SM C2, MV V2, FdI V1, BM C1, PL C1",
			withObj(mv), withRound(2), withMomentum(V, 1), withMomentum(C, 2), withPool(C, 1), withAvail(3))
		require.Equal(t, []string{"PR1", "PR4", "PR5", "PR10", "PR12"}, hitKeys(opRows(g, 2, Pol, true)))
		require.Equal(t, []string{"PR2", "PR4", "PR5", "PR7", "PR10", "PR12"}, hitKeys(opRows(g, 2, Mil, true)))
		h := opRows(g, 2, Pol, false)[0]
		require.Equal(t, "PR1a", h.id+h.variant)
		require.Equal(t, []engine.Space{cc, press}, h.T, "Social Movements is out of reach")
		require.Equal(t, []engine.Space{cc, press}, h.Tplus)
		b := boardOf(g)
		require.False(t, b.accessible(sm), "no Versailles piece, no Versailles-held feeder")
	})
	t.Run("Example 3 steps 3-4", func(t *testing.T) {
		// After the momentum check (RM 2, one empty cell) and the Player's free cube.
		g := newGame(t, C, "Royalists V2, NA V1, Press V1 C1, SM C1, MV V2, FdI V1, BM V1, BaC V1 C1, PL C1",
			withObj(bm), withMomentum(C, 2), withPool(C, 2), withAvail(4))
		g.S.Pool[C] = 2 // Available 6: 2 in the pool, 4 on the track
		require.Equal(t, 6, g.S.Available(C))
		require.Equal(t, []string{"PR4", "PR10", "PR12"}, hitKeys(opRows(g, 3, Pol, true)))
		require.Equal(t, []string{"PR3", "PR4", "PR5", "PR9-C", "PR10", "PR12"}, hitKeys(opRows(g, 3, Mil, true)))
		b := boardOf(g)
		e := newOpEvalLive(&b, 3, Mil, sphereSet(Mil))
		require.Equal(t, []engine.Space{cdv, bm, bac, pl}, inSet(e.legalRemove), "snapshot A")
		require.Equal(t, [4]int{1, 1, 2, 2}, [4]int{e.strA[cdv], e.strA[bm], e.strA[bac], e.strA[pl]})
		require.Equal(t, 2, e.swings(bm, true), "a paid removal and a placement")
	})
	t.Run("Example 6 Delescluze part 1", func(t *testing.T) {
		g := newGame(t, C, "Royalists V2, NA V1 C1, Republicans C2, CC C1, Press V1 C2, SM C1, MV V2, FdI V2, CdV V1, BM V1 C2, BaC V2 C2, PL C2",
			withMomentum(C, 2), withMomentum(V, 2), withAvail(3))
		b := boardOf(g)
		e := newOpEvalLive(&b, 3, Mil, sphereSet(Mil))
		require.Equal(t, []engine.Space{mv, cdv, bm, bac, pl}, inSet(e.legalRemove), "snapshot A")
		require.Equal(t, [5]int{1, 1, 3, 3, 3}, [5]int{e.strA[mv], e.strA[cdv], e.strA[bm], e.strA[bac], e.strA[pl]})
		h := e.rows(false)[0]
		require.Equal(t, "PR1a", h.id+h.variant)
		require.Equal(t, []engine.Space{mv, cdv}, h.T)
		require.Equal(t, []engine.Space{mv, cdv}, h.Tplus)
	})
}
