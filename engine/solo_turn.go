package engine

// The solo opponent's turns (rulebook "Solo Opponent Rules", solo.md §6.1
// and §6.8). The engine runs the procedure and enforces the solo rules
// (solo_rules.go: Available cubes only, Room for event cubes, the dry run
// of "would have an effect", bonus cubes paid at the breach); every choice
// left in it is an ordinary Prompt addressed to the bot's side, answered by
// a policy that implements solo.md's decision tables (package solo) — so
// each bot decision is visible, replayable and logged like a player's.

// fBot flags.
const (
	botFinalCrisis uint16 = 1 << iota
	botReshuffled         // Final Crisis: the deck was rebuilt during this play
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
				g.log(bot, msg("engine.log.solo-momentum", aTrack("Track", bot)))
				g.changeMomentum(bot, 1)
			}
		}
	case botReveal:
		card, ok := g.drawCard()
		if !ok {
			g.log(bot, msg("engine.log.solo-nothing"))
			f.Phase = botEnd
			return true
		}
		f.Card = int8(card)
		g.log(bot, msg("engine.log.solo-reveals", aCard("Card", card)))
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

// offerBot: the bot's use of the revealed card R (solo step 4b/4c,
// solo.md §6.1). The prompt offers only what the solo rules allow:
//   - R's event, if R is Friendly (the bot's faction only) and its event
//     would have an effect other than raising the Player's momentum (a dry
//     run, §6.2);
//   - the top discarded event D, if the Player put it there this round, it
//     has the bot's colour, OP(D) ≤ OP(R), and it would have an effect
//     (decision 3, §6.1 step 4);
//   - operations with OP(R).
//
// The policy takes the first of these that is offered.
func (g *Game) offerBot(f *Frame) {
	if f.Flags&botFinalCrisis != 0 || f.Phase != botDecide {
		return // only the normal-round use of the revealed card is asked
	}
	bot := f.Side
	r := g.deck.Card(int(f.Card))
	var mem [24]Choice // addPrompt keeps a copy
	ch := mem[:0]
	if r.Side == bot && g.eventPlayable(r, bot) && g.soloEffective(r.Num, 0, bot) {
		ch = append(ch, Choice{Kind: ChoosePlay, Card: r.Num, Mode: ModeEvent})
	}
	if d, ok := g.topDiscardUsable(bot); ok && g.deck.Card(d).OP <= r.OP && g.soloEffective(d, 0, bot) {
		ch = append(ch, Choice{Kind: ChoosePlay, Card: r.Num, Mode: ModeDiscardedEvent, N: d})
	}
	ch = append(ch, Choice{Kind: ChoosePlay, Card: r.Num, Mode: ModeOps, Cost: r.OP})
	g.addPrompt(bot, PromptPlay, f, ch)
}

func (g *Game) applyBot(f *Frame, c Choice) {
	bot := f.Side
	switch c.Mode {
	case ModeEvent:
		g.log(bot, msg("engine.log.solo-event", aCard("Card", c.Card)))
		f.Phase = botExtraOP
		g.startEvent(c.Card, bot, bot)
	case ModeDiscardedEvent:
		g.log(bot, msg("engine.log.solo-discarded", aCard("Event", c.N), aCard("Card", c.Card)))
		f.Phase = botExtraOP
		g.startEvent(c.N, bot, bot)
	default:
		op := g.deck.Card(c.Card).OP
		g.log(bot, msg("engine.log.solo-ops", aOPShort("OP", op)))
		f.Phase = botEnd
		g.push(Frame{K: fOps, Side: bot, You: bot, N: int8(op), Node: -1, Space: NoSpace, I: -1})
	}
}

// Final Crisis (solo.md §6.8). Plays 1..N-1: turn over Strategy cards until
// a Friendly card appears whose event would have an effect beyond raising
// the Player's momentum (dry run); every card turned over before it —
// Neutral, the Player's colour, or Friendly without effect — is discarded.
// An empty deck is rebuilt once per play from the discard pile and the
// cards removed during play (solo rule); if even that yields no usable
// card, the play does nothing. Play N: the bot's Final Crisis card, which
// it kept until then. No momentum check, no extra OP. The use of the
// revealed event is not a choice (the only legal use), so no prompt is
// asked; the event's own choices are.
//
// Phase 0 reveal, 2 end.
func (g *Game) stepBotFinalCrisis(f *Frame) bool {
	s := &g.S
	bot := f.Side
	switch f.Phase {
	case 0:
		if s.Plays[bot] >= s.FCHand-1 {
			fc := FinalCrisisCardOf(bot)
			s.FCHeld[bot] = false
			s.OutOfGame = insertSorted(s.OutOfGame, int8(fc)) // played: out of the game, never reshuffled (§6.8)
			f.Phase = 2
			c := g.deck.Card(fc)
			if g.eventPlayable(c, bot) && g.soloEffective(fc, 0, bot) {
				g.log(bot, msg("engine.log.solo-fc", aCard("Card", fc)))
				g.startEvent(fc, bot, bot)
			} else {
				g.log(bot, msg("engine.log.solo-fc-nothing", aCard("Card", fc)))
			}
			return true
		}
		if len(s.Deck) == 0 && f.Flags&botReshuffled == 0 {
			f.Flags |= botReshuffled
			g.soloReshuffle()
		}
		if len(s.Deck) == 0 {
			g.log(bot, msg("engine.log.solo-nothing-left"))
			f.Phase = 2
			return true
		}
		card := int(s.Deck[len(s.Deck)-1])
		s.Deck = s.Deck[:len(s.Deck)-1]
		g.revealed = true
		c := g.deck.Card(card)
		switch {
		case c.Side != bot:
			g.log(bot, msg("engine.log.solo-not-its", aCard("Card", card)))
			g.discard(card, NoSide)
			return true
		case !g.eventPlayable(c, bot) || !g.soloEffective(card, 0, bot):
			g.log(bot, msg("engine.log.solo-no-effect", aCard("Card", card)))
			g.discard(card, NoSide)
			return true
		}
		f.Card = int8(card)
		f.Phase = 2
		g.log(bot, msg("engine.log.solo-uses", aCard("Card", card)))
		g.startEvent(card, bot, bot)
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

// soloReshuffle: in the Final Crisis the solo deck is rebuilt from the
// discard pile and the Strategy cards removed during play (solo.md §6.8);
// never from the Final Crisis cards, the cards removed at the solo setup
// (they are in no pile) or the Player's cards.
func (g *Game) soloReshuffle() bool {
	s := &g.S
	if len(s.Discard) == 0 && len(s.Removed) == 0 {
		return false
	}
	var keep []DiscardEntry
	for _, e := range s.Discard {
		if g.deck.Card(int(e.Card)).Kind == FinalCrisisCard {
			keep = append(keep, e) // never shuffled in (§6.8)
			continue
		}
		s.Deck = append(s.Deck, e.Card)
	}
	s.Deck = append(s.Deck, s.Removed...)
	s.Discard, s.Removed = keep, s.Removed[:0]
	if len(s.Deck) == 0 {
		return false
	}
	g.shuffle(s.Deck)
	g.revealed = true
	g.log(NoSide, msg("engine.log.rebuilt", aNCards("Cards", len(s.Deck))))
	return true
}
