package engine

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Rulebook "Operations"; rules-decisions 9: a target space is legal if the
// player is present in it or it is adjacent to a space the player controls.
func TestOperationsReach(t *testing.T) {
	tests := []struct {
		name  string
		side  Side
		board cubes
		pc    int8
		in    []Space
		out   []Space
	}{
		{"permanent presence counts (Commune: Social Movements, Père Lachaise)", Commune, cubes{},
			0, []Space{SocialMovements, PereLachaise}, []Space{Royalists, MontValerien}},
		{"permanent presence counts (Versailles: Royalists)", Versailles, cubes{}, 0, []Space{Royalists}, []Space{Press}},
		{"Versailles HQ is always a controlled neighbour of Mont-Valérien and Fort d'Issy", Versailles, cubes{},
			0, []Space{MontValerien, FortIssy}, []Space{ButteMontmartre, ChateauVincennes}},
		{"Prussian Occupied Territory feeds Château de Vincennes and Père Lachaise only at Prussian Collaboration 3", Versailles, cubes{},
			3, []Space{ChateauVincennes, PereLachaise}, nil},
		{"below 3 the Prussian Occupied Territory gives no reach", Versailles, cubes{},
			2, nil, []Space{ChateauVincennes, PereLachaise}},
		{"controlling Royalists reaches the National Assembly (one-way arrow)", Versailles, cubes{Royalists: {1, 0}},
			0, []Space{NationalAssembly, CatholicChurch, Press}, []Space{Republicans}},
		{"controlling the National Assembly gives no reach into Royalists or Republicans", Commune, cubes{NationalAssembly: {0, 2}},
			0, []Space{NationalAssembly}, []Space{Royalists, Republicans}},
		{"presence without control gives no reach to neighbours", Commune, cubes{ButteMontmartre: {2, 1}},
			0, []Space{ButteMontmartre}, []Space{MontValerien, ButteAuxCailles}},
		{"a disc is presence and counts for control", Commune, cubes{ButteAuxCailles: {1, 0}},
			0, []Space{ButteAuxCailles}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := position(t, tc.board)
			g.S.Momentum[Versailles] = tc.pc
			if tc.name == "a disc is presence and counts for control" {
				g.S.Disc[ButteAuxCailles] = Commune
				g.S.Cubes[Commune][ButteAuxCailles] = 1 // 2 pieces to 1: Commune controls
				assert.True(t, g.S.Controls(Commune, ButteAuxCailles))
			}
			reach := g.S.ReachSet(tc.side)
			for _, x := range tc.in {
				assert.True(t, reach.Has(x), "%s should be reachable", x)
			}
			for _, x := range tc.out {
				assert.False(t, reach.Has(x), "%s should not be reachable", x)
			}
		})
	}
}

// Rulebook "Operations — Military": strength = adjacent controlled spaces
// +1 presence +1 control (rules-decisions 10).
func TestMilitaryStrength(t *testing.T) {
	tests := []struct {
		name  string
		side  Side
		board cubes
		x     Space
		want  int
	}{
		{"Versailles HQ alone gives 1 in Mont-Valérien", Versailles, cubes{}, MontValerien, 1},
		{"HQ + presence + control", Versailles, cubes{MontValerien: {2, 1}}, MontValerien, 3},
		{"presence without control", Versailles, cubes{MontValerien: {1, 1}}, MontValerien, 2},
		{"permanent presence in Père Lachaise counts for the Commune", Commune, cubes{}, PereLachaise, 1},
		{"controlled neighbours each count", Commune, cubes{ButteMontmartre: {0, 1}, ButteAuxCailles: {0, 1}, PereLachaise: {0, 1}}, ButteMontmartre, 4},
		{"an uncontrolled neighbour does not count", Commune, cubes{ButteAuxCailles: {1, 1}, ButteMontmartre: {1, 0}}, ButteMontmartre, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := position(t, tc.board)
			assert.Equal(t, tc.want, g.S.Strength(tc.side, tc.x))
		})
	}
}

