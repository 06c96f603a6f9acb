package engine

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// rules-decisions.md 6: "If the Strategy deck is empty when a card must be
// drawn, shuffle the discard pile into a new deck. If both are empty, a
// military test with strength below 3 fails."
func TestEmptyDeckForMilitaryTest(t *testing.T) {
	tests := []struct {
		name      string
		discard   []DiscardEntry
		wantGone  bool // the Commune cube in Mont-Valérien is removed
		wantDeck  int  // cards in the deck after the attempt
		wantPile  int  // cards in the discard pile after the attempt
		wantDrawn bool // a card left the game
	}{
		{
			name:    "empty deck and empty discard pile: the attempt fails",
			discard: nil, wantGone: false, wantDeck: 0, wantPile: 0, wantDrawn: false,
		},
		{
			// #2 is a 1-OP card: strength 1 (Versailles HQ) beats it.
			name:    "empty deck: the discard pile becomes the deck, then a card is drawn",
			discard: []DiscardEntry{{Card: 2, By: Commune, Round: 1}}, wantGone: true, wantDeck: 0, wantPile: 0, wantDrawn: true,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := position(t, cubes{MontValerien: {0, 1}})
			g.S.Deck = nil
			g.S.Discard = append([]DiscardEntry(nil), tc.discard...)
			removed := len(g.S.Removed)
			start(g, opsFrame(Versailles, 1))
			pick(t, g, Versailles, func(c Choice) bool { return c.Kind == ChooseSphere && c.N == int(Military) })
			c := pick(t, g, Versailles, at(ChooseRemove, MontValerien))
			require.Equal(t, 1, c.Strength, "Versailles HQ alone gives strength 1")

			assert.Equal(t, tc.wantGone, g.S.Cubes[Commune][MontValerien] == 0)
			assert.Len(t, g.S.Deck, tc.wantDeck)
			assert.Len(t, g.S.Discard, tc.wantPile)
			assert.Equal(t, tc.wantDrawn, len(g.S.Removed) == removed+1)
		})
	}
}

// rules-decisions.md 6 also applies to the deal: a round's hands are drawn
// from the reshuffled discard pile when the deck runs out.
func TestDealReshufflesDiscardPile(t *testing.T) {
	g := position(t, cubes{})
	pile := append([]int8(nil), g.S.Deck...)
	g.S.Deck = g.S.Deck[:3] // fewer than the 8 cards a deal needs
	for _, c := range pile[3:] {
		g.S.Discard = append(g.S.Discard, DiscardEntry{Card: c, By: Versailles, Round: 1})
	}
	g.S.Hand = [2][]int8{}
	g.deal()
	assert.Len(t, g.S.Hand[Versailles], handSize)
	assert.Len(t, g.S.Hand[Commune], handSize)
	assert.Empty(t, g.S.Discard, "the whole discard pile went into the new deck")
	assert.Len(t, g.S.Deck, len(pile)-2*handSize, "no card lost or duplicated")
}

