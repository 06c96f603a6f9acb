package engine

import (
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Tests of the engine's solo-opponent interface (solo_api.go, solo_rules.go).

// TestRollDie: a die roll is a pure function of the position (the random
// state and the version), uniform over 1..k, and does not advance the
// state's random source.
func TestRollDie(t *testing.T) {
	g, err := newSoloTestGame(Commune, 3)
	require.NoError(t, err)
	rng := g.S.RNG
	var seen [7]int
	for v := 0; v < 6000; v++ {
		g.S.Version = v
		r := g.RollDie(6)
		require.Equal(t, r, g.RollDie(6), "same position, same roll")
		require.GreaterOrEqual(t, r, 1)
		require.LessOrEqual(t, r, 6)
		seen[r]++
	}
	require.Equal(t, rng, g.S.RNG)
	for f := 1; f <= 6; f++ {
		require.InDelta(t, 1000, seen[f], 150, "face %d", f)
	}
	d := g.Dice()
	a, b := d.Roll(1000), d.Roll(1000)
	require.NotEqual(t, a, b, "successive rolls of one decision differ")
	require.Equal(t, 1, g.Dice().Roll(1))
}

// TestApplyWithNote: the note goes into the public log just before the
// lines of the choice; a refused choice changes nothing.
func TestApplyWithNote(t *testing.T) {
	g, err := New(Options{Seed: 8, BotSide: Commune})
	require.NoError(t, err)
	p := g.Prompts()[0]
	n := len(g.S.Log)
	ver := g.S.Version
	require.ErrorIs(t, g.ApplyWithNote(p.Side, Choice{Kind: ChooseDone}, "never written"), ErrIllegal)
	require.Len(t, g.S.Log, n)
	require.Equal(t, ver, g.S.Version)
	require.NoError(t, g.ApplyWithNote(p.Side, p.Choices[0], "why: a note"))
	require.Equal(t, "why: a note", g.S.Log[n].English(nil))
	note, ok := g.S.Log[n].Note()
	require.True(t, ok)
	require.Equal(t, "why: a note", note)
	_, ok = g.S.Log[n+1].Note()
	require.False(t, ok, "the choice's own lines are not notes")
	require.Equal(t, NoSide, g.S.Log[n].To)
	require.Equal(t, ver, g.S.Log[n].Version)
	require.Greater(t, len(g.S.Log), n+1)
}

// TestApplyWithWhy: the explanation as a message (issue 26) is the same
// public note line, its words those of the message (English here, registered
// by the package that owns them); a move that carries it replays with it,
// and a move stored with an English note still replays as before.
func TestApplyWithWhy(t *testing.T) {
	RegisterEnglish(map[string]string{"test.why": "it wants {{.Space}}"}, nil)
	why := Msg{ID: "test.why", Args: []Arg{{Name: "Space", Kind: ArgSpace, N: int(Press)}}}
	g, err := New(Options{Seed: 8, BotSide: Commune})
	require.NoError(t, err)
	p := g.Prompts()[0]
	n := len(g.S.Log)
	require.ErrorIs(t, g.ApplyWithWhy(p.Side, Choice{Kind: ChooseDone}, why), ErrIllegal)
	require.Len(t, g.S.Log, n)
	m := Move{Side: p.Side, Choice: p.Choices[0], Why: &why}
	require.NoError(t, g.ApplyMove(m))
	e := g.S.Log[n]
	require.Equal(t, "engine.log.note", e.Msg.ID)
	require.Equal(t, "test.why", e.Msg.Args[0].Msg.ID)
	require.Equal(t, "it wants Press", e.Msg.English(g.deck))
	require.Equal(t, NoSide, e.To)

	b, err := json.Marshal(m)
	require.NoError(t, err)
	var back Move
	require.NoError(t, json.Unmarshal(b, &back))
	r, err := Replay(Options{Seed: 8, BotSide: Commune}, []Move{back})
	require.NoError(t, err)
	require.Equal(t, g.S.Log[n].Msg, r.S.Log[n].Msg)

	old := Move{Side: p.Side, Choice: p.Choices[0], Note: "Solo opponent: an old note"}
	r, err = Replay(Options{Seed: 8, BotSide: Commune}, []Move{old})
	require.NoError(t, err)
	require.Equal(t, "Solo opponent: an old note", r.S.Log[n].Msg.English(r.deck))

	require.Panics(t, func() { RegisterEnglish(map[string]string{"engine.log.note": "x"}, nil) }, "the engine's own messages")
	require.Panics(t, func() { RegisterEnglish(map[string]string{"test.why": "something else"}, nil) }, "one id, two texts")
}

// TestSoloPublicState: the bot's view of the state holds none of the
// Player's secrets nor the deck order.
func TestSoloPublicState(t *testing.T) {
	g, err := New(Options{Seed: 8, BotSide: Versailles})
	require.NoError(t, err)
	p := g.Prompts()[0]
	require.Equal(t, PromptObjective, p.Kind)
	require.NoError(t, g.Apply(Commune, p.Choices[0]))
	pub := g.SoloPublicState()
	require.NotZero(t, g.S.Objective[Commune])
	require.Zero(t, pub.Objective[Commune], "the Player's objective")
	require.Equal(t, g.S.Objective[Versailles], pub.Objective[Versailles], "the bot's own, face up")
	require.Len(t, pub.Hand[Commune], len(g.S.Hand[Commune]))
	for _, c := range pub.Hand[Commune] {
		require.Zero(t, c)
	}
	require.Len(t, pub.Deck, len(g.S.Deck))
	for _, c := range pub.Deck {
		require.Zero(t, c)
	}
	require.Zero(t, pub.RNG)
	require.Nil(t, pub.Log)
	require.Equal(t, g.S.Cubes, pub.Cubes)
}

// TestHasRoom: solo.md §1.3 Room, counted in cubes.
func TestHasRoom(t *testing.T) {
	s := &State{}
	s.Cubes[Commune][Republicans] = 1
	require.False(t, s.HasRoom(Commune, Republicans))
	s.Cubes[Versailles][Republicans] = 1
	require.True(t, s.HasRoom(Commune, Republicans))
	s.Cubes[Commune][Press] = 1
	require.True(t, s.HasRoom(Commune, Press), "one more is allowed in a Pivotal space")
	s.Cubes[Commune][Press] = 2
	require.False(t, s.HasRoom(Commune, Press))
	s.Cubes[Commune][Press], s.Cubes[Versailles][Press] = 4, 4
	require.False(t, s.HasRoom(Commune, Press), "never with 4 cubes")
}

// TestSoloReshuffleKeepsFinalCrisisCards: §6.8 — the Final Crisis cards are
// never shuffled into the solo deck.
func TestSoloReshuffleKeepsFinalCrisisCards(t *testing.T) {
	g, err := newSoloTestGame(Commune, 3)
	require.NoError(t, err)
	g.S.Deck = nil
	g.S.Discard = []DiscardEntry{{Card: 17, By: Versailles, Round: 4}, {Card: 5, By: Versailles, Round: 4}}
	g.S.Removed = []int8{6}
	require.True(t, g.soloReshuffle())
	require.ElementsMatch(t, []int8{5, 6}, g.S.Deck)
	require.Equal(t, []DiscardEntry{{Card: 17, By: Versailles, Round: 4}}, g.S.Discard)
	require.Empty(t, g.S.Removed)
}

// TestSoloOpsUseAvailableOnly: the bot never places a cube that is not
// Available, in operations either (switch OPS_USE_AVAILABLE_ONLY): its
// Final Crisis zone stays untouched before round 3.
func TestSoloOpsUseAvailableOnly(t *testing.T) {
	g, err := newSoloTestGame(Versailles, 3)
	require.NoError(t, err)
	s := &g.S
	s.Track[Versailles] = [NumZones]int8{0, 0, 0, 2}
	s.Breached[Versailles] = [NumZones]bool{true, true, true, false}
	g.pushOpsForTest(Versailles, 2, Military)
	g.runForTest()
	p, ok := g.PromptFor(Versailles)
	require.True(t, ok)
	require.Equal(t, PromptOpsPlace, p.Kind)
	require.Equal(t, []Choice{{Kind: ChooseDone}}, p.Choices, "no placement is offered")
	// The 2-player rules alone would let it take them.
	require.True(t, s.CanSupply(Versailles))
}

// ---- the solo procedure (rulebook "Solo Opponent Rules", solo.md §6, §7) ----

var soloSetupRemoved = []int{1, 12, 13, 22, 29, 30}

// TestSoloSetupRemovesCardsAndDealsNoBotHand: rulebook solo "Setup" (cards
// 1, 12, 13, 22, 29, 30 are not used) and "Solo Sequence of Play" step 1
// (no cards are dealt to the bot); the bot keeps its Final Crisis card
// until its last Final Crisis play (solo.md §6.8).
func TestSoloSetupRemovesCardsAndDealsNoBotHand(t *testing.T) {
	for _, bot := range []Side{Versailles, Commune} {
		g, err := New(Options{Seed: 11, BotSide: bot})
		require.NoError(t, err)
		s := &g.S
		player := bot.Other()
		require.Empty(t, s.Hand[bot], "the bot holds no hand")
		require.Len(t, s.Hand[player], handSize)
		inPlay := append(append([]int8(nil), s.Deck...), s.Hand[player]...)
		require.Len(t, inPlay, 39-len(soloSetupRemoved), "39 Strategy cards less the six")
		for _, n := range soloSetupRemoved {
			require.NotContains(t, inPlay, int8(n), "card #%d is not used in solo", n)
		}
		require.True(t, s.FCHeld[bot])
		_, botAsked := g.PromptFor(bot)
		require.False(t, botAsked, "the bot has no objective to choose")
		p, ok := g.PromptFor(player)
		require.True(t, ok)
		require.Equal(t, PromptObjective, p.Kind)
		require.Len(t, p.Choices, 2)
	}
}

// TestSoloObjectiveDrawRedrawsOneDimension: solo step 2 — two objectives
// from the same Crisis Dimension go back and are redrawn; the Player keeps
// one and the other is the bot's, face up (solo.md §6.6).
func TestSoloObjectiveDrawRedrawsOneDimension(t *testing.T) {
	dimOf := func(g *Game, n int8) Dimension { return g.deck.Card(int(n)).Space.Info().Dim }
	for seed := int64(1); seed <= 200; seed++ {
		g, err := newSoloTestGame(Versailles, seed)
		require.NoError(t, err)
		s := &g.S
		// Put two Institutional objectives on top (51 Royalists, 52 Republicans).
		s.ObjDeck, _ = removeCard(s.ObjDeck, 51)
		s.ObjDeck, _ = removeCard(s.ObjDeck, 52)
		s.ObjDeck = append(s.ObjDeck, 51, 52)
		g.dealSoloObjectives()
		offer := s.ObjOffer[Commune]
		require.Len(t, offer, 2, "seed %d", seed)
		require.NotEqual(t, dimOf(g, offer[0]), dimOf(g, offer[1]), "seed %d: redraw", seed)
		require.Len(t, s.ObjDeck, 10)
		require.Empty(t, s.ObjOffer[Versailles])
	}
	// Edge case (§6.6): only one dimension left → the pair drawn is kept.
	g, err := newSoloTestGame(Commune, 1)
	require.NoError(t, err)
	g.S.ObjDeck = []int8{51, 52, 53}
	g.dealSoloObjectives()
	require.Equal(t, []int8{53, 52}, g.S.ObjOffer[Versailles])

	// The Player picks which is his; the other is the bot's.
	g, err = New(Options{Seed: 3, BotSide: Commune})
	require.NoError(t, err)
	p, ok := g.PromptFor(Versailles)
	require.True(t, ok)
	require.NoError(t, g.Apply(Versailles, p.Choices[1]))
	require.Equal(t, int8(p.Choices[1].Card), g.S.Objective[Versailles])
	require.Equal(t, int8(p.Choices[0].Card), g.S.Objective[Commune])
}

// TestSoloInitiativeBotPlaysSecond: solo step 3 — when the bot has the
// higher initiative level (or the Commune bot on a tie) it decides and
// plays second; when the Player decides, he may give it the first play
// (solo.md §6.7, decision 18).
func TestSoloInitiativeBotPlaysSecond(t *testing.T) {
	tests := []struct {
		name      string
		bot       Side
		vpPol     int8 // Political VP, + for Versailles
		wantFirst Side // NoSide: the Player is asked
	}{
		{"Versailles bot higher", Versailles, 2, Commune},
		{"Commune bot higher", Commune, -2, Versailles},
		{"tie, Commune bot decides", Commune, 0, Versailles},
		{"tie, the Commune Player decides", Versailles, 0, NoSide},
		{"Player higher", Commune, 2, NoSide},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g, err := newSoloTestGame(tc.bot, 1)
			require.NoError(t, err)
			g.S.VP[Political] = tc.vpPol
			g.initiativePhase()
			if tc.wantFirst != NoSide {
				require.Empty(t, g.S.Stack, "no question is asked")
				require.Equal(t, tc.wantFirst, g.S.First)
				require.Equal(t, tc.wantFirst, g.S.Initiative)
				return
			}
			g.runForTest()
			player := tc.bot.Other()
			p, ok := g.PromptFor(player)
			require.True(t, ok)
			require.Equal(t, PromptInitiative, p.Kind)
			require.NoError(t, g.Apply(player, Choice{Kind: ChooseSide, Side: tc.bot}))
			require.Equal(t, tc.bot, g.S.First, "the Player gave the bot the first play")
			require.Equal(t, tc.bot, g.S.Initiative)
		})
	}
}

