package engine

// The effect interpreter: a card's effect is a tree of nodes (cards.json);
// each node runs as an fEffect frame. Conventions D1-D16 of cards.md.

// startEvent begins resolving card's effect: decider makes the choices,
// you is the faction the card calls "you".
func (g *Game) startEvent(card int, decider, you Side) {
	g.S.LastSpace = NoSpace
	g.S.Drawn = 0
	g.push(Frame{K: fEffect, Side: decider, You: you, Card: int8(card), Node: 0, Space: NoSpace})
}

func (g *Game) node(f *Frame) *node { return &g.deck.Card(int(f.Card)).nodes[f.Node] }

// eventPlayable: a failed MUST or a leading IF makes the event unplayable (D8).
func (g *Game) eventPlayable(c *Card, you Side) bool {
	return g.nodePlayable(c, 0, you)
}

func (g *Game) nodePlayable(c *Card, i int16, you Side) bool {
	n := &c.nodes[i]
	if n.must && !g.canAffect(c, i, you) {
		return false
	}
	switch n.op {
	case opIf:
		return g.S.Controls(you, n.condControl)
	case opThen:
		return g.nodePlayable(c, n.kids[0], you)
	}
	return true
}

// scopeSet evaluates a scope now (the snapshot at the start of a step, D7).
func (g *Game) scopeSet(sc *scope, you Side) SpaceSet {
	s := &g.S
	m := sc.static
	if sc.present {
		m &= s.PresentSet(you)
	}
	if sc.adjControlled {
		m &= s.FedSet(you)
	}
	if sc.oppControls {
		m &= s.ControlledSet(you.Other())
	}
	if sc.bothPresent {
		m &= s.PresentSet(Versailles) & s.PresentSet(Commune)
	}
	if sc.same {
		if s.LastSpace == NoSpace {
			return 0
		}
		m &= SpaceSet(0).With(s.LastSpace)
	}
	return m & allMapSpaces
}

// canAffect is a static test of whether a node could change anything now
// (decision 21: a Final Crisis card with no possible effect is discarded;
// #22's "an option that would have an effect").
func (g *Game) canAffect(c *Card, i int16, you Side) bool {
	s := &g.S
	n := &c.nodes[i]
	opp := you.Other()
	switch n.op {
	case opThen, opAndOr, opChoose:
		for _, k := range n.kids {
			if g.canAffect(c, k, you) {
				return true
			}
		}
		return false
	case opIf:
		return s.Controls(you, n.condControl) && g.canAffect(c, n.kids[0], you)
	case opPlace:
		m := g.scopeSet(&n.sc, you)
		if n.sc.same {
			m = n.sc.static // "that space" is chosen by an earlier step
		}
		if !s.CanSupply(you) && !(n.ret && s.OutOfPlay[you] > 0) {
			return false
		}
		for _, x := range m.Spaces() {
			if s.Cubes[you][x] < maxCubes && (!n.capMask.Has(x) || n.caps[x] > 0) {
				return true
			}
		}
	case opRemove:
		for _, x := range g.scopeSet(&n.sc, you).Spaces() {
			if s.Cubes[opp][x] > 0 {
				return true
			}
		}
	case opReplace:
		if !s.CanSupply(you) {
			return false
		}
		for _, x := range g.scopeSet(&n.sc, you).Spaces() {
			if s.Cubes[opp][x] > 0 && s.Cubes[you][x] < maxCubes {
				return true
			}
		}
	case opPlaceDisc:
		m := g.scopeSet(&n.sc, you)
		free := 0
		for _, x := range m.Spaces() {
			if s.Disc[x] == NoSide {
				free++
			}
		}
		return free > 0
	case opRemoveDisc:
		for _, x := range g.scopeSet(&n.sc, you).Spaces() {
			if s.Disc[x] == opp && (n.evenIfCubes || s.Cubes[opp][x] == 0) {
				return true
			}
		}
	case opOps:
		sc := n.sc.static
		reach := s.ReachSet(you) & sc
		for _, x := range reach.Spaces() {
			if s.Cubes[opp][x] > 0 || s.Disc[x] == opp {
				return true
			}
			if s.CanSupply(you) && s.Cubes[you][x] < maxCubes {
				return true
			}
		}
	case opMomentum:
		side := you
		if n.whoOpp {
			side = opp
		}
		m := int(s.Momentum[side]) + int(n.delta)
		return m >= 0 && m <= maxMomentum
	case opReveal:
		return len(s.Hand[opp]) > 0
	case opDraw:
		return len(s.Deck) > 0
	case opDiscard:
		return len(s.Hand[you]) > 0
	case opForceDiscard:
		for _, h := range s.Hand[opp] {
			if g.deck.Card(int(h)).Side == opp {
				return true
			}
		}
	}
	return false
}

