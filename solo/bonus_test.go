package solo

import (
	"testing"

	"github.com/rfop/rfop/engine"
	"github.com/stretchr/testify/require"
)

// bonusRun runs the end-of-round bonus actions of a position in which only
// the bot holds Pivotal spaces (so it acts alone).
func bonusRun(t *testing.T, bot engine.Side, spec string, p *Policy, opts ...opt) (*engine.Game, []Explanation) {
	g := newGame(t, bot, spec, opts...)
	g.S.Initiative, g.S.First = bot, bot
	resume(t, g, engine.ProcBonusActions())
	exs := runBot(t, g, p)
	require.Empty(t, g.Prompts())
	return g, exs
}

func moves(exs []Explanation) [][2]engine.Space {
	var out [][2]engine.Space
	for _, e := range onlyKind(exs, engine.PromptSpread) {
		if e.Choice.Kind == engine.ChooseMove {
			out = append(out, [2]engine.Space{e.Choice.Space, e.Choice.To})
		}
	}
	return out
}

// TestBonusActionRows pins BA1-BA6 (solo.md §6.4), each in the position
// where it is the first row that applies.
func TestBonusActionRows(t *testing.T) {
	t.Run("BA1 Spread x2", func(t *testing.T) {
		// Both other Forts spaces tied, Mont-Valérien leads by 3.
		g, exs := bonusRun(t, V, "MV V4 C1, FdI V1 C1", dice(t), withAvail(2))
		require.Equal(t, []string{"BA1"}, onlyKind(exs, engine.PromptBonusAction)[0].Fired)
		require.Equal(t, [][2]engine.Space{{mv, fdi}, {mv, cdv}}, moves(exs))
		require.Equal(t, engine.Versailles, g.S.DimensionController(engine.Forts))
	})
	t.Run("BA2 Turncoat to gain (Commune)", func(t *testing.T) {
		g, exs := bonusRun(t, C, "BM C2, BaC V1 C1, PL V2", dice(t), withAvail(3))
		require.Equal(t, []string{"BA2"}, onlyKind(exs, engine.PromptBonusAction)[0].Fired)
		require.Equal(t, bac, onlyKind(exs, engine.PromptTurncoat)[0].Choice.Space)
		require.Equal(t, "V0 C2", cubes(g, bac))
		require.Equal(t, 2, g.S.Available(C))
	})
	t.Run("BA3 Spread x1, one move", func(t *testing.T) {
		// Mont-Valérien leads by 2 only: one of the two tied spaces (no Available cube for BA2).
		g, exs := bonusRun(t, V, "MV V3 C1, FdI V1 C1", dice(t), withAvail(0))
		require.Equal(t, []string{"BA3"}, onlyKind(exs, engine.PromptBonusAction)[0].Fired)
		require.Equal(t, [][2]engine.Space{{mv, fdi}}, moves(exs), "PL11: a cube in Château de Vincennes would be Isolated")
		sp := onlyKind(exs, engine.PromptSpread)
		require.Equal(t, engine.ChooseDone, sp[len(sp)-1].Choice.Kind, "no second move gains a space")
		require.Equal(t, "V2 C1", cubes(g, mv))
		require.Equal(t, "V2 C1", cubes(g, fdi))
	})
	t.Run("BA3 Spread x1, two moves", func(t *testing.T) {
		g, exs := bonusRun(t, V, "NA V4, Royalists C1, Republicans C3", dice(t), withAvail(0))
		require.Equal(t, []string{"BA3"}, onlyKind(exs, engine.PromptBonusAction)[0].Fired)
		require.Equal(t, [][2]engine.Space{{na, royalists}, {na, royalists}}, moves(exs))
		require.Equal(t, "V2 C1", cubes(g, royalists))
		require.Equal(t, "V2 C0", cubes(g, na))
	})
	t.Run("BA4 step B prefers the space a removal gives", func(t *testing.T) {
		g, exs := bonusRun(t, V, "Royalists V4 C4, NA V4 C1, Republicans C3", dice(t), withAvail(0))
		require.Equal(t, []string{"BA4"}, onlyKind(exs, engine.PromptBonusAction)[0].Fired)
		de := onlyKind(exs, engine.PromptDeescalate)
		require.Equal(t, engine.Choice{Kind: engine.ChooseRemoveOwn, Space: na}, de[0].Choice)
		require.Equal(t, engine.Choice{Kind: engine.ChooseRemove, Space: royalists}, de[1].Choice)
		require.Equal(t, "V4 C3", cubes(g, royalists))
		require.Equal(t, 1, g.S.Available(V), "the returned cube is Available at once")
	})
	t.Run("BA4 step B then where the Player has one cube more", func(t *testing.T) {
		g, exs := bonusRun(t, V, "Royalists V3 C4, NA V4 C1, Republicans C3", dice(t), withAvail(0))
		de := onlyKind(exs, engine.PromptDeescalate)
		require.Equal(t, na, de[0].Choice.Space)
		require.Equal(t, royalists, de[1].Choice.Space)
		require.Equal(t, "V3 C3", cubes(g, royalists))
	})
	t.Run("BA4 step A tie by die, no Player cube for step B", func(t *testing.T) {
		// Royalists (2 over) and NA (4 over, Pivotal) are both over-stacked: die 2 → NA.
		g, exs := bonusRun(t, V, "NA V4, Royalists V2, Republicans V1", dice(t, 2), withAvail(0))
		de := onlyKind(exs, engine.PromptDeescalate)
		require.Contains(t, de[0].Fired, "die")
		require.Equal(t, engine.Choice{Kind: engine.ChooseRemoveOwn, Space: na}, de[0].Choice)
		require.Equal(t, engine.ChooseDone, de[1].Choice.Kind, "no Player cube: step B is skipped")
		require.Equal(t, "V3 C0", cubes(g, na))
	})
	t.Run("BA5 Turncoat to end Player control", func(t *testing.T) {
		g, exs := bonusRun(t, V, "Press V3 C1, CC C2, SM C3", dice(t), withAvail(2))
		require.Equal(t, []string{"BA5"}, onlyKind(exs, engine.PromptBonusAction)[0].Fired)
		require.Equal(t, cc, onlyKind(exs, engine.PromptTurncoat)[0].Choice.Space)
		require.Equal(t, "V1 C1", cubes(g, cc))
	})
	t.Run("BA6 nothing", func(t *testing.T) {
		_, exs := bonusRun(t, V, "Press V2 C1, CC V1, SM V1", dice(t), withAvail(0))
		act := onlyKind(exs, engine.PromptBonusAction)[0]
		require.Equal(t, []string{"BA6"}, act.Fired)
		require.Equal(t, engine.ActionNone, act.Choice.N)
	})
	t.Run("BA2 needs an Available cube", func(t *testing.T) {
		// As BA1-... with Catholic Church tied but Avail 0: BA3 moves a cube there instead.
		g, exs := bonusRun(t, V, "Press V3 C1, CC V1 C1, SM C2", dice(t), withAvail(0))
		require.Equal(t, []string{"BA3"}, onlyKind(exs, engine.PromptBonusAction)[0].Fired)
		require.Equal(t, [][2]engine.Space{{press, cc}}, moves(exs))
		require.Equal(t, "V2 C1", cubes(g, cc))
	})
}