// TestSoloObjectiveScoringAsymmetry: solo step 8 — the bot scores a VP for
// controlling the space on either objective card, the Player only for his
// own card, never the bot's.
func TestSoloObjectiveScoringAsymmetry(t *testing.T) {
	tests := []struct {
		name   string
		board  func(s *State)
		wantVP [2]int8 // {Political, Military}, + for Versailles
	}{
		{"bot holds the Player's objective", func(s *State) { s.Cubes[Versailles][FortIssy] = 1 }, [2]int8{0, 1}},
		{"Player holds the bot's objective", func(s *State) { s.Cubes[Commune][Republicans] = 1 }, [2]int8{0, 0}},
		{"Player holds his own", func(s *State) { s.Cubes[Commune][FortIssy] = 1 }, [2]int8{0, -1}},
		{"bot holds its own", func(s *State) { s.Cubes[Versailles][Republicans] = 1 }, [2]int8{1, 0}},
		{"bot holds both", func(s *State) {
			s.Cubes[Versailles][Republicans], s.Cubes[Versailles][FortIssy] = 1, 1
		}, [2]int8{1, 1}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g, err := newSoloTestGame(Versailles, 1)
			require.NoError(t, err)
			g.setObjectiveForTest(Versailles, Republicans) // the bot's
			g.setObjectiveForTest(Commune, FortIssy)       // the Player's
			tc.board(&g.S)
			g.scoreObjectivesPhase()
			require.Equal(t, tc.wantVP, g.S.VP)
		})
	}
}

