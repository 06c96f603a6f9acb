package engine

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Resume builds a game from a position through the rules' checks; it
// never changes the game the position came from.

func soloPositionForResume(t *testing.T) State {
	t.Helper()
	g, err := newSoloTestGame(Versailles, 1)
	require.NoError(t, err)
	return g.S
}

func TestResumeStartsTheProceduresInOrder(t *testing.T) {
	s := soloPositionForResume(t)
	hand := len(s.Hand[Commune])
	// The Player's card play first, then the bot's turn (the first given resolves first).
	g, err := Resume(s, nil, ProcCardPlay(Commune), ProcBotTurn())
	require.NoError(t, err)
	p, ok := g.PromptFor(Commune)
	require.True(t, ok)
	assert.Equal(t, PromptPlay, p.Kind)
	assert.Equal(t, hand, len(s.Hand[Commune]), "the position is not changed")
	assert.Empty(t, s.Stack)
	require.NoError(t, g.Apply(Commune, p.Choices[0]))
	require.NoError(t, g.S.checkCensus())
}

func TestResumeRejectsImpossiblePositions(t *testing.T) {
	tests := []struct {
		name  string
		edit  func(s *State)
		procs []Procedure
		want  string
	}{
		{"a lost card", func(s *State) { s.Deck = s.Deck[1:] }, []Procedure{ProcBotTurn()}, "in no place"},
		{"a card in two places", func(s *State) { s.Removed = append(s.Removed, s.Deck[0]) }, []Procedure{ProcBotTurn()}, "in 2 places"},
		{"five cubes in a space", func(s *State) { s.Cubes[Commune][Press] = 5 }, []Procedure{ProcBotTurn()}, "5 cubes"},
		{"momentum 4", func(s *State) { s.Momentum[Versailles] = 4 }, []Procedure{ProcBotTurn()}, "momentum"},
		{"a procedure in progress", func(s *State) { s.Stack = []Frame{{K: fBonus}} }, []Procedure{ProcBotTurn()}, "in progress"},
		{"no procedure", func(s *State) {}, nil, "no procedure"},
		{"a bot turn without a solo opponent", func(s *State) { s.BotSide = NoSide }, []Procedure{ProcBotTurn()}, "without a solo opponent"},
		{"operations of no side", func(s *State) {}, []Procedure{ProcOperations(NoSide, 2, Military)}, "invalid side"},
		{"an event of no card", func(s *State) {}, []Procedure{ProcEvent(99, Commune)}, "no card #99"},
		{"another deck", func(s *State) { s.DeckID = "feedface" }, []Procedure{ProcBotTurn()}, "deck"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := soloPositionForResume(t)
			tc.edit(&s)
			_, err := Resume(s, nil, tc.procs...)
			require.ErrorIs(t, err, ErrPosition)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
}
