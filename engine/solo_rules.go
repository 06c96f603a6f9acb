package engine

// Solo rules that change what the solo opponent may do (solo.md), kept
// apart from the 2-player procedures. Three small hooks in the 2-player
// code call into this file: addPrompt (soloFilter), takeCube (soloBreach)
// and bonusChooser (soloBonusChooser).

// HasRoom reports whether side (the solo opponent) has Room for a cube in
// x (solo.md §1.3): fewer than 4 of its cubes, and fewer than 1 more of
// its cubes than the opponent's (2 more in a Pivotal space). Counted in
// cubes (switch ROOM_COUNTS = cubes).
func (s *State) HasRoom(side Side, x Space) bool {
	if x < 0 || x >= NumMapSpaces {
		return false
	}
	own, opp := int(s.Cubes[side][x]), int(s.Cubes[side.Other()][x])
	lim := 1
	if spaceTable[x].Pivotal {
		lim = 2
	}
	return own < maxCubes && own-opp < lim
}

// soloFilter narrows a prompt addressed to the solo opponent to what the
// solo rules allow it (solo.md §2 step 4, §6.2-§6.6):
//   - it places only Available cubes (switch OPS_USE_AVAILABLE_ONLY), in
//     operations, events, Turncoat and its free momentum cube;
//   - event cubes go only to spaces with Room (discs need none), and a
//     disc moves only from a space it can leave safely;
//   - of "(a) … OR (b) …" it may take only options that would have an
//     effect, and it applies an event (its objective's, or its own event
//     played by the Player in the Final Crisis) only if it would have one.
//
// A prompt left with no choice is dropped (the frame then ends by itself).
func (g *Game) soloFilter(kind PromptKind, f *Frame, ch []Choice) []Choice {
	s := &g.S
	bot := s.BotSide
	avail := s.Available(bot) > 0
	keep := func(ok func(c Choice) bool) []Choice {
		out := make([]Choice, 0, len(ch))
		for _, c := range ch {
			if ok(c) {
				out = append(out, c)
			}
		}
		return out
	}
	switch kind {
	case PromptOpsPlace, PromptFreeCube:
		return keep(func(c Choice) bool { return c.Kind != ChoosePlace || avail })
	case PromptTurncoat:
		return keep(func(c Choice) bool { return c.Kind != ChooseReplace || avail })
	case PromptBonusAction:
		return keep(func(c Choice) bool { return c.Kind != ChooseAction || c.N != ActionTurncoat || avail })
	case PromptEventPlace:
		if f.You != bot {
			return ch
		}
		return keep(func(c Choice) bool {
			return c.Kind != ChoosePlace || s.HasRoom(bot, c.Space) && (c.Extra || avail)
		})
	case PromptEventReplace:
		if f.You != bot {
			return ch
		}
		return keep(func(c Choice) bool { return c.Kind != ChooseReplace || s.HasRoom(bot, c.Space) && avail })
	case PromptPlaceDisc:
		// Both discs on the map: only a disc that can leave safely may move
		// (bot control kept, no Player control created; solo.md §6.3).
		return keep(func(c Choice) bool {
			if c.Kind != ChooseDisc || !c.Extra {
				return true
			}
			lead := s.Pieces(bot, c.To) - s.Pieces(bot.Other(), c.To)
			return lead >= 2 || lead <= -1
		})
	case PromptOption:
		if f.You != bot {
			return ch
		}
		n := g.node(f)
		return keep(func(c Choice) bool {
			return c.Kind != ChooseOption || g.soloEffective(int(f.Card), n.kids[c.N], bot)
		})
	case PromptFCDecide, PromptObjEvent:
		return keep(func(c Choice) bool { return c.Kind != ChooseYes || g.soloEffective(int(f.Card), 0, bot) })
	}
	return ch
}

// soloBreach: when the solo opponent breaches one of its zones, the bonus
// cubes enter its pool at once, before the next cube is taken (solo rule,
// solo.md §2 step 4, departing from decision 14's timing); the Player's
// breaches keep the end-of-play timing. Called by takeCube.
func (g *Game) soloBreach(side Side) {
	s := &g.S
	if s.BotSide == NoSide || side != s.BotSide {
		return
	}
	other := side.Other()
	held := s.Pending[other]
	s.Pending[other] = [NumZones]bool{}
	g.payBonuses()
	s.Pending[other] = held
}

// soloBonusChooser: who orders the Pivotal bonus actions in solo (solo.md
// §6.4, decision 19). When the Player holds the Initiative he orders all
// of them, his and the bot's. When the bot holds it, the Player performs
// all of his first (offerBonus hides the bot's meanwhile) and the bot then
// orders its own (the policy uses its fixed order).
func (g *Game) soloBonusChooser(f *Frame) Side {
	s := &g.S
	player := s.BotSide.Other()
	owners, _ := g.bonusOwners(f)
	if s.Initiative == player || owners[player] {
		return player
	}
	return s.BotSide
}

// ---- "would have an effect": a dry run (solo.md §6.2) ----

// soloPrint is what an event may change, for the dry run.
type soloPrint struct {
	cubes    [2][NumMapSpaces]int8
	disc     [NumMapSpaces]Side
	track    [2][NumZones]int8
	bonus    [2][NumZones]int8
	out      [2]int8
	vp       [2]int8
	mom      [2]int8
	botPool  int8
	prussian [3]int8
	cards    [3]int
}