// Rulebook "Important! Determine Control and Presence once before any
// Remove operations and again before any Place operations (no
// daisy-chaining)"; rules-decisions 8.
func TestOperationsNoDaisyChaining(t *testing.T) {
	// Versailles controls Royalists; placing 2 in Press gives it Press, but
	// Republicans (fed by Press) must stay out of reach in the same step.
	g := position(t, cubes{Royalists: {1, 0}, Press: {0, 1}})
	g.S.Pool[Versailles] = 5
	start(g, opsFrame(Versailles, 3))
	pick(t, g, Versailles, func(c Choice) bool { return c.Kind == ChooseSphere && Sphere(c.N) == Political })
	p := prompt(t, g, Versailles)
	require.Equal(t, PromptOpsRemove, p.Kind)
	pick(t, g, Versailles, at(ChooseRemove, Press))
	// The removal made Press empty; nothing else is removable, so the
	// placement step (and its snapshot) follows by itself.
	p = prompt(t, g, Versailles)
	require.Equal(t, PromptOpsPlace, p.Kind)
	assert.Contains(t, spacesOf(p, ChoosePlace), Press)
	assert.NotContains(t, spacesOf(p, ChoosePlace), Republicans, "Republicans is not reachable before the placements")
	pick(t, g, Versailles, at(ChoosePlace, Press))
	p = prompt(t, g, Versailles)
	assert.NotContains(t, spacesOf(p, ChoosePlace), Republicans, "placing in Press must not extend reach in the same step")
}

// Rulebook "Remove — Political: all attempts succeed. Spend an Operations
// Point for each cube removed."
func TestPoliticalRemovalAlwaysSucceeds(t *testing.T) {
	g := position(t, cubes{Press: {1, 3}})
	deck := len(g.S.Deck)
	start(g, opsFrame(Versailles, 2))
	pick(t, g, Versailles, func(c Choice) bool { return c.Kind == ChooseSphere && c.N == int(Political) })
	pick(t, g, Versailles, at(ChooseRemove, Press))
	pick(t, g, Versailles, at(ChooseRemove, Press))
	assert.Equal(t, int8(1), g.S.Cubes[Commune][Press])
	assert.Equal(t, deck, len(g.S.Deck), "political removal draws no card")
}

// Rulebook "Remove — Military": strength 3+ succeeds; otherwise draw a card
// and succeed if strength ≥ its OP; the drawn card leaves the game.
// rules-decisions 4, 10; Censorship: under the discard pile (25).
func TestMilitaryRemovalCardTest(t *testing.T) {
	tests := []struct {
		name     string
		variant  Variant
		extra    bool
		drawOP   int
		wantGone bool // the Commune cube is removed
		drawn    bool
	}{
		{"strength 1 vs a 1-OP card succeeds", Standard, false, 1, true, true},
		{"strength 1 vs a 2-OP card fails", Standard, false, 2, false, true},
		{"an extra OP makes strength 2: beats a 2-OP card", Standard, true, 2, true, true},
		{"an extra OP: strength 2 still fails against 3 OP", Standard, true, 3, false, true},
		{"Censorship: the drawn card goes under the discard pile", Censorship, false, 3, false, true},
	}
	cardWithOP := map[int]int{1: 2, 2: 9, 3: 35}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := position(t, cubes{MontValerien: {0, 1}})
			g.S.Variant = tc.variant
			card := cardWithOP[tc.drawOP]
			stackDeck(g, card)
			start(g, opsFrame(Versailles, 3))
			pick(t, g, Versailles, func(c Choice) bool { return c.Kind == ChooseSphere && c.N == int(Military) })
			p := prompt(t, g, Versailles)
			// Mont-Valérien: HQ controlled, no presence: strength 1.
			pick(t, g, Versailles, func(c Choice) bool {
				return c.Kind == ChooseRemove && c.Space == MontValerien && c.Extra == tc.extra
			})
			_ = p
			if tc.wantGone {
				assert.Equal(t, int8(0), g.S.Cubes[Commune][MontValerien])
			} else {
				assert.Equal(t, int8(1), g.S.Cubes[Commune][MontValerien])
			}
			if tc.variant == Censorship {
				require.NotEmpty(t, g.S.Discard)
				assert.Equal(t, int8(card), g.S.Discard[0].Card)
				assert.Equal(t, NoSide, g.S.Discard[0].By)
			} else {
				assert.Contains(t, g.S.Removed, int8(card))
			}
		})
	}
}

func TestMilitaryStrengthThreeNeedsNoCard(t *testing.T) {
	// Rulebook: "If military strength is 3+, the attempt succeeds."
	g := position(t, cubes{MontValerien: {2, 1}})
	deck := len(g.S.Deck)
	start(g, opsFrame(Versailles, 1))
	pick(t, g, Versailles, func(c Choice) bool { return c.Kind == ChooseSphere && c.N == int(Military) })
	c := pick(t, g, Versailles, at(ChooseRemove, MontValerien))
	assert.Equal(t, 3, c.Strength)
	assert.Equal(t, int8(0), g.S.Cubes[Commune][MontValerien])
	assert.Equal(t, deck, len(g.S.Deck))
}

