package main

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/rfop/rfop/engine"

	"github.com/stretchr/testify/require"
)

// selfplay --players plays a match with alternating sides and prints the
// ladder's JSON: wins, wins by side, Wilson intervals, decision times.
func TestSelfplayPlayers(t *testing.T) {
	t.Parallel()
	code, m, errOut := selfplayJSON(t, "--players", "greedy,random", "--games", "6", "--seed", "5")
	require.Equal(t, 0, code, errOut)
	require.EqualValues(t, 6, m["games"])
	require.Equal(t, []any{"greedy", "random"}, m["players"])
	wins := m["wins"].(map[string]any)
	require.EqualValues(t, 6, wins["greedy"].(float64)+wins["random"].(float64))
	bySide := m["wins_by_side"].(map[string]any)
	g := bySide["greedy"].(map[string]any)
	r := bySide["random"].(map[string]any)
	require.EqualValues(t, wins["greedy"], g["commune"].(float64)+g["versailles"].(float64))
	require.EqualValues(t, 6, g["commune"].(float64)+g["versailles"].(float64)+r["commune"].(float64)+r["versailles"].(float64))
	ci := m["ci95"].(map[string]any)["greedy"].([]any)
	require.LessOrEqual(t, ci[0].(float64), wins["greedy"].(float64)/6)
	require.GreaterOrEqual(t, ci[1].(float64), wins["greedy"].(float64)/6)
	require.EqualValues(t, 0, m["errors"])
	require.Contains(t, m["avg_decision_ms"], "greedy")
	keys := []string{"games", "players", "wins", "wins_by_side", "ci95", "errors", "avg_decision_ms"}
	require.Len(t, m, len(keys))
	for _, k := range keys {
		require.Contains(t, m, k)
	}
	// The same player twice is told apart.
	code, m, errOut = selfplayJSON(t, "--players", "random,random", "--games", "2")
	require.Equal(t, 0, code, errOut)
	require.Equal(t, []any{"random", "random#2"}, m["players"])
}

func TestSelfplayPlayersBadFlags(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{
		{"--players", "greedy"},
		{"--players", "greedy,deep-blue"},
		{"--players", "ai:expert,greedy"},
		{"--players", "greedy,random", "--solo", "commune"},
	} {
		code, out, errOut := runCmd(nil, append([]string{"selfplay"}, args...)...)
		require.Equal(t, 2, code, "%v", args)
		require.Empty(t, out)
		require.NotEmpty(t, errOut)
	}
}

// play --ai: a whole game against the AI at the easy level, the player's
// answers random; the AI's moves are printed and it never asks the player
// to decide for it. Nothing private of the AI is printed (issue 26): the
// objective it keeps shows only as a kept objective, and its card never
// appears before the round's scoring reveals it.
func TestPlayAgainstAI(t *testing.T) {
	// Not parallel: captureSession sets a package variable (playStarted).
	for i, you := range []string{"commune", "versailles"} { // the AI plays Versailles, then the Commune
		var s *playSession
		captureSession(t, &s)
		code, out, errOut := playDriven(t, uint64(20+i), true, "--seed", fmt.Sprint(20+i), "--ai", "--side", you, "--level", "easy")
		require.Equal(t, 0, code, errOut)
		has(t, out, "GAME OVER")
		has(t, out, "the AI opponent (easy) plays")
		require.Contains(t, out, "AI (")
		require.True(t, strings.Contains(out, "You win!") || strings.Contains(out, "The AI opponent wins this time."))
		require.Positive(t, checkAIObjectivesSecret(t, s, out), "the AI kept objectives")
		has(t, out, s.m("play.ai-secret-objective"))
	}
	code, _, errOut := runCmd(nil, "play", "--ai", "--side", "versailles", "--level", "expert")
	require.Equal(t, 2, code)
	require.Contains(t, errOut, "level")
	code, _, _ = runCmd(nil, "play", "--ai", "--solo", "--side", "versailles")
	require.Equal(t, 2, code)
}

// captureSession keeps the next play session in *s (playStarted).
func captureSession(t *testing.T, s **playSession) {
	t.Helper()
	playStarted = func(p *playSession) { *s = p }
	t.Cleanup(func() { playStarted = nil })
}

// checkAIObjectivesSecret: every objective the AI kept (its private log
// line) is named in the output only from the public line that reveals it
// at the round's scoring on; its private lines never show. It returns how
// many kept objectives it checked.
func checkAIObjectivesSecret(t *testing.T, s *playSession, out string) int {
	t.Helper()
	log := s.g.S.Log
	n := 0
	for i, e := range log {
		if e.To != s.aiSide {
			continue
		}
		hasNot(t, out, s.logText(e), "a line private to the AI")
		if e.Msg == nil || e.Msg.ID != "engine.log.keeps" {
			continue
		}
		card := e.Msg.Args[0].N
		n++
		reveal := -1
		for _, r := range log[i+1:] {
			if r.To == engine.NoSide && r.Msg != nil && namesCard(*r.Msg, card) {
				reveal = strings.Index(out, s.logText(r))
				break
			}
		}
		first := strings.Index(out, s.cardName(card))
		if first < 0 {
			continue // never revealed (the game ended first) and never shown
		}
		require.GreaterOrEqual(t, reveal, 0, "the AI's objective %s is printed but never revealed", s.cardName(card))
		if first < reveal {
			t.Fatalf("the AI's objective %s is printed before the scoring reveals it:\n%s", s.cardName(card), out[max(0, first-400):min(len(out), first+200)])
		}
	}
	return n
}

// namesCard reports whether m names card n.
func namesCard(m engine.Msg, n int) bool {
	found := false
	m.Walk(func(x engine.Msg) {
		for _, a := range x.Args {
			if a.Kind == engine.ArgCard && a.N == n || a.Kind == engine.ArgCardSet && slices.Contains(a.List, n) {
				found = true
			}
		}
	})
	return found
}

// The terminal's hint (issue 26, as /rfop hint in Discord): against the
// AI, the player's choices as its search rates them, best estimate first,
// each with its margin and its number in the list; elsewhere it says it
// needs the AI.
func TestPlayHint(t *testing.T) {
	saved := newBoardWriter
	newBoardWriter = nil
	t.Cleanup(func() { newBoardWriter = saved })
	// The Commune: its objective (hint first), then who plays first or its first play.
	code, out, errOut := runCmd(strings.NewReader("hint\n1\nhint\nq\ny\n"), "play", "--ai", "--side", "commune", "--level", "easy", "--seed", "5")
	require.Equal(t, 0, code, errOut)
	has(t, out, "The AI's estimates of your chances")
	lines := regexp.MustCompile(`(?m)^ +(\d+)\) (.*) — (\d+)% to win \(±(\d+)\)$`).FindAllStringSubmatch(out, -1)
	require.GreaterOrEqual(t, len(lines), 3, out)
	for _, l := range lines {
		require.NotEqual(t, "0", l[1], "each hint gives the choice's number")
	}
	has(t, out, "Game abandoned without a result.")

	code, out, _ = runCmd(strings.NewReader("hint\n"), "play", "--seed", "5")
	require.Equal(t, 0, code)
	has(t, out, "hint works against the AI opponent")
}