func (g *Game) stepEffect(f *Frame) bool {
	s := &g.S
	c := g.deck.Card(int(f.Card))
	n := &c.nodes[f.Node]
	child := func(k int16) Frame {
		return Frame{K: fEffect, Side: f.Side, You: f.You, Card: f.Card, Node: k, Space: NoSpace}
	}
	switch n.op {
	case opThen:
		if int(f.I) >= len(n.kids) {
			g.pop()
			return true
		}
		k := n.kids[f.I]
		f.I++
		g.push(child(k))
		return true
	case opAndOr:
		// Phase 0: choose the order; then both parts, each "up to".
		switch f.Phase {
		case 0:
			if g.canAffect(c, n.kids[0], f.You) && g.canAffect(c, n.kids[1], f.You) {
				g.offer(f)
				return false
			}
			f.Phase, f.I = 1, 0
			return true
		case 1:
			f.Phase = 2
			g.push(child(n.kids[f.I]))
		case 2:
			f.Phase = 3
			g.push(child(n.kids[1-f.I]))
		default:
			g.pop()
		}
		return true
	case opChoose:
		return g.waitOrSkip(f)
	case opIf:
		k := n.kids[0]
		ok := s.Controls(f.You, n.condControl)
		g.pop()
		if ok {
			g.push(child(k))
		} else {
			g.log(f.You, msg("engine.log.if-fails", aSide("Side", f.You), aSpace("Space", n.condControl)))
		}
		return true
	case opOps:
		fr := Frame{K: fOps, Side: f.Side, You: f.You, Card: f.Card, Node: f.Node, N: n.n, Space: NoSpace, I: -1}
		g.pop()
		g.push(fr)
		return true
	case opMomentum:
		side := f.You
		if n.whoOpp {
			side = f.You.Other()
		}
		g.pop()
		if !g.changeMomentum(side, int(n.delta)) {
			g.log(side, msg("engine.log.momentum-stuck", aTrack("Track", side)))
		}
		return true
	case opReveal:
		opp := f.You.Other()
		g.pop()
		g.log(opp, msg("engine.log.reveals-hand", aSide("Side", opp), aSide("To", f.You)))
		g.private(f.You, msg("engine.log.hand", aSide("Side", opp), aCardSet("Cards", s.Hand[opp])))
		g.revealed = true
		return true
	case opDraw:
		g.pop()
		drawn := 0
		for i := 0; i < int(n.n) && len(s.Deck) > 0; i++ { // no reshuffle (D14)
			s.Hand[f.You] = append(s.Hand[f.You], s.Deck[len(s.Deck)-1])
			s.Deck = s.Deck[:len(s.Deck)-1]
			drawn++
		}
		s.Drawn = int8(drawn)
		g.revealed = true
		g.log(f.You, msg("engine.log.draws", aSide("Side", f.You), aCount(drawn)))
		return true
	}
	// Primitive steps: read the scope once at the start (D7), then loop.
	if f.Phase == 0 {
		f.Phase = 1
		f.Mask = g.scopeSet(&n.sc, f.You)
		f.N = n.n
		if n.op == opDiscard {
			f.N = s.Drawn
		}
	}
	if f.N <= 0 && (n.op == opPlace || n.op == opRemove || n.op == opReplace || n.op == opDiscard) {
		g.pop()
		return true
	}
	return g.waitOrSkip(f)
}

