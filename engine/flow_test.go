package engine

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func playFrame(side Side) Frame { return Frame{K: fPlay, Side: side, You: side} }

func modes(p Prompt, card int) map[PlayMode]bool {
	out := map[PlayMode]bool{}
	for _, c := range p.Choices {
		if c.Kind == ChoosePlay && c.Card == card {
			out[c.Mode] = true
		}
	}
	return out
}

// Rulebook "Playing Strategy Cards"; rules-decisions 1-3.
func TestPlayModes(t *testing.T) {
	t.Run("own-colour and grey events; never the opponent's", func(t *testing.T) {
		g := position(t, cubes{})
		g.S.Hand[Versailles] = []int8{11, 27, 38} // Thiers (V), Louise Michel (C), Victor Hugo (N)
		start(g, playFrame(Versailles))
		p := prompt(t, g, Versailles)
		assert.True(t, modes(p, 11)[ModeEvent])
		assert.False(t, modes(p, 27)[ModeEvent], "a red event is not Versailles'")
		assert.True(t, modes(p, 38)[ModeEvent], "grey events are for both")
		for _, c := range []int{11, 27, 38} {
			assert.True(t, modes(p, c)[ModeOps])
			assert.True(t, modes(p, c)[ModeMomentum])
			assert.True(t, modes(p, c)[ModeFinalCrisisOps])
		}
	})
	t.Run("no momentum play at 3 (decision 2)", func(t *testing.T) {
		g := position(t, cubes{})
		g.S.Momentum[Commune] = 3
		g.S.Hand[Commune] = []int8{27}
		start(g, playFrame(Commune))
		assert.False(t, modes(prompt(t, g, Commune), 27)[ModeMomentum])
	})
	t.Run("a momentum play removes the card from the game", func(t *testing.T) {
		g := position(t, cubes{})
		g.S.Hand[Commune] = []int8{27, 28}
		start(g, Frame{K: fGame, Phase: gPlays}, playFrame(Commune))
		pick(t, g, Commune, func(c Choice) bool { return c.Card == 27 && c.Mode == ModeMomentum })
		assert.Equal(t, int8(1), g.S.Momentum[Commune])
		assert.Contains(t, g.S.Removed, int8(27))
		assert.Equal(t, int8(1), g.S.Plays[Commune])
	})
	t.Run("Final Crisis card for operations: discard a card, 4 OP, the Final Crisis card leaves the game", func(t *testing.T) {
		g := position(t, cubes{})
		g.S.Hand[Versailles] = []int8{2}
		start(g, playFrame(Versailles))
		c := pick(t, g, Versailles, func(c Choice) bool { return c.Mode == ModeFinalCrisisOps })
		assert.Equal(t, 4, c.Cost)
		assert.False(t, g.S.FCHeld[Versailles])
		p := prompt(t, g, Versailles)
		assert.Equal(t, PromptSphere, p.Kind)
		assert.Equal(t, 4, p.N)
	})
}

// Rulebook "Use a discarded event"; rules-decisions 3: only the top card,
// only if the opponent put it there this round, only of the acting
// player's colour (not grey), paid with a card of at least as many OP.
func TestUseDiscardedEvent(t *testing.T) {
	tests := []struct {
		name string
		top  DiscardEntry
		hand []int8
		ok   bool
	}{
		{"opponent's own-colour card this round, paid with equal OP", DiscardEntry{Card: 4, By: Commune, Round: 1}, []int8{21}, true},
		{"paying card with fewer OP is not enough", DiscardEntry{Card: 11, By: Commune, Round: 1}, []int8{21}, false},
		{"a card played in an earlier round does not qualify", DiscardEntry{Card: 4, By: Commune, Round: 0}, []int8{21}, false},
		{"a card the acting player discarded itself does not qualify", DiscardEntry{Card: 4, By: Versailles, Round: 1}, []int8{21}, false},
		{"a grey event does not qualify", DiscardEntry{Card: 38, By: Commune, Round: 1}, []int8{35}, false},
		{"a card of the opponent's colour does not qualify", DiscardEntry{Card: 21, By: Commune, Round: 1}, []int8{26}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := position(t, cubes{})
			g.S.Discard = []DiscardEntry{tc.top}
			g.S.Hand[Versailles] = tc.hand
			start(g, playFrame(Versailles))
			p := prompt(t, g, Versailles)
			assert.Equal(t, tc.ok, modes(p, int(tc.hand[0]))[ModeDiscardedEvent])
		})
	}
	t.Run("the event resolves for the acting player; the paying card goes on top", func(t *testing.T) {
		g := position(t, cubes{})
		g.S.Pool[Versailles] = 3
		g.S.Discard = []DiscardEntry{{Card: 4, By: Commune, Round: 1}} // Jules Ferry
		g.S.Hand[Versailles] = []int8{21, 26}
		start(g, Frame{K: fGame, Phase: gPlays}, playFrame(Versailles))
		pick(t, g, Versailles, func(c Choice) bool { return c.Card == 21 && c.Mode == ModeDiscardedEvent })
		pick(t, g, Versailles, func(c Choice) bool { return c.Kind == ChooseOption && c.N == 1 }) // (b) place up to 2
		pick(t, g, Versailles, at(ChoosePlace, Republicans))
		pick(t, g, Versailles, kind(ChooseDone))
		assert.Equal(t, int8(1), g.S.Cubes[Versailles][Republicans])
		top := g.S.Discard[len(g.S.Discard)-1]
		assert.Equal(t, DiscardEntry{Card: 21, By: Versailles, Round: 1}, top)
	})
}

