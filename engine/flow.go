package engine

// The round sequence (rulebook "Sequence of Play", "Final Crisis", "Victory").

// fGame phases.
const (
	gDeal = iota
	gObjectives
	gInitiative
	gCensor
	gPlays
	gBonus
	gScoreDims
	gScoreObjectives
	gObjectiveEvents
	gEndRound
	gFCGather
	gFCInitiative
	gFCPlays
	gFCBonus
	gFCScore
	gVictory
)

func (g *Game) stepGame(f *Frame) bool {
	s := &g.S
	switch f.Phase {
	case gDeal:
		g.deal()
		f.Phase = gObjectives
	case gObjectives:
		f.Phase = gInitiative
		g.push(Frame{K: fObjectives})
	case gInitiative:
		f.Phase = gCensor
		g.initiativePhase()
	case gCensor:
		f.Phase = gPlays
		if s.Variant == Censorship {
			// Decision 24: the Initiative Player discards first, then the other.
			g.push(Frame{K: fCensor, Side: s.Initiative.Other(), You: s.Initiative.Other()})
			g.push(Frame{K: fCensor, Side: s.Initiative, You: s.Initiative})
		}
	case gPlays:
		if s.Plays[Versailles] >= roundsNormal && s.Plays[Commune] >= roundsNormal {
			f.Phase = gBonus
			return true
		}
		side := g.nextPlayer()
		g.pushTurn(side)
	case gBonus:
		for _, side := range [2]Side{Versailles, Commune} {
			if len(s.Hand[side]) > 0 {
				s.SetAside[side] = append(s.SetAside[side], s.Hand[side]...)
				s.Hand[side] = nil
			}
		}
		g.log(NoSide, msg("engine.log.set-aside"))
		f.Phase = gScoreDims
		g.push(Frame{K: fBonus})
	case gScoreDims:
		g.notify(CheckpointPlaysOver)
		f.Phase = gScoreObjectives
		g.scoreDimensionsPhase()
	case gScoreObjectives:
		f.Phase = gObjectiveEvents
		g.scoreObjectivesPhase()
	case gObjectiveEvents:
		f.Phase = gEndRound
		g.push(Frame{K: fObjEvents})
	case gEndRound:
		g.notify(CheckpointScored)
		both := s.Breached[Versailles][ZoneFinalCrisis] && s.Breached[Commune][ZoneFinalCrisis]
		if s.Round >= roundsNormal || both {
			if both && s.Round < roundsNormal {
				g.log(NoSide, msg("engine.log.fc-early", aNum("Round", int(s.Round))))
			}
			f.Phase = gFCGather
			return true
		}
		s.Round++
		g.log(NoSide, msg("engine.log.round-begins", aNum("Round", int(s.Round))))
		f.Phase = gDeal
	case gFCGather:
		n := s.Round // rounds played so far = Final Crisis hand size (decision 21)
		s.FCHand = n
		for _, side := range [2]Side{Versailles, Commune} {
			hand := append(s.Hand[side], s.SetAside[side]...)
			if s.FCHeld[side] && side != s.BotSide {
				hand = append(hand, int8(FinalCrisisCardOf(side)))
				s.FCHeld[side] = false
			}
			s.Hand[side], s.SetAside[side] = hand, nil
		}
		s.Round = roundFinal
		s.Plays = [2]int8{}
		s.Objective = [2]int8{}
		s.ObjOffer = [2][]int8{}
		g.log(NoSide, msg("engine.log.fc-begins", aCount(int(n))))
		f.Phase = gFCInitiative
		g.push(Frame{K: fFCDiscard, N: n})
	case gFCInitiative:
		f.Phase = gFCPlays
		g.initiativePhase()
	case gFCPlays:
		side, ok := g.nextFCPlayer()
		if !ok {
			f.Phase = gFCBonus
			return true
		}
		g.pushFCTurn(side)
	case gFCBonus:
		f.Phase = gFCScore
		g.push(Frame{K: fBonus})
	case gFCScore:
		g.notify(CheckpointPlaysOver)
		f.Phase = gVictory
		g.scoreDimensionsPhase()
	case gVictory:
		for _, side := range [2]Side{Versailles, Commune} {
			if s.Momentum[side] == maxMomentum {
				kind := Political
				if side == Versailles {
					kind = Military
				}
				g.addVP(side, kind, 1)
				id := "engine.log.momentum-vp-political"
				if kind == Military {
					id = "engine.log.momentum-vp-military"
				}
				g.log(side, msg(id, aTrack("Track", side), aSide("Side", side)))
			}
		}
		g.decideVictory()
		g.notify(CheckpointScored)
		g.pop()
	}
	return true
}

