package engine

import "fmt"

// Words for players: what a prompt asks and what each choice means.

// PromptText is the question a prompt asks, in words a player understands.
func (g *Game) PromptText(p Prompt) string {
	s := &g.S
	card := ""
	if p.Card > 0 {
		card = g.cardName(p.Card)
	}
	switch p.Kind {
	case PromptObjective:
		return "Choose the objective to keep this round (the other leaves the game face down)."
	case PromptInitiative:
		return "You have the higher initiative level: choose who plays first this round."
	case PromptCensor:
		return "Censorship Phase: discard one Strategy card face up."
	case PromptPlay:
		return fmt.Sprintf("Round %d, play %d of 3: choose a card and how to play it.", s.Round, s.Plays[p.Side]+1)
	case PromptSphere:
		return fmt.Sprintf("Operations (%d OP): all in Political spaces or all in Military spaces?", p.N)
	case PromptOpsRemove:
		return fmt.Sprintf("Operations, %d OP left: remove %s pieces first, or go on to placing cubes.", p.N, p.Side.Other())
	case PromptOpsPlace:
		return fmt.Sprintf("Operations, %d OP left: place your cubes.", p.N)
	case PromptFreeCube:
		return fmt.Sprintf("%s rose: you may place one cube in a %s space.", MomentumTrackName(p.Side.Other()), freeCubeDimension(p.Side))
	case PromptFCDiscard:
		return fmt.Sprintf("Final Crisis: discard down to %d card(s).", p.N)
	case PromptFCPlay:
		return "Final Crisis: play a card for its event."
	case PromptFCDecide:
		return fmt.Sprintf("%s played your event %s: does it apply? If it does, you decide how.", p.Side.Other(), card)
	case PromptBonusOrder:
		return "Pivotal Space bonus actions: choose which is performed next."
	case PromptBonusAction:
		return fmt.Sprintf("You control %s: choose your bonus action in %s.", p.Space, p.Space.Info().Dim)
	case PromptDeescalate:
		return "De-escalate: remove up to 2 of your cubes, or 1 of yours and 1 of your opponent's."
	case PromptSpread:
		return fmt.Sprintf("Spread Influence: move up to %d of your cubes within the dimension.", p.N)
	case PromptTurncoat:
		return "Turncoat: replace an opponent's cube with one of yours."
	case PromptScoreOrder:
		return "The VP cap makes the order matter: who scores first?"
	case PromptObjEventOrder:
		return "Both objectives were fulfilled: whose objective event is resolved first?"
	case PromptObjEvent:
		return fmt.Sprintf("You controlled your objective %s: perform its event?", card)
	case PromptOption:
		return fmt.Sprintf("%s: choose an option.", card)
	case PromptAndOrOrder:
		return fmt.Sprintf("%s: which part first?", card)
	case PromptEventPlace:
		return fmt.Sprintf("%s: place a cube (%d left).", card, p.N)
	case PromptEventRemove:
		return fmt.Sprintf("%s: remove a %s cube (%d left).", card, g.effectYou(p).Other(), p.N)
	case PromptEventReplace:
		return fmt.Sprintf("%s: replace an opponent's cube with one of yours.", card)
	case PromptPlaceDisc:
		return fmt.Sprintf("%s: place your %s.", card, discName(g.effectYou(p)))
	case PromptRemoveDisc:
		return fmt.Sprintf("%s: remove an opponent's disc.", card)
	case PromptEventDiscard:
		return fmt.Sprintf("%s: discard a card (%d left).", card, p.N)
	case PromptForceDiscard:
		return fmt.Sprintf("%s: you may choose a red card for the Commune to discard.", card)
	}
	return string(p.Kind)
}

// effectYou: the faction "you" of the effect being resolved.
func (g *Game) effectYou(p Prompt) Side {
	if len(g.S.Stack) > 0 {
		return g.top().You
	}
	return p.Side
}