// Rulebook "Initiative Phase"; rules-decisions 18: level = Political VP −
// momentum; the higher decides; the Commune wins ties.
func TestInitiative(t *testing.T) {
	tests := []struct {
		name    string
		vp      int8 // Political VP, positive = Versailles
		mv, mc  int8
		decider Side
	}{
		{"tie at the start: the Commune decides", 0, 0, 0, Commune},
		{"Versailles ahead in Political VP decides", 1, 0, 0, Versailles},
		{"momentum lowers the level", 1, 2, 0, Commune},
		{"negative levels compare too", -1, 0, 3, Versailles},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := position(t, cubes{})
			g.S.VP[Political] = tc.vp
			g.S.Momentum = [2]int8{tc.mv, tc.mc}
			start(g)
			g.initiativePhase()
			g.cached = false
			g.run()
			p := prompt(t, g, tc.decider)
			assert.Equal(t, PromptInitiative, p.Kind)
			pick(t, g, tc.decider, func(c Choice) bool { return c.Side == tc.decider.Other() })
			assert.Equal(t, tc.decider.Other(), g.S.First)
			assert.Equal(t, tc.decider.Other(), g.S.Initiative, "the first player becomes the Initiative Player")
		})
	}
}

// Rulebook "Pivotal Space Bonus Actions"; rules-decisions 19, 20.
func TestPivotalBonusActions(t *testing.T) {
	t.Run("De-escalate: 1 own + 1 opponent cube", func(t *testing.T) {
		g := position(t, cubes{Press: {3, 1}, CatholicChurch: {0, 1}})
		start(g, Frame{K: fBonus})
		p := prompt(t, g, Versailles)
		require.Equal(t, PromptBonusAction, p.Kind)
		pick(t, g, Versailles, func(c Choice) bool { return c.N == ActionDeescalate })
		pick(t, g, Versailles, at(ChooseRemoveOwn, Press))
		pick(t, g, Versailles, at(ChooseRemove, CatholicChurch))
		assert.Equal(t, int8(2), g.S.Cubes[Versailles][Press])
		assert.Equal(t, int8(0), g.S.Cubes[Commune][CatholicChurch])
	})
	t.Run("Spread Influence: move up to 2 cubes within the dimension only", func(t *testing.T) {
		g := position(t, cubes{ButteMontmartre: {0, 4}})
		start(g, Frame{K: fBonus})
		pick(t, g, Commune, func(c Choice) bool { return c.N == ActionSpread })
		p := prompt(t, g, Commune)
		for _, c := range p.Choices {
			if c.Kind == ChooseMove {
				assert.Equal(t, Paris, c.To.Info().Dim)
			}
		}
		pick(t, g, Commune, func(c Choice) bool { return c.Kind == ChooseMove && c.To == ButteAuxCailles })
		pick(t, g, Commune, func(c Choice) bool { return c.Kind == ChooseMove && c.To == PereLachaise })
		assert.Equal(t, [3]int8{2, 1, 1}, [3]int8{g.S.Cubes[Commune][ButteMontmartre], g.S.Cubes[Commune][ButteAuxCailles], g.S.Cubes[Commune][PereLachaise]})
	})
	t.Run("Turncoat: replace an opponent's cube", func(t *testing.T) {
		g := position(t, cubes{NationalAssembly: {0, 2}, Royalists: {1, 0}})
		g.S.Pool[Commune] = 0
		start(g, Frame{K: fBonus})
		pick(t, g, Commune, func(c Choice) bool { return c.N == ActionTurncoat })
		pick(t, g, Commune, at(ChooseReplace, Royalists))
		assert.Equal(t, int8(0), g.S.Cubes[Versailles][Royalists])
		assert.Equal(t, int8(1), g.S.Cubes[Commune][Royalists])
	})
	t.Run("the Initiative Player orders the actions when both players have one", func(t *testing.T) {
		g := position(t, cubes{Press: {2, 0}, MontValerien: {0, 1}})
		g.S.Initiative = Commune
		start(g, Frame{K: fBonus})
		p := prompt(t, g, Commune)
		require.Equal(t, PromptBonusOrder, p.Kind)
		assert.Len(t, p.Choices, 2)
	})
	t.Run("control is read once before the bonus actions", func(t *testing.T) {
		// Versailles' Turncoat in Public Opinion could not remove Commune
		// control of Butte Montmartre; but a De-escalate in Paris by the
		// Commune that ends its control of BM does not cancel its action.
		g := position(t, cubes{ButteMontmartre: {0, 1}, Press: {1, 0}})
		g.S.Initiative = Versailles
		start(g, Frame{K: fBonus})
		pick(t, g, Versailles, func(c Choice) bool { return c.N == int(Paris) })
		pick(t, g, Commune, func(c Choice) bool { return c.N == ActionDeescalate })
		pick(t, g, Commune, at(ChooseRemoveOwn, ButteMontmartre))
		// No cube of either side is left in Paris: De-escalate ends by itself.
		p := prompt(t, g, Versailles)
		assert.Equal(t, PromptBonusAction, p.Kind, "Versailles still takes its Public Opinion action")
	})
}