// deal starts a round: Strategy and Objective cards for each player.
func (g *Game) deal() {
	s := &g.S
	n := handSize
	if s.Variant == Censorship {
		n = handSizeCens
	}
	s.Plays = [2]int8{}
	s.Objective = [2]int8{}
	s.ObjRevealed = false
	for _, side := range [2]Side{Versailles, Commune} {
		if side == s.BotSide {
			continue // the solo opponent holds no hand
		}
		for i := 0; i < n; i++ {
			c, ok := g.drawCard()
			if !ok {
				break
			}
			s.Hand[side] = append(s.Hand[side], int8(c))
		}
	}
	if s.BotSide == NoSide {
		for _, side := range [2]Side{Versailles, Commune} {
			for i := 0; i < objectiveDeal && len(s.ObjDeck) > 0; i++ {
				s.ObjOffer[side] = append(s.ObjOffer[side], s.ObjDeck[len(s.ObjDeck)-1])
				s.ObjDeck = s.ObjDeck[:len(s.ObjDeck)-1]
			}
		}
	} else {
		g.dealSoloObjectives()
	}
	g.revealed = true
	g.log(NoSide, msg("engine.log.deal", aNum("Round", int(s.Round))))
}

// dealSoloObjectives: draw 2 and redraw while both name one dimension
// (solo.md §6.6); the player receives both and keeps one, the other is the bot's.
func (g *Game) dealSoloObjectives() {
	s := &g.S
	player := s.BotSide.Other()
	for tries := 0; tries < 50 && len(s.ObjDeck) >= 2; tries++ {
		a, b := s.ObjDeck[len(s.ObjDeck)-1], s.ObjDeck[len(s.ObjDeck)-2]
		if g.deck.Card(int(a)).Space.Info().Dim != g.deck.Card(int(b)).Space.Info().Dim || g.oneDimensionLeft() {
			s.ObjDeck = s.ObjDeck[:len(s.ObjDeck)-2]
			s.ObjOffer[player] = []int8{a, b}
			return
		}
		g.shuffle(s.ObjDeck)
	}
	// Fifty redraws all in one dimension (odds far below 1e-30 while two
	// dimensions remain): take what the redraws converge to.
	if pair, rest, ok := g.differentDimensionPair(s.ObjDeck); ok {
		s.ObjOffer[player], s.ObjDeck = pair, rest
		return
	}
	// Fewer than 2 cards (never with 12 objectives and 3 rounds).
	s.ObjOffer[player] = append([]int8(nil), s.ObjDeck...)
	s.ObjDeck = nil
}

// differentDimensionPair takes from deck (top last) its top card and the
// next card of another Crisis Dimension; rest keeps the others in order.
// ok is false when no card of another dimension is left.
func (g *Game) differentDimensionPair(deck []int8) (pair, rest []int8, ok bool) {
	if len(deck) < 2 {
		return nil, deck, false
	}
	top := len(deck) - 1
	a := deck[top]
	for i := top - 1; i >= 0; i-- {
		if b := deck[i]; g.deck.Card(int(b)).Space.Info().Dim != g.deck.Card(int(a)).Space.Info().Dim {
			rest = append(append([]int8(nil), deck[:i]...), deck[i+1:top]...)
			return []int8{a, b}, rest, true
		}
	}
	return nil, deck, false
}

func (g *Game) oneDimensionLeft() bool {
	s := &g.S
	d := g.deck.Card(int(s.ObjDeck[0])).Space.Info().Dim
	for _, c := range s.ObjDeck {
		if g.deck.Card(int(c)).Space.Info().Dim != d {
			return false
		}
	}
	return true
}