// Rulebook: "Spend 1 Operations Point per attempt (or 2 per attempt if the
// space has an opponent's Fortification/Barricade)"; "Fortifications and
// Barricades may only be removed once there are no opposing cubes
// remaining"; placement costs 2 there too (rules-decisions 10, 11).
func TestDiscCostsAndRemoval(t *testing.T) {
	g := position(t, cubes{ButteMontmartre: {1, 2}, MontValerien: {2, 0}})
	g.S.Disc[ButteMontmartre] = Commune
	g.S.Pool[Versailles] = 3
	start(g, opsFrame(Versailles, 4))
	pick(t, g, Versailles, func(c Choice) bool { return c.Kind == ChooseSphere && c.N == int(Military) })
	p := prompt(t, g, Versailles)
	for _, c := range p.Choices {
		if c.Kind == ChooseRemove && c.Space == ButteMontmartre {
			assert.GreaterOrEqual(t, c.Cost, 2, "an attempt against a space with a Barricade costs 2 (+1 extra)")
		}
	}
	// Strength in BM: MV controlled (1) + presence (1) = 2; buy the +1 → 3, sure, 3 OP.
	pick(t, g, Versailles, func(c Choice) bool { return c.Kind == ChooseRemove && c.Space == ButteMontmartre && c.Extra })
	assert.Equal(t, int8(1), g.S.Cubes[Commune][ButteMontmartre])
	assert.Equal(t, Commune, g.S.Disc[ButteMontmartre], "the disc stays while a Commune cube remains")
	p = prompt(t, g, Versailles)
	require.Equal(t, 1, p.N)
	require.Equal(t, PromptOpsPlace, p.Kind, "1 OP cannot pay for an attempt there: straight to placing")
	assert.False(t, has(p, at(ChoosePlace, ButteMontmartre)), "placing next to a Barricade costs 2")
	assert.True(t, has(p, at(ChoosePlace, MontValerien)))
}

func TestDiscRemovableOnlyWhenNoCubes(t *testing.T) {
	g := position(t, cubes{ButteMontmartre: {2, 0}, MontValerien: {2, 0}})
	g.S.Disc[ButteMontmartre] = Commune
	start(g, opsFrame(Versailles, 2))
	pick(t, g, Versailles, func(c Choice) bool { return c.Kind == ChooseSphere && c.N == int(Military) })
	c := pick(t, g, Versailles, at(ChooseRemove, ButteMontmartre))
	assert.Equal(t, 2, c.Cost)
	assert.Equal(t, NoSide, g.S.Disc[ButteMontmartre])
}

// Rulebook "Place"; rules-decisions 11: never more than 4 of a side's cubes in a space.
func TestPlacementLimitFourCubes(t *testing.T) {
	g := position(t, cubes{Royalists: {4, 0}, Press: {3, 0}})
	g.S.Pool[Versailles] = 5
	start(g, opsFrame(Versailles, 3))
	pick(t, g, Versailles, func(c Choice) bool { return c.Kind == ChooseSphere && c.N == int(Political) })
	p := prompt(t, g, Versailles)
	require.Equal(t, PromptOpsPlace, p.Kind, "nothing to remove: straight to placing")
	assert.NotContains(t, spacesOf(p, ChoosePlace), Royalists)
	pick(t, g, Versailles, at(ChoosePlace, Press))
	p = prompt(t, g, Versailles)
	assert.NotContains(t, spacesOf(p, ChoosePlace), Press)
}

// rules-decisions 7: all operations of one play are in one sphere.
func TestOperationsOneSphere(t *testing.T) {
	g := position(t, cubes{Press: {1, 1}, MontValerien: {0, 1}})
	g.S.Pool[Versailles] = 5
	start(g, opsFrame(Versailles, 3))
	pick(t, g, Versailles, func(c Choice) bool { return c.Kind == ChooseSphere && c.N == int(Political) })
	for i := 0; i < 3; i++ {
		p, ok := g.PromptFor(Versailles)
		if !ok {
			break
		}
		for _, c := range p.Choices {
			if c.Kind == ChooseRemove || c.Kind == ChoosePlace {
				assert.Equal(t, Political, c.Space.Info().Sphere, "choice %+v outside the chosen sphere", c)
			}
		}
		require.NoError(t, g.Apply(Versailles, p.Choices[0]))
	}
}
