package engine

// Words for players: what a prompt asks and what each choice means, as
// messages of the catalogue (PromptMsg, ChoiceMsg) and in English
// (PromptText, ChoiceText).

// PromptText is the question a prompt asks, in English.
func (g *Game) PromptText(p Prompt) string { return g.PromptMsg(p).English(g.deck) }

// ChoiceText describes a choice of prompt p in English.
func (g *Game) ChoiceText(p Prompt, c Choice) string { return g.ChoiceMsg(p, c).English(g.deck) }

// NamesRound reports whether the log message id names the round (or the
// Final Crisis) itself, as "Round 2 begins." does: a caption or title that
// quotes such a line leaves out its own round prefix rather than say the
// round twice.
func NamesRound(id string) bool {
	switch id {
	case "engine.log.round-begins", "engine.log.deal", "engine.log.fc-begins", "engine.log.fc-early",
		"engine.log.setup-standard", "engine.log.setup-censorship", "engine.log.setup-solo":
		return true
	}
	return false
}

// PromptMsg is the question a prompt asks.
func (g *Game) PromptMsg(p Prompt) Msg {
	s := &g.S
	card := aCard("Card", p.Card)
	switch p.Kind {
	case PromptObjective:
		if s.BotSide != NoSide {
			return msg("engine.prompt.objective-solo") // the other card is the bot's (solo.md §6.6)
		}
		return msg("engine.prompt.objective")
	case PromptInitiative:
		if v := s.InitiativeLevel(Versailles); v == s.InitiativeLevel(Commune) {
			return msg("engine.prompt.initiative-tie", aNum("N", v)) // decision 18: the Commune decides a tie
		}
		return msg("engine.prompt.initiative")
	case PromptCensor:
		return msg("engine.prompt.censor")
	case PromptPlay:
		return msg("engine.prompt.play", aNum("Round", int(s.Round)), aNum("Play", int(s.Plays[p.Side])+1))
	case PromptSphere:
		return msg("engine.prompt.sphere", aOPShort("OP", p.N))
	case PromptOpsRemove:
		return msg("engine.prompt.ops-remove", aOPShort("OP", p.N), aSide("Opp", p.Side.Other()))
	case PromptOpsPlace:
		return msg("engine.prompt.ops-place", aOPShort("OP", p.N))
	case PromptFreeCube:
		return msg("engine.prompt.free-cube", aTrack("Track", p.Side.Other()), aDim("Dim", freeCubeDimension(p.Side)))
	case PromptFCDiscard:
		return msg("engine.prompt.fc-discard", aCount(p.N))
	case PromptFCPlay:
		return msg("engine.prompt.fc-play")
	case PromptFCDecide:
		return msg("engine.prompt.fc-decide", aSide("Opp", p.Side.Other()), card)
	case PromptBonusOrder:
		return msg("engine.prompt.bonus-order")
	case PromptBonusAction:
		return msg("engine.prompt.bonus-action", aSpace("Space", p.Space), aDim("Dim", p.Space.Info().Dim))
	case PromptDeescalate:
		return msg("engine.prompt.deescalate")
	case PromptSpread:
		return msg("engine.prompt.spread", aCount(p.N))
	case PromptTurncoat:
		return msg("engine.prompt.turncoat")
	case PromptScoreOrder:
		return msg("engine.prompt.score-order")
	case PromptObjEventOrder:
		return msg("engine.prompt.objective-order")
	case PromptObjEvent:
		return msg("engine.prompt.objective-event", card)
	case PromptOption:
		return msg("engine.prompt.option", card)
	case PromptAndOrOrder:
		return msg("engine.prompt.andor-order", card)
	case PromptEventPlace:
		return msg("engine.prompt.event-place", card, aNum("Left", p.N))
	case PromptEventRemove:
		return msg("engine.prompt.event-remove", card, aSide("Opp", g.effectYou(p).Other()), aNum("Left", p.N))
	case PromptEventReplace:
		return msg("engine.prompt.event-replace", card)
	case PromptPlaceDisc:
		return msg("engine.prompt.place-disc", card, aDisc("Disc", g.effectYou(p)))
	case PromptRemoveDisc:
		return msg("engine.prompt.remove-disc", card)
	case PromptEventDiscard:
		return msg("engine.prompt.event-discard", card, aNum("Left", p.N))
	case PromptForceDiscard:
		return msg("engine.prompt.force-discard", card)
	}
	return msg("engine.prompt.other", aText("Kind", string(p.Kind)))
}