// nextPlayer alternates from the first player.
func (g *Game) nextPlayer() Side {
	s := &g.S
	f := s.First
	if s.Plays[f] <= s.Plays[f.Other()] {
		return f
	}
	return f.Other()
}

func (g *Game) nextFCPlayer() (Side, bool) {
	side := g.nextPlayer()
	if g.fcCardsLeft(side) {
		return side, true
	}
	if g.fcCardsLeft(side.Other()) {
		return side.Other(), true
	}
	return NoSide, false
}

func (g *Game) fcCardsLeft(side Side) bool {
	s := &g.S
	if side == s.BotSide {
		return g.botFCPlaysLeft()
	}
	return len(s.Hand[side]) > 0
}

func (g *Game) pushTurn(side Side) {
	if side == g.S.BotSide {
		g.push(Frame{K: fBot, Side: side, You: side})
		return
	}
	g.push(Frame{K: fPlay, Side: side, You: side})
}

func (g *Game) pushFCTurn(side Side) {
	if side == g.S.BotSide {
		g.push(Frame{K: fBot, Side: side, You: side, Flags: botFinalCrisis})
		return
	}
	g.push(Frame{K: fFCPlay, Side: side, You: side})
}

// ---- objectives ----

func (g *Game) offerObjectives(f *Frame) {
	s := &g.S
	for _, side := range [2]Side{Versailles, Commune} {
		if f.Flags&(1<<uint(side)) != 0 || len(s.ObjOffer[side]) == 0 {
			continue
		}
		ch := make([]Choice, 0, 2)
		for _, c := range s.ObjOffer[side] {
			ch = append(ch, Choice{Kind: ChooseCard, Card: int(c)})
		}
		g.addPrompt(side, PromptObjective, f, ch)
	}
}

func (g *Game) applyObjective(f *Frame, side Side, c Choice) {
	s := &g.S
	s.Objective[side] = int8(c.Card)
	if s.BotSide != NoSide {
		// Solo: the other card is the bot's, face up (solo.md §6.6).
		for _, o := range s.ObjOffer[side] {
			if int(o) != c.Card {
				s.Objective[s.BotSide] = o
			}
		}
		s.ObjOffer[side] = nil
		g.log(side, msg("engine.log.keeps-solo", aSide("Side", side), aCard("Card", c.Card), aCard("Bot", int(s.Objective[s.BotSide]))))
		f.Flags = 3
		g.pop()
		return
	}
	for _, o := range s.ObjOffer[side] {
		if int(o) != c.Card {
			s.ObjOut = insertSorted(s.ObjOut, o) // the other card leaves the game face down
		}
	}
	s.ObjOffer[side] = nil
	f.Flags |= 1 << uint(side)
	g.log(side, msg("engine.log.chose-objective", aSide("Side", side)))
	g.private(side, msg("engine.log.keeps", aCard("Card", c.Card)))
	if f.Flags == 3 || len(s.ObjOffer[side.Other()]) == 0 {
		g.pop()
	}
}

// ---- initiative (rulebook "Initiative Phase", decision 18) ----

// InitiativeLevel is own Political VP minus own momentum.
func (s *State) InitiativeLevel(side Side) int {
	return s.VPFor(side, Political) - int(s.Momentum[side])
}

func (g *Game) initiativePhase() {
	s := &g.S
	v, c := s.InitiativeLevel(Versailles), s.InitiativeLevel(Commune)
	decider := Commune
	if v > c {
		decider = Versailles
	}
	g.log(decider, msg("engine.log.initiative-levels", aNum("V", int(v)), aNum("C", int(c)), aSide("Side", decider)))
	if decider == s.BotSide {
		// Solo: the bot always chooses to play second (solo.md §6.7).
		g.log(decider, msg("engine.log.solo-second"))
		g.setFirst(decider.Other())
		return
	}
	g.push(Frame{K: fInitiative, Side: decider, You: decider})
}

func (g *Game) offerInitiative(f *Frame) {
	g.addPrompt(f.Side, PromptInitiative, f, []Choice{{Kind: ChooseSide, Side: f.Side}, {Kind: ChooseSide, Side: f.Side.Other()}})
}

func (g *Game) applyInitiative(f *Frame, c Choice) {
	g.pop()
	g.setFirst(c.Side)
}

