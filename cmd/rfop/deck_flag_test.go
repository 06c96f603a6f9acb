package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rfop/rfop/engine"
	"github.com/stretchr/testify/require"
)

// customDeckFile writes the embedded deck with every card renamed
// "Custom #N" and returns its path.
func customDeckFile(t *testing.T) string {
	t.Helper()
	var f map[string][]map[string]any
	require.NoError(t, json.Unmarshal(engine.DefaultDeck().Canonical(), &f))
	for _, c := range f["cards"] {
		c["name"] = "Custom #" + jsonNumber(c["num"])
	}
	b, err := json.MarshalIndent(f, "", "  ")
	require.NoError(t, err)
	path := filepath.Join(t.TempDir(), "deck.json")
	require.NoError(t, os.WriteFile(path, b, 0o644))
	return path
}

func jsonNumber(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// play --deck plays with the deck file, to try it locally (issue 18).
func TestPlayWithADeckFile(t *testing.T) {
	t.Parallel()
	path := customDeckFile(t)
	code, out, errOut := runCmd(strings.NewReader("1\n1\nc\n"), "play", "--seed", "7", "--deck", path)
	require.Equal(t, 0, code, errOut)
	has(t, out, "Deck "+path)
	has(t, out, "Custom #", "the cards are named by the deck file")

	// A bad or oversized file is refused at once, with the reason.
	bad := filepath.Join(t.TempDir(), "bad.json")
	require.NoError(t, os.WriteFile(bad, []byte(`{"cards": []}`), 0o644))
	code, _, errOut = runCmd(nil, "play", "--deck", bad)
	require.Equal(t, 2, code)
	has(t, errOut, "deck must define all cards")

	huge := filepath.Join(t.TempDir(), "huge.json")
	f, err := os.Create(huge)
	require.NoError(t, err)
	require.NoError(t, f.Truncate(105<<20))
	require.NoError(t, f.Close())
	code, _, errOut = runCmd(nil, "play", "--deck", huge)
	require.Equal(t, 2, code)
	has(t, errOut, "a deck may have at most 1048576 bytes")
	has(t, errOut, "the deck is 110100480 bytes", "refused by its size, before reading it")
}

// render --deck draws the deck file's cards.
func TestRenderWithADeckFile(t *testing.T) {
	if newBoardWriter == nil {
		t.Skip("the renderer is not wired in")
	}
	dir := t.TempDir()
	custom, plain := filepath.Join(dir, "custom.png"), filepath.Join(dir, "plain.png")
	code, _, errOut := runCmd(nil, "render", "--seed", "3", "--hand", "commune", "--out", custom, "--deck", customDeckFile(t))
	require.Equal(t, 0, code, errOut)
	code, _, errOut = runCmd(nil, "render", "--seed", "3", "--hand", "commune", "--out", plain)
	require.Equal(t, 0, code, errOut)
	a, err := os.ReadFile(custom)
	require.NoError(t, err)
	b, err := os.ReadFile(plain)
	require.NoError(t, err)
	require.False(t, bytes.Equal(a, b), "the hand picture names the deck file's cards")

	code, _, errOut = runCmd(nil, "render", "--deck", filepath.Join(dir, "missing.json"))
	require.Equal(t, 2, code)
	has(t, errOut, "read deck file")
}