// effectYou: the faction "you" of the effect being resolved.
func (g *Game) effectYou(p Prompt) Side {
	if len(g.S.Stack) > 0 {
		return g.top().You
	}
	return p.Side
}

// ChoiceMsg describes a choice of prompt p.
func (g *Game) ChoiceMsg(p Prompt, c Choice) Msg {
	s := &g.S
	you := g.effectYou(p)
	opp := you.Other()
	card := aCard("Card", c.Card)
	sp := aSpace("Space", c.Space)
	switch c.Kind {
	case ChoosePlay:
		cd := g.deck.Card(c.Card)
		switch c.Mode {
		case ModeEvent:
			if !g.EventHasEffect(c.Card, p.Side) {
				return msg("engine.choice.play-event-no-effect", card)
			}
			return msg("engine.choice.play-event", card)
		case ModeOps:
			return msg("engine.choice.play-ops", card, aOP("OP", cd.OP))
		case ModeDiscardedEvent:
			if !g.EventHasEffect(c.N, p.Side) {
				return msg("engine.choice.play-discarded-no-effect", card, aCard("Event", c.N))
			}
			return msg("engine.choice.play-discarded", card, aCard("Event", c.N))
		case ModeMomentum:
			return msg("engine.choice.play-momentum", card, aTrack("Track", p.Side))
		case ModeFinalCrisisOps:
			return msg("engine.choice.play-fc-ops", card, aCard("FC", c.N), aOPShort("OP", c.Cost))
		case ModeFinalCrisis:
			if cd.Side == p.Side.Other() {
				return msg("engine.choice.play-fc-owner", card, aSide("Owner", cd.Side))
			}
			if !g.EventHasEffect(c.Card, p.Side) {
				return msg("engine.choice.play-event-no-effect", card)
			}
			return msg("engine.choice.play-event", card)
		}
	case ChooseCard:
		switch p.Kind {
		case PromptObjective:
			return msg("engine.choice.keep-objective", card, aSpace("Space", g.deck.Card(c.Card).Space))
		case PromptForceDiscard:
			return msg("engine.choice.force-discard", card)
		}
		return msg("engine.choice.discard", card)
	case ChooseSide:
		switch p.Kind {
		case PromptInitiative:
			if c.Side == p.Side {
				return msg("engine.choice.play-first")
			}
			return msg("engine.choice.play-second", aSide("Side", c.Side))
		case PromptObjEventOrder:
			return msg("engine.choice.objective-first", aSide("Side", c.Side))
		}
		return msg("engine.choice.scores-first", aSide("Side", c.Side))
	case ChooseSphere:
		if Sphere(c.N) == Military {
			return msg("engine.choice.military")
		}
		return msg("engine.choice.political")
	case ChooseRemove:
		switch p.Kind {
		case PromptOpsRemove:
			what := msg("engine.choice.what-cube", aSide("Side", opp))
			if s.Cubes[opp][c.Space] == 0 {
				what = msg("engine.choice.what-disc", aSide("Side", opp), aDisc("Disc", opp))
			}
			args := []Arg{aMsg("What", what), sp, aOPShort("OP", c.Cost)}
			if c.Space.Info().Sphere == Political {
				return msg("engine.choice.remove-political", args...)
			}
			args = append(args, aNum("Strength", c.Strength))
			ids := [2][2]string{
				{"engine.choice.attack-draw", "engine.choice.attack-draw-extra"},
				{"engine.choice.attack-sure", "engine.choice.attack-sure-extra"},
			}
			sure, extra := 0, 0
			if c.Strength >= 3 {
				sure = 1
			}
			if c.Extra {
				extra = 1
			}
			return msg(ids[sure][extra], args...)
		case PromptRemoveDisc:
			return msg("engine.choice.remove-disc", aSide("Opp", opp), aDisc("Disc", opp), sp)
		case PromptDeescalate:
			return msg("engine.choice.remove-cube", aSide("Opp", p.Side.Other()), sp)
		}
		return msg("engine.choice.remove-cube", aSide("Opp", opp), sp)
	case ChooseRemoveOwn:
		return msg("engine.choice.remove-own", sp)
	case ChoosePlace:
		if c.Extra {
			return msg("engine.choice.place-returned", sp)
		}
		if c.Cost > 0 {
			return msg("engine.choice.place-cost", sp, aOPShort("OP", c.Cost))
		}
		return msg("engine.choice.place", sp)
	case ChooseReplace:
		return msg("engine.choice.replace", aSide("Opp", p.Side.Other()), sp)
	case ChooseDisc:
		if c.Extra {
			return msg("engine.choice.disc-move", aDisc("Disc", you), aSpace("From", c.To), sp)
		}
		return msg("engine.choice.disc-place", aDisc("Disc", you), sp)
	case ChooseMove:
		return msg("engine.choice.move", aSpace("From", c.Space), aSpace("To", c.To))
	case ChooseOption:
		if len(s.Stack) > 0 {
			f := g.top()
			if f.K == fEffect {
				cd := g.deck.Card(int(f.Card))
				n := &cd.nodes[f.Node]
				if c.N < len(n.kids) {
					eff := aMsg("Effect", g.describeNode(cd, n.kids[c.N]))
					if n.op == opAndOr {
						return msg("engine.choice.first", eff)
					}
					return msg("engine.choice.option", aLetter("Letter", c.N), eff)
				}
			}
		}
		return msg("engine.choice.option-plain", aLetter("Letter", c.N))
	case ChooseAction:
		switch c.N {
		case ActionDeescalate:
			return msg("engine.choice.action-deescalate")
		case ActionSpread:
			return msg("engine.choice.action-spread")
		case ActionTurncoat:
			return msg("engine.choice.action-turncoat")
		}
		return msg("engine.choice.action-none")
	case ChooseDimension:
		d := Dimension(c.N)
		return msg("engine.choice.dimension", aSide("Side", c.Side), aDim("Dim", d), aSpace("Space", pivotalOf[d]))
	case ChooseYes:
		switch p.Kind {
		case PromptFCDecide:
			return msg("engine.choice.fc-applies")
		case PromptObjEvent:
			return msg("engine.choice.perform-event")
		}
		return msg("engine.choice.yes")
	case ChooseNo:
		switch p.Kind {
		case PromptFCDecide:
			return msg("engine.choice.fc-not")
		case PromptObjEvent:
			return msg("engine.choice.skip-event")
		case PromptForceDiscard:
			return msg("engine.choice.no-card")
		}
		return msg("engine.choice.no")
	case ChooseDone:
		switch p.Kind {
		case PromptFreeCube:
			return msg("engine.choice.decline-free")
		case PromptOpsRemove, PromptOpsPlace:
			if p.N > 0 {
				return msg("engine.choice.end-ops-unspent", aOPShort("OP", p.N))
			}
			return msg("engine.choice.end-ops")
		}
		return msg("engine.choice.done")
	case ChooseStopRem:
		return msg("engine.choice.stop-removing")
	}
	return msg("engine.choice.other", aNum("N", int(c.Kind)))
}

