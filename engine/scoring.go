package engine

// End of round: Pivotal Space bonus actions, Crisis Dimension scoring,
// objective scoring (rulebook pp. 7-8, decisions 19-20).

// fBonus: Phase 0 records who controls each Pivotal Space (Aux: 2 bits per
// dimension, side+1) and which bonus actions are pending (Mask bits 0-3).
func (g *Game) stepBonus(f *Frame) bool {
	s := &g.S
	if f.Phase == 0 {
		f.Phase = 1
		for d := Dimension(0); d < NumDimensions; d++ {
			if w := s.Controller(pivotalOf[d]); w != NoSide {
				f.Mask |= 1 << uint(d)
				f.Aux |= uint64(w+1) << (2 * uint(d))
			}
		}
		if f.Mask == 0 {
			g.log(NoSide, msg("engine.log.no-pivotal"))
		}
	}
	if f.Mask == 0 {
		g.pop()
		return true
	}
	_, n := g.bonusOwners(f)
	if n == 1 {
		for d := Dimension(0); d < NumDimensions; d++ {
			if f.Mask&(1<<uint(d)) != 0 {
				g.startBonusAction(f, d)
				return true
			}
		}
	}
	g.offer(f)
	return false
}

func bonusOwner(f *Frame, d Dimension) Side { return Side(f.Aux>>(2*uint(d))&3) - 1 }

func (g *Game) bonusOwners(f *Frame) (owners [2]bool, pending int) {
	for d := Dimension(0); d < NumDimensions; d++ {
		if f.Mask&(1<<uint(d)) != 0 {
			owners[bonusOwner(f, d)] = true
			pending++
		}
	}
	return
}

// bonusChooser: the Initiative Player orders the actions when both players
// have one (decision 19); otherwise their owner orders their own. In solo,
// when the bot holds the Initiative the player acts first (solo.md §6.4).
func (g *Game) bonusChooser(f *Frame) Side {
	s := &g.S
	if s.BotSide != NoSide {
		return g.soloBonusChooser(f) // solo.md §6.4 (solo_rules.go)
	}
	owners, _ := g.bonusOwners(f)
	if owners[Versailles] && owners[Commune] {
		return s.Initiative
	}
	if owners[Versailles] {
		return Versailles
	}
	return Commune
}

func (g *Game) offerBonus(f *Frame) {
	s := &g.S
	chooser := g.bonusChooser(f)
	var mem [24]Choice // addPrompt keeps a copy
	ch := mem[:0]
	botFirst := s.BotSide != NoSide && s.Initiative == s.BotSide
	for d := Dimension(0); d < NumDimensions; d++ {
		if f.Mask&(1<<uint(d)) == 0 {
			continue
		}
		if botFirst && bonusOwner(f, d) == s.BotSide {
			if owners, _ := g.bonusOwners(f); owners[s.BotSide.Other()] {
				continue // the player's own actions come first
			}
		}
		ch = append(ch, Choice{Kind: ChooseDimension, N: int(d), Side: bonusOwner(f, d)})
	}
	g.addPrompt(chooser, PromptBonusOrder, f, ch)
}

func (g *Game) applyBonus(f *Frame, c Choice) {
	g.startBonusAction(f, Dimension(c.N))
}

func (g *Game) startBonusAction(f *Frame, d Dimension) {
	owner := bonusOwner(f, d)
	f.Mask &^= 1 << uint(d)
	g.push(Frame{K: fEndAction, Side: owner, You: owner})
	g.push(Frame{K: fBonusAction, Side: owner, You: owner, I: int8(d), Space: pivotalOf[d]})
}

