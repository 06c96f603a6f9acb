package main

// rfop play --ai: the AI opponent (package ai) plays one side of the full
// two-player game in the terminal.

import (
	"fmt"
	"io"
	"math"
	"time"

	"github.com/rfop/rfop/ai"
	"github.com/rfop/rfop/engine"
)

// parseAIFlags makes the AI opponent of --ai, which plays side at --level.
// ok is false after a usage error.
func parseAIFlags(side engine.Side, level string, stderr io.Writer) (engine.Side, ai.Player, int, bool) {
	l, err := ai.ParseLevel(level)
	if err != nil {
		return engine.NoSide, nil, usageError(stderr, "play", "--level: "+err.Error()), false
	}
	p, err := ai.NewPlayer("ai:"+string(l), uint64(time.Now().UnixNano()))
	if err != nil {
		return engine.NoSide, nil, usageError(stderr, "play", err.Error()), false
	}
	return side, p, 0, true
}

// aiMoves lets the AI make its pending decision, if it has one (moved). In a
// simultaneous decision (objectives, Final Crisis discards) it decides
// before the player, so it never sees the player's choice.
func (p *playSession) aiMoves(ps []engine.Prompt) (moved bool, err error) {
	for _, pr := range ps {
		if pr.Side != p.aiSide {
			continue
		}
		is, err := p.g.InfoSet(pr.Side)
		if err != nil {
			return false, err
		}
		c, err := p.ai.Choose(is)
		if err != nil {
			return false, err
		}
		// What the AI chose, as its opponent may know it: a secret choice
		// (the objective it keeps) shows only that it was made.
		text := p.m("play.ai-secret-objective")
		if !secretChoice(pr.Kind) {
			text = p.pr.Choice(p.g, pr, c)
		}
		if err := p.g.Apply(pr.Side, c); err != nil {
			return false, fmt.Errorf("its choice %q was refused: %w", p.g.ChoiceText(pr, c), err)
		}
		if len(pr.Choices) > 1 {
			fmt.Fprintln(p.out, p.m("play.ai-move", aSide("Side", pr.Side), aText("Text", text)))
		}
		p.showLog(p.aiSide.Other())
		p.boardStale = true
		return true, nil
	}
	return false, nil
}

// secretChoice reports whether a choice of this kind is hidden from the
// opponent: only the objective a player keeps (the engine logs that a
// choice was made, and the card to its side alone, until the round's
// scoring reveals it). Every other choice ends in the public log.
func secretChoice(k engine.PromptKind) bool { return k == engine.PromptObjective }

// maxHints is how many choices hint lists.
const maxHints = 5

// hint answers the hint command: the player's current choices as the AI
// opponent's search rates them from what the player's side can see (the
// same search as /rfop hint), best estimate first, with their margins and
// a note when the first ones are too close to call.
func (p *playSession) hint(pr engine.Prompt) {
	if p.ai == nil {
		fmt.Fprintln(p.out, p.m("play.hint-only-ai"))
		return
	}
	is, err := p.g.InfoSet(pr.Side)
	var hs []ai.Hint
	if err == nil {
		hs, err = ai.Advise(p.aiLevel, is)
	}
	if err != nil {
		fmt.Fprintln(p.out, p.m("play.hint-failed", aText("Err", err.Error())))
		return
	}
	fmt.Fprintln(p.out, p.m("play.hint-head"))
	for _, h := range hs[:min(maxHints, len(hs))] {
		n := 0
		for k, c := range pr.Choices {
			if c == h.Choice {
				n = k + 1
			}
		}
		fmt.Fprintf(p.out, "  %2d) %s — %s\n", n, p.pr.Choice(p.g, pr, h.Choice), p.hintRate(h, len(pr.Choices)))
	}
	if len(hs) > 1 && hs[1].Close {
		fmt.Fprintln(p.out, "  "+p.m("common.hint.close"))
	}
}

// hintRate is a hint's estimate in words (as the bot's /rfop hint says it).
func (p *playSession) hintRate(h ai.Hint, choices int) string {
	switch {
	case choices <= 1:
		return p.m("common.hint.forced")
	case math.IsNaN(h.WinRate):
		return p.m("common.hint.not-tried")
	case h.Thin:
		return p.m("common.hint.thin")
	}
	return p.m("common.hint.rate", aText("Percent", fmt.Sprintf("%.0f", 100*h.WinRate)), aText("Margin", fmt.Sprintf("%.0f", math.Max(1, 100*h.Margin))))
}