// ChoiceText describes a choice of prompt p.
func (g *Game) ChoiceText(p Prompt, c Choice) string {
	s := &g.S
	you := g.effectYou(p)
	opp := you.Other()
	switch c.Kind {
	case ChoosePlay:
		card := g.deck.Card(c.Card)
		name := g.cardName(c.Card)
		switch c.Mode {
		case ModeEvent:
			return fmt.Sprintf("Play %s for its event", name)
		case ModeOps:
			return fmt.Sprintf("Play %s for %d operations point(s)", name, card.OP)
		case ModeDiscardedEvent:
			return fmt.Sprintf("Discard %s to use the event of %s", name, g.cardName(c.N))
		case ModeMomentum:
			return fmt.Sprintf("Play %s to advance %s (card leaves the game)", name, MomentumTrackName(p.Side))
		case ModeFinalCrisisOps:
			return fmt.Sprintf("Discard %s to play %s for %d OP (it leaves the game)", name, g.cardName(c.N), c.Cost)
		case ModeFinalCrisis:
			owner := ""
			if card.Side == p.Side.Other() {
				owner = " (" + card.Side.String() + " decides how it applies)"
			}
			return fmt.Sprintf("Play %s for its event%s", name, owner)
		}
	case ChooseCard:
		switch p.Kind {
		case PromptObjective:
			return fmt.Sprintf("Keep %s (%s)", g.cardName(c.Card), g.deck.Card(c.Card).Space)
		case PromptForceDiscard:
			return fmt.Sprintf("The Commune discards %s", g.cardName(c.Card))
		}
		return "Discard " + g.cardName(c.Card)
	case ChooseSide:
		switch p.Kind {
		case PromptInitiative:
			if c.Side == p.Side {
				return "Play first (become the Initiative Player)"
			}
			return "Play second (" + c.Side.String() + " plays first)"
		case PromptObjEventOrder:
			return c.Side.String() + "'s objective event first"
		}
		return c.Side.String() + " scores first"
	case ChooseSphere:
		return Sphere(c.N).String() + " spaces"
	case ChooseRemove:
		switch p.Kind {
		case PromptOpsRemove:
			what := opp.String() + " cube"
			if s.Cubes[opp][c.Space] == 0 {
				what = opp.String() + " " + discName(opp)
			}
			if c.Space.Info().Sphere == Political {
				return fmt.Sprintf("Remove a %s from %s (1 OP, sure)", what, c.Space)
			}
			extra := ""
			if c.Extra {
				extra = " with an extra OP"
			}
			if c.Strength >= 3 {
				return fmt.Sprintf("Remove a %s from %s%s — strength %d, sure (%d OP)", what, c.Space, extra, c.Strength, c.Cost)
			}
			return fmt.Sprintf("Remove a %s from %s%s — strength %d, a card will be drawn (%d OP)", what, c.Space, extra, c.Strength, c.Cost)
		case PromptRemoveDisc:
			return fmt.Sprintf("Remove the %s %s from %s", opp, discName(opp), c.Space)
		case PromptDeescalate:
			return fmt.Sprintf("Remove a %s cube from %s", p.Side.Other(), c.Space)
		}
		return fmt.Sprintf("Remove a %s cube from %s", opp, c.Space)
	case ChooseRemoveOwn:
		return fmt.Sprintf("Remove one of your cubes from %s", c.Space)
	case ChoosePlace:
		cost := ""
		if c.Cost > 0 {
			cost = fmt.Sprintf(" (%d OP)", c.Cost)
		}
		if c.Extra {
			return fmt.Sprintf("Place a cube removed from play in %s", c.Space)
		}
		return fmt.Sprintf("Place a cube in %s%s", c.Space, cost)
	case ChooseReplace:
		return fmt.Sprintf("Replace a %s cube in %s", p.Side.Other(), c.Space)
	case ChooseDisc:
		if c.Extra {
			return fmt.Sprintf("Move your %s from %s to %s", discName(you), c.To, c.Space)
		}
		return fmt.Sprintf("Place your %s in %s", discName(you), c.Space)
	case ChooseMove:
		return fmt.Sprintf("Move a cube from %s to %s", c.Space, c.To)
	case ChooseOption:
		if len(s.Stack) > 0 {
			f := g.top()
			if f.K == fEffect {
				card := g.deck.Card(int(f.Card))
				n := &card.nodes[f.Node]
				if c.N < len(n.kids) {
					prefix := fmt.Sprintf("(%c) ", 'a'+rune(c.N))
					if n.op == opAndOr {
						prefix = "First: "
					}
					return prefix + g.describeNode(card, n.kids[c.N])
				}
			}
		}
		return fmt.Sprintf("Option (%c)", 'a'+rune(c.N))
	case ChooseAction:
		switch c.N {
		case ActionDeescalate:
			return "De-escalate (remove up to 2 of your cubes, or 1 of yours and 1 opposing)"
		case ActionSpread:
			return "Spread Influence (move up to 2 of your cubes within the dimension)"
		case ActionTurncoat:
			return "Turncoat (replace an opposing cube with yours)"
		}
		return "No bonus action"
	case ChooseDimension:
		d := Dimension(c.N)
		return fmt.Sprintf("%s's bonus action in %s (%s)", c.Side, d, pivotalOf[d])
	case ChooseYes:
		switch p.Kind {
		case PromptFCDecide:
			return "It applies (you decide how)"
		case PromptObjEvent:
			return "Perform the event"
		}
		return "Yes"
	case ChooseNo:
		switch p.Kind {
		case PromptFCDecide:
			return "It does not apply"
		case PromptObjEvent:
			return "Skip the event"
		case PromptForceDiscard:
			return "Choose no card"
		}
		return "No"
	case ChooseDone:
		switch p.Kind {
		case PromptFreeCube:
			return "Decline the free cube"
		case PromptOpsRemove, PromptOpsPlace:
			if p.N > 0 {
				return fmt.Sprintf("End operations (%d OP unspent)", p.N)
			}
			return "End operations"
		}
		return "Done"
	case ChooseStopRem:
		return "Stop removing — go on to placing cubes"
	}
	return fmt.Sprintf("choice %d", c.Kind)
}