// Rulebook "Crisis Dimension scoring" and "Objective Card Scoring"; the
// Initiative Player orders them (asked only when the ±5 cap matters, #19).
func TestScoring(t *testing.T) {
	t.Run("a dimension fully controlled scores 1 VP of its sphere", func(t *testing.T) {
		g := position(t, cubes{MontValerien: {1, 0}, FortIssy: {1, 0}, ChateauVincennes: {1, 0}, Press: {0, 1}})
		start(g)
		g.scoreDimensionsPhase()
		assert.Equal(t, 1, g.S.VPFor(Versailles, Military))
		assert.Equal(t, 0, g.S.VPFor(Versailles, Political), "one space of Public Opinion is not the dimension")
	})
	t.Run("the order is asked only when the cap makes it matter", func(t *testing.T) {
		g := position(t, cubes{
			Royalists: {1, 0}, NationalAssembly: {1, 0}, Republicans: {1, 0},
			CatholicChurch: {0, 1}, Press: {0, 1}, SocialMovements: {0, 1},
		})
		start(g)
		g.scoreDimensionsPhase()
		assert.Empty(t, g.S.Stack, "no cap: applied at once")
		assert.Equal(t, 0, g.S.VPFor(Versailles, Political))

		g.S.VP[Political] = 5
		g.S.Initiative = Commune
		g.scoreDimensionsPhase()
		g.cached = false
		g.run()
		p := prompt(t, g, Commune)
		require.Equal(t, PromptScoreOrder, p.Kind)
		pick(t, g, Commune, func(c Choice) bool { return c.Side == Versailles })
		assert.Equal(t, 4, g.S.VPFor(Versailles, Political), "Versailles capped at 5, then the Commune's point")
	})
	t.Run("objectives: the controller of either card's space scores; only the owner's event", func(t *testing.T) {
		g := position(t, cubes{Press: {2, 0}, ButteMontmartre: {0, 1}})
		g.S.Objective = [2]int8{42, 48} // V kept Paris Cannons (BM), C kept Revolution in the Press
		start(g)
		g.scoreObjectivesPhase()
		assert.Equal(t, 1, g.S.VPFor(Versailles, Political), "Versailles controls the Commune's objective space")
		assert.Equal(t, 0, g.S.VPFor(Versailles, Military)+1, "the Commune controls Versailles' objective space")
		start(g, Frame{K: fObjEvents})
		assert.Empty(t, g.Prompts(), "neither controlled its own objective: no event")
		assert.Empty(t, g.S.Fulfilled[Versailles])
		assert.Empty(t, g.S.Fulfilled[Commune])
	})
	t.Run("a controlled own objective may be performed and is fulfilled", func(t *testing.T) {
		g := position(t, cubes{Press: {0, 2}})
		g.S.Objective = [2]int8{0, 48}
		start(g, Frame{K: fObjEvents})
		p := prompt(t, g, Commune)
		require.Equal(t, PromptObjEvent, p.Kind)
		pick(t, g, Commune, kind(ChooseNo))
		assert.Equal(t, []int8{48}, g.S.Fulfilled[Commune])
	})
}

