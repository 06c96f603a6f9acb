package ai

import (
	"math/rand/v2"

	"github.com/rfop/rfop/engine"
)

// Greedy is the one-ply baseline: it plays each choice on one sample of
// the unseen cards, finishes the rest of its own turn choice by choice
// (each the best position one step ahead), and keeps the choice whose
// position Evaluate likes best. It never looks at the opponent's reply.
type Greedy struct{ r *rand.Rand }

// NewGreedy returns the greedy player.
func NewGreedy(seed uint64) *Greedy { return &Greedy{r: rand.New(rand.NewPCG(seed, 0x475245))} }

func (p *Greedy) Name() string { return "greedy" }

// maxFollow bounds the own-turn continuation (a card's operations are at
// most a handful of cubes).
const maxFollow = 16

func (p *Greedy) Choose(is *engine.InfoSet) (engine.Choice, error) {
	pr, err := promptOf(is)
	if err != nil {
		return engine.Choice{}, err
	}
	if len(pr.Choices) == 1 {
		return pr.Choices[0], nil
	}
	side := is.Side()
	g := is.Sample(p.r)
	best, n := -1e18, 0
	var pick engine.Choice
	for _, c := range pr.Choices {
		h := g.Clone()
		if err := h.Apply(side, c); err != nil {
			continue
		}
		for i := 0; i < maxFollow; i++ {
			ps := h.Prompts()
			if len(ps) != 1 || ps[0].Side != side || isTurnStart(ps[0].Kind) {
				break
			}
			if err := h.Apply(side, oneStep(h, &ps[0], Evaluate)); err != nil {
				break
			}
		}
		v := Evaluate(h, side) + 0.001*quickScore(&g.S, side, c)
		switch {
		case v > best:
			best, n, pick = v, 1, c
		case v == best:
			n++
			if p.r.IntN(n) == 0 {
				pick = c
			}
		}
	}
	if n == 0 {
		return pr.Choices[0], nil
	}
	return pick, nil
}

func isTurnStart(k engine.PromptKind) bool {
	return k == engine.PromptPlay || k == engine.PromptFCPlay || k == engine.PromptObjective || k == engine.PromptFCDiscard
}

// oneStep is the choice whose resulting position is best, looking one
// step ahead only, by eval.
func oneStep(g *engine.Game, p *engine.Prompt, eval EvalFunc) engine.Choice {
	best := -1e18
	pick := p.Choices[0]
	for _, c := range p.Choices {
		h := g.Clone()
		if err := h.Apply(p.Side, c); err != nil {
			continue
		}
		if v := eval(h, p.Side) + 0.001*quickScore(&g.S, p.Side, c); v > best {
			best, pick = v, c
		}
	}
	return pick
}
