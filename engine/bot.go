package engine

// The solo opponent's turns (rulebook "Solo Opponent Rules", solo.md §6.1
// and §6.8). The engine runs the procedure; every choice in it is an
// ordinary Prompt addressed to the bot's side, answered by a policy that
// implements solo.md's decision tables (package solo) — so each bot
// decision is visible, replayable and logged like a player's.

// fBot flags.
const (
	botFinalCrisis uint16 = 1 << iota
)

// fBot phases.
const (
	botMomentum = iota
	botReveal
	botDecide
	botExtraOP
	botEnd
)

// Available counts the bot's Available cubes (solo.md §1.3): its pool and
// its Crisis Track zones other than the Final Crisis zone, which counts too
// in round 3 and the Final Crisis once either side has breached its own.
func (s *State) Available(side Side) int {
	n := int(s.Pool[side])
	for z := 0; z < ZoneFinalCrisis; z++ {
		n += int(s.Track[side][z])
	}
	if s.fcZoneAvailable(side) {
		n += int(s.Track[side][ZoneFinalCrisis])
	}
	return n
}

func (s *State) fcZoneAvailable(side Side) bool {
	_ = side
	return s.Round >= 3 && (s.Breached[Versailles][ZoneFinalCrisis] || s.Breached[Commune][ZoneFinalCrisis])
}

func (g *Game) botFCPlaysLeft() bool {
	s := &g.S
	return s.Plays[s.BotSide] < s.FCHand
}

func (g *Game) stepBot(f *Frame) bool {
	s := &g.S
	bot := f.Side
	if f.Flags&botFinalCrisis != 0 {
		return g.stepBotFinalCrisis(f)
	}
	switch f.Phase {
	case botMomentum:
		f.Phase = botReveal
		// Momentum Increase Check (solo step 4a).
		if bot == Versailles && s.Available(bot) < 3 || bot == Commune && s.PoolCap(bot)-int(s.Pool[bot]) < 2 {
			if s.Momentum[bot] < maxMomentum {
				g.logf(bot, "Solo opponent: momentum check — %s rises.", MomentumTrackName(bot))
				g.changeMomentum(bot, 1)
			}
		}
	case botReveal:
		card, ok := g.drawCard()
		if !ok {
			g.logf(bot, "Solo opponent: no card to reveal; its play does nothing.")
			f.Phase = botEnd
			return true
		}
		f.Card = int8(card)
		g.logf(bot, "Solo opponent reveals %s.", g.cardName(card))
		f.Phase = botDecide
	case botDecide:
		g.offer(f)
		return false
	case botExtraOP:
		f.Phase = botEnd
		g.push(Frame{K: fOps, Side: bot, You: bot, N: 1, Node: -1, Space: NoSpace, I: -1})
	case botEnd:
		g.payBonuses()
		if f.Card > 0 {
			g.discard(int(f.Card), bot)
		}
		s.Plays[bot]++
		g.pop()
	}
	return true
}

// offerBot: the bot's use of the revealed card (solo step 4b/4c).
func (g *Game) offerBot(f *Frame) {
	s := &g.S
	bot := f.Side
	r := g.deck.Card(int(f.Card))
	if f.Flags&botFinalCrisis != 0 {
		g.addPrompt(bot, PromptFCPlay, f, []Choice{
			{Kind: ChoosePlay, Card: r.Num, Mode: ModeFinalCrisis},
			{Kind: ChooseNo, Card: r.Num},
		})
		return
	}
	var ch []Choice
	if r.Side == bot && g.eventPlayable(r, bot) {
		ch = append(ch, Choice{Kind: ChoosePlay, Card: r.Num, Mode: ModeEvent})
	}
	if len(s.Discard) > 0 {
		top := s.Discard[len(s.Discard)-1]
		tc := g.deck.Card(int(top.Card))
		if top.By == bot.Other() && top.Round == s.Round && tc.Side == bot && tc.OP <= r.OP && g.eventPlayable(tc, bot) {
			ch = append(ch, Choice{Kind: ChoosePlay, Card: r.Num, Mode: ModeDiscardedEvent, N: tc.Num})
		}
	}
	ch = append(ch, Choice{Kind: ChoosePlay, Card: r.Num, Mode: ModeOps, Cost: r.OP})
	g.addPrompt(bot, PromptPlay, f, ch)
}

