package engine

// Test positions for this package's tests of the solo opponent's
// procedure: build a solo position, edit g.S, push procedures (bottom
// first), then runForTest. Package solo, outside, builds its positions
// through Resume (position.go), which checks them.

// newSoloTestGame returns a solo game, bot playing bot, in round 1 with an
// empty board: no cubes, no discs, empty pools, full Crisis Tracks and
// bonus areas, cubes under Prussian Collaboration, momentum and VP 0, the
// Commune as Initiative Player, and nothing on the stack (no prompt). The
// Player holds the 4 cards dealt by New; his objective offer is returned to
// the objective deck. Tests then set g.S fields and push procedures.
func newSoloTestGame(bot Side, seed int64) (*Game, error) {
	g, err := New(Options{Seed: seed, BotSide: bot})
	if err != nil {
		return nil, err
	}
	s := &g.S
	for i := 0; i < 2; i++ {
		s.ObjDeck = append(s.ObjDeck, s.ObjOffer[i]...)
		s.ObjOffer[i] = nil
	}
	s.Cubes = [2][NumMapSpaces]int8{}
	for x := range s.Disc {
		s.Disc[x] = NoSide
	}
	s.Pool, s.OutOfPlay, s.Momentum, s.VP = [2]int8{}, [2]int8{}, [2]int8{}, [2]int8{}
	s.Track, s.Bonus, s.Prussian = trackStart, bonusStart, prussianStart
	s.Breached, s.Pending = [2][NumZones]bool{}, [2][NumZones]bool{}
	s.FCFirst = NoSide
	s.Objective = [2]int8{}
	s.Plays = [2]int8{}
	s.Stack = nil
	s.Undo = nil
	g.cached = false
	return g, nil
}

// setObjectiveForTest gives side the objective card naming space x
// (removing it from wherever it is).
func (g *Game) setObjectiveForTest(side Side, x Space) {
	s := &g.S
	for n := firstObjective; n <= numCards; n++ {
		if g.deck.Card(n).Space != x {
			continue
		}
		s.ObjDeck, _ = removeCard(s.ObjDeck, n)
		s.ObjOut, _ = removeCard(s.ObjOut, n)
		for i := 0; i < 2; i++ {
			s.ObjOffer[i], _ = removeCard(s.ObjOffer[i], n)
			s.Fulfilled[i], _ = removeCard(s.Fulfilled[i], n)
			if int(s.Objective[i]) == n {
				s.Objective[i] = 0
			}
		}
		if old := s.Objective[side]; old != 0 {
			s.ObjDeck = append(s.ObjDeck, old) // keep the census whole
		}
		s.Objective[side] = int8(n)
		return
	}
}

// putOnDeckForTest takes the given Strategy cards from wherever they are
// (deck, discard pile, removed cards, hands) and puts them on top of the
// deck, the first given drawn first.
func (g *Game) putOnDeckForTest(cards ...int) {
	s := &g.S
	for _, c := range cards {
		s.Deck, _ = removeCard(s.Deck, c)
		s.Removed, _ = removeCard(s.Removed, c)
		for i := 0; i < 2; i++ {
			s.Hand[i], _ = removeCard(s.Hand[i], c)
			s.SetAside[i], _ = removeCard(s.SetAside[i], c)
		}
		for i := 0; i < len(s.Discard); i++ {
			if int(s.Discard[i].Card) == c {
				s.Discard = append(s.Discard[:i], s.Discard[i+1:]...)
				i--
			}
		}
	}
	for i := len(cards) - 1; i >= 0; i-- {
		s.Deck = append(s.Deck, int8(cards[i]))
	}
}

// discardForTest puts card on top of the discard pile as played by `by`
// in the current round (taking it from wherever it is).
func (g *Game) discardForTest(card int, by Side) {
	g.putOnDeckForTest(card)
	s := &g.S
	s.Deck = s.Deck[:len(s.Deck)-1]
	g.discard(card, by)
}

// giveCardForTest puts card into side's hand (taking it from wherever it is).
func (g *Game) giveCardForTest(side Side, card int) {
	g.putOnDeckForTest(card)
	s := &g.S
	s.Deck = s.Deck[:len(s.Deck)-1]
	s.Hand[side] = append(s.Hand[side], int8(card))
}

// pushBotTurnForTest pushes the solo opponent's turn of a normal round
// (momentum check, reveal of the top card, use, extra OP, discard).
func (g *Game) pushBotTurnForTest() {
	b := g.S.BotSide
	g.push(Frame{K: fBot, Side: b, You: b})
}

// pushBotFinalCrisisPlayForTest pushes one Final Crisis play of the solo
// opponent; g.S.Plays[bot] and g.S.FCHand decide whether it is a reveal or
// its Final Crisis card.
func (g *Game) pushBotFinalCrisisPlayForTest() {
	b := g.S.BotSide
	g.push(Frame{K: fBot, Side: b, You: b, Flags: botFinalCrisis})
}

// pushPlayForTest pushes a normal-round card play by side (from its hand).
func (g *Game) pushPlayForTest(side Side) {
	g.push(Frame{K: fPlay, Side: side, You: side})
}

// pushOpsForTest pushes an operation of op OP by side, in sphere (or, with
// sphere -1, with the sphere still to choose), over the whole map.
func (g *Game) pushOpsForTest(side Side, op int, sphere Sphere) {
	f := Frame{K: fOps, Side: side, You: side, N: int8(op), Node: -1, Space: NoSpace, I: int8(sphere)}
	if sphere >= 0 {
		f.Phase = opsSnapA
	}
	g.push(f)
}

// pushEventForTest pushes the resolution of card's event, "you" and
// decider being you.
func (g *Game) pushEventForTest(card int, you Side) {
	g.S.LastSpace, g.S.Drawn = NoSpace, 0
	g.push(Frame{K: fEffect, Side: you, You: you, Card: int8(card), Node: 0, Space: NoSpace})
}

// pushFreeCubeForTest pushes side's free cube after its opponent's
// momentum rose to 2 or 3.
func (g *Game) pushFreeCubeForTest(side Side) {
	g.push(Frame{K: fFreeCube, Side: side, You: side})
}

// pushBonusActionsForTest pushes the Pivotal Space bonus actions of the
// end of a round (who controls each Pivotal space is read when it runs).
func (g *Game) pushBonusActionsForTest() {
	g.push(Frame{K: fBonus})
}

// pushObjectiveEventsForTest pushes the objective events of the end of a
// round (g.S.Objective must be set).
func (g *Game) pushObjectiveEventsForTest() {
	g.push(Frame{K: fObjEvents})
}

// runForTest advances the game to its next decision after direct edits of
// g.S or pushes.
func (g *Game) runForTest() {
	g.S.Version++
	g.cached = false
	g.run()
}

// pushFinalCrisisForTest pushes the rest of the game from the Final
// Crisis card plays: the alternating plays (g.S.Plays, First, FCHand and
// the hands decide who plays next), the final bonus actions and scoring,
// and victory.
func (g *Game) pushFinalCrisisForTest() {
	g.push(Frame{K: fGame, Phase: gFCPlays})
}