// Rulebook "Final Crisis"; rules-decisions 21, 22.
func TestFinalCrisis(t *testing.T) {
	t.Run("starts after a round ending with both Final Crisis zones breached", func(t *testing.T) {
		g := position(t, cubes{})
		g.S.Breached[Versailles][ZoneFinalCrisis] = true
		g.S.Breached[Commune][ZoneFinalCrisis] = true
		g.S.SetAside = [2][]int8{{2}, {21}}
		start(g, Frame{K: fGame, Phase: gEndRound})
		assert.Equal(t, int8(roundFinal), g.S.Round)
		assert.Equal(t, int8(1), g.S.FCHand, "hand size = rounds played")
	})
	t.Run("hand: set-aside cards + Final Crisis card, discarded down to the rounds played", func(t *testing.T) {
		g := position(t, cubes{})
		g.S.Round = 3
		g.S.Hand = [2][]int8{}
		g.S.SetAside = [2][]int8{{2, 3, 4}, {21, 24, 25}}
		start(g, Frame{K: fGame, Phase: gFCGather})
		pv, ok1 := g.PromptFor(Versailles)
		pc, ok2 := g.PromptFor(Commune)
		require.True(t, ok1 && ok2, "both discard at once")
		assert.Equal(t, PromptFCDiscard, pv.Kind)
		assert.Len(t, pv.Choices, 4, "3 set aside + MacMahon")
		assert.Len(t, pc.Choices, 4)
		pick(t, g, Versailles, func(c Choice) bool { return c.Card == 2 })
		pick(t, g, Commune, func(c Choice) bool { return c.Card == 34 })
		assert.Len(t, g.S.Hand[Versailles], 3)
		assert.Len(t, g.S.Hand[Commune], 3)
	})
	t.Run("events only; the owner decides an opponent-coloured event", func(t *testing.T) {
		g := position(t, cubes{Press: {1, 1}})
		g.S.Round = roundFinal
		g.S.Hand[Commune] = []int8{11} // Adolphe Thiers (Versailles)
		g.S.Pool[Versailles] = 3
		start(g, Frame{K: fFCPlay, Side: Commune, You: Commune})
		p := prompt(t, g, Commune)
		require.Equal(t, PromptFCPlay, p.Kind)
		for _, c := range p.Choices {
			assert.Equal(t, ModeFinalCrisis, c.Mode)
		}
		pick(t, g, Commune, func(c Choice) bool { return c.Card == 11 })
		p = prompt(t, g, Versailles)
		require.Equal(t, PromptFCDecide, p.Kind)
		pick(t, g, Versailles, kind(ChooseYes))
		p = prompt(t, g, Versailles)
		assert.Equal(t, PromptEventReplace, p.Kind, "Versailles resolves its own event")
	})
	t.Run("a card with no possible effect is discarded", func(t *testing.T) {
		g := position(t, cubes{})
		g.S.Round = roundFinal
		g.S.Hand[Versailles] = []int8{7} // Espivent: remove Commune cubes from SM/Republicans — none there
		start(g, Frame{K: fFCPlay, Side: Versailles, You: Versailles})
		pick(t, g, Versailles, func(c Choice) bool { return c.Card == 7 })
		assert.Empty(t, g.Prompts())
		assert.Equal(t, int8(7), g.S.Discard[len(g.S.Discard)-1].Card)
	})
}

