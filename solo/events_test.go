package solo

import (
	"testing"

	"github.com/rfop/rfop/engine"
	"github.com/stretchr/testify/require"
)

// eventRun resolves card's event for the bot in a position.
func eventRun(t *testing.T, bot engine.Side, card int, spec string, opts ...opt) (*engine.Game, []Explanation) {
	g := newGame(t, bot, spec, opts...)
	resume(t, g, engine.ProcEvent(card, bot))
	return g, runBot(t, g, dice(t))
}

// TestEventOptions: "(a) … OR (b) …" — the first option, in printed
// order, that would have an effect (§6.2, D9).
func TestEventOptions(t *testing.T) {
	t.Run("#48 option (a): an operation in Public Opinion", func(t *testing.T) {
		g, exs := eventRun(t, C, 48, "Press V1 C1, SM C1", withAvail(3))
		require.Equal(t, engine.PromptOption, exs[0].Prompt)
		require.Equal(t, 0, exs[0].Choice.N)
		rem := onlyKind(exs, engine.PromptOpsRemove)
		require.Equal(t, []string{"PR4a"}, rem[0].Fired)
		require.Equal(t, press, rem[0].Choice.Space)
		require.Equal(t, "V0 C2", cubes(g, press), "then PL4 places in Press")
	})
	t.Run("#48 option (b) when (a) could do nothing", func(t *testing.T) {
		// No Versailles piece in Public Opinion, and every space there is full.
		g, exs := eventRun(t, C, 48, "SM C4, Press C4, CC C4, MV V1", withAvail(3))
		require.Equal(t, engine.PromptOption, exs[0].Prompt)
		require.Equal(t, 1, exs[0].Choice.N)
		require.Equal(t, []string{"option (a) would have no effect"}, exs[0].Rows)
		rep := onlyKind(exs, engine.PromptEventReplace)
		require.Len(t, rep, 1)
		require.Equal(t, mv, rep[0].Choice.Space)
		require.Equal(t, "V0 C1", cubes(g, mv))
	})
	t.Run("#28 option (b): remove a Fortification", func(t *testing.T) {
		g, exs := eventRun(t, C, 28, "MV Vd, BM C1", withAvail(0))
		require.Equal(t, 1, exs[0].Choice.N)
		rd := onlyKind(exs, engine.PromptRemoveDisc)
		require.Len(t, rd, 1)
		require.Equal(t, mv, rd[0].Choice.Space)
		require.Equal(t, engine.NoSide, g.S.Disc[mv])
	})
	t.Run("AND/OR in printed order", func(t *testing.T) {
		g := newGame(t, C, "MV V1, NA V1 C1, BM C2, PL C1", withAvail(3))
		putOnDeck(g, draw1, draw1b)
		resume(t, g, engine.ProcEvent(34, C))
		exs := runBot(t, g, dice(t))
		require.Equal(t, engine.PromptAndOrOrder, exs[0].Prompt)
		require.Equal(t, 0, exs[0].Choice.N, "the Military operation first")
	})
}

// TestEventPlacementRoom: event cubes only go to spaces with Room, and
// only Available cubes (§6.2); the bot places fewer when Room runs out
// (cards.md question 19).
func TestEventPlacementRoom(t *testing.T) {
	// #19: up to 2 cubes in Butte-aux-Cailles and/or Fort d'Issy.
	g, exs := eventRun(t, C, 19, "BaC C1 V1, FdI C1", withAvail(3))
	place := onlyKind(exs, engine.PromptEventPlace)
	require.Len(t, place, 2)
	require.Equal(t, bac, place[0].Choice.Space)
	require.Equal(t, engine.ChooseDone, place[1].Choice.Kind, "neither space has Room now")
	require.Equal(t, "V1 C2", cubes(g, bac))
	require.Equal(t, "V0 C1", cubes(g, fdi))

	// No Available cube (cubes left only in the Final Crisis zone): none placed.
	g, exs = eventRun(t, V, 5, "Press V1 C2, CC C1", withAvail(0))
	require.Len(t, exs, 1)
	require.Equal(t, engine.ChooseDone, exs[0].Choice.Kind, "Le Figaro: no Available cube")
	require.Equal(t, "V1 C2", cubes(g, press))
}

// TestWouldHaveAnEffect: the bot uses its revealed event only if a dry run
// changes something other than the Player's momentum (§6.1 step 3, §6.2).
func TestWouldHaveAnEffect(t *testing.T) {
	// #9 Socialist Newspaper Ban: no Commune cube in Press or Social
	// Movements and no Room in Press: only the backlash (Commune +1) is left.
	g := newGame(t, V, "Press V2, Royalists V1", withAvail(3), communePoolRoom())
	putOnDeck(g, 9)
	resume(t, g, engine.ProcBotTurn())
	exs := runBot(t, g, &Policy{})
	require.Equal(t, engine.ModeOps, exs[0].Choice.Mode)
	require.Contains(t, exs[0].Rows, "Friendly, but its event would have no effect (dry run, §6.2)")
	require.Equal(t, int8(1), g.S.Momentum[C], "no backlash")

	// With a Commune cube in Social Movements the same card is used.
	g = newGame(t, V, "Press V2, Royalists V1, SM C1", withAvail(3), communePoolRoom())
	putOnDeck(g, 9)
	resume(t, g, engine.ProcBotTurn())
	exs = runBot(t, g, &Policy{})
	require.Equal(t, engine.ModeEvent, exs[0].Choice.Mode)
	require.Equal(t, int8(2), g.S.Momentum[C], "the backlash applies")
}