func (g *Game) offerEffect(f *Frame) {
	s := &g.S
	c := g.deck.Card(int(f.Card))
	n := &c.nodes[f.Node]
	you, opp := f.You, f.You.Other()
	var mem [24]Choice // addPrompt keeps a copy
	ch := mem[:0]
	decider := f.Side
	kind := PromptOption
	switch n.op {
	case opAndOr:
		kind = PromptAndOrOrder
		ch = []Choice{{Kind: ChooseOption, N: 0}, {Kind: ChooseOption, N: 1}}
	case opChoose:
		if n.chooserOpp {
			decider = you.Other()
		}
		for i, k := range n.kids {
			if n.onlyEffective && !g.canAffect(c, k, you) {
				continue
			}
			ch = append(ch, Choice{Kind: ChooseOption, N: i})
		}
		if len(ch) == 0 {
			return
		}
	case opPlace:
		kind = PromptEventPlace
		supply, ret := s.CanSupply(you), n.ret && s.OutOfPlay[you] > 0
		for _, x := range f.Mask.Spaces() {
			if s.Cubes[you][x] >= maxCubes {
				continue
			}
			done := auxGet(f.Aux, x)
			if n.maxPer > 0 && done >= int(n.maxPer) || n.capMask.Has(x) && done >= int(n.caps[x]) {
				continue
			}
			if supply {
				ch = append(ch, Choice{Kind: ChoosePlace, Space: x})
			}
			if ret {
				ch = append(ch, Choice{Kind: ChoosePlace, Space: x, Extra: true})
			}
		}
	case opRemove:
		kind = PromptEventRemove
		if n.chooserOpp {
			decider = you.Other()
		}
		for _, x := range f.Mask.Spaces() {
			if s.Cubes[opp][x] == 0 || n.maxPer > 0 && auxGet(f.Aux, x) >= int(n.maxPer) {
				continue
			}
			ch = append(ch, Choice{Kind: ChooseRemove, Space: x})
		}
	case opReplace:
		kind = PromptEventReplace
		if s.CanSupply(you) {
			for _, x := range f.Mask.Spaces() {
				if s.Cubes[opp][x] > 0 && s.Cubes[you][x] < maxCubes {
					ch = append(ch, Choice{Kind: ChooseReplace, Space: x})
				}
			}
		}
	case opPlaceDisc:
		kind = PromptPlaceDisc
		if s.DiscsOnMap(you) < discsPerSide {
			for _, x := range f.Mask.Spaces() {
				if s.Disc[x] == NoSide {
					ch = append(ch, Choice{Kind: ChooseDisc, Space: x, To: NoSpace})
				}
			}
			if len(ch) == 0 {
				return
			}
			g.addPrompt(decider, kind, f, ch) // mandatory when possible
			return
		}
		// Both discs are on the map: the player may move one (rulebook).
		for from := Space(0); from < NumMapSpaces; from++ {
			if s.Disc[from] != you {
				continue
			}
			for _, x := range f.Mask.Spaces() {
				if s.Disc[x] == NoSide {
					ch = append(ch, Choice{Kind: ChooseDisc, Space: x, To: from, Extra: true})
				}
			}
		}
		if len(ch) == 0 {
			return
		}
		ch = append(ch, Choice{Kind: ChooseDone})
		g.addPrompt(decider, kind, f, ch)
		return
	case opRemoveDisc:
		kind = PromptRemoveDisc
		for _, x := range f.Mask.Spaces() {
			if s.Disc[x] == opp && (n.evenIfCubes || s.Cubes[opp][x] == 0) {
				ch = append(ch, Choice{Kind: ChooseRemove, Space: x})
			}
		}
	case opDiscard:
		kind = PromptEventDiscard
		for _, h := range s.Hand[you] {
			ch = append(ch, Choice{Kind: ChooseCard, Card: int(h)})
		}
	case opForceDiscard:
		kind = PromptForceDiscard
		decider = you
		for _, h := range s.Hand[opp] {
			if g.deck.Card(int(h)).Side == opp {
				ch = append(ch, Choice{Kind: ChooseCard, Card: int(h)})
			}
		}
		if len(ch) == 0 {
			return
		}
		ch = append(ch, Choice{Kind: ChooseNo})
		g.addPrompt(decider, kind, f, ch)
		return
	}
	if len(ch) == 0 {
		return
	}
	if n.upTo && n.op != opChoose && n.op != opAndOr {
		ch = append(ch, Choice{Kind: ChooseDone})
	}
	g.addPrompt(decider, kind, f, ch)
}

