package engine

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
)

// InfoSet is everything one side of a 2-player game knows at a moment: the
// public state (board, tracks, discard pile, procedure in progress, sizes
// of hands and decks), its own hand, set-aside cards, objective offer and
// objective, and its pending decision. It holds no trace of what that side
// cannot see: the opponent's hand, set-aside cards, objective offer and
// unrevealed objective, the order of both decks and the random state are
// removed when it is built, and what may fill those places is kept only
// as the sorted set of unseen cards. A search player (package ai) decides
// from an InfoSet and never from a live Game, so it cannot peek.
//
// What it forgets: a hand revealed by an event once the event is over
// (the reveal is a private log line, not state; during a forced discard
// the cards offered stay known) and the viewer's own objectives of
// earlier rounds (discarded face down) are treated as unseen. Forgetting
// is safe: the samples stay consistent with the truth, only less informed.
type InfoSet struct {
	side   Side
	s      State // redacted: unseen cards are 0
	deck   *Deck
	strat  []int8 // unseen Strategy cards (opponent's hand and set-aside, the deck), sorted
	obj    []int8 // unseen Objective cards, sorted (more than the places to fill)
	view   View
	prompt Prompt
	has    bool
}

// ErrNoInfoSet is returned for games an InfoSet does not describe.
var ErrNoInfoSet = errors.New("no information set")

// InfoSet returns what side knows now. Only 2-player games have one (the
// solo opponent reads SoloPublicState instead).
func (g *Game) InfoSet(side Side) (*InfoSet, error) {
	if g.S.BotSide != NoSide {
		return nil, fmt.Errorf("%w: the game is a solo game", ErrNoInfoSet)
	}
	if side != Versailles && side != Commune {
		return nil, fmt.Errorf("%w: invalid side %d", ErrNoInfoSet, side)
	}
	opp := side.Other()
	is := &InfoSet{side: side, deck: g.deck}
	is.prompt, is.has = g.PromptFor(side)
	is.prompt.Choices = slices.Clone(is.prompt.Choices)
	is.prompt.CanUndo = false
	is.view = g.ViewSince(side, len(g.S.Log)) // no log: the search does not read it

	s := g.S.clone(false)
	s.RNG, s.Seed, s.Log, s.Undo = 0, 0, nil, nil
	// Unseen Strategy cards: the opponent's hand but its Final Crisis card
	// (held face up) and cards a forced discard shows, its set-aside
	// cards, the deck.
	fc := int8(FinalCrisisCardOf(opp))
	// A forced discard shows the opponent's cards it may take (its hand
	// was just revealed): those stay where they are.
	shown := map[int8]bool{}
	if is.has && is.prompt.Kind == PromptForceDiscard {
		for _, c := range is.prompt.Choices {
			if c.Kind == ChooseCard {
				shown[int8(c.Card)] = true
			}
		}
	}
	hand := make([]int8, 0, len(s.Hand[opp]))
	hidden := 0
	for _, c := range s.Hand[opp] {
		if c == fc || shown[c] {
			hand = append(hand, c)
			continue
		}
		is.strat = append(is.strat, c)
		hidden++
	}
	s.Hand[opp] = append(hand, make([]int8, hidden)...)
	is.strat = append(is.strat, s.SetAside[opp]...)
	is.strat = append(is.strat, s.Deck...)
	s.SetAside[opp] = make([]int8, len(s.SetAside[opp]))
	s.Deck = make([]int8, len(s.Deck))
	slices.Sort(is.strat)

	// Unseen Objective cards: every objective but those side holds or was
	// offered now, those fulfilled, and any objective face up now. More
	// cards than places: the others left the game face down.
	known := map[int8]bool{}
	for _, o := range s.ObjOffer[side] {
		known[o] = true
	}
	for i := 0; i < 2; i++ {
		for _, o := range s.Fulfilled[i] {
			known[o] = true
		}
	}
	known[s.Objective[side]] = true
	if s.ObjRevealed {
		known[s.Objective[opp]] = true
	} else if s.Objective[opp] != 0 {
		s.Objective[opp] = -1 // a place to fill
	}
	for n := 1; n <= numCards; n++ {
		if c := g.deck.Card(n); c.Kind == ObjectiveCard && !known[int8(n)] {
			is.obj = append(is.obj, int8(n))
		}
	}
	s.ObjOffer[opp] = make([]int8, len(s.ObjOffer[opp]))
	s.ObjDeck = make([]int8, len(s.ObjDeck))
	s.ObjOut = nil // holds the opponent's objectives not kept (face down); a sample rebuilds it
	is.s = s
	return is, nil
}