// TestSoloBotInitiativePlayerScoresFirst: solo step 7 — with the bot as
// Initiative Player the Player's VP come first; it matters only at the ±5
// cap, and the Player is not asked (decision 19). With the Player as
// Initiative Player he is asked.
func TestSoloBotInitiativePlayerScoresFirst(t *testing.T) {
	setup := func(initiative Side) *Game {
		g, err := newSoloTestGame(Versailles, 1)
		require.NoError(t, err)
		s := &g.S
		s.Initiative = initiative
		s.VP[Political] = 5
		for _, x := range dimensionMask[Institutional].Spaces() {
			s.Cubes[Versailles][x] = 1
		}
		for _, x := range dimensionMask[PublicOpinion].Spaces() {
			s.Cubes[Commune][x] = 1
		}
		return g
	}
	g := setup(Versailles)
	g.scoreDimensionsPhase()
	require.Empty(t, g.S.Stack, "nobody is asked")
	require.Equal(t, int8(5), g.S.VP[Political], "Commune first (5→4), then Versailles (4→5)")

	g = setup(Commune)
	g.scoreDimensionsPhase()
	require.Len(t, g.S.Stack, 1)
	require.Equal(t, fScoreOrder, g.S.Stack[0].K)
	require.Equal(t, Commune, g.S.Stack[0].Side, "the Player orders them")
}

