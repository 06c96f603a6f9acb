package main

import (
	"math"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestBotWithoutTokenExplainsInTwoLines: with no DISCORD_TOKEN, rfop (the
// bot is the default subcommand, and bare flags are the bot's) prints two
// lines, what is missing and how to play locally, and fails.
func TestBotWithoutTokenExplainsInTwoLines(t *testing.T) {
	t.Setenv("DISCORD_TOKEN", "")
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"no arguments", nil},
		{"bot subcommand", []string{"bot"}},
		{"bot flags without the subcommand", []string{"-db", t.TempDir() + "/rfop.db", "-log-level", "debug"}},
		{"bot subcommand with flags", []string{"bot", "--test-guild", "123"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errOut := runCmd(nil, tc.args...)
			require.Equal(t, 2, code)
			require.Empty(t, out)
			lines := strings.Split(strings.TrimSuffix(errOut, "\n"), "\n")
			require.Len(t, lines, 2, errOut)
			require.Contains(t, lines[0], "DISCORD_TOKEN is not set")
			require.Contains(t, lines[0], "discord.com/developers/applications")
			require.Contains(t, lines[1], "rfop play")
			require.Contains(t, lines[1], "--solo --side versailles")
		})
	}
}

// TestNoTokenMessageNamesTheCommandAsInvoked: the local-play hint is
// something the user can type: "go run ./cmd/rfop play" under go run.
func TestNoTokenMessageNamesTheCommandAsInvoked(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		argv0 string
		want  string
	}{
		{"/tmp/go-build3141592653/b001/exe/rfop", "go run ./cmd/rfop"},
		{"/home/me/.cache/go-build/tmp/go-build27/b001/exe/rfop", "go run ./cmd/rfop"},
		{"/rfop", "rfop"},
		{"./rfop", "rfop"},
		{"/usr/local/bin/rfop-bot", "rfop-bot"},
		{"rfop", "rfop"},
		{"", "rfop"},
	} {
		self := invokedAs(tc.argv0)
		require.Equal(t, tc.want, self, tc.argv0)
		require.Contains(t, noTokenMessage(self), "\n"+"No Discord? Play in this terminal: "+tc.want+" play")
	}
}

// TestBotHelpIsNotAnError: rfop bot -h (and rfop -h) print usage on
// stdout and exit 0, as the other subcommands do.
func TestBotHelpIsNotAnError(t *testing.T) {
	for _, args := range [][]string{{"bot", "-h"}, {"bot", "--help"}} {
		code, out, errOut := runCmd(nil, args...)
		require.Equal(t, 0, code, args)
		require.Empty(t, errOut, args)
		require.Contains(t, out, "Usage: rfop [bot] [flags]")
		require.Contains(t, out, "-db string")
		require.Contains(t, out, "env RFOP_DB")
	}
	for _, args := range [][]string{{"-h"}, {"--help"}, {"-help"}, {"help"}} {
		code, out, _ := runCmd(nil, args...)
		require.Equal(t, 0, code, args)
		require.Contains(t, out, "Usage: rfop [subcommand]", args)
	}
	// A postgres URL in RFOP_DB is shown without its password.
	t.Setenv("RFOP_DB", "postgres://rfop:s3cret@db:5432/rfop")
	code, out, _ := runCmd(nil, "bot", "-h")
	require.Equal(t, 0, code)
	require.Contains(t, out, "postgres://rfop:xxxxx@db:5432/rfop")
	require.NotContains(t, out, "s3cret")
	code, _, errOut := runCmd(nil, "bot", "--bogus")
	require.Equal(t, 2, code)
	require.Contains(t, errOut, "flag provided but not defined: -bogus")
}

// TestHelpListsEverySubcommandOnOneLine: rfop --help names each registered
// subcommand once, on a line of its own with its summary.
func TestHelpListsEverySubcommandOnOneLine(t *testing.T) {
	t.Parallel()
	code, out, _ := runCmd(nil, "--help")
	require.Equal(t, 0, code)
	for name, c := range commands {
		n := 0
		for _, line := range strings.Split(out, "\n") {
			f := strings.Fields(line)
			if len(f) > 1 && f[0] == name {
				n++
				require.Contains(t, line, c.summary)
			}
		}
		require.Equal(t, 1, n, "subcommand %s in:\n%s", name, out)
	}
	for _, want := range []string{"bot", "play", "selfplay", "render"} {
		require.Contains(t, commands, want)
	}
}

// TestBotSetsASoftMemoryLimitUnlessGOMEMLIMITDoes: the bot runs with a
// 200 MiB soft memory limit by default; a GOMEMLIMIT in the environment
// (which the runtime has already applied) is left alone.
func TestBotSetsASoftMemoryLimitUnlessGOMEMLIMITDoes(t *testing.T) {
	before := debug.SetMemoryLimit(-1)
	t.Cleanup(func() { debug.SetMemoryLimit(before) })
	for _, tc := range []struct {
		name, env string
		preset    int64 // the limit the runtime took from GOMEMLIMIT
		want      int64
	}{
		{"no GOMEMLIMIT: the default", "", math.MaxInt64, defaultMemoryLimit},
		{"GOMEMLIMIT set: kept", "512MiB", 512 << 20, 512 << 20},
		{"GOMEMLIMIT=off: kept", "off", math.MaxInt64, math.MaxInt64},
	} {
		t.Run(tc.name, func(t *testing.T) {
			debug.SetMemoryLimit(tc.preset)
			got := softMemoryLimit(func(k string) string {
				if k == "GOMEMLIMIT" {
					return tc.env
				}
				return ""
			})
			require.Equal(t, tc.want, got)
			require.Equal(t, tc.want, debug.SetMemoryLimit(-1))
		})
	}
}

// TestBotRefusesABadShard: the shard settings are checked before anything
// connects: -shard-id must be from 0 to -shard-count - 1, from flags or
// the environment.
func TestBotRefusesABadShard(t *testing.T) {
	t.Setenv("DISCORD_TOKEN", "test-token")
	for _, tc := range []struct {
		name string
		env  map[string]string
		args []string
		want string
	}{
		{"id equal to the count", nil, []string{"bot", "-shard-id", "2", "-shard-count", "2"}, "bad shard 2 of 2"},
		{"negative id", nil, []string{"bot", "-shard-id", "-1", "-shard-count", "2"}, "bad shard -1 of 2"},
		{"zero count", nil, []string{"bot", "-shard-count", "0"}, "bad shard 0 of 0"},
		{"id without a count", nil, []string{"bot", "-shard-id", "1"}, "bad shard 1 of 1"},
		{"malformed environment", map[string]string{"RFOP_SHARD_ID": "one", "RFOP_SHARD_COUNT": "2"}, []string{"bot"}, "bad shard -1 of 2"},
		{"id from the environment", map[string]string{"RFOP_SHARD_ID": "3", "RFOP_SHARD_COUNT": "3"}, []string{"bot"}, "bad shard 3 of 3"},
		{"reminder check interval", nil, []string{"bot", "-reminder-every", "0s"}, "bad -reminder-every"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for k, v := range tc.env {
				t.Setenv(k, v)
			}
			code, _, errOut := runCmd(nil, tc.args...)
			require.Equal(t, 2, code, errOut)
			require.Contains(t, errOut, tc.want)
		})
	}
}