// EffectMsg describes card n's effect in the deck's controlled vocabulary
// (what the effect tree does, which is what a custom deck changes); ok is
// false for a card without an effect.
func (g *Game) EffectMsg(n int) (Msg, bool) { return DescribeEffect(g.deck, n) }

// DescribeEffect describes card n's effect of deck d (nil: the embedded
// deck) from its effect tree.
func DescribeEffect(d *Deck, n int) (Msg, bool) {
	if d == nil {
		d = DefaultDeck()
	}
	c := d.Card(n)
	if c == nil || len(c.nodes) == 0 {
		return Msg{}, false
	}
	g := &Game{deck: d}
	return g.describeNode(c, 0), true
}

// describeNode renders an effect node in the deck's controlled vocabulary.
func (g *Game) describeNode(c *Card, i int16) Msg {
	n := &c.nodes[i]
	scope := aMsgs("Scope", nil, describeScope(&n.sc))
	count := aCount(int(n.n))
	switch n.op {
	case opThen, opAndOr, opChoose:
		sep := msg("engine.effect.then")
		if n.op == opAndOr {
			sep = msg("engine.effect.andor")
		} else if n.op == opChoose {
			sep = msg("engine.effect.or")
		}
		parts := make([]Msg, len(n.kids))
		for j, k := range n.kids {
			parts[j] = g.describeNode(c, k)
		}
		// One placeholder, printed as the parts joined by the separator.
		return msg("engine.effect.list", aMsgs("Parts", &sep, parts))
	case opIf:
		return msg("engine.effect.if", aSpace("Space", n.condControl), aMsg("Then", g.describeNode(c, n.kids[0])))
	case opPlace:
		if n.upTo {
			return msg("engine.effect.place-upto", count, scope)
		}
		return msg("engine.effect.place", count, scope)
	case opRemove:
		if n.upTo {
			return msg("engine.effect.remove-upto", count, scope)
		}
		return msg("engine.effect.remove", count, scope)
	case opReplace:
		return msg("engine.effect.replace", count, scope)
	case opPlaceDisc:
		return msg("engine.effect.place-disc", scope)
	case opRemoveDisc:
		return msg("engine.effect.remove-disc", scope)
	case opOps:
		return msg("engine.effect.ops", aOP("OP", int(n.n)), scope)
	case opMomentum:
		ids := [2][2]string{
			{"engine.effect.momentum-you-up", "engine.effect.momentum-you-down"},
			{"engine.effect.momentum-opp-up", "engine.effect.momentum-opp-down"},
		}
		who, down, d := 0, 0, int(n.delta)
		if n.whoOpp {
			who = 1
		}
		if d < 0 {
			down, d = 1, -d
		}
		return msg(ids[who][down], aNum("N", d))
	case opReveal:
		return msg("engine.effect.reveal")
	case opDraw:
		return msg("engine.effect.draw", count)
	case opDiscard:
		return msg("engine.effect.discard", count)
	case opForceDiscard:
		return msg("engine.effect.force-discard")
	}
	return msg("engine.effect.other", aText("Op", opNames[n.op]))
}