// Side is the side whose knowledge this is.
func (is *InfoSet) Side() Side { return is.side }

// Version is the game's version when the InfoSet was taken.
func (is *InfoSet) Version() int { return is.s.Version }

// Variant is the game's rules variant.
func (is *InfoSet) Variant() Variant { return is.s.Variant }

// Prompt is the side's pending decision, if any (CanUndo is not kept).
func (is *InfoSet) Prompt() (Prompt, bool) { return is.prompt, is.has }

// View is the side's redacted view, without the log.
func (is *InfoSet) View() View { return is.view }

// UnseenStrategy is the sorted set of Strategy cards the side cannot
// locate (opponent's hand and set-aside cards, the deck).
func (is *InfoSet) UnseenStrategy() []int8 { return slices.Clone(is.strat) }

// Sample returns a playable game consistent with the InfoSet
// (determinization): the unseen cards dealt at random into the places the
// side cannot see, a fresh random state for what is still to come. The game
// is a simulation: it keeps no log and no undo point, so it plays faster,
// and Clone keeps it so.
//
// A few decisions show something of the hidden cards (an event that can
// be played only when the opponent holds a card of its colour, a forced
// discard among the revealed hand): a deal that would not offer the side
// the very choices it has is dealt again, up to 64 times, so samples are
// conditioned on what the side was offered.
func (is *InfoSet) Sample(r *rand.Rand) *Game {
	for try := 0; ; try++ {
		g := is.deal(r)
		if !is.has || try == 63 {
			return g
		}
		if p, ok := g.PromptFor(is.side); ok && sameChoices(p.Choices, is.prompt.Choices) {
			return g
		}
	}
}

func sameChoices(a, b []Choice) bool {
	if len(a) != len(b) {
		return false
	}
	for _, c := range a {
		if !slices.Contains(b, c) {
			return false
		}
	}
	return true
}

func (is *InfoSet) deal(r *rand.Rand) *Game {
	g := &Game{deck: is.deck, sim: true}
	g.S = is.s.clone(false)
	s := &g.S
	opp := is.side.Other()
	pool := slices.Clone(is.strat)
	r.Shuffle(len(pool), func(i, j int) { pool[i], pool[j] = pool[j], pool[i] })
	fill := func(a []int8) {
		for i := range a {
			if a[i] == 0 && len(pool) > 0 {
				a[i], pool = pool[len(pool)-1], pool[:len(pool)-1]
			}
		}
	}
	fill(s.Hand[opp])
	fill(s.SetAside[opp])
	fill(s.Deck)
	pool = slices.Clone(is.obj)
	r.Shuffle(len(pool), func(i, j int) { pool[i], pool[j] = pool[j], pool[i] })
	if s.Objective[opp] == -1 {
		s.Objective[opp], pool = pool[len(pool)-1], pool[:len(pool)-1]
	}
	fill(s.ObjOffer[opp])
	fill(s.ObjDeck)
	// The objectives placed nowhere else are out of the game (the card
	// census: every card has one place).
	placed := map[int8]bool{}
	for _, l := range [][]int8{s.ObjDeck, s.ObjOffer[0], s.ObjOffer[1], s.Fulfilled[0], s.Fulfilled[1], {s.Objective[0], s.Objective[1]}} {
		for _, c := range l {
			placed[c] = true
		}
	}
	s.ObjOut = s.ObjOut[:0]
	for n := 1; n <= numCards; n++ {
		if c := is.deck.Card(n); c.Kind == ObjectiveCard && !placed[int8(n)] {
			s.ObjOut = append(s.ObjOut, int8(n))
		}
	}
	s.RNG = r.Uint64()
	return g
}

// Simulation reports whether the game is a sample (no log, no undo).
func (g *Game) Simulation() bool { return g.sim }