// Rulebook "Victory" and "Tiebreaker"; rules-decisions 22, 23.
func TestVictory(t *testing.T) {
	tests := []struct {
		name      string
		vp        [2]int8 // [Political, Military], positive = Versailles
		mom       [2]int8
		fulfilled [2]int
		board     cubes
		init      Side
		winner    Side
		reason    string
	}{
		{"Versailles: Military VP ≥ 0 and more than the Commune's Political VP", [2]int8{1, 0}, [2]int8{}, [2]int{}, cubes{}, Commune, Versailles, "victory"},
		{"Commune: Political VP ≥ 0 and more than Versailles' Military VP", [2]int8{-2, 1}, [2]int8{}, [2]int{}, cubes{}, Versailles, Commune, "victory"},
		{"momentum at 3 adds a VP at the end (Versailles: Military)", [2]int8{0, 0}, [2]int8{3, 0}, [2]int{}, cubes{}, Commune, Versailles, "victory"},
		{"no main condition → tiebreakers: Versailles has more combined VP, objectives, pivotal spaces", [2]int8{3, -1}, [2]int8{}, [2]int{2, 0},
			cubes{Press: {1, 0}}, Commune, Versailles, "tiebreaker"},
		{"tiebreakers equal: the Commune wins", [2]int8{0, 0}, [2]int8{}, [2]int{1, 0}, cubes{}, Commune, Commune, "tiebreaker"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := position(t, tc.board)
			g.S.VP = tc.vp
			g.S.Momentum = tc.mom
			g.S.Initiative = tc.init
			for i := 0; i < tc.fulfilled[Versailles]; i++ {
				g.S.Fulfilled[Versailles] = append(g.S.Fulfilled[Versailles], int8(42+i))
			}
			start(g, Frame{K: fGame, Phase: gVictory})
			require.NotNil(t, g.S.Result)
			assert.Equal(t, tc.winner, g.S.Result.Winner, g.S.Result.English(nil))
			assert.Equal(t, tc.reason, g.S.Result.Reason)
		})
	}
}

// rules-decisions 24-25: Censorship deals 5, the Initiative Player then the
// other discards one face up, counting as played this round.
func TestCensorshipVariant(t *testing.T) {
	g, err := New(Options{Seed: 5, Variant: Censorship, BotSide: NoSide})
	require.NoError(t, err)
	assert.Len(t, g.S.Hand[Versailles], 5)
	assert.Len(t, g.S.Hand[Commune], 5)
	for _, side := range []Side{Versailles, Commune} {
		p := prompt(t, g, side)
		require.NoError(t, g.Apply(side, p.Choices[0]))
	}
	p := prompt(t, g, Commune)
	require.Equal(t, PromptInitiative, p.Kind)
	pick(t, g, Commune, func(c Choice) bool { return c.Side == Versailles })
	p = prompt(t, g, Versailles)
	require.Equal(t, PromptCensor, p.Kind, "the Initiative Player censors first")
	c := pick(t, g, Versailles, kind(ChooseCard))
	assert.Equal(t, DiscardEntry{Card: int8(c.Card), By: Versailles, Round: 1}, g.S.Discard[len(g.S.Discard)-1])
	p = prompt(t, g, Commune)
	require.Equal(t, PromptCensor, p.Kind)
	pick(t, g, Commune, kind(ChooseCard))
	p = prompt(t, g, Versailles)
	assert.Equal(t, PromptPlay, p.Kind)
	assert.Len(t, g.S.Hand[Versailles], 4)
}

// Rulebook "Overview": the unchosen objective leaves the game face down; the
// two choices are secret and simultaneous.
func TestObjectiveChoiceSimultaneous(t *testing.T) {
	g, err := New(Options{Seed: 9, BotSide: NoSide})
	require.NoError(t, err)
	ps := g.Prompts()
	require.Len(t, ps, 2)
	offered := g.S.ObjOffer[Commune]
	pick(t, g, Commune, func(c Choice) bool { return c.Card == int(offered[1]) })
	assert.Equal(t, offered[1], g.S.Objective[Commune])
	v := g.ViewFor(Versailles)
	assert.Zero(t, v.Objective[Commune], "Versailles cannot see the Commune's objective")
	_, ok := g.PromptFor(Versailles)
	assert.True(t, ok, "Versailles still chooses")
}