func (s *State) soloPrint(bot Side) soloPrint {
	p := soloPrint{cubes: s.Cubes, disc: s.Disc, track: s.Track, bonus: s.Bonus, out: s.OutOfPlay,
		vp: s.VP, mom: s.Momentum, botPool: s.Pool[bot], cards: [3]int{len(s.Deck), len(s.Discard), len(s.Removed)}}
	if bot == Versailles {
		p.prussian = s.Prussian
	}
	return p
}

// changedFrom: the dry run changed something other than a rise of the
// Player's momentum (and what such a rise brings: the Prussian cubes of a
// Versailles Player, the bot's free cube, which the dry run declines).
func (p soloPrint) changedFrom(before soloPrint, bot Side) bool {
	player := bot.Other()
	if p.mom[player] < before.mom[player] {
		return true
	}
	p.mom[player] = before.mom[player]
	return p != before
}

// soloEffective reports whether the solo opponent's resolution of card's
// effect from node would have an effect (solo.md §6.2): a dry run on a copy
// of the game, under the solo restrictions (Room, Available cubes), that
// changes at least one of pieces, discs, pools or Crisis Tracks, momentum
// other than a rise of the Player's track, VP, or cards. It searches the
// resolution's choices (never declining what the bot would carry out "as
// far as possible") and needs no die.
func (g *Game) soloEffective(card int, node int16, you Side) bool {
	c := g.dryClone()
	c.S.Stack = []Frame{{K: fEffect, Side: you, You: you, Card: int8(card), Node: node, Space: NoSpace}}
	c.S.LastSpace, c.S.Drawn = NoSpace, 0
	before := g.S.soloPrint(you)
	c.run()
	return c.dryExplore(func(s *State) bool { return s.soloPrint(you).changedFrom(before, you) }, you, 0)
}

func (g *Game) dryClone() *Game {
	c := &Game{deck: g.deck}
	c.S = g.S.clone(false)
	c.S.Undo = nil
	return c
}

// applyRaw applies a choice without the checks and undo bookkeeping of Apply.
func (g *Game) applyRaw(side Side, c Choice) {
	g.apply(g.top(), side, c)
	g.S.Version++
	g.cached = false
	g.run()
}

const dryDepth = 8

// dryExplore runs a dry clone's resolution, trying you's choices one
// after the other, until changed reports a change (true) or every branch
// ends without one.
func (g *Game) dryExplore(changed func(*State) bool, you Side, depth int) bool {
	for {
		if changed(&g.S) {
			return true
		}
		if g.S.Result != nil || len(g.S.Stack) == 0 || depth > dryDepth {
			return false
		}
		ps := g.Prompts()
		if len(ps) == 0 {
			return false
		}
		p := ps[0]
		if p.Side != you || p.Kind == PromptFreeCube {
			// Not part of the event: the Player's free cube, or the bot's
			// own after a rise of the Player's track. Decline.
			ch := p.Choices[len(p.Choices)-1]
			for _, c := range p.Choices {
				if c.Kind == ChooseDone || c.Kind == ChooseNo {
					ch = c
				}
			}
			g.applyRaw(p.Side, ch)
			depth++
			continue
		}
		for _, ch := range p.Choices {
			if ch.Kind == ChooseDone || ch.Kind == ChooseNo {
				continue
			}
			cc := g.dryClone()
			cc.applyRaw(p.Side, ch)
			if cc.dryExplore(changed, you, depth+1) {
				return true
			}
		}
		return false
	}
}

// ---- "would it do anything?": the warning on an event choice ----

// effectPrint is what any event may change, for EventHasEffect: the
// soloPrint of both sides, the hands and set-aside cards, and the hands
// shown (a REVEAL writes a private log line and changes nothing else).
type effectPrint struct {
	solo    soloPrint
	pools   [2]int8
	hands   [2]int
	aside   [2]int
	reveals int
}

func (s *State) effectPrint() effectPrint {
	p := effectPrint{solo: s.soloPrint(Versailles), pools: s.Pool}
	for i := range p.hands {
		p.hands[i], p.aside[i] = len(s.Hand[i]), len(s.SetAside[i])
	}
	for _, e := range s.Log {
		if e.Msg != nil && e.Msg.ID == "engine.log.hand" {
			p.reveals++
		}
	}
	return p
}

// EventHasEffect reports whether side playing the event of card now would
// change anything at all (pieces, discs, pools, tracks, momentum, VP,
// cards, hands, or a hand shown), so that a player can be warned before
// spending a card on an event with no legal target. It is a dry run on a
// copy that tries the event's choices; the opponent's decisions in it are
// declined. A card drawn counts as a change, so the answer never depends
// on the hidden order of the deck.
func (g *Game) EventHasEffect(card int, side Side) bool {
	if g.deck.Card(card) == nil {
		return false
	}
	c := g.dryClone()
	c.S.Stack = []Frame{{K: fEffect, Side: side, You: side, Card: int8(card), Space: NoSpace}}
	c.S.LastSpace, c.S.Drawn = NoSpace, 0
	before := c.S.effectPrint()
	c.run()
	return c.dryExplore(func(s *State) bool { return s.effectPrint() != before }, side, 0)
}