func (g *Game) applyEffect(f *Frame, c Choice) {
	s := &g.S
	card := g.deck.Card(int(f.Card))
	n := &card.nodes[f.Node]
	you, opp := f.You, f.You.Other()
	if c.Kind == ChooseDone || c.Kind == ChooseNo && n.op == opForceDiscard {
		g.pop()
		return
	}
	switch n.op {
	case opAndOr:
		f.I, f.Phase = int8(c.N), 1
		return
	case opChoose:
		k := n.kids[c.N]
		g.pop()
		g.log(you, msg("engine.log.option", aCard("Card", int(f.Card)), aLetter("Letter", c.N)))
		g.push(Frame{K: fEffect, Side: f.Side, You: you, Card: f.Card, Node: k, Space: NoSpace})
		return
	case opPlace:
		g.placeCube(you, c.Space, c.Extra)
		if c.Extra {
			g.log(you, msg("engine.log.returns-cube", aSide("Side", you), aSpace("Space", c.Space)))
		} else {
			g.log(you, msg("engine.log.places-cube", aSide("Side", you), aSpace("Space", c.Space)))
		}
	case opRemove:
		g.removeCube(opp, c.Space)
		g.log(you, msg("engine.log.removes-cube", aSide("Side", you), aSide("Opp", opp), aSpace("Space", c.Space)))
	case opReplace:
		g.removeCube(opp, c.Space)
		g.placeCube(you, c.Space, false)
		g.log(you, msg("engine.log.replaces-cube", aSide("Side", you), aSide("Opp", opp), aSpace("Space", c.Space)))
	case opPlaceDisc:
		if c.Extra {
			s.Disc[c.To] = NoSide
			g.log(you, msg("engine.log.moves-disc", aSide("Side", you), aDisc("Disc", you), aSpace("From", c.To), aSpace("Space", c.Space)))
		} else {
			g.log(you, msg("engine.log.places-disc", aSide("Side", you), aDisc("Disc", you), aSpace("Space", c.Space)))
		}
		s.Disc[c.Space] = you
		s.LastSpace = c.Space
		g.pop()
		return
	case opRemoveDisc:
		s.Disc[c.Space] = NoSide
		g.log(you, msg("engine.log.removes-disc", aSide("Side", you), aSide("Opp", opp), aDisc("Disc", opp), aSpace("Space", c.Space)))
		g.pop()
		return
	case opDiscard:
		s.Hand[you], _ = removeCard(s.Hand[you], c.Card)
		g.discard(c.Card, NoSide)
		g.log(you, msg("engine.log.discards", aSide("Side", you), aCard("Card", c.Card)))
	case opForceDiscard:
		s.Hand[opp], _ = removeCard(s.Hand[opp], c.Card)
		g.discard(c.Card, NoSide)
		g.log(you, msg("engine.log.forces-discard", aSide("Side", you), aSide("Opp", opp), aCard("Card", c.Card)))
		if len(s.Deck) > 0 {
			s.Hand[opp] = append(s.Hand[opp], s.Deck[len(s.Deck)-1])
			s.Deck = s.Deck[:len(s.Deck)-1]
			g.revealed = true
			g.log(opp, msg("engine.log.draws-one", aSide("Side", opp)))
		}
		g.pop()
		return
	}
	s.LastSpace = c.Space
	f.Aux = auxSet(f.Aux, c.Space, auxGet(f.Aux, c.Space)+1)
	f.N--
	if f.N <= 0 {
		g.pop()
	}
}