// What the objective and initiative prompts say (issue 26): in a solo game
// the objective not kept becomes the solo opponent's, face up (solo.md
// §6.6), not a card leaving the game; at equal Initiative levels the
// Commune decides because ties go to it (decision 18), not because its
// level is higher.
func TestObjectiveAndInitiativePromptWords(t *testing.T) {
	for _, tc := range []struct {
		bot, human Side
		want       string
	}{{NoSide, Versailles, "engine.prompt.objective"}, {Commune, Versailles, "engine.prompt.objective-solo"}, {Versailles, Commune, "engine.prompt.objective-solo"}} {
		g, err := New(Options{Seed: 9, BotSide: tc.bot})
		require.NoError(t, err)
		p := prompt(t, g, tc.human)
		require.Equal(t, PromptObjective, p.Kind)
		assert.Equal(t, tc.want, g.PromptMsg(p).ID, "bot %s", tc.bot)
	}

	g, err := New(Options{Seed: 9, BotSide: NoSide})
	require.NoError(t, err)
	for _, side := range []Side{Versailles, Commune} {
		pick(t, g, side, func(c Choice) bool { return true })
	}
	p := prompt(t, g, Commune)
	require.Equal(t, PromptInitiative, p.Kind)
	require.Equal(t, g.S.InitiativeLevel(Versailles), g.S.InitiativeLevel(Commune), "round 1 starts level")
	assert.Equal(t, "engine.prompt.initiative-tie", g.PromptMsg(p).ID)
	assert.Contains(t, g.PromptText(p), "a tie goes to the Commune")

	// A higher level decides by its level.
	g, err = New(Options{Seed: 9, BotSide: NoSide})
	require.NoError(t, err)
	g.S.VP[Political] = 2 // Versailles +2
	for _, side := range []Side{Versailles, Commune} {
		pick(t, g, side, func(c Choice) bool { return true })
	}
	p = prompt(t, g, Versailles)
	require.Equal(t, PromptInitiative, p.Kind)
	assert.Equal(t, "engine.prompt.initiative", g.PromptMsg(p).ID)
}

// An event with nothing to act on is offered with a warning (issue 26: #6
// once did nothing without one). EventHasEffect is a dry run; a shown
// hand (#29's REVEAL) and a momentum change count as effects.
func TestEventHasEffectWarnsOfAnEventThatWouldDoNothing(t *testing.T) {
	empty := position(t, cubes{})
	empty.S.Disc = [NumMapSpaces]Side{}
	for x := range empty.S.Disc {
		empty.S.Disc[x] = NoSide
	}
	// #6: REPLACE 1 opponent cube in a Military space where you are present.
	assert.False(t, empty.EventHasEffect(6, Versailles), "no Commune cube where Versailles is present")
	target := position(t, cubes{FortIssy: {1, 1}})
	assert.True(t, target.EventHasEffect(6, Versailles))
	assert.True(t, empty.EventHasEffect(29, Commune), "#29 shows Versailles's hand even with no cube to remove")
	assert.True(t, empty.EventHasEffect(44, Commune), "#44 (a): MOMENTUM you +1")

	p := Prompt{Side: Versailles, Kind: PromptPlay}
	event := Choice{Kind: ChoosePlay, Card: 6, Mode: ModeEvent}
	assert.Equal(t, "engine.choice.play-event-no-effect", empty.ChoiceMsg(p, event).ID)
	assert.Contains(t, empty.ChoiceText(p, event), "it would do nothing now")
	assert.Equal(t, "engine.choice.play-event", target.ChoiceMsg(p, event).ID)
	discarded := Choice{Kind: ChoosePlay, Card: 11, Mode: ModeDiscardedEvent, N: 6}
	assert.Equal(t, "engine.choice.play-discarded-no-effect", empty.ChoiceMsg(p, discarded).ID)
	assert.Equal(t, "engine.choice.play-discarded", target.ChoiceMsg(p, discarded).ID)
	// The dry run leaves the game as it was.
	assert.Equal(t, [2][NumMapSpaces]int8{Versailles: {FortIssy: 1}, Commune: {FortIssy: 1}}, target.S.Cubes)
}