// TestSoloBotInitiativePlayerObjectiveEventFirst: solo step 8 — with the bot
// as Initiative Player, its objective event comes after the Player's.
func TestSoloBotInitiativePlayerObjectiveEventFirst(t *testing.T) {
	g, err := newSoloTestGame(Versailles, 1)
	require.NoError(t, err)
	s := &g.S
	s.Initiative = Versailles
	g.setObjectiveForTest(Versailles, Republicans)
	g.setObjectiveForTest(Commune, FortIssy)
	s.Cubes[Versailles][Republicans], s.Cubes[Commune][FortIssy] = 1, 1
	s.Track[Versailles] = trackStart[Versailles]
	g.pushObjectiveEventsForTest()
	g.runForTest()
	_, botAsked := g.PromptFor(Versailles)
	require.False(t, botAsked)
	p, ok := g.PromptFor(Commune)
	require.True(t, ok)
	require.Equal(t, PromptObjEvent, p.Kind, "the Player's event first, without an order question")
}

// TestSoloTieGoesToTheBot: solo "Game End" — the bot wins whenever the
// game would go to the tiebreaker; a main condition still wins (decision 23).
func TestSoloTieGoesToTheBot(t *testing.T) {
	tests := []struct {
		bot        Side
		vp         [2]int8 // {Political, Military}, + for Versailles
		winner     Side
		wantReason string
	}{
		{Versailles, [2]int8{0, 0}, Versailles, "solo-tie"},
		{Commune, [2]int8{0, 0}, Commune, "solo-tie"},
		{Commune, [2]int8{-1, 1}, Commune, "solo-tie"},       // 1 Military against 1 Political
		{Versailles, [2]int8{5, -2}, Versailles, "solo-tie"}, // Commune Political −5, Versailles Military −2
		{Commune, [2]int8{0, 1}, Versailles, "victory"},
		{Versailles, [2]int8{-1, 0}, Commune, "victory"},
	}
	for _, tc := range tests {
		g, err := newSoloTestGame(tc.bot, 1)
		require.NoError(t, err)
		g.S.VP = tc.vp
		// With the 2-player tiebreaker the Commune would win these ties
		// (all tiebreakers equal) — or Versailles with the Initiative.
		g.S.Initiative = tc.bot.Other()
		g.decideVictory()
		require.NotNil(t, g.S.Result)
		require.Equal(t, tc.winner, g.S.Result.Winner, "bot %s VP %v", tc.bot, tc.vp)
		require.Equal(t, tc.wantReason, g.S.Result.Reason, "bot %s VP %v", tc.bot, tc.vp)
	}
}

