package engine

// Operations (rulebook "Operations", decisions 7-12).
//
// fOps: N = OP left, Card/Node = the event whose scope limits it (Node -1:
// a plain card play), I = sphere chosen (-1: not yet), Space = the single
// space of a "one space" operation once chosen. Phase 0 sphere, 1 snapshot
// before removals, 2 removing, 3 snapshot before placements, 4 placing.
// Mask holds the current snapshot's legal spaces, Aux their strengths.

const (
	opsSphere = iota
	opsSnapA
	opsRemove
	opsSnapB
	opsPlace
)

func (g *Game) opsScope(f *Frame) (SpaceSet, bool) {
	if f.Node < 0 {
		return allMapSpaces, false
	}
	n := &g.deck.Card(int(f.Card)).nodes[f.Node]
	return n.sc.static, n.oneSpace
}

func (g *Game) stepOps(f *Frame) bool {
	s := &g.S
	if f.N <= 0 {
		g.pop()
		return true
	}
	static, _ := g.opsScope(f)
	switch f.Phase {
	case opsSphere:
		pol, mil := static&sphereMask[Political] != 0, static&sphereMask[Military] != 0
		switch {
		case pol && !mil:
			f.I = int8(Political)
		case mil && !pol:
			f.I = int8(Military)
		default:
			g.offer(f)
			return false
		}
		f.Phase = opsSnapA
	case opsSnapA:
		// Presence and Control are read once before all removals (decision 8).
		f.Mask = s.ReachSet(f.You) & static & sphereMask[f.I]
		f.Aux = 0
		if Sphere(f.I) == Military {
			for _, x := range f.Mask.Spaces() {
				f.Aux = auxSet(f.Aux, x, s.Strength(f.You, x))
			}
		}
		f.Phase = opsRemove
	case opsRemove:
		g.offer(f)
		if len(g.prompts) > 0 && len(g.prompts[0].Choices) > 2 {
			return false
		}
		g.prompts = g.prompts[:0]
		f.Phase = opsSnapB // nothing to remove
	case opsSnapB:
		f.Mask = s.ReachSet(f.You) & static & sphereMask[f.I]
		f.Phase = opsPlace
	case opsPlace:
		return g.waitOrSkip(f)
	}
	return true
}

func (g *Game) unitCost(you Side, x Space) int {
	if g.S.Disc[x] == you.Other() {
		return 2
	}
	return 1
}

func (g *Game) offerOps(f *Frame) {
	s := &g.S
	you, opp := f.You, f.You.Other()
	switch f.Phase {
	case opsSphere:
		g.addPrompt(f.Side, PromptSphere, f, []Choice{{Kind: ChooseSphere, N: int(Political)}, {Kind: ChooseSphere, N: int(Military)}})
	case opsRemove:
		ch := make([]Choice, 0, 8)
		for _, x := range f.Mask.Spaces() {
			if f.Space != NoSpace && x != f.Space {
				continue
			}
			cubes := s.Cubes[opp][x] > 0
			if !cubes && s.Disc[x] != opp {
				continue
			}
			unit := g.unitCost(you, x)
			if int(f.N) < unit {
				continue
			}
			if Sphere(f.I) == Political {
				ch = append(ch, Choice{Kind: ChooseRemove, Space: x, Cost: 1})
				continue
			}
			st := auxGet(f.Aux, x)
			ch = append(ch, Choice{Kind: ChooseRemove, Space: x, Cost: unit, Strength: st})
			if st < 3 && int(f.N) >= unit+1 {
				ch = append(ch, Choice{Kind: ChooseRemove, Space: x, Cost: unit + 1, Strength: st + 1, Extra: true})
			}
		}
		ch = append(ch, Choice{Kind: ChooseStopRem}, Choice{Kind: ChooseDone})
		g.addPrompt(f.Side, PromptOpsRemove, f, ch)
	case opsPlace:
		if !s.CanSupply(you) {
			return
		}
		ch := make([]Choice, 0, 8)
		for _, x := range f.Mask.Spaces() {
			if f.Space != NoSpace && x != f.Space {
				continue
			}
			unit := g.unitCost(you, x)
			if s.Cubes[you][x] < maxCubes && int(f.N) >= unit {
				ch = append(ch, Choice{Kind: ChoosePlace, Space: x, Cost: unit})
			}
		}
		if len(ch) == 0 {
			return
		}
		ch = append(ch, Choice{Kind: ChooseDone})
		g.addPrompt(f.Side, PromptOpsPlace, f, ch)
	}
}

func (g *Game) applyOps(f *Frame, c Choice) {
	s := &g.S
	you, opp := f.You, f.You.Other()
	_, oneSpace := g.opsScope(f)
	switch c.Kind {
	case ChooseSphere:
		f.I = int8(c.N)
		f.Phase = opsSnapA
		id := "engine.log.operates-political"
		if Sphere(c.N) == Military {
			id = "engine.log.operates-military"
		}
		g.log(f.Side, msg(id, aSide("Side", you)))
	case ChooseDone:
		if f.N > 0 {
			g.log(f.Side, msg("engine.log.ends-ops", aSide("Side", you), aOPShort("OP", int(f.N))))
		}
		g.pop()
	case ChooseStopRem:
		f.Phase = opsSnapB
	case ChooseRemove:
		f.N -= int8(c.Cost)
		if oneSpace {
			f.Space = c.Space
		}
		ok := true
		if Sphere(f.I) == Military && c.Strength < 3 {
			card, drawn := g.drawCard()
			if !drawn {
				ok = false
				g.log(f.Side, msg("engine.log.attack-no-card", aSide("Side", you), aSpace("Space", c.Space), aNum("Strength", c.Strength)))
			} else {
				op := g.deck.Card(card).OP
				ok = c.Strength >= op
				g.removeFromGame(card)
				id := "engine.log.attack-failure"
				if ok {
					id = "engine.log.attack-success"
				}
				g.log(f.Side, msg(id, aSide("Side", you), aSpace("Space", c.Space), aNum("Strength", c.Strength), aCard("Card", card), aOPShort("OP", op)))
			}
		} else if Sphere(f.I) == Military {
			g.log(f.Side, msg("engine.log.attack-sure", aSide("Side", you), aSpace("Space", c.Space), aNum("Strength", c.Strength)))
		}
		if ok {
			if s.Cubes[opp][c.Space] > 0 {
				g.removeCube(opp, c.Space)
				g.log(f.Side, msg("engine.log.ops-removes-cube", aSide("Side", you), aSide("Opp", opp), aSpace("Space", c.Space), aOPShort("OP", c.Cost)))
			} else {
				s.Disc[c.Space] = NoSide
				g.log(f.Side, msg("engine.log.ops-removes-disc", aSide("Side", you), aSide("Opp", opp), aDisc("Disc", opp), aSpace("Space", c.Space), aOPShort("OP", c.Cost)))
			}
		}
	case ChoosePlace:
		f.N -= int8(c.Cost)
		if oneSpace {
			f.Space = c.Space
		}
		g.placeCube(you, c.Space, false)
		g.log(f.Side, msg("engine.log.ops-places", aSide("Side", you), aSpace("Space", c.Space), aOPShort("OP", c.Cost)))
	}
}

func discName(side Side) string {
	if side == Versailles {
		return "Fortification"
	}
	return "Barricade"
}