func (g *Game) offerBonusAction(f *Frame) {
	s := &g.S
	d := Dimension(f.I)
	me, opp := f.Side, f.Side.Other()
	var ownCubes, roomy, turncoat bool
	for _, x := range dimensionMask[d].Spaces() {
		if s.Cubes[me][x] > 0 {
			ownCubes = true
		}
		if s.Cubes[me][x] < maxCubes {
			roomy = true
		}
		if s.Cubes[opp][x] > 0 && s.Cubes[me][x] < maxCubes && s.CanSupply(me) {
			turncoat = true
		}
	}
	var mem [24]Choice // addPrompt keeps a copy
	ch := mem[:0]
	if ownCubes {
		ch = append(ch, Choice{Kind: ChooseAction, N: ActionDeescalate})
		if roomy {
			ch = append(ch, Choice{Kind: ChooseAction, N: ActionSpread})
		}
	}
	if turncoat {
		ch = append(ch, Choice{Kind: ChooseAction, N: ActionTurncoat})
	}
	ch = append(ch, Choice{Kind: ChooseAction, N: ActionNone})
	g.addPrompt(me, PromptBonusAction, f, ch)
}

func (g *Game) applyBonusAction(f *Frame, c Choice) {
	side, d := f.Side, Dimension(f.I)
	g.pop()
	switch c.N {
	case ActionDeescalate:
		g.log(side, msg("engine.log.bonus-deescalate", aSide("Side", side), aDim("Dim", d)))
		g.push(Frame{K: fDeescalate, Side: side, You: side, I: int8(d), Space: pivotalOf[d]})
	case ActionSpread:
		g.log(side, msg("engine.log.bonus-spread", aSide("Side", side), aDim("Dim", d)))
		g.push(Frame{K: fSpread, Side: side, You: side, I: int8(d), N: 2, Space: pivotalOf[d]})
	case ActionTurncoat:
		g.log(side, msg("engine.log.bonus-turncoat", aSide("Side", side), aDim("Dim", d)))
		g.push(Frame{K: fTurncoat, Side: side, You: side, I: int8(d), Space: pivotalOf[d]})
	default:
		g.log(side, msg("engine.log.bonus-none", aSide("Side", side), aDim("Dim", d)))
	}
}

// De-escalate: remove up to 2 of your cubes, or 1 of yours and 1 of the
// opponent's, in the dimension.
func (g *Game) offerDeescalate(f *Frame) {
	s := &g.S
	me, opp := f.Side, f.Side.Other()
	var mem [24]Choice // addPrompt keeps a copy
	ch := mem[:0]
	for _, x := range dimensionMask[f.I].Spaces() {
		if s.Cubes[me][x] > 0 {
			ch = append(ch, Choice{Kind: ChooseRemoveOwn, Space: x})
		}
		if f.Phase == 1 && s.Cubes[opp][x] > 0 {
			ch = append(ch, Choice{Kind: ChooseRemove, Space: x})
		}
	}
	if len(ch) == 0 {
		return
	}
	ch = append(ch, Choice{Kind: ChooseDone})
	g.addPrompt(me, PromptDeescalate, f, ch)
}

func (g *Game) applyDeescalate(f *Frame, c Choice) {
	me := f.Side
	switch c.Kind {
	case ChooseDone:
		g.pop()
		return
	case ChooseRemoveOwn:
		g.removeCube(me, c.Space)
		g.log(me, msg("engine.log.removes-own", aSide("Side", me), aSpace("Space", c.Space)))
	case ChooseRemove:
		g.removeCube(me.Other(), c.Space)
		g.log(me, msg("engine.log.removes-cube", aSide("Side", me), aSide("Opp", me.Other()), aSpace("Space", c.Space)))
	}
	if f.Phase == 1 {
		g.pop()
		return
	}
	f.Phase = 1
}

// Spread Influence: move up to 2 of your cubes between spaces of the dimension.
func (g *Game) offerSpread(f *Frame) {
	s := &g.S
	me := f.Side
	var mem [24]Choice // addPrompt keeps a copy
	ch := mem[:0]
	sp := dimensionMask[f.I].Spaces()
	for _, from := range sp {
		if s.Cubes[me][from] == 0 {
			continue
		}
		for _, to := range sp {
			if to != from && s.Cubes[me][to] < maxCubes {
				ch = append(ch, Choice{Kind: ChooseMove, Space: from, To: to})
			}
		}
	}
	if len(ch) == 0 {
		return
	}
	ch = append(ch, Choice{Kind: ChooseDone})
	g.addPrompt(me, PromptSpread, f, ch)
}