// describeScope lists the phrases that say where a step acts; printed one
// after the other.
func describeScope(sc *scope) []Msg {
	if sc.same {
		return []Msg{msg("engine.scope.same")}
	}
	var out []Msg
	if sc.static != allMapSpaces {
		dimIDs := [NumDimensions]string{"engine.scope.institutional", "engine.scope.public-opinion", "engine.scope.forts", "engine.scope.paris"}
		found := false
		for d := Dimension(0); d < NumDimensions; d++ {
			if sc.static == dimensionMask[d] {
				out, found = append(out, msg(dimIDs[d])), true
			}
		}
		switch {
		case found:
		case sc.static == sphereMask[Political]:
			out = append(out, msg("engine.scope.political"))
		case sc.static == sphereMask[Military]:
			out = append(out, msg("engine.scope.military"))
		case sc.static.Count() == 1:
			out = append(out, msg("engine.scope.space", aSpace("Space", sc.static.Spaces()[0])))
		default:
			var items []Msg
			for _, x := range sc.static.Spaces() {
				items = append(items, msg("engine.scope.item", aSpace("Space", x)))
			}
			sep := msg("engine.scope.sep")
			out = append(out, msg("engine.scope.spaces", aMsgs("Spaces", &sep, items)))
		}
	}
	if sc.present {
		out = append(out, msg("engine.scope.present"))
	}
	if sc.adjControlled {
		out = append(out, msg("engine.scope.adj-controlled"))
	}
	if sc.oppControls {
		out = append(out, msg("engine.scope.opp-controls"))
	}
	if sc.bothPresent {
		out = append(out, msg("engine.scope.both-present"))
	}
	return out
}
