package main

import (
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// FuzzPlayInput: whatever a player types at `rfop play` (hot-seat or
// against the solo opponent, in any language), the game answers each line
// — a choice, a command, or an explanation of what it is not — and ends at
// the end of the input or of the game, with exit status 0; only a line too
// long to read ends it with an error that says so. How to run it: README,
// "Fuzzing".
func FuzzPlayInput(f *testing.F) {
	for _, in := range []string{
		"1\n1\nh\ns\nc\nl\nfoo\n0\nu\n",
		"1\n2\n1\n1\n3\n2\n1\n1\n1\n1\n1\n1\n1\n1\n",
		"q\ny\n1\n", "q\nno\n1\n1\nq\n", "?\nhelp\nboard\nhand\nlog\nprompt\nundo\nexit\nда\n",
		"-1\n99999999999999999999\n+1\n 2 \n\n\r\n1\x00\n", "hint\n",
	} {
		f.Add(uint8(1), uint8(0), uint8(0), in)
	}
	f.Add(uint8(2), uint8(1), uint8(1), "1\n1\n1\nc\n2\n1\n")
	f.Add(uint8(3), uint8(2), uint8(2), "1\n2\nl\n1\nu\nq\nд\n")
	// The board picture is not what is fuzzed, and drawing it would make
	// each input take a tenth of a second: play runs text-only, as a build
	// without package render does. Fuzz targets run after every test of
	// the binary has ended, so no parallel test sees the change.
	saved := newBoardWriter
	newBoardWriter = nil
	f.Cleanup(func() { newBoardWriter = saved })
	modes := [][]string{nil, {"--solo", "--side", "commune"}, {"--solo", "--side", "versailles"}}
	langs := []string{"en", "fr", "ru"}
	f.Fuzz(func(t *testing.T, seed, mode, lang uint8, in string) {
		args := append([]string{"play", "--seed", strconv.Itoa(int(seed) + 1), "--lang", langs[int(lang)%len(langs)]},
			modes[int(mode)%len(modes)]...)
		code, out, errOut := runCmd(strings.NewReader(in), args...)
		if code == 1 && strings.Contains(errOut, "reading input") {
			return // a line longer than play reads (64 KiB)
		}
		require.Equal(t, 0, code, "stderr: %s", errOut)
		require.Empty(t, errOut)
		require.NotContains(t, out, "internal error")
	})
}