// TestSoloBotTurnNothingToReveal: solo.md §6.1 step 7 — with the deck and
// the discard pile empty the bot's play is the momentum check alone, and
// it still counts as one of its three plays.
func TestSoloBotTurnNothingToReveal(t *testing.T) {
	g, err := newSoloTestGame(Versailles, 1)
	require.NoError(t, err)
	g.S.Deck, g.S.Discard = nil, nil
	g.pushBotTurnForTest()
	g.runForTest()
	require.Empty(t, g.Prompts())
	require.Empty(t, g.S.Stack)
	require.Equal(t, int8(1), g.S.Plays[Versailles])
}

// TestSoloDiscardedEventEligibility: solo step 4b and solo.md §6.1 step 4
// (decision 3) — only the top card, put there by the Player this round, of
// the bot's own colour (never grey), OP ≤ the revealed card's.
func TestSoloDiscardedEventEligibility(t *testing.T) {
	tests := []struct {
		name     string
		top      int // the top discard
		by       Side
		lastRnd  bool // put there in the previous round
		revealed int
		want     bool
	}{
		{"the Player's, this round", 19, Versailles, false, 38, true},
		{"previous round", 19, Versailles, true, 38, false},
		{"grey", 39, Versailles, false, 38, false},
		{"the Player's colour", 5, Versailles, false, 38, false},
		{"put there by the bot", 19, Commune, false, 38, false},
		{"more OP than the revealed card", 26, Versailles, false, 2, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g, err := newSoloTestGame(Commune, 1)
			require.NoError(t, err)
			s := &g.S
			s.Round = 2
			s.Momentum[Commune] = 1 // two empty pool cells: no momentum change
			s.Cubes[Commune][ButteAuxCailles] = 1
			s.Cubes[Versailles][ButteAuxCailles] = 1
			s.Cubes[Versailles][SocialMovements] = 1
			s.Cubes[Versailles][Republicans] = 1
			g.discardForTest(tc.top, tc.by)
			if tc.lastRnd {
				s.Discard[len(s.Discard)-1].Round = 1
			}
			g.putOnDeckForTest(tc.revealed)
			g.pushBotTurnForTest()
			g.runForTest()
			p, ok := g.PromptFor(Commune)
			require.True(t, ok)
			require.Equal(t, PromptPlay, p.Kind)
			offered := false
			for _, c := range p.Choices {
				if c.Mode == ModeDiscardedEvent {
					offered = true
					require.Equal(t, tc.top, c.N)
				}
			}
			require.Equal(t, tc.want, offered)
		})
	}
}