func (g *Game) applySpread(f *Frame, c Choice) {
	s := &g.S
	if c.Kind == ChooseDone {
		g.pop()
		return
	}
	s.Cubes[f.Side][c.Space]--
	s.Cubes[f.Side][c.To]++
	g.log(f.Side, msg("engine.log.moves-cube", aSide("Side", f.Side), aSpace("From", c.Space), aSpace("To", c.To)))
	f.N--
	if f.N <= 0 {
		g.pop()
	}
}

// Turncoat: remove an opponent's cube and place one of yours in the same space.
func (g *Game) offerTurncoat(f *Frame) {
	s := &g.S
	me, opp := f.Side, f.Side.Other()
	if !s.CanSupply(me) {
		return
	}
	var mem [24]Choice // addPrompt keeps a copy
	ch := mem[:0]
	for _, x := range dimensionMask[f.I].Spaces() {
		if s.Cubes[opp][x] > 0 && s.Cubes[me][x] < maxCubes {
			ch = append(ch, Choice{Kind: ChooseReplace, Space: x})
		}
	}
	if len(ch) == 0 {
		return
	}
	ch = append(ch, Choice{Kind: ChooseDone})
	g.addPrompt(me, PromptTurncoat, f, ch)
}

func (g *Game) applyTurncoat(f *Frame, c Choice) {
	me := f.Side
	g.pop()
	if c.Kind == ChooseDone {
		return
	}
	g.removeCube(me.Other(), c.Space)
	g.placeCube(me, c.Space, false)
	g.log(me, msg("engine.log.replaces-cube", aSide("Side", me), aSide("Opp", me.Other()), aSpace("Space", c.Space)))
}

// ---- VP scoring with the ±5 cap ----

// gains[side][kind]: VP each side gains in one scoring step.
type gains [2][2]int

// applyGains applies one side's gains, then the other's.
func (g *Game) applyGains(gn gains, first Side) {
	for _, side := range [2]Side{first, first.Other()} {
		for kind := Political; kind <= Military; kind++ {
			if gn[side][kind] > 0 {
				g.addVP(side, kind, gn[side][kind])
			}
		}
	}
}

// orderMatters: applying the gains in the two orders ends differently
// (only possible at the ±5 cap, decision 19).
func (g *Game) orderMatters(gn gains) bool {
	a, b := g.S.VP, g.S.VP
	g.applyGains(gn, Versailles)
	a, g.S.VP = g.S.VP, a
	g.applyGains(gn, Commune)
	b, g.S.VP = g.S.VP, b
	return a != b
}

func (g *Game) dimensionGains() gains {
	var gn gains
	for d := Dimension(0); d < NumDimensions; d++ {
		if w := g.S.DimensionController(d); w != NoSide {
			gn[w][d.Sphere()]++
		}
	}
	return gn
}

func (g *Game) objectiveGains() gains {
	s := &g.S
	var gn gains
	for _, side := range [2]Side{Versailles, Commune} {
		o := int(s.Objective[side])
		if o == 0 {
			continue
		}
		x := g.deck.Card(o).Space
		w := s.Controller(x)
		if w == NoSide {
			continue
		}
		// Solo: the player scores only its own card; the bot scores either
		// (rulebook solo step 8).
		if s.BotSide != NoSide && w != s.BotSide && w != side {
			continue
		}
		gn[w][x.Info().Sphere]++
	}
	return gn
}

func (g *Game) scoreDimensionsPhase() {
	gn := g.dimensionGains()
	for d := Dimension(0); d < NumDimensions; d++ {
		if w := g.S.DimensionController(d); w != NoSide {
			id := "engine.log.controls-political"
			if d.Sphere() == Military {
				id = "engine.log.controls-military"
			}
			g.log(w, msg(id, aSide("Side", w), aDim("Dim", d)))
		}
	}
	g.scoreWithOrder(gn, 0)
}

