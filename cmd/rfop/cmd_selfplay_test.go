package main

import (
	"encoding/json"
	"io"
	"strconv"
	"strings"
	"testing"

	"github.com/rfop/rfop/engine"
	"github.com/stretchr/testify/require"
)

// selfplayJSON runs selfplay and decodes its one line of JSON.
func selfplayJSON(t *testing.T, args ...string) (int, map[string]any, string) {
	t.Helper()
	code, out, errOut := runCmd(nil, append([]string{"selfplay"}, args...)...)
	require.Equal(t, 1, strings.Count(out, "\n"), "exactly one line on stdout: %q", out)
	var m map[string]any
	require.NoError(t, json.Unmarshal([]byte(out), &m), out)
	return code, m, errOut
}

func TestSelfplay(t *testing.T) {
	t.Parallel()
	for _, variant := range []string{"standard", "censorship"} {
		t.Run(variant, func(t *testing.T) {
			code, m, errOut := selfplayJSON(t, "--games", "25", "--seed", "100", "--variant", variant)
			require.Equal(t, 0, code, errOut)
			require.Empty(t, errOut)
			require.EqualValues(t, 25, m["games"])
			require.EqualValues(t, 0, m["errors"])
			require.EqualValues(t, 0, m["invariant_violations"])
			require.EqualValues(t, 25, m["commune_wins"].(float64)+m["versailles_wins"].(float64))
			require.Greater(t, m["final_crisis_reached"], 0.0)
			require.Greater(t, m["avg_decisions"], 20.0)
			require.Greater(t, m["games_per_sec"], 0.0)
			require.NotContains(t, m, "bot_wins")
			require.NotContains(t, m, "bot_side")
			keys := []string{"games", "errors", "invariant_violations", "commune_wins", "versailles_wins",
				"final_crisis_reached", "avg_decisions", "games_per_sec"}
			require.Len(t, m, len(keys))
			for _, k := range keys {
				require.Contains(t, m, k)
			}
		})
	}
}

func TestSelfplayDeterministic(t *testing.T) {
	t.Parallel()
	_, a, _ := selfplayJSON(t, "--games", "10", "--seed", "7")
	_, b, _ := selfplayJSON(t, "--games", "10", "--seed", "7")
	delete(a, "games_per_sec")
	delete(b, "games_per_sec")
	require.Equal(t, a, b)
}

func TestSelfplaySoloWithStubOpponent(t *testing.T) {
	withStubSolo(t)
	for _, bot := range []string{"commune", "versailles"} {
		code, m, errOut := selfplayJSON(t, "--games", "10", "--seed", "3", "--solo", bot)
		require.Equal(t, 0, code, errOut)
		require.EqualValues(t, 0, m["errors"])
		require.EqualValues(t, 0, m["invariant_violations"])
		require.Equal(t, bot, m["bot_side"])
		require.Contains(t, m, "bot_wins")
		wins := m[bot+"_wins"]
		require.Equal(t, wins, m["bot_wins"])
	}
}

func TestSelfplayBadFlags(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		args []string
		msg  string
	}{
		{[]string{"--games", "0"}, "--games must be at least 1"},
		{[]string{"--games", "many"}, "invalid value"},
		{[]string{"--variant", "chess"}, `unknown variant "chess"`},
		{[]string{"--solo", "both"}, `unknown side "both"`},
		{[]string{"--nope"}, "flag provided but not defined"},
		{[]string{"7"}, `unexpected argument "7"`},
	} {
		code, out, errOut := runCmd(nil, append([]string{"selfplay"}, tc.args...)...)
		require.Equal(t, 2, code, tc.args)
		require.Contains(t, errOut, tc.msg, tc.args)
		require.Empty(t, out, tc.args)
	}
	code, out, errOut := runCmd(nil, "selfplay", "-h")
	require.Equal(t, 0, code)
	require.Empty(t, errOut)
	require.Contains(t, out, "Usage: rfop selfplay")
	require.Contains(t, out, "final_crisis_reached")
	require.Contains(t, out, "-games")
}

// The checker itself: a public log line naming a card in a hand is a leak,
// whether the line names it as a message's card, in a note, or in the text
// of a line saved before messages.
func TestHiddenCheckerCatchesALeak(t *testing.T) {
	t.Parallel()
	for name, line := range map[string]func(card int) engine.LogEntry{
		"a message's card": func(card int) engine.LogEntry {
			return engine.LogEntry{Msg: &engine.Msg{ID: "engine.log.discards", Args: []engine.Arg{
				{Name: "Side", Kind: engine.ArgSide, N: int(engine.Commune)}, {Name: "Card", Kind: engine.ArgCard, N: card}}}}
		},
		"a note": func(card int) engine.LogEntry {
			return engine.LogEntry{Msg: &engine.Msg{ID: "engine.log.note", Args: []engine.Arg{
				{Name: "Note", Kind: engine.ArgText, S: "Commune thinks about #" + itoaTest(card) + " aloud."}}}}
		},
		"a line saved before messages": func(card int) engine.LogEntry {
			return engine.LogEntry{LegacyText: "Commune thinks about #" + itoaTest(card) + " aloud."}
		},
	} {
		t.Run(name, func(t *testing.T) {
			g, err := engine.New(engine.Options{Seed: 5})
			require.NoError(t, err)
			var hc hiddenChecker
			require.NoError(t, hc.check(g, engine.Versailles))
			require.NoError(t, hc.check(g, engine.Commune))
			e := line(int(g.S.Hand[engine.Commune][0]))
			e.Seq, e.To = len(g.S.Log)+1, engine.NoSide
			g.S.Log = append(g.S.Log, e)
			err = hc.check(g, engine.Commune)
			require.ErrorContains(t, err, "public log line names hidden card")
		})
	}

	hidden := cardMask(0, []int8{12})
	legacy := func(s string) *engine.LogEntry { return &engine.LogEntry{LegacyText: s} }
	require.Equal(t, 12, namedHiddenCard(legacy("plays #7 and #12 X"), hidden))
	require.Equal(t, 0, namedHiddenCard(legacy("plays #7, #120, # and #1"), hidden))
	require.Equal(t, 0, namedHiddenCard(legacy("#"), hidden))
}

func itoaTest(n int) string { return strconv.Itoa(n) }

func TestSelfplayViewType(t *testing.T) {
	t.Parallel()
	require.NoError(t, checkViewType())
	g, err := engine.New(engine.Options{Seed: 9})
	require.NoError(t, err)
	require.NoError(t, deepViewCheck(g))
}

// BenchmarkSelfplay200 is rfop selfplay --games 200 with every check (the
// goal is ≥ 4,000 games/s on one core: run with -cpu 1 under taskset, and
// -cpuprofile to see where a game's time goes). The first game's deep
// JSON check is in it, one game in 200 instead of one in 2,000.
func BenchmarkSelfplay200(b *testing.B) {
	for b.Loop() {
		if code := runSelfplay([]string{"--games", "200", "--seed", "1"}, nil, io.Discard, io.Discard); code != 0 {
			b.Fatalf("selfplay exit status %d", code)
		}
	}
	b.ReportMetric(200*float64(b.N)/b.Elapsed().Seconds(), "games/s")
}