// TestBonusOrder: §6.4 ordering. With the bot as Initiative Player the
// Player acts first and the bot follows in its fixed order (Versailles:
// Forts, Paris, Institutional, Public Opinion; Commune: Public Opinion,
// Institutional, Paris, Forts); with the Player as Initiative Player he
// orders all of them.
func TestBonusOrder(t *testing.T) {
	t.Run("bot Initiative, Versailles", func(t *testing.T) {
		g := newGame(t, V, "MV V1, NA V1, Press C1", withAvail(0))
		g.S.Initiative = V
		resume(t, g, engine.ProcBonusActions())
		pr, ok := g.PromptFor(C)
		require.True(t, ok, "the Player's own action comes first")
		require.Equal(t, engine.PromptBonusOrder, pr.Kind)
		require.Equal(t, []engine.Choice{{Kind: engine.ChooseDimension, N: int(engine.PublicOpinion), Side: C}}, pr.Choices)
		player(t, g, engine.PromptBonusOrder, func(engine.Choice) bool { return true })
		player(t, g, engine.PromptBonusAction, func(c engine.Choice) bool { return c.N == engine.ActionNone })
		exs := runBot(t, g, dice(t))
		require.Equal(t, engine.PromptBonusOrder, exs[0].Prompt)
		require.Equal(t, int(engine.Forts), exs[0].Choice.N)
		acts := onlyKind(exs, engine.PromptBonusAction)
		require.Len(t, acts, 2)
	})
	t.Run("bot Initiative, Commune", func(t *testing.T) {
		g := newGame(t, C, "Press C1, BM C1, NA C1", withAvail(0))
		g.S.Initiative = C
		resume(t, g, engine.ProcBonusActions())
		exs := runBot(t, g, dice(t))
		require.Equal(t, engine.PromptBonusOrder, exs[0].Prompt)
		require.Equal(t, int(engine.PublicOpinion), exs[0].Choice.N)
		orders := onlyKind(exs, engine.PromptBonusOrder)
		require.Len(t, orders, 2)
		require.Equal(t, int(engine.Institutional), orders[1].Choice.N)
	})
	t.Run("Player Initiative orders the bot's actions", func(t *testing.T) {
		g := newGame(t, V, "MV V1, NA V1", withAvail(0))
		g.S.Initiative = C
		resume(t, g, engine.ProcBonusActions())
		_, botAsked := g.PromptFor(V)
		require.False(t, botAsked)
		player(t, g, engine.PromptBonusOrder, func(c engine.Choice) bool { return c.N == int(engine.Institutional) })
	})
}