// TestDiscardedEvent: §6.1 step 4 — the top discard, the Player's this
// round, the bot's colour, OP ≤ the revealed card's.
func TestDiscardedEvent(t *testing.T) {
	setup := func(t *testing.T, top int, by engine.Side, revealed int) (*engine.Game, []Explanation) {
		g := newGame(t, C, "BaC V1, FdI V1", withAvail(3), withMomentum(C, 1))
		discardCard(g, top, by)
		putOnDeck(g, revealed)
		resume(t, g, engine.ProcBotTurn())
		return g, runBot(t, g, &Policy{})
	}
	t.Run("used", func(t *testing.T) {
		g, exs := setup(t, 19, V, 35) // #19 (Commune, 1 OP) under #35 (Neutral, 3 OP)
		require.Equal(t, engine.ModeDiscardedEvent, exs[0].Choice.Mode)
		require.Equal(t, 19, exs[0].Choice.N)
		require.Equal(t, []string{"discarded"}, exs[0].Fired)
		top := g.S.Discard[len(g.S.Discard)-1]
		require.Equal(t, engine.DiscardEntry{Card: 35, By: C, Round: 1}, top, "the revealed card lies on top")
		require.Len(t, onlyKind(exs, engine.PromptSphere), 1, "then the extra 1 OP")
	})
	t.Run("too many OP", func(t *testing.T) {
		_, exs := setup(t, 26, V, 2) // #26 (Commune, 2 OP) under #2 (Versailles, 1 OP)
		require.Equal(t, engine.ModeOps, exs[0].Choice.Mode)
	})
	t.Run("discarded by the bot", func(t *testing.T) {
		_, exs := setup(t, 19, C, 35)
		require.Equal(t, engine.ModeOps, exs[0].Choice.Mode)
	})
}

// TestDiscs: §6.3 — D0 then the Place table; with both discs on the map,
// a safe source (Source table, SR2 mandatory), then the destination.
func TestDiscs(t *testing.T) {
	t.Run("place: D0 prefers Room", func(t *testing.T) {
		// #27 Louise Michel: a Barricade in a Paris space where the Commune is present, then a cube.
		g, exs := eventRun(t, C, 27, "BM V1, BaC V2 C1, PL C1", withAvail(3))
		pd := onlyKind(exs, engine.PromptPlaceDisc)
		require.Len(t, pd, 1)
		require.Equal(t, bac, pd[0].Choice.Space)
		require.Equal(t, []string{"D0"}, pd[0].Fired, "Père Lachaise (C1 V0) has no Room")
		require.Equal(t, engine.Commune, g.S.Disc[bac])
		require.Equal(t, bac, onlyKind(exs, engine.PromptEventPlace)[0].Choice.Space)
	})
	t.Run("move from a safe space", func(t *testing.T) {
		g := newGame(t, C, "PL C2 Cd, BaC C1 V1 Cd, BM C1 V1", withAvail(0))
		resume(t, g, engine.ProcEvent(27, C))
		exs := runBot(t, g, dice(t))
		pd := onlyKind(exs, engine.PromptPlaceDisc)
		require.Len(t, pd, 1)
		require.Equal(t, engine.Choice{Kind: engine.ChooseDisc, Space: bm, To: pl, Extra: true}, pd[0].Choice)
		require.Equal(t, engine.Commune, g.S.Disc[bm])
		require.Equal(t, engine.NoSide, g.S.Disc[pl])
	})
	t.Run("no disc can leave safely", func(t *testing.T) {
		g := newGame(t, C, "PL C1 V1 Cd, BaC C1 V1 Cd, BM C1 V1", withAvail(0))
		resume(t, g, engine.ProcEvent(27, C))
		exs := runBot(t, g, dice(t))
		require.Equal(t, engine.ChooseDone, onlyKind(exs, engine.PromptPlaceDisc)[0].Choice.Kind)
		require.Equal(t, engine.Commune, g.S.Disc[pl])
	})
}

// TestImmediateBreach: the bot's bonus cubes enter its pool as soon as it
// breaches a zone, before the next cube is taken (solo rule, §2 step 4).
func TestImmediateBreach(t *testing.T) {
	g := newGame(t, V, "Royalists V1", communePoolRoom())
	s := &g.S
	s.Track[V] = [4]int8{0, 1, 1, 2}
	s.Breached[V][engine.ZoneStarting] = true
	resume(t, g, engine.ProcOperations(V, 2, Mil))
	runBot(t, g, dice(t))
	require.Equal(t, [4]int8{0, 0, 1, 2}, s.Track[V], "the second cube came from the pool, not the Tension zone")
	require.False(t, s.Breached[V][engine.ZoneTension])
	require.Equal(t, int8(0), s.Pool[V])
	require.Equal(t, int8(0), s.Bonus[V][engine.ZoneEscalation])
}

