package ai

import (
	"testing"
	"time"

	"github.com/rfop/rfop/engine"
)

// benchPositions are decisions with several choices from random games, at
// every stage of the game.
func benchPositions(b *testing.B) []*engine.InfoSet {
	var out []*engine.InfoSet
	for seed := int64(1); len(out) < 24; seed++ {
		g := randomPosition(b, seed, engine.Standard, 120)
		for _, p := range g.Prompts() {
			if len(p.Choices) > 1 {
				is, err := g.InfoSet(p.Side)
				if err != nil {
					b.Fatal(err)
				}
				out = append(out, is)
			}
		}
	}
	return out
}

// BenchmarkAIDecision is the time and memory of one decision per level,
// with its time cap (the caps bind only on a slow or busy machine):
//
//	go test -bench AIDecision -benchmem -run '^$' ./ai/
func BenchmarkAIDecision(b *testing.B) {
	pos := benchPositions(b)
	for _, l := range Levels {
		b.Run(string(l), func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				s := NewSearcher(l.Config(), uint64(i))
				if _, err := s.Choose(pos[i%len(pos)]); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	b.Run("greedy", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; b.Loop(); i++ {
			if _, err := NewGreedy(uint64(i)).Choose(pos[i%len(pos)]); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkAITimeCap: a search with an unreachable budget stops at its time
// cap; overshoot-ms is the worst time past the cap over the decisions run
// (the cap is checked before every iteration; the root's turn look-ahead
// stops at a quarter of it). Each level's search with a 100 ms cap: the
// overshoot is about one iteration, longest for hard's deeper playouts.
//
//	go test -bench AITimeCap -benchtime 40x -run '^$' ./ai/
func BenchmarkAITimeCap(b *testing.B) {
	pos := benchPositions(b)
	const capD = 100 * time.Millisecond
	for _, l := range Levels {
		b.Run(string(l), func(b *testing.B) {
			cfg := l.Config()
			cfg.Iterations, cfg.TimeCap = 1<<30, capD
			var worst time.Duration
			for i := 0; b.Loop(); i++ {
				t := time.Now()
				if _, err := NewSearcher(cfg, uint64(i)).Choose(pos[i%len(pos)]); err != nil {
					b.Fatal(err)
				}
				worst = max(worst, time.Since(t)-capD)
			}
			b.ReportMetric(float64(worst.Microseconds())/1000, "overshoot-ms")
		})
	}
}