// rules-decisions.md 12: "Event placements, removals, replacements and
// moves (not 'spend OP') need no presence or adjacency and always succeed;
// they obey the 4-cube limit." cards.md D3: no OP is spent, so an
// opponent's disc does not double the cost.
func TestEventActionsNeedNoReach(t *testing.T) {
	t.Run("event placement in a space with no presence or adjacency, past an opposing disc", func(t *testing.T) {
		// #19 Wroblewski: PLACE up to 2 cubes in Butte-aux-Cailles and/or Fort d'Issy.
		g := position(t, cubes{FortIssy: {2, 0}})
		g.S.Disc[FortIssy] = Versailles
		require.False(t, g.S.ReachSet(Commune).Has(FortIssy), "the Commune could not operate in Fort d'Issy")
		start(g, eventFrame(19, Commune))
		p := prompt(t, g, Commune)
		assert.ElementsMatch(t, []Space{ButteAuxCailles, FortIssy}, spacesOf(p, ChoosePlace))
		pick(t, g, Commune, at(ChoosePlace, FortIssy))
		pick(t, g, Commune, at(ChoosePlace, FortIssy))
		assert.Equal(t, int8(2), g.S.Cubes[Commune][FortIssy], "two cubes for two placements: no disc surcharge")
	})
	t.Run("event removal in a Military space always succeeds: no card is drawn", func(t *testing.T) {
		// #7 Espivent is political; #3 Brassardiers (a) removes from Paris spaces where you are present.
		g := position(t, cubes{ButteMontmartre: {1, 2}})
		deck := len(g.S.Deck)
		start(g, eventFrame(3, Versailles))
		pick(t, g, Versailles, func(c Choice) bool { return c.Kind == ChooseOption && c.N == 0 })
		pick(t, g, Versailles, at(ChooseRemove, ButteMontmartre))
		pick(t, g, Versailles, at(ChooseRemove, ButteMontmartre))
		assert.Equal(t, int8(0), g.S.Cubes[Commune][ButteMontmartre])
		assert.Equal(t, deck, len(g.S.Deck), "no military test")
	})
	t.Run("event placement obeys the 4-cube limit", func(t *testing.T) {
		g := position(t, cubes{FortIssy: {0, 4}})
		start(g, eventFrame(19, Commune))
		p := prompt(t, g, Commune)
		assert.Equal(t, []Space{ButteAuxCailles}, spacesOf(p, ChoosePlace))
	})
}

// rules-decisions.md 5: "A player need not spend all operations points
// ('up to' includes zero)." Operations may end at once, with the OP lost.
func TestOperationsMayEndUnspent(t *testing.T) {
	g := position(t, cubes{})
	start(g, Frame{K: fEndPlay, Side: Commune, You: Commune, Flags: 1}, opsFrame(Commune, 3))
	pick(t, g, Commune, func(c Choice) bool { return c.Kind == ChooseSphere && c.N == int(Political) })
	pick(t, g, Commune, kind(ChooseDone))
	assert.Equal(t, int8(1), g.S.Plays[Commune], "the play is over and counted")
	assert.Equal(t, [2][NumMapSpaces]int8{}, g.S.Cubes, "nothing was placed or removed")
}

// LogEntry.Version: "entries of the move that took the game from version v
// to v+1 carry v" — including the entries written while the game runs on
// by itself after the choice (end of the play, bonus cubes, the next
// round's deal), so a client showing "what happened since version v"
// neither repeats nor drops a line.
func TestLogEntriesCarryTheirMovesVersion(t *testing.T) {
	g := position(t, cubes{})
	g.S.Track[Commune] = [NumZones]int8{0, 2, 2, 2} // the next cube breaches Escalation
	g.S.Momentum[Commune] = 1                       // two pool cells for its bonus cubes
	start(g, Frame{K: fEndPlay, Side: Commune, You: Commune, Flags: 1}, opsFrame(Commune, 1))
	pick(t, g, Commune, func(c Choice) bool { return c.Kind == ChooseSphere && c.N == int(Political) })
	from := g.S.Version
	logLen := len(g.S.Log)
	// Spending the last OP ends the play: the bonus cubes are paid while the
	// game runs on after the choice.
	pick(t, g, Commune, at(ChoosePlace, SocialMovements))
	require.Equal(t, from+1, g.S.Version)
	var texts []string
	for _, e := range g.S.Log[logLen:] {
		texts = append(texts, e.English(nil))
		assert.Equal(t, from, e.Version, "entry %q", e.English(nil))
	}
	assert.Contains(t, strings.Join(texts, "\n"), "bonus cube", "the bonus payment is part of this move")
}

// Random games: every entry's version is the version its move started from,
// so versions never decrease and never reach the current version.
func TestLogVersionsAreMoveStarts(t *testing.T) {
	g, _ := randomGame(t, 5, 400)
	last := 0
	for _, e := range g.S.Log {
		assert.GreaterOrEqual(t, e.Version, last, "entry %d %q", e.Seq, e.English(nil))
		assert.Less(t, e.Version, g.S.Version+1, "entry %d %q", e.Seq, e.English(nil))
		last = e.Version
	}
}
