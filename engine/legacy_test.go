package engine

import (
	"encoding/json"
	"math/rand/v2"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// legacyFixture is a game saved by the code before log lines carried
// messages (testdata/legacy_*.json, written by that code): its options,
// move log and stored state, whose log entries have English Text only.
type legacyFixture struct {
	Options struct {
		Variant Variant `json:"variant"`
		Seed    int64   `json:"seed"`
		BotSide Side    `json:"botSide"`
	} `json:"options"`
	Moves []Move          `json:"moves"`
	State json.RawMessage `json:"state"`
}

func readLegacy(t *testing.T, name string) legacyFixture {
	t.Helper()
	b, err := os.ReadFile("testdata/" + name)
	require.NoError(t, err)
	var f legacyFixture
	require.NoError(t, json.Unmarshal(b, &f))
	return f
}

// deck is the embedded deck under the ID the saved state names (it was
// saved before deck IDs were canonical: Deck.Relabel).
func (f legacyFixture) deck(t *testing.T) *Deck {
	t.Helper()
	id, err := DeckIDOf(f.State)
	require.NoError(t, err)
	d := DefaultDeck()
	if id != d.ID {
		d = d.Relabel(id)
	}
	return d
}

func (f legacyFixture) options(t *testing.T) Options {
	return Options{Variant: f.Options.Variant, Seed: f.Options.Seed, BotSide: f.Options.BotSide, Deck: f.deck(t)}
}

var legacyFixtures = []string{"legacy_2p_standard.json", "legacy_2p_censorship.json", "legacy_solo_commune.json"}

// A game saved before messages loads, and a replay of its action log (which
// writes every line as a message) passes the integrity comparison.
func TestLegacyStatesLoadAndMatchTheirReplay(t *testing.T) {
	for _, name := range legacyFixtures {
		t.Run(name, func(t *testing.T) {
			f := readLegacy(t, name)
			stored, err := Load(f.State, f.deck(t))
			require.NoError(t, err)
			for _, e := range stored.S.Log {
				require.Nil(t, e.Msg, "a legacy entry has no message")
				require.NotEmpty(t, e.LegacyText)
				require.Equal(t, e.LegacyText, e.English(nil), "a legacy line prints its stored English")
			}
			replayed, err := Replay(f.options(t), f.Moves)
			require.NoError(t, err)
			for _, e := range replayed.S.Log {
				require.NotNil(t, e.Msg, "a replayed entry is a message: %q", e.LegacyText)
				require.Empty(t, e.LegacyText, "a new line stores no words")
			}
			got, err := replayed.Save()
			require.NoError(t, err)
			want, err := stored.Save()
			require.NoError(t, err)
			assert.NotEqual(t, string(want), string(got), "the wording differs (old English, new messages)")
			assert.NoError(t, SameState(want, got))
			assert.NoError(t, SameState(got, want))
		})
	}
}

// A legacy game goes on being played: its new lines are messages, its old
// ones keep their Text, and the mixed state still matches a replay.
func TestLegacyGameContinues(t *testing.T) {
	f := readLegacy(t, "legacy_2p_censorship.json")
	g, err := Load(f.State, f.deck(t))
	require.NoError(t, err)
	require.Nil(t, g.S.Result)
	old := len(g.S.Log)
	moves := append([]Move(nil), f.Moves...)
	r := rand.New(rand.NewPCG(3, 4))
	for g.S.Result == nil {
		m, ok := g.RandomMove(r)
		require.True(t, ok)
		require.NoError(t, g.ApplyMove(m))
		moves = append(moves, m)
	}
	require.Greater(t, len(g.S.Log), old)
	assert.Nil(t, g.S.Log[old-1].Msg)
	assert.NotNil(t, g.S.Log[old].Msg)
	require.NotNil(t, g.S.Result.Msg)
	replayed, err := Replay(f.options(t), moves)
	require.NoError(t, err)
	a, _ := g.Save()
	b, _ := replayed.Save()
	assert.NoError(t, SameState(a, b))
}

// The comparison still catches a state that differs from its replay: a
// piece, a log line's author, a log line's message, the result.
func TestSameStateFindsDifferences(t *testing.T) {
	f := readLegacy(t, "legacy_2p_standard.json")
	replayed, err := Replay(f.options(t), f.Moves)
	require.NoError(t, err)
	good, _ := replayed.Save()
	tamper := func(fn func(s *State)) []byte {
		g, err := Load(good, f.deck(t))
		require.NoError(t, err)
		fn(&g.S)
		b, _ := json.Marshal(&g.S)
		return b
	}
	cases := map[string]func(s *State){
		"a cube":         func(s *State) { s.Cubes[Versailles][Royalists]++ },
		"a line's actor": func(s *State) { s.Log[3].Actor = s.Log[3].Actor.Other() },
		"a line's message": func(s *State) {
			m := *s.Log[3].Msg
			m.ID = "engine.log.undo"
			s.Log[3].Msg = &m
		},
		"a line less": func(s *State) { s.Log = s.Log[:len(s.Log)-1] },
		"the winner":  func(s *State) { r := *s.Result; r.Winner = r.Winner.Other(); s.Result = &r },
		"legacy line's actor": func(s *State) {
			s.Log[3].Msg = nil
			s.Log[3].Actor = s.Log[3].Actor.Other()
		},
	}
	for name, fn := range cases {
		t.Run(name, func(t *testing.T) {
			assert.Error(t, SameState(good, tamper(fn)))
		})
	}
	assert.NoError(t, SameState(good, good))
}
