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
func (s *State) checkPieces(conserved bool) error {
	for _, side := range [2]Side{Versailles, Commune} {
		total := int(s.Pool[side]) + int(s.OutOfPlay[side])
		for x := 0; x < NumMapSpaces; x++ {
			c := s.Cubes[side][x]
			if c < 0 || c > maxCubes {
				return fmt.Errorf("%s has %d cubes in %s", side, c, Space(x))
			}
			total += int(c)
		}
		for z := 0; z < NumZones; z++ {
			if s.Track[side][z] < 0 || s.Bonus[side][z] < 0 {
				return fmt.Errorf("%s has a negative count in its %s zone", side, zoneNames[z])
			}
			total += int(s.Track[side][z]) + int(s.Bonus[side][z])
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
		if s.Momentum[side] < 0 || s.Momentum[side] > maxMomentum {
			return fmt.Errorf("%s momentum %d out of 0-3", side, s.Momentum[side])
		}
		if s.DiscsOnMap(side) > discsPerSide {
			return fmt.Errorf("%s has %d discs on the map", side, s.DiscsOnMap(side))
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
	for x, d := range s.Disc {
		if d != NoSide && d != Versailles && d != Commune {
			return fmt.Errorf("invalid disc owner %d in %s", d, Space(x))
		}
		if d != NoSide && Space(x).Info().Sphere != Military {
			return fmt.Errorf("a disc in Political space %s", Space(x))
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
// among the places of the census (and nothing else occurs): a set of
// cards as bits, and a second set for cards seen twice.
func (s *State) cardCountsOK() bool {
	var seen, twice uint64
	for _, l := range [...][]int8{s.Deck, s.Removed, s.OutOfGame, s.ObjDeck, s.ObjOut,
		s.Hand[0], s.SetAside[0], s.ObjOffer[0], s.Fulfilled[0],
		s.Hand[1], s.SetAside[1], s.ObjOffer[1], s.Fulfilled[1]} {
		for _, c := range l {
			b := cardBit(c)
			twice |= seen & b
			seen |= b
		}
	}
	for i := range 2 {
		if s.Objective[i] != 0 {
			b := cardBit(s.Objective[i])
			twice |= seen & b
			seen |= b
		}
		if s.FCHeld[i] {
			b := cardBit(int8(FinalCrisisCardOf(Side(i))))
			twice |= seen & b
			seen |= b
		}
	}
	for _, e := range s.Discard {
		b := cardBit(e.Card)
		twice |= seen & b
		seen |= b
	}
	for _, f := range s.Stack {
		if c := inPlay(f); c != 0 {
			b := cardBit(c)
			twice |= seen & b
			seen |= b
		}
	}
	const all = (1<<(numCards+1) - 1) &^ 1 // cards 1-53
	return twice == 0 && seen == all
}

// cardBit is card c as a bit of a set of cards; an invalid number is bit
// 0, which no card has, so the set is then not the set of all cards.
func cardBit(c int8) uint64 {
	if c < 1 || c > numCards {
		return 1
	}
	return 1 << uint(c)
}

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
