package ai

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/rfop/rfop/engine"
)

// Player decides for one side from what that side knows. Implementations
// are not safe for concurrent use; one Player serves one game.
type Player interface {
	// Name is how selfplay and the ladder call it ("random", "greedy", "ai:normal").
	Name() string
	// Choose returns one of the choices of the InfoSet's prompt.
	Choose(is *engine.InfoSet) (engine.Choice, error)
}

// ErrNoDecision: the InfoSet's side has nothing to decide.
var ErrNoDecision = errors.New("ai: no decision pending for this side")

func promptOf(is *engine.InfoSet) (engine.Prompt, error) {
	p, ok := is.Prompt()
	if !ok || len(p.Choices) == 0 {
		return engine.Prompt{}, ErrNoDecision
	}
	return p, nil
}

// NewPlayer builds a player from its name: "random", "greedy" or
// "ai:easy|normal|hard". seed makes it deterministic.
func NewPlayer(name string, seed uint64) (Player, error) {
	switch {
	case name == "random":
		return NewRandom(seed), nil
	case name == "greedy":
		return NewGreedy(seed), nil
	case strings.HasPrefix(name, "ai:"):
		l, err := ParseLevel(strings.TrimPrefix(name, "ai:"))
		if err != nil {
			return nil, err
		}
		s := NewSearcher(l.Config(), seed)
		s.name = name
		return s, nil
	}
	return nil, fmt.Errorf("unknown player %s (want random, greedy or ai:easy|normal|hard)", engine.Quote(name))
}

// Random picks a uniformly random legal choice.
type Random struct{ r *rand.Rand }

// NewRandom returns a random player.
func NewRandom(seed uint64) *Random { return &Random{r: rand.New(rand.NewPCG(seed, 0x52414e44))} }

func (p *Random) Name() string { return "random" }

func (p *Random) Choose(is *engine.InfoSet) (engine.Choice, error) {
	pr, err := promptOf(is)
	if err != nil {
		return engine.Choice{}, err
	}
	return pr.Choices[p.r.IntN(len(pr.Choices))], nil
}