// TestFinalCrisisReveals: §6.8 — cards are turned over until a Friendly
// card whose event would have an effect; the others, Friendly ones
// included, are discarded; an empty deck is rebuilt once per play.
func TestFinalCrisisReveals(t *testing.T) {
	fc := func(t *testing.T, spec string, opts ...opt) *engine.Game {
		g := newGame(t, C, spec, opts...)
		g.S.Round, g.S.FCHand = 4, 3
		g.S.Plays = [2]int8{0, 0}
		return g
	}
	t.Run("skips an unusable Friendly card", func(t *testing.T) {
		// #31 Blanquists at RM 3 with no Room in Paris: nothing; #38 is Neutral; #21 places.
		g := fc(t, "BM C2, BaC C1, PL C1", withMomentum(C, 3), withAvail(2))
		putOnDeck(g, 31, 38, 21)
		resume(t, g, engine.ProcBotFinalCrisisPlay())
		exs := runBot(t, g, dice(t))
		d := g.S.Discard
		require.Equal(t, []int8{31, 38}, []int8{d[0].Card, d[1].Card})
		require.Equal(t, engine.DiscardEntry{Card: 21, By: C, Round: 4}, d[2])
		require.NotEmpty(t, onlyKind(exs, engine.PromptEventPlace))
		require.Equal(t, int8(1), g.S.Plays[C])
	})
	t.Run("the deck is rebuilt once, then the play does nothing", func(t *testing.T) {
		g := fc(t, "", withAvail(0))
		discardCard(g, 38, V)
		discardCard(g, 7, V)
		// Every other Strategy card has left the game: nothing but the two
		// discards can be reshuffled.
		leaveGame(g, g.S.Deck...)
		leaveGame(g, g.S.Removed...)
		g.S.Deck, g.S.Removed = nil, nil
		resume(t, g, engine.ProcBotFinalCrisisPlay())
		require.Empty(t, g.Prompts())
		require.Equal(t, int8(1), g.S.Plays[C])
		require.Len(t, g.S.Discard, 2)
	})
	t.Run("the Player's event of the bot's colour", func(t *testing.T) {
		// The Player (Versailles) plays #23; the Commune decides and applies it.
		g := fc(t, "BM C1 V1, PL C1", withAvail(2))
		g.S.FCHeld = [2]bool{false, true}
		leaveGame(g, 17) // the Player's Final Crisis card is used up
		giveCard(g, V, 23)
		g.S.First = V
		resume(t, g, engine.ProcFinalCrisisPlays())
		player(t, g, engine.PromptFCPlay, func(c engine.Choice) bool { return c.Card == 23 })
		ex, ok, err := (&Policy{Roll: dice(t).Roll}).Step(g)
		require.NoError(t, err)
		require.True(t, ok)
		require.Equal(t, engine.PromptFCDecide, ex.Prompt)
		require.Equal(t, engine.ChooseYes, ex.Choice.Kind)
	})
	t.Run("the Player's event of the bot's colour with no effect", func(t *testing.T) {
		g := fc(t, "PL C1", withAvail(0))
		g.S.FCHeld = [2]bool{false, true}
		leaveGame(g, 17) // the Player's Final Crisis card is used up
		giveCard(g, V, 23)
		g.S.First = V
		resume(t, g, engine.ProcFinalCrisisPlays())
		player(t, g, engine.PromptFCPlay, func(c engine.Choice) bool { return c.Card == 23 })
		ex, ok, err := (&Policy{Roll: dice(t).Roll}).Step(g)
		require.NoError(t, err)
		require.True(t, ok)
		require.Equal(t, engine.PromptFCDecide, ex.Prompt)
		require.Equal(t, engine.ChooseNo, ex.Choice.Kind)
	})
}

// TestObjectiveEvent: §6.6 — the bot performs its objective's event when it
// controlled the space and the event would have an effect.
func TestObjectiveEvent(t *testing.T) {
	g := newGame(t, C, "Press C2 V1, SM C1, CC V1", withAvail(2), withObj(press))
	g.S.Initiative = V
	resume(t, g, engine.ProcObjectiveEvents())
	exs := runBot(t, g, dice(t))
	require.Equal(t, engine.PromptObjEvent, exs[0].Prompt)
	require.Equal(t, engine.ChooseYes, exs[0].Choice.Kind)
	require.Equal(t, engine.PromptOption, exs[1].Prompt)
	require.Equal(t, 0, exs[1].Choice.N, "(a) OPS 3 in Public Opinion")
	require.Equal(t, []int8{48}, g.S.Fulfilled[C])
}
