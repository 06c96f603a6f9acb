package bot

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// FuzzCustomID: any custom_id a click can carry (a forged one included)
// is refused with errBadID or names a known verb, a game, and for the
// verbs that act on a version a side and a bounded argument; and the id
// the bot would write for it reads back the same. How to run it: README,
// "Fuzzing".
func FuzzCustomID(f *testing.F) {
	for _, id := range []customID{
		{Verb: verbTurn, Game: 7}, {Verb: verbAnalysis, Game: 1},
		{Verb: verbChoose, Game: 12, Version: 34, Side: "commune", Arg: 3},
		{Verb: verbSelect, Game: 12, Side: "versailles", Arg: 999},
		{Verb: verbUndoOK, Game: 5, Version: 9, Side: "versailles"},
	} {
		f.Add(id.String())
	}
	for _, s := range []string{"", "rfop//1", "rfop/turn/+7", "rfop/c/1/-0/commune/0", "rfop/c/1/2/commune/1000",
		"rfop/turn/9223372036854775808", strings.Repeat("rfop/", 21)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		id, err := parseCustomID(s)
		if err != nil {
			require.ErrorIs(t, err, errBadID)
			return
		}
		require.LessOrEqual(t, len(s), 100)
		shape, ok := idKinds[id.Verb]
		require.True(t, ok, "unknown verb %q accepted", id.Verb)
		require.Positive(t, id.Game)
		if shape != idGame {
			require.GreaterOrEqual(t, id.Version, int64(0))
			require.Contains(t, []string{"versailles", "commune"}, id.Side)
		}
		require.True(t, id.Arg >= 0 && id.Arg <= 999, "argument %d", id.Arg)
		again, err := parseCustomID(id.String())
		require.NoError(t, err, "the bot's own id %q for %q is refused", id.String(), s)
		require.Equal(t, id, again)
	})
}
