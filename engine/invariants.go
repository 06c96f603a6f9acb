package engine

import (
	"fmt"
	"slices"
	"strings"
)

// CheckInvariants verifies the conservation and limit rules of map.md:
// 18 cubes per side all accounted for, at most 4 cubes per side per space,
// at most one disc per space and two per side, VP within ±5, momentum 0-3,
// the Commune pool within its capacity, and the card census: every one of
// the 53 cards in exactly one place (see census).
func (g *Game) CheckInvariants() error {
	if err := g.S.checkPieces(true); err != nil {
		return err
	}
	return g.S.checkCensus()
}

// checkPieces checks the pieces and tracks; conserved demands all 18
// cubes of each side accounted for (a Resume position need not: see there).
// It runs after every decision of selfplay and the property tests, so the
// common case is one pass with few branches; the messages are made only
// for a state that fails.
func (s *State) checkPieces(conserved bool) error {
	var discs [2]int
	for x, d := range s.Disc {
		switch d {
		case NoSide:
			continue
		case Versailles, Commune:
			discs[d]++
		default:
			return fmt.Errorf("invalid disc owner %d in %s", d, Space(x))
		}
		if spaceTable[x].Sphere != Military {
			return fmt.Errorf("a disc in Political space %s", Space(x))
		}
	}
	for _, side := range [2]Side{Versailles, Commune} {
		total := int(s.Pool[side]) + int(s.OutOfPlay[side])
		for x, c := range s.Cubes[side] {
			if uint8(c) > maxCubes { // a negative count too
				return fmt.Errorf("%s has %d cubes in %s", side, c, Space(x))
			}
			total += int(c)
		}
		for z := 0; z < NumZones; z++ {
			t, b := s.Track[side][z], s.Bonus[side][z]
			if t < 0 || b < 0 {
				return fmt.Errorf("%s has a negative count in its %s zone", side, zoneNames[z])
			}
			total += int(t) + int(b)
		}
		if side == Versailles {
			for _, n := range s.Prussian {
				total += int(n)
			}
		}
		if conserved && total != cubesPerSide {
			return fmt.Errorf("%s has %d cubes accounted for, want %d", side, total, cubesPerSide)
		}
		if s.Pool[side] < 0 || s.OutOfPlay[side] < 0 {
			return fmt.Errorf("%s has a negative pool or removed count", side)
		}
		if uint8(s.Momentum[side]) > maxMomentum {
			return fmt.Errorf("%s momentum %d out of 0-3", side, s.Momentum[side])
		}
		if discs[side] > discsPerSide {
			return fmt.Errorf("%s has %d discs on the map", side, discs[side])
		}
	}
	if int(s.Pool[Commune]) > s.PoolCap(Commune) {
		return fmt.Errorf("Commune pool holds %d cubes but has %d cells", s.Pool[Commune], s.PoolCap(Commune))
	}
	for k := 0; k < 2; k++ {
		if s.VP[k] < -maxVP || s.VP[k] > maxVP {
			return fmt.Errorf("%s VP %d out of ±5", Sphere(k), s.VP[k])
		}
	}
	if s.Round < 1 || s.Round > roundFinal {
		return fmt.Errorf("round %d out of 1-4", s.Round)
	}
	return nil
}

// ---- the card census ----

// Every one of the 53 cards is always in exactly one place: one of the
// State's card lists or flags, or the card of a play still on the stack (a
// card leaves the hand when it is played and reaches the discard pile when
// the play ends). The places:
//
//	Deck, Discard, Removed   Strategy deck, discard pile, removed from the game during play
//	OutOfGame                two-player-only cards at a solo setup, Final Crisis cards used up
//	Hand, SetAside           each side's cards
//	FCHeld                   each side's Final Crisis card, held face up
//	in play                  the card of an unfinished play (fEndPlay, the solo opponent's turn)
//	ObjDeck, ObjOffer        objectives not dealt yet, objectives offered at a deal
//	Objective, Fulfilled     each side's kept objective, fulfilled objectives
//	ObjOut                   objectives out of the game: not kept, or not fulfilled

type cardList struct {
	where string
	cards []int8
}

// census lists where each card is (index = card number).
func (s *State) census() (places [numCards + 1][]string, err error) {
	add := func(where string, c int8) error {
		if c < 1 || c > numCards {
			return fmt.Errorf("invalid card number %d in %s", c, where)
		}
		places[c] = append(places[c], where)
		return nil
	}
	lists := []cardList{
		{"the Strategy deck", s.Deck},
		{"the removed cards", s.Removed},
		{"the cards out of the game", s.OutOfGame},
		{"the Objective deck", s.ObjDeck},
		{"the objectives out of the game", s.ObjOut},
	}
	for _, side := range [2]Side{Versailles, Commune} {
		lists = append(lists,
			cardList{side.String() + "'s hand", s.Hand[side]},
			cardList{side.String() + "'s set-aside cards", s.SetAside[side]},
			cardList{side.String() + "'s objective offer", s.ObjOffer[side]},
			cardList{side.String() + "'s fulfilled objectives", s.Fulfilled[side]})
	}
	for _, side := range [2]Side{Versailles, Commune} {
		if s.Objective[side] != 0 {
			lists = append(lists, cardList{side.String() + "'s objective", []int8{s.Objective[side]}})
		}
		if s.FCHeld[side] {
			lists = append(lists, cardList{side.String() + "'s held Final Crisis card", []int8{int8(FinalCrisisCardOf(side))}})
		}
	}
	for _, e := range s.Discard {
		lists = append(lists, cardList{"the discard pile", []int8{e.Card}})
	}
	for _, f := range s.Stack {
		if c := inPlay(f); c != 0 {
			lists = append(lists, cardList{"the play being resolved", []int8{c}})
		}
	}
	for _, l := range lists {
		for _, c := range l.cards {
			if err := add(l.where, c); err != nil {
				return places, err
			}
		}
	}
	return places, nil
}