func (g *Game) applyBot(f *Frame, c Choice) {
	bot := f.Side
	if f.Flags&botFinalCrisis != 0 {
		g.applyBotFinalCrisis(f, c)
		return
	}
	switch c.Mode {
	case ModeEvent:
		g.logf(bot, "Solo opponent uses the event of %s.", g.cardName(c.Card))
		f.Phase = botExtraOP
		g.startEvent(c.Card, bot, bot)
	case ModeDiscardedEvent:
		g.logf(bot, "Solo opponent uses the discarded event of %s.", g.cardName(c.N))
		f.Phase = botExtraOP
		g.startEvent(c.N, bot, bot)
	default:
		op := g.deck.Card(c.Card).OP
		g.logf(bot, "Solo opponent conducts operations with %d OP.", op)
		f.Phase = botEnd
		g.push(Frame{K: fOps, Side: bot, You: bot, N: int8(op), Node: -1, Space: NoSpace, I: -1})
	}
}

// Final Crisis (solo.md §6.8): reveal until a Friendly card the bot uses;
// its last play is its Final Crisis card. Phase 0 reveal, 1 decide, 2 end.
func (g *Game) stepBotFinalCrisis(f *Frame) bool {
	s := &g.S
	bot := f.Side
	switch f.Phase {
	case 0:
		if s.Plays[bot] == s.FCHand-1 {
			fc := FinalCrisisCardOf(bot)
			s.FCHeld[bot] = false
			f.Phase = 2
			g.logf(bot, "Solo opponent plays its Final Crisis card %s.", g.cardName(fc))
			if g.canAffect(g.deck.Card(fc), 0, bot) {
				g.startEvent(fc, bot, bot)
			}
			return true
		}
		card, ok := g.drawCard()
		if !ok && g.soloReshuffle() {
			card, ok = g.drawCard()
		}
		if !ok {
			g.logf(bot, "Solo opponent: no card left to reveal; its play does nothing.")
			f.Phase = 2
			return true
		}
		c := g.deck.Card(card)
		if c.Side != bot || !g.eventPlayable(c, bot) || !g.canAffect(c, 0, bot) {
			g.logf(bot, "Solo opponent reveals %s and discards it.", g.cardName(card))
			g.discard(card, NoSide)
			return true
		}
		f.Card = int8(card)
		f.Phase = 1
		g.logf(bot, "Solo opponent reveals %s.", g.cardName(card))
	case 1:
		g.offer(f)
		return false
	default:
		g.payBonuses()
		if f.Card > 0 {
			g.discard(int(f.Card), bot)
		}
		s.Plays[bot]++
		g.pop()
	}
	return true
}

func (g *Game) applyBotFinalCrisis(f *Frame, c Choice) {
	bot := f.Side
	if c.Kind == ChooseNo {
		g.logf(bot, "Solo opponent: %s would have no effect; discarded.", g.cardName(c.Card))
		g.discard(c.Card, NoSide)
		f.Card = 0
		f.Phase = 0
		return
	}
	f.Phase = 2
	g.startEvent(c.Card, bot, bot)
}

// soloReshuffle: in the Final Crisis the solo deck is rebuilt from the
// discard pile and the Strategy cards removed during play (solo.md §6.8).
func (g *Game) soloReshuffle() bool {
	s := &g.S
	if len(s.Discard) == 0 && len(s.Removed) == 0 {
		return false
	}
	for _, e := range s.Discard {
		s.Deck = append(s.Deck, e.Card)
	}
	s.Deck = append(s.Deck, s.Removed...)
	s.Discard, s.Removed = s.Discard[:0], s.Removed[:0]
	g.shuffle(s.Deck)
	g.revealed = true
	g.logf(NoSide, "The Strategy deck is rebuilt from the discarded and removed cards (%d cards).", len(s.Deck))
	return true
}
