package analysis

import (
	"context"
	"testing"

	"github.com/rfop/rfop/locale"
)

// BenchmarkAnalyseGame analyses a whole game of 100 decisions (random
// play, seed 16) at the default budget (the normal level's search at
// each decision, 300 playouts per side's estimate) on one goroutine: the
// goal is at most 60 s per game on one core (issue 29). The chart of the
// same game is BenchmarkChart.
func BenchmarkAnalyseGame(b *testing.B) {
	o, moves := randomGame(b, 16)
	var decisions int
	for b.Loop() {
		a, err := Analyse(context.Background(), o, moves, DefaultConfig(), nil)
		if err != nil {
			b.Fatal(err)
		}
		decisions = len(a.Points)
	}
	if decisions != 100 {
		b.Fatalf("the game has %d decisions, not 100", decisions)
	}
	b.ReportMetric(float64(decisions), "decisions/op")
	b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N)/float64(decisions), "ms/decision")
}

func BenchmarkChart(b *testing.B) {
	o, moves := randomGame(b, 16)
	a, err := Analyse(context.Background(), o, moves, quick, nil)
	if err != nil {
		b.Fatal(err)
	}
	p := locale.For(locale.Langs[0])
	for b.Loop() {
		if _, err := a.Chart(p, 16); err != nil {
			b.Fatal(err)
		}
	}
}