// inPlay is the card a frame holds between leaving a hand (or the deck)
// and reaching the discard pile: the card of a play that has not ended.
// Other frames only name a card (the event being resolved, an objective).
func inPlay(f Frame) int8 {
	if f.K == fEndPlay || f.K == fBot {
		return f.Card
	}
	return 0
}

// checkCensus: every card is in exactly one place. The count runs after
// every decision of the property tests and selfplay, so it allocates
// nothing; the places are named only to explain a failure.
func (s *State) checkCensus() error {
	if s.cardCountsOK() {
		return nil
	}
	places, err := s.census()
	if err != nil {
		return err
	}
	for n := 1; n <= numCards; n++ {
		switch len(places[n]) {
		case 1:
		case 0:
			return fmt.Errorf("card #%d is in no place (lost)", n)
		default:
			return fmt.Errorf("card #%d is in %d places: %s", n, len(places[n]), strings.Join(places[n], ", "))
		}
	}
	return nil
}

// cardCountsOK reports whether every card number 1-53 occurs exactly once
// among the places of the census (and nothing else occurs): a set of the
// cards seen, as bits, and a set of the cards seen twice; a number that is
// no card is bit 0, so the set is then not the set of all cards.
func (s *State) cardCountsOK() bool {
	seen, twice := addCards(0, 0, s.Deck)
	seen, twice = addCards(seen, twice, s.Removed)
	seen, twice = addCards(seen, twice, s.OutOfGame)
	seen, twice = addCards(seen, twice, s.ObjDeck)
	seen, twice = addCards(seen, twice, s.ObjOut)
	for i := range 2 {
		seen, twice = addCards(seen, twice, s.Hand[i])
		seen, twice = addCards(seen, twice, s.SetAside[i])
		seen, twice = addCards(seen, twice, s.ObjOffer[i])
		seen, twice = addCards(seen, twice, s.Fulfilled[i])
	}
	var more [6]int8 // objectives, held Final Crisis cards, cards in play
	k := 0
	for i := range 2 {
		if s.Objective[i] != 0 {
			more[k] = s.Objective[i]
			k++
		}
		if s.FCHeld[i] {
			more[k] = int8(FinalCrisisCardOf(Side(i)))
			k++
		}
	}
	seen, twice = addCards(seen, twice, more[:k])
	for _, e := range s.Discard {
		seen, twice = addCards(seen, twice, []int8{e.Card})
	}
	for _, f := range s.Stack {
		if n := inPlay(f); n != 0 {
			seen, twice = addCards(seen, twice, []int8{n})
		}
	}
	const all = (1<<numCards - 1) << 1 // cards 1-53
	return twice == 0 && seen == all
}

// addCards adds the cards of l to the sets of cardCountsOK.
func addCards(seen, twice uint64, l []int8) (uint64, uint64) {
	for _, n := range l {
		b := cardBits[uint8(n)]
		twice |= seen & b
		seen |= b
	}
	return seen, twice
}

// cardBits[n] is card n's bit in a set of cards, 1 (bit 0, no card's)
// for a number that is no card.
var cardBits = func() (t [256]uint64) {
	for i := range t {
		t[i] = 1
	}
	for n := 1; n <= numCards; n++ {
		t[n] = 1 << n
	}
	return t
}()

// giveLostCardsAPlace upgrades a state saved before the census (Census
// false): the cards such a game dropped without a trace are exactly the
// ones the census added places for, and each kind had one way to be
// dropped — an objective left the game (not kept or not fulfilled), a
// Final Crisis card was used up, a two-player-only card was left out of a
// solo deck. The lists are in card-number order, so an upgraded save and a
// replay of its action log save identically. Any other missing card stays
// missing and the census reports it.
func (s *State) giveLostCardsAPlace(deck *Deck) error {
	if s.Census {
		return nil
	}
	places, err := s.census()
	if err != nil {
		return err
	}
	for n := 1; n <= numCards; n++ {
		if len(places[n]) != 0 {
			continue
		}
		switch c := deck.Card(n); {
		case c.Kind == ObjectiveCard:
			s.ObjOut = insertSorted(s.ObjOut, int8(n))
		case c.Kind == FinalCrisisCard && !s.FCHeld[c.Side]:
			s.OutOfGame = insertSorted(s.OutOfGame, int8(n))
		case c.Kind == StrategyCard && c.TwoPlayerOnly && s.BotSide != NoSide:
			s.OutOfGame = insertSorted(s.OutOfGame, int8(n))
		}
	}
	s.Census = true
	return nil
}

// insertSorted adds c to a list kept in card-number order.
func insertSorted(a []int8, c int8) []int8 {
	i, _ := slices.BinarySearch(a, c)
	return slices.Insert(a, i, c)
}