func (g *Game) setFirst(first Side) {
	g.S.First = first
	g.S.Initiative = first
	g.log(first, msg("engine.log.plays-first", aSide("Side", first)))
}

// ---- Censorship Phase (decision 24) ----

func (g *Game) offerCensor(f *Frame) {
	var mem [24]Choice // addPrompt keeps a copy
	ch := mem[:0]
	for _, c := range g.S.Hand[f.Side] {
		ch = append(ch, Choice{Kind: ChooseCard, Card: int(c)})
	}
	g.addPrompt(f.Side, PromptCensor, f, ch)
}

func (g *Game) applyCensor(f *Frame, c Choice) {
	s := &g.S
	s.Hand[f.Side], _ = removeCard(s.Hand[f.Side], c.Card)
	g.discard(c.Card, f.Side) // counts as played by that player this round
	g.log(f.Side, msg("engine.log.censor", aSide("Side", f.Side), aCard("Card", c.Card)))
	g.pop()
}

// ---- playing a card in a normal round (rulebook "Playing Strategy Cards") ----

// topDiscardUsable reports whether side may use the top discarded event
// (decision 3) and returns that card.
func (g *Game) topDiscardUsable(side Side) (int, bool) {
	s := &g.S
	if len(s.Discard) == 0 {
		return 0, false
	}
	top := s.Discard[len(s.Discard)-1]
	if top.By != side.Other() || top.Round != s.Round {
		return 0, false
	}
	c := g.deck.Card(int(top.Card))
	if c.Side != side || !g.eventPlayable(c, side) {
		return 0, false
	}
	return int(top.Card), true
}

func (g *Game) offerPlay(f *Frame) {
	s := &g.S
	side := f.Side
	top, topOK := g.topDiscardUsable(side)
	topOP := 0
	if topOK {
		topOP = g.deck.Card(top).OP
	}
	var mem [40]Choice // addPrompt keeps a copy: room for a full hand on the stack
	ch := mem[:0]
	for _, n := range s.Hand[side] {
		c := g.deck.Card(int(n))
		if (c.Side == side || c.Side == NoSide) && g.eventPlayable(c, side) {
			ch = append(ch, Choice{Kind: ChoosePlay, Card: c.Num, Mode: ModeEvent})
		}
		ch = append(ch, Choice{Kind: ChoosePlay, Card: c.Num, Mode: ModeOps, Cost: c.OP})
		if topOK && c.OP >= topOP {
			ch = append(ch, Choice{Kind: ChoosePlay, Card: c.Num, Mode: ModeDiscardedEvent, N: top})
		}
		if s.Momentum[side] < maxMomentum {
			ch = append(ch, Choice{Kind: ChoosePlay, Card: c.Num, Mode: ModeMomentum})
		}
		if s.FCHeld[side] {
			ch = append(ch, Choice{Kind: ChoosePlay, Card: c.Num, Mode: ModeFinalCrisisOps, N: FinalCrisisCardOf(side), Cost: g.deck.Card(FinalCrisisCardOf(side)).OP})
		}
	}
	g.addPrompt(side, PromptPlay, f, ch)
}