// TestSphereChoice: §5 — the first row that fires in only one sphere; a
// die when both lists are the same (1-4 the primary sphere); nothing when
// both are empty.
func TestSphereChoice(t *testing.T) {
	run := func(t *testing.T, bot engine.Side, spec string, p *Policy, opts ...opt) Explanation {
		g := newGame(t, bot, spec, opts...)
		resume(t, g, engine.ProcOperations(bot, 1, engine.AnySphere))
		pr, ok := g.PromptFor(bot)
		require.True(t, ok)
		require.Equal(t, engine.PromptSphere, pr.Kind)
		_, ex, err := p.Decide(g, pr)
		require.NoError(t, err)
		return ex
	}
	// Versailles bot: PR4 and PR12 in both spheres (NA and Press fed by Royalists, MV by HQ).
	for _, tc := range []struct {
		roll int
		want engine.Sphere
	}{{1, Mil}, {4, Mil}, {5, Pol}, {6, Pol}} {
		ex := run(t, V, "Royalists V1", dice(t, tc.roll), withAvail(3), communePoolRoom())
		require.Equal(t, int(tc.want), ex.Choice.N, "roll %d", tc.roll)
		require.Contains(t, ex.Fired, "§5:die")
	}
	// Commune bot: its primary sphere is Political.
	ex := run(t, C, "", dice(t, 3), withAvail(3))
	require.Equal(t, int(Pol), ex.Choice.N)
	// Nothing to do anywhere: the OP are lost (no die).
	ex = run(t, V, "Royalists V1", dice(t), withAvail(0), communePoolRoom())
	require.Contains(t, ex.Fired, "§5:none")
}

// TestMomentumCheck: §6.5 — at the start of the bot's turn in a normal round.
func TestMomentumCheck(t *testing.T) {
	start := func(t *testing.T, bot engine.Side, opts ...opt) *engine.Game {
		g := newGame(t, bot, "Royalists V1, Press V1 C1, SM C1", opts...)
		putOnDeck(g, 38)
		resume(t, g, engine.ProcBotTurn())
		return g
	}
	t.Run("Versailles, Available 2: PC rises and its cubes join the pool", func(t *testing.T) {
		g := start(t, V, withAvail(2))
		require.Equal(t, int8(1), g.S.Momentum[V])
		require.Equal(t, 4, g.S.Available(V))
	})
	t.Run("Versailles, Available 3: no change", func(t *testing.T) {
		g := start(t, V, withAvail(3))
		require.Equal(t, int8(0), g.S.Momentum[V])
	})
	t.Run("Versailles at PC 3: no change", func(t *testing.T) {
		g := start(t, V, withAvail(0), withMomentum(V, 3))
		require.Equal(t, int8(3), g.S.Momentum[V])
	})
	t.Run("Commune at RM 0 always rises", func(t *testing.T) {
		g := start(t, C, withAvail(5))
		require.Equal(t, int8(1), g.S.Momentum[C])
	})
	t.Run("Commune, 2 empty cells: no change", func(t *testing.T) {
		g := start(t, C, withAvail(5), withMomentum(C, 1))
		require.Equal(t, int8(1), g.S.Momentum[C])
	})
	t.Run("Commune, 1 empty cell: RM 2 and the Player's free cube", func(t *testing.T) {
		g := start(t, C, withAvail(5), withMomentum(C, 1), withPool(C, 1))
		require.Equal(t, int8(2), g.S.Momentum[C])
		pr, ok := g.PromptFor(V)
		require.True(t, ok)
		require.Equal(t, engine.PromptFreeCube, pr.Kind)
	})
}

// TestFreeCube: §6.5 — the bot's free cube when the Player's track reaches
// 2 or 3: always placed when it has an Available cube, with the Place table
// (Budget 1), in its dimension; never from a non-Available zone.
func TestFreeCube(t *testing.T) {
	t.Run("Commune bot: Public Opinion", func(t *testing.T) {
		g := newGame(t, C, "Press V2, CC V1 C1, SM V1", withAvail(2))
		resume(t, g, engine.ProcFreeCube(C))
		exs := runBot(t, g, dice(t))
		require.Len(t, exs, 1)
		require.Equal(t, cc, exs[0].Choice.Space)
		require.Equal(t, []string{"PL6"}, exs[0].Fired)
	})
	t.Run("no Available cube: none placed", func(t *testing.T) {
		g := newGame(t, V, "", withAvail(0))
		require.Equal(t, int8(2), g.S.Track[V][engine.ZoneFinalCrisis], "cubes left only in the Final Crisis zone")
		resume(t, g, engine.ProcFreeCube(V))
		exs := runBot(t, g, dice(t))
		require.Len(t, exs, 1)
		require.Equal(t, engine.ChooseDone, exs[0].Choice.Kind)
		require.Equal(t, int8(2), g.S.Track[V][engine.ZoneFinalCrisis])
	})
}
