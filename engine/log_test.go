package engine

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A game writes no words while it is played: its log lines and result are
// messages, the save holds no English, and the words are made when a line
// is read.
func TestLogStoresMessagesNotWords(t *testing.T) {
	g, _ := randomGame(t, 7, 400)
	require.NotNil(t, g.S.Result)
	for _, e := range g.S.Log {
		require.NotNil(t, e.Msg, "line %d", e.Seq)
		require.Empty(t, e.LegacyText, "line %d", e.Seq)
		text := e.English(nil)
		require.NotEmpty(t, text, "line %d (%s)", e.Seq, e.Msg.ID)
		require.False(t, strings.HasPrefix(text, "["), "line %d prints as an unknown message: %s", e.Seq, text)
	}
	require.Empty(t, g.S.Result.LegacySummary)
	assert.Contains(t, g.S.Result.English(nil), "wins")
	b, err := g.Save()
	require.NoError(t, err)
	var raw struct {
		Log    []map[string]json.RawMessage `json:"log"`
		Result map[string]json.RawMessage   `json:"result"`
	}
	require.NoError(t, json.Unmarshal(b, &raw))
	for _, e := range raw.Log {
		require.NotContains(t, e, "text")
	}
	assert.NotContains(t, raw.Result, "summary")
}

// Games saved while lines stored their English beside their message
// (testdata/textmsg_*.json, written by the engine of commit 23cce3e) load
// with the same words made from their messages, drop the stored English so
// that the next save is smaller, and still match a replay of their moves.
func TestSavesWithTextAndMessagesLoad(t *testing.T) {
	for _, name := range []string{"textmsg_2p_finished.json", "textmsg_solo_midgame.json"} {
		t.Run(name, func(t *testing.T) {
			f := readLegacy(t, name)
			var stored State
			require.NoError(t, json.Unmarshal(f.State, &stored))
			require.NotEmpty(t, stored.Log)
			g, err := Load(f.State, f.deck(t))
			require.NoError(t, err)
			require.Len(t, g.S.Log, len(stored.Log))
			for i, e := range g.S.Log {
				require.NotNil(t, e.Msg)
				require.NotEmpty(t, stored.Log[i].LegacyText, "the fixture stored words")
				assert.Equal(t, stored.Log[i].LegacyText, e.English(f.deck(t)), "line %d reads as it was stored", e.Seq)
				assert.Empty(t, e.LegacyText, "line %d: the stored English is dropped", e.Seq)
			}
			if stored.Result != nil {
				assert.Equal(t, stored.Result.LegacySummary, g.S.Result.English(f.deck(t)))
				assert.Empty(t, g.S.Result.LegacySummary)
			}
			again, err := g.Save()
			require.NoError(t, err)
			assert.Less(t, len(again), len(f.State)*3/4, "the resave holds no English")
			assert.NotContains(t, string(again), `"text":`)
			replayed, err := Replay(f.options(t), f.Moves)
			require.NoError(t, err)
			want, err := replayed.Save()
			require.NoError(t, err)
			assert.NoError(t, SameState(f.State, want))
			assert.NoError(t, SameState(again, want))
			assert.JSONEq(t, string(want), string(again), "once loaded, a replay saves the same bytes")
		})
	}
}

// Cards lists the cards a line names without making its words: card
// arguments, card sets, nested messages, "#N" in a note, and in the text
// of a line saved before messages.
func TestLogEntryCards(t *testing.T) {
	cards := func(e LogEntry) []int {
		var out []int
		e.Cards(func(n int) { out = append(out, n) })
		return out
	}
	hand := msg("engine.log.hand", aSide("Side", Versailles), aCardSet("Cards", []int8{3, 17}))
	nested := msg("engine.log.game-over", aMsg("Summary", msg("engine.log.discards", aSide("Side", Commune), aCard("Card", 40))))
	note := msg(noteID, aText("Note", "kept #12 for later, not #7x or # or #1234"))
	for name, tc := range map[string]struct {
		e    LogEntry
		want []int
	}{
		"a card":           {LogEntry{Msg: ptr(msg("engine.log.discards", aSide("Side", Commune), aCard("Card", 9)))}, []int{9}},
		"a hand":           {LogEntry{Msg: &hand}, []int{3, 17}},
		"a nested message": {LogEntry{Msg: &nested}, []int{40}},
		"a note":           {LogEntry{Msg: &note}, []int{12, 7, 123}},
		"no card":          {LogEntry{Msg: ptr(msg("engine.log.round-begins", aNum("Round", 2)))}, nil},
		"a legacy line":    {LogEntry{LegacyText: "Commune plays #21 Le Réveil for 2 OP; #5."}, []int{21, 5}},
	} {
		t.Run(name, func(t *testing.T) {
			assert.Equal(t, tc.want, cards(tc.e))
		})
	}
}

func ptr[T any](v T) *T { return &v }

// Every line of random games names through Cards exactly the cards its
// English shows as "#N" (a sentence may repeat one): the privacy checks
// that read Cards see what a reader sees.
func TestLogEntryCardsMatchItsWords(t *testing.T) {
	for seed := int64(1); seed <= 5; seed++ {
		g, _ := randomGame(t, seed, 400)
		for _, e := range g.S.Log {
			fromMsg, fromText := map[int]bool{}, map[int]bool{}
			e.Cards(func(n int) { fromMsg[n] = true })
			cardRefs(e.English(nil), func(n int) { fromText[n] = true })
			require.Equal(t, fromText, fromMsg, "seed %d line %d: %s", seed, e.Seq, e.English(nil))
		}
	}
}