func (g *Game) scoreObjectivesPhase() {
	s := &g.S
	s.ObjRevealed = true
	g.revealed = true
	for _, side := range [2]Side{Versailles, Commune} {
		if o := int(s.Objective[side]); o != 0 {
			x := g.deck.Card(o).Space
			g.log(side, msg("engine.log.reveals-objective", aSide("Side", side), aCard("Card", o), aSpace("Space", x), aSide("Controller", s.Controller(x))))
		}
	}
	g.scoreWithOrder(g.objectiveGains(), 1)
}

func (g *Game) scoreWithOrder(gn gains, which int8) {
	s := &g.S
	if gn == (gains{}) {
		return
	}
	if !g.orderMatters(gn) {
		g.applyGains(gn, s.Initiative)
		return
	}
	if s.BotSide != NoSide && s.Initiative == s.BotSide {
		g.applyGains(gn, s.BotSide.Other()) // the solo bot lets the player score first
		return
	}
	g.push(Frame{K: fScoreOrder, Side: s.Initiative, You: s.Initiative, I: which})
}

func (g *Game) applyScoreOrder(f *Frame, c Choice) {
	which := f.I
	g.pop()
	var gn gains
	if which == 0 {
		gn = g.dimensionGains()
	} else {
		gn = g.objectiveGains()
	}
	g.log(c.Side, msg("engine.log.scores-first", aSide("Side", c.Side)))
	g.applyGains(gn, c.Side)
}

// ---- objective events ----

// fObjEvents: Phase 0 records which sides controlled their own objective
// (Mask bit per side: may perform the event) and Flags (bit per side:
// fulfilled). Phase 1 runs the events in order.
func (g *Game) stepObjEvents(f *Frame) bool {
	s := &g.S
	if f.Phase == 0 {
		f.Phase = 1
		for _, side := range [2]Side{Versailles, Commune} {
			o := int(s.Objective[side])
			if o != 0 && s.Controls(side, g.deck.Card(o).Space) {
				f.Mask |= 1 << uint(side)
				f.Flags |= 1 << uint(side)
			}
		}
	}
	switch f.Mask {
	case 0:
		for _, side := range [2]Side{Versailles, Commune} {
			o := s.Objective[side]
			if o == 0 {
				continue
			}
			if f.Flags&(1<<uint(side)) != 0 {
				s.Fulfilled[side] = append(s.Fulfilled[side], o)
				g.log(side, msg("engine.log.fulfils", aSide("Side", side), aCard("Card", int(o))))
			} else {
				s.ObjOut = insertSorted(s.ObjOut, o)
				g.log(side, msg("engine.log.not-fulfilled", aSide("Side", side), aCard("Card", int(o))))
			}
			s.Objective[side] = 0
		}
		g.pop()
		return true
	case 3:
		chooser := s.Initiative
		if s.BotSide != NoSide && s.Initiative == s.BotSide {
			g.startObjEvent(f, s.BotSide.Other()) // the player's event comes first
			return true
		}
		f.Side = chooser
		g.offer(f)
		return false
	case 1:
		g.startObjEvent(f, Versailles)
	default:
		g.startObjEvent(f, Commune)
	}
	return true
}

func (g *Game) offerObjEvents(f *Frame) {
	g.addPrompt(f.Side, PromptObjEventOrder, f, []Choice{{Kind: ChooseSide, Side: Versailles}, {Kind: ChooseSide, Side: Commune}})
}

func (g *Game) applyObjEvents(f *Frame, c Choice) { g.startObjEvent(f, c.Side) }

func (g *Game) startObjEvent(f *Frame, side Side) {
	f.Mask &^= 1 << uint(side)
	o := g.S.Objective[side]
	g.push(Frame{K: fEndAction, Side: side, You: side})
	g.push(Frame{K: fObjEvent, Side: side, You: side, Card: o})
}

func (g *Game) applyObjEvent(f *Frame, c Choice) {
	side, o := f.Side, int(f.Card)
	g.pop()
	if c.Kind == ChooseNo {
		g.log(side, msg("engine.log.skips-objective", aSide("Side", side), aCard("Card", o)))
		return
	}
	g.log(side, msg("engine.log.performs-objective", aSide("Side", side), aCard("Card", o)))
	g.startEvent(o, side, side)
}