func (g *Game) applyPlay(f *Frame, c Choice) {
	s := &g.S
	side := f.Side
	g.pop()
	s.Hand[side], _ = removeCard(s.Hand[side], c.Card)
	card := g.deck.Card(c.Card)
	switch c.Mode {
	case ModeEvent:
		g.log(side, msg("engine.log.play-event", aSide("Side", side), aCard("Card", c.Card)))
		g.push(Frame{K: fEndPlay, Side: side, You: side, Card: int8(c.Card), Flags: 1})
		g.startEvent(c.Card, side, side)
	case ModeOps:
		g.log(side, msg("engine.log.play-ops", aSide("Side", side), aCard("Card", c.Card), aOP("OP", card.OP)))
		g.push(Frame{K: fEndPlay, Side: side, You: side, Card: int8(c.Card), Flags: 1})
		g.push(Frame{K: fOps, Side: side, You: side, N: int8(card.OP), Node: -1, Space: NoSpace, I: -1})
	case ModeDiscardedEvent:
		g.log(side, msg("engine.log.play-discarded", aSide("Side", side), aCard("Card", c.Card), aCard("Event", c.N)))
		g.push(Frame{K: fEndPlay, Side: side, You: side, Card: int8(c.Card), Flags: 1})
		g.startEvent(c.N, side, side)
	case ModeMomentum:
		g.log(side, msg("engine.log.play-momentum", aSide("Side", side), aCard("Card", c.Card), aTrack("Track", side)))
		g.removeFromGame(c.Card)
		g.push(Frame{K: fEndPlay, Side: side, You: side, Flags: 1})
		g.changeMomentum(side, 1)
	case ModeFinalCrisisOps:
		fc := FinalCrisisCardOf(side)
		s.FCHeld[side] = false
		s.OutOfGame = insertSorted(s.OutOfGame, int8(fc))
		g.log(side, msg("engine.log.play-fc-ops", aSide("Side", side), aCard("Card", c.Card), aCard("FC", fc), aOP("OP", c.Cost)))
		g.push(Frame{K: fEndPlay, Side: side, You: side, Card: int8(c.Card), Flags: 1})
		g.push(Frame{K: fOps, Side: side, You: side, N: int8(c.Cost), Node: -1, Space: NoSpace, I: -1})
	}
}

// stepEndPlay closes a card play: bonus cubes of breached zones, the card
// onto the discard pile, the play counted.
func (g *Game) stepEndPlay(f *Frame) {
	g.payBonuses()
	if f.Card > 0 {
		by := f.Side
		if f.Flags&2 != 0 {
			by = NoSide
		}
		g.discard(int(f.Card), by)
	}
	if f.Flags&1 != 0 {
		g.S.Plays[f.Side]++
	}
	g.pop()
}

// ---- the free cube after a momentum rise (decision 17) ----

func freeCubeDimension(placer Side) Dimension {
	if placer == Commune {
		return PublicOpinion // Prussian Collaboration rose
	}
	return Institutional // Revolutionary Momentum rose
}

func (g *Game) offerFreeCube(f *Frame) {
	s := &g.S
	if !s.CanSupply(f.Side) {
		return
	}
	var mem [24]Choice // addPrompt keeps a copy
	ch := mem[:0]
	for _, x := range dimensionMask[freeCubeDimension(f.Side)].Spaces() {
		if s.Cubes[f.Side][x] < maxCubes {
			ch = append(ch, Choice{Kind: ChoosePlace, Space: x})
		}
	}
	if len(ch) == 0 {
		return
	}
	ch = append(ch, Choice{Kind: ChooseDone})
	g.addPrompt(f.Side, PromptFreeCube, f, ch)
}

func (g *Game) applyFreeCube(f *Frame, c Choice) {
	side := f.Side
	g.pop()
	if c.Kind == ChooseDone {
		g.log(side, msg("engine.log.declines-free", aSide("Side", side)))
		return
	}
	g.placeCube(side, c.Space, false)
	g.log(side, msg("engine.log.free-cube", aSide("Side", side), aSpace("Space", c.Space)))
}

// ---- Final Crisis ----

func (g *Game) offerFCDiscard(f *Frame) {
	s := &g.S
	for _, side := range [2]Side{Versailles, Commune} {
		if len(s.Hand[side]) <= int(f.N) {
			continue
		}
		var mem [24]Choice // addPrompt keeps a copy
		ch := mem[:0]
		for _, c := range s.Hand[side] {
			ch = append(ch, Choice{Kind: ChooseCard, Card: int(c)})
		}
		g.addPrompt(side, PromptFCDiscard, f, ch)
	}
}

func (g *Game) applyFCDiscard(f *Frame, side Side, c Choice) {
	s := &g.S
	s.Hand[side], _ = removeCard(s.Hand[side], c.Card)
	g.discard(c.Card, NoSide)
	g.log(side, msg("engine.log.fc-discard", aSide("Side", side), aCard("Card", c.Card)))
	if len(s.Hand[Versailles]) <= int(f.N) && len(s.Hand[Commune]) <= int(f.N) {
		g.pop()
	}
}