// TestSoloAvailableCubes: the definition of Available cubes (rulebook solo
// "Definitions", solo.md §1.3): pool and Crisis Track, not the Final
// Crisis zone or the bonus boxes (nor Prussian Collaboration cubes), and
// the Final Crisis zone too in round 3 and the Final Crisis once either
// side has breached its own.
func TestSoloAvailableCubes(t *testing.T) {
	tests := []struct {
		name     string
		round    int8
		breached Side // whose Final Crisis zone is breached
		want     int
	}{
		{"round 1", 1, NoSide, 5},
		{"round 2, a Final Crisis zone breached", 2, Commune, 5},
		{"round 3, none breached", 3, NoSide, 5},
		{"round 3, the Player's breached", 3, Commune, 7},
		{"round 3, its own breached", 3, Versailles, 7},
		{"Final Crisis, the Player's breached", roundFinal, Commune, 7},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g, err := newSoloTestGame(Versailles, 1)
			require.NoError(t, err)
			s := &g.S
			s.Round = tc.round
			s.Pool[Versailles] = 1
			s.Track[Versailles] = [NumZones]int8{1, 2, 1, 2}
			require.NotZero(t, s.Bonus[Versailles][ZoneEscalation], "bonus boxes are full")
			require.NotZero(t, s.Prussian[0], "cubes wait under Prussian Collaboration")
			if tc.breached != NoSide {
				s.Breached[tc.breached][ZoneFinalCrisis] = true
			}
			require.Equal(t, tc.want, s.Available(Versailles))
		})
	}
}

// TestSoloBotHoldsNoHand: over whole solo games (random choices for both
// sides — the engine alone must enforce this), the bot never holds or sets
// aside a card, makes three plays a round, and makes as many Final Crisis
// plays as the Player's hand size, the last with its Final Crisis card
// (solo steps 1, 4, 5; "Final Crisis").
func TestSoloBotHoldsNoHand(t *testing.T) {
	for _, bot := range []Side{Versailles, Commune} {
		for seed := int64(1); seed <= 30; seed++ {
			g, err := New(Options{Seed: seed, BotSide: bot})
			require.NoError(t, err)
			r := rand.New(rand.NewPCG(uint64(seed), 0x5010))
			fcPlays := 0
			for n := 0; g.S.Result == nil; n++ {
				require.Less(t, n, 5000)
				require.Empty(t, g.S.Hand[bot])
				require.Empty(t, g.S.SetAside[bot])
				ps := g.Prompts()
				require.NotEmpty(t, ps)
				p := ps[r.IntN(len(ps))]
				require.NoError(t, g.Apply(p.Side, p.Choices[r.IntN(len(p.Choices))]))
				if g.S.Round == roundFinal {
					fcPlays = int(g.S.Plays[bot])
				}
				require.NoError(t, g.CheckInvariants())
			}
			require.Equal(t, int(g.S.FCHand), fcPlays, "bot %s seed %d", bot, seed)
			require.False(t, g.S.FCHeld[bot], "its Final Crisis card was played")
			last := ""
			for _, e := range g.S.Log {
				if line := e.English(nil); strings.HasPrefix(line, "Solo opponent plays its Final Crisis card") {
					last = line
				}
			}
			require.NotEmpty(t, last, "bot %s seed %d", bot, seed)
		}
	}
}

// Rulebook, Solo Sequence of Play step 2 (solo.md §6.6): the two objectives
// drawn must name spaces of different Crisis Dimensions. When the redraws
// give up, the offer is the top card and the next card of another
// dimension, the rest of the deck keeping its order.
func TestSoloObjectivePairOfDifferentDimensions(t *testing.T) {
	g, err := newSoloTestGame(Versailles, 1)
	require.NoError(t, err)
	// Objectives: #42 Butte Montmartre, #43 Butte-aux-Cailles, #44 Père
	// Lachaise (Paris); #48 Press (Public Opinion); #53 National Assembly.
	tests := []struct {
		name     string
		deck     []int8 // top last
		wantPair []int8
		wantRest []int8
		ok       bool
	}{
		{"the top two differ", []int8{53, 48, 42}, []int8{42, 48}, []int8{53}, true},
		{"the top two share Paris: the next other card", []int8{53, 48, 44, 43, 42}, []int8{42, 48}, []int8{53, 44, 43}, true},
		{"only Paris is left", []int8{44, 43, 42}, nil, []int8{44, 43, 42}, false},
		{"one card", []int8{42}, nil, []int8{42}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			pair, rest, ok := g.differentDimensionPair(append([]int8(nil), tc.deck...))
			assert.Equal(t, tc.ok, ok)
			assert.Equal(t, tc.wantPair, pair)
			assert.Equal(t, tc.wantRest, rest)
		})
	}
}
