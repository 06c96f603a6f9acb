package engine

import (
	"reflect"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// richPosition: both sides present in every space with a mix of control,
// pools and hands, so that every card's effect has something to act on.
func richPosition(t *testing.T) *Game {
	g := position(t, cubes{
		Royalists: {2, 1}, NationalAssembly: {1, 1}, Republicans: {1, 2},
		CatholicChurch: {1, 1}, Press: {2, 1}, SocialMovements: {1, 2},
		MontValerien: {2, 1}, FortIssy: {1, 1}, ChateauVincennes: {1, 2},
		ButteMontmartre: {1, 2}, ButteAuxCailles: {1, 1}, PereLachaise: {1, 2},
	})
	g.S.Pool = [2]int8{4, 2}
	g.S.Momentum = [2]int8{1, 2}
	g.S.OutOfPlay[Commune] = 1
	g.S.Hand = [2][]int8{{2, 11, 38}, {21, 27, 35}}
	return g
}

// TestEveryCardHasAnEffect resolves each of the 53 effects in a rich
// position, always taking the first offered choice, and checks that the
// card changed the game (cards.md (b): every card's effect tested).
func TestEveryCardHasAnEffect(t *testing.T) {
	deck := DefaultDeck()
	for n := 1; n <= numCards; n++ {
		c := deck.Card(n)
		for _, you := range []Side{Versailles, Commune} {
			if c.Side != NoSide && c.Side != you {
				continue
			}
			g := richPosition(t)
			before := g.S.clone(false)
			start(g, eventFrame(n, you))
			for steps := 0; len(g.Prompts()) > 0; steps++ {
				require.Less(t, steps, 50, "card #%d does not finish", n)
				p := g.Prompts()[0]
				ch := p.Choices[0]
				for _, c := range p.Choices { // prefer acting over stopping
					if c.Kind != ChooseDone && c.Kind != ChooseNo && c.Kind != ChooseStopRem {
						ch = c
						break
					}
				}
				require.NoError(t, g.Apply(p.Side, ch), "card #%d", n)
			}
			after := g.S.clone(false)
			changed := !reflect.DeepEqual(before.Cubes, after.Cubes) || before.Disc != after.Disc ||
				before.Momentum != after.Momentum || !reflect.DeepEqual(before.Hand, after.Hand) || before.Pool != after.Pool
			assert.True(t, changed, "card #%d %s (as %s) changed nothing", n, c.Name, you)
		}
	}
}

// Specific card mechanics (cards.md conventions D1-D16 and the named cards).
func TestCardMechanics(t *testing.T) {
	t.Run("#22 Execution of Generals: Versailles chooses an option that would have an effect", func(t *testing.T) {
		g := position(t, cubes{})
		start(g, eventFrame(22, Commune))
		p := prompt(t, g, Versailles)
		require.Equal(t, PromptOption, p.Kind)
		assert.Equal(t, []Choice{{Kind: ChooseOption, N: 1}}, p.Choices, "no Versailles cube in Paris: only momentum has an effect")
	})
	t.Run("#13 de Cissey: the Commune chooses which 2 of its cubes go, and must", func(t *testing.T) {
		g := position(t, cubes{MontValerien: {0, 1}, FortIssy: {0, 2}})
		start(g, eventFrame(13, Versailles))
		p := prompt(t, g, Commune)
		assert.Equal(t, PromptEventRemove, p.Kind)
		assert.False(t, has(p, kind(ChooseDone)), "not 'up to': the removal is mandatory")
		pick(t, g, Commune, at(ChooseRemove, FortIssy))
		pick(t, g, Commune, at(ChooseRemove, FortIssy))
		assert.Equal(t, int8(1), g.S.Cubes[Commune][MontValerien])
	})
	t.Run("#12 Bismarck: reveal privately, then force a red discard and a redraw", func(t *testing.T) {
		g := position(t, cubes{})
		g.S.Hand[Commune] = []int8{21, 38}
		start(g, eventFrame(12, Versailles))
		assert.Equal(t, int8(1), g.S.Momentum[Versailles])
		var private []LogEntry
		for _, e := range g.S.Log {
			if e.To != NoSide {
				private = append(private, e)
			}
		}
		require.NotEmpty(t, private)
		assert.Equal(t, Versailles, private[len(private)-1].To)
		assert.Contains(t, private[len(private)-1].English(nil), "Le Réveil")
		p := prompt(t, g, Versailles)
		assert.Equal(t, PromptForceDiscard, p.Kind)
		assert.Equal(t, []Choice{{Kind: ChooseCard, Card: 21}, {Kind: ChooseNo}}, p.Choices, "only red cards")
		pick(t, g, Versailles, func(c Choice) bool { return c.Card == 21 })
		assert.Len(t, g.S.Hand[Commune], 2, "discard then draw: hand size unchanged")
		assert.NotContains(t, g.S.Hand[Commune], int8(21))
	})
	t.Run("#30 Karl Marx: draw 2 then discard 2", func(t *testing.T) {
		g := position(t, cubes{})
		g.S.Hand[Commune] = []int8{21}
		start(g, eventFrame(30, Commune))
		assert.Len(t, g.S.Hand[Commune], 3)
		pick(t, g, Commune, kind(ChooseCard))
		pick(t, g, Commune, kind(ChooseCard))
		assert.Len(t, g.S.Hand[Commune], 1)
		p := prompt(t, g, Commune)
		assert.Equal(t, PromptEventPlace, p.Kind)
	})
	t.Run("#23 Les Cantinières may return cubes removed from play", func(t *testing.T) {
		g := position(t, cubes{})
		g.S.OutOfPlay[Commune] = 1
		start(g, eventFrame(23, Commune))
		p := prompt(t, g, Commune)
		assert.True(t, has(p, func(c Choice) bool { return c.Space == PereLachaise && c.Extra }))
		pick(t, g, Commune, func(c Choice) bool { return c.Space == PereLachaise && c.Extra })
		assert.Equal(t, int8(0), g.S.OutOfPlay[Commune])
		assert.Equal(t, int8(1), g.S.Cubes[Commune][PereLachaise])
	})
	t.Run("#14 Colonel de Lochner: the IF is read after the placement (THEN step)", func(t *testing.T) {
		g := position(t, cubes{MontValerien: {0, 0}, ButteMontmartre: {0, 2}})
		g.S.Pool[Versailles] = 2
		start(g, eventFrame(14, Versailles))
		pick(t, g, Versailles, at(ChoosePlace, MontValerien))
		p := prompt(t, g, Versailles)
		assert.Equal(t, PromptEventRemove, p.Kind, "Versailles now controls Mont-Valérien")
		assert.Equal(t, []Space{ButteMontmartre}, spacesOf(p, ChooseRemove))
	})
	t.Run("#43 Aux Barricades! (a): the cube goes in that space", func(t *testing.T) {
		g := position(t, cubes{})
		g.S.Momentum[Commune] = 1
		g.S.Pool[Commune] = 1
		start(g, eventFrame(43, Commune))
		pick(t, g, Commune, func(c Choice) bool { return c.Kind == ChooseOption && c.N == 0 })
		pick(t, g, Commune, at(ChooseDisc, PereLachaise))
		p := prompt(t, g, Commune)
		assert.Equal(t, []Space{PereLachaise}, spacesOf(p, ChoosePlace))
	})
	t.Run("#40 Washburne: at most 1 per space", func(t *testing.T) {
		g := position(t, cubes{})
		g.S.Pool[Versailles] = 5
		start(g, eventFrame(40, Versailles))
		pick(t, g, Versailles, at(ChoosePlace, Press))
		assert.NotContains(t, spacesOf(prompt(t, g, Versailles), ChoosePlace), Press)
	})
	t.Run("#20 Banque de France: max 1 in the National Assembly", func(t *testing.T) {
		g := position(t, cubes{})
		g.S.Momentum[Commune] = 1
		g.S.Pool[Commune] = 2
		start(g, eventFrame(20, Commune))
		pick(t, g, Commune, at(ChoosePlace, NationalAssembly))
		assert.Equal(t, []Space{Republicans}, spacesOf(prompt(t, g, Commune), ChoosePlace))
	})
	t.Run("#38 Victor Hugo: only Political spaces the opponent controls", func(t *testing.T) {
		g := position(t, cubes{Royalists: {2, 0}, Press: {1, 1}, MontValerien: {2, 0}})
		g.S.Momentum[Commune] = 1
		g.S.Pool[Commune] = 2
		start(g, eventFrame(38, Commune))
		assert.Equal(t, []Space{Royalists}, spacesOf(prompt(t, g, Commune), ChoosePlace))
	})
	t.Run("#41 Freemason Parade: only Military spaces where both are present", func(t *testing.T) {
		g := position(t, cubes{MontValerien: {1, 1}, FortIssy: {0, 1}, PereLachaise: {1, 0}})
		start(g, eventFrame(41, Versailles))
		assert.ElementsMatch(t, []Space{MontValerien}, spacesOf(prompt(t, g, Versailles), ChooseRemove))
	})
	t.Run("#34 Delescluze: Military AND/OR one Political space, each its own operation", func(t *testing.T) {
		g := position(t, cubes{Press: {1, 1}, ButteMontmartre: {1, 1}})
		g.S.Momentum[Commune] = 1
		g.S.Pool[Commune] = 2
		start(g, eventFrame(34, Commune))
		p := prompt(t, g, Commune)
		require.Equal(t, PromptAndOrOrder, p.Kind)
		pick(t, g, Commune, func(c Choice) bool { return c.N == 1 }) // Political first
		p = prompt(t, g, Commune)
		require.Equal(t, PromptOpsRemove, p.Kind)
		assert.Equal(t, 1, p.N)
		for _, x := range spacesOf(p, ChooseRemove) {
			assert.Equal(t, Political, x.Info().Sphere)
		}
		pick(t, g, Commune, at(ChooseRemove, Press))
		p = prompt(t, g, Commune)
		assert.Equal(t, 3, p.N, "then the 3 Military OP")
		for _, x := range spacesOf(p, ChooseRemove) {
			assert.Equal(t, Military, x.Info().Sphere)
		}
	})
	t.Run("#10 with both Fortifications on the map: may move one", func(t *testing.T) {
		g := position(t, cubes{})
		g.S.Disc[FortIssy] = Versailles
		g.S.Disc[ChateauVincennes] = Versailles
		start(g, eventFrame(10, Versailles))
		pick(t, g, Versailles, func(c Choice) bool { return c.Kind == ChooseOption && c.N == 0 })
		p := prompt(t, g, Versailles)
		assert.True(t, has(p, kind(ChooseDone)), "moving is optional")
		pick(t, g, Versailles, func(c Choice) bool { return c.Kind == ChooseDisc && c.To == FortIssy })
		assert.Equal(t, Versailles, g.S.Disc[MontValerien])
		assert.Equal(t, NoSide, g.S.Disc[FortIssy])
	})
	t.Run("#9 backlash raises the Commune to 2: Versailles gets the free Institutional cube", func(t *testing.T) {
		g := position(t, cubes{})
		g.S.Momentum[Commune] = 1
		g.S.Pool[Versailles] = 2
		start(g, eventFrame(9, Versailles))
		for {
			p, ok := g.PromptFor(Versailles)
			require.True(t, ok)
			if p.Kind == PromptFreeCube {
				break
			}
			require.NoError(t, g.Apply(Versailles, p.Choices[len(p.Choices)-1]))
		}
		assert.Equal(t, int8(2), g.S.Momentum[Commune])
	})
	t.Run("#35 Conciliation lowers the opponent's momentum", func(t *testing.T) {
		g := position(t, cubes{})
		g.S.Momentum[Commune] = 2
		g.S.Pool[Commune] = 3
		start(g, eventFrame(35, Versailles))
		assert.Equal(t, int8(1), g.S.Momentum[Commune])
		assert.Equal(t, int8(2), g.S.Pool[Commune], "a closed cell's cube is removed from play")
	})
	t.Run("#29 Rigault: the revealed hand is private to the Commune", func(t *testing.T) {
		g := position(t, cubes{})
		start(g, eventFrame(29, Commune))
		for _, e := range g.LogSince(0, Versailles) {
			assert.False(t, strings.Contains(e.English(nil), "'s hand:"), "Versailles sees its own revealed hand line? %q", e.English(nil))
		}
		found := false
		for _, e := range g.LogSince(0, Commune) {
			found = found || strings.Contains(e.English(nil), "Versailles's hand:")
		}
		assert.True(t, found)
	})
}