func (g *Game) offerFCPlay(f *Frame) {
	var mem [24]Choice // addPrompt keeps a copy
	ch := mem[:0]
	for _, c := range g.S.Hand[f.Side] {
		ch = append(ch, Choice{Kind: ChoosePlay, Card: int(c), Mode: ModeFinalCrisis})
	}
	g.addPrompt(f.Side, PromptFCPlay, f, ch)
}

// applyFCPlay: events only; the owner of an opponent-coloured event decides
// whether and how it applies; an event with no possible effect is discarded
// (decision 21).
func (g *Game) applyFCPlay(f *Frame, c Choice) {
	s := &g.S
	side := f.Side
	g.pop()
	s.Hand[side], _ = removeCard(s.Hand[side], c.Card)
	g.push(Frame{K: fEndPlay, Side: side, You: side, Card: int8(c.Card), Flags: 1})
	g.resolveFCEvent(side, c.Card)
}

func (g *Game) resolveFCEvent(side Side, num int) {
	card := g.deck.Card(num)
	you := side
	if card.Side == side.Other() {
		you = side.Other()
	}
	g.log(side, msg("engine.log.fc-play", aSide("Side", side), aCard("Card", num)))
	if !g.eventPlayable(card, you) || !g.canAffect(card, 0, you) {
		g.log(side, msg("engine.log.fc-no-effect", aCard("Card", num)))
		return
	}
	if you != side {
		g.push(Frame{K: fFCDecide, Side: you, You: you, Card: int8(num)})
		return
	}
	g.startEvent(num, side, side)
}

func (g *Game) applyFCDecide(f *Frame, c Choice) {
	owner, num := f.Side, int(f.Card)
	g.pop()
	if c.Kind == ChooseNo {
		g.log(owner, msg("engine.log.fc-not-apply", aSide("Side", owner), aCard("Card", num)))
		return
	}
	g.log(owner, msg("engine.log.fc-applies", aSide("Side", owner), aCard("Card", num)))
	g.startEvent(num, owner, owner)
}

// ---- victory (rulebook "Victory", decision 23) ----

func (g *Game) decideVictory() {
	s := &g.S
	vm, cp := s.VPFor(Versailles, Military), s.VPFor(Commune, Political)
	r := &Result{Winner: NoSide, VP: s.VP}
	switch {
	case vm >= 0 && vm > cp:
		r.Winner, r.Reason = Versailles, "victory"
		r.setSummary(msg("engine.result.versailles-wins", aNum("VM", vm), aNum("CP", cp)))
	case cp >= 0 && cp > vm:
		r.Winner, r.Reason = Commune, "victory"
		r.setSummary(msg("engine.result.commune-wins", aNum("VM", vm), aNum("CP", cp)))
	case s.BotSide != NoSide:
		r.Winner, r.Reason = s.BotSide, "solo-tie"
		r.setSummary(msg("engine.result.solo-tie", aSide("Side", s.BotSide)))
	default:
		var t [2]int
		comb := s.VPFor(Versailles, Political) + s.VPFor(Versailles, Military)
		if comb > 0 {
			t[Versailles]++
		} else if comb < 0 {
			t[Commune]++
		}
		if a, b := len(s.Fulfilled[Versailles]), len(s.Fulfilled[Commune]); a > b {
			t[Versailles]++
		} else if b > a {
			t[Commune]++
		}
		var piv [2]int
		for _, x := range pivotalMask.Spaces() {
			if w := s.Controller(x); w != NoSide {
				piv[w]++
			}
		}
		if piv[Versailles] > piv[Commune] {
			t[Versailles]++
		} else if piv[Commune] > piv[Versailles] {
			t[Commune]++
		}
		t[s.Initiative]++
		r.Tiebreak = t
		r.Reason = "tiebreaker"
		if t[Versailles] > t[Commune] {
			r.Winner = Versailles
		} else {
			r.Winner = Commune // more tiebreakers, or still equal: the Commune
		}
		r.setSummary(msg("engine.result.tiebreak", aNum("V", t[Versailles]), aNum("C", t[Commune]), aSide("Side", r.Winner)))
	}
	s.Result = r
	s.Undo = nil
	g.log(r.Winner, msg("engine.log.game-over", aMsg("Summary", *r.Msg)))
}