// describeNode renders an effect node in the deck's controlled vocabulary.
func (g *Game) describeNode(c *Card, i int16) string {
	n := &c.nodes[i]
	upTo := ""
	if n.upTo {
		upTo = "up to "
	}
	switch n.op {
	case opThen, opAndOr, opChoose:
		sep := " THEN "
		if n.op == opAndOr {
			sep = " AND/OR "
		} else if n.op == opChoose {
			sep = " OR "
		}
		out := ""
		for j, k := range n.kids {
			if j > 0 {
				out += sep
			}
			out += g.describeNode(c, k)
		}
		return out
	case opIf:
		return fmt.Sprintf("IF you control %s THEN %s", n.condControl, g.describeNode(c, n.kids[0]))
	case opPlace:
		return fmt.Sprintf("place %s%d cube(s)%s", upTo, n.n, describeScope(&n.sc))
	case opRemove:
		return fmt.Sprintf("remove %s%d opponent cube(s)%s", upTo, n.n, describeScope(&n.sc))
	case opReplace:
		return fmt.Sprintf("replace %d opponent cube(s)%s", n.n, describeScope(&n.sc))
	case opPlaceDisc:
		return "place your disc" + describeScope(&n.sc)
	case opRemoveDisc:
		return "remove an opponent disc" + describeScope(&n.sc)
	case opOps:
		return fmt.Sprintf("%d operations points%s", n.n, describeScope(&n.sc))
	case opMomentum:
		who := "your"
		if n.whoOpp {
			who = "the opponent's"
		}
		return fmt.Sprintf("%s momentum %+d", who, n.delta)
	case opReveal:
		return "the opponent reveals its hand"
	case opDraw:
		return fmt.Sprintf("draw %d card(s)", n.n)
	case opDiscard:
		return fmt.Sprintf("discard %d card(s)", n.n)
	case opForceDiscard:
		return "make the opponent discard a card of its colour"
	}
	return opNames[n.op]
}

func describeScope(sc *scope) string {
	if sc.same {
		return " in that space"
	}
	out := ""
	if sc.static != allMapSpaces {
		names := ""
		for _, d := range []Dimension{Institutional, PublicOpinion, Forts, Paris} {
			if sc.static == dimensionMask[d] {
				names = d.String() + " spaces"
			}
		}
		switch {
		case names != "":
		case sc.static == sphereMask[Political]:
			names = "Political spaces"
		case sc.static == sphereMask[Military]:
			names = "Military spaces"
		default:
			for i, x := range sc.static.Spaces() {
				if i > 0 {
					names += "/"
				}
				names += x.String()
			}
		}
		out = " in " + names
	}
	if sc.present {
		out += " where you are present"
	}
	if sc.adjControlled {
		out += " adjacent to a space you control"
	}
	if sc.oppControls {
		out += " the opponent controls"
	}
	if sc.bothPresent {
		out += " where both players are present"
	}
	return out
}
