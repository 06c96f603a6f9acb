package engine

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// Test positions: a 2-player game whose board is set by hand and whose
// procedure stack is replaced, so one rule can be exercised in isolation.

type cubes map[Space][2]int8 // space -> {Versailles, Commune}

func position(t *testing.T, c cubes) *Game {
	t.Helper()
	g, err := New(Options{Seed: 42, BotSide: NoSide})
	require.NoError(t, err)
	g.S.Cubes = [2][NumMapSpaces]int8{}
	for x, n := range c {
		g.S.Cubes[Versailles][x] = n[0]
		g.S.Cubes[Commune][x] = n[1]
	}
	g.S.Stack = nil
	return g
}

// start replaces the stack with frames (bottom first) and runs.
func start(g *Game, frames ...Frame) {
	g.S.Stack = append([]Frame(nil), frames...)
	g.cached = false
	g.run()
}

func opsFrame(side Side, op int) Frame {
	return Frame{K: fOps, Side: side, You: side, N: int8(op), Node: -1, Space: NoSpace, I: -1}
}

func eventFrame(card int, side Side) Frame {
	return Frame{K: fEffect, Side: side, You: side, Card: int8(card), Space: NoSpace}
}

func prompt(t *testing.T, g *Game, side Side) Prompt {
	t.Helper()
	p, ok := g.PromptFor(side)
	require.True(t, ok, "%s has no prompt; prompts: %+v", side, g.Prompts())
	return p
}

func has(p Prompt, pred func(Choice) bool) bool {
	for _, c := range p.Choices {
		if pred(c) {
			return true
		}
	}
	return false
}

// pick applies the first choice matching pred.
func pick(t *testing.T, g *Game, side Side, pred func(Choice) bool) Choice {
	t.Helper()
	p := prompt(t, g, side)
	for _, c := range p.Choices {
		if pred(c) {
			require.NoError(t, g.Apply(side, c))
			return c
		}
	}
	t.Fatalf("no matching choice for %s in %s prompt: %+v", side, p.Kind, p.Choices)
	return Choice{}
}

func kind(k ChoiceKind) func(Choice) bool { return func(c Choice) bool { return c.Kind == k } }

func at(k ChoiceKind, x Space) func(Choice) bool {
	return func(c Choice) bool { return c.Kind == k && c.Space == x }
}

func spacesOf(p Prompt, k ChoiceKind) []Space {
	var out []Space
	for _, c := range p.Choices {
		if c.Kind == k {
			out = append(out, c.Space)
		}
	}
	return out
}

// stackDeck puts cards on top of the Strategy deck (last = drawn first).
func stackDeck(g *Game, top ...int) {
	for i := len(top) - 1; i >= 0; i-- {
		g.S.Deck, _ = removeCard(g.S.Deck, top[i])
	}
	for i := len(top) - 1; i >= 0; i-- {
		g.S.Deck = append(g.S.Deck, int8(top[i]))
	}
}
