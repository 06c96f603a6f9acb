package rating

import (
	"math"
	"testing"
)

// Glickman, "Example of the Glicko-2 system" (2013), section "Example
// calculation": a 1500/200/0.06 player beats a 1400/30 player and loses to
// 1550/100 and 1700/300 players in one period, τ = 0.5. The paper's
// results: r' = 1464.06, RD' = 151.52, σ' = 0.05999.
func TestGlickmanWorkedExample(t *testing.T) {
	p := Rating{Rating: 1500, Deviation: 200, Volatility: 0.06}
	got, err := Update(p, []Result{
		{Opponent: Rating{Rating: 1400, Deviation: 30, Volatility: 0.06}, Score: 1},
		{Opponent: Rating{Rating: 1550, Deviation: 100, Volatility: 0.06}, Score: 0},
		{Opponent: Rating{Rating: 1700, Deviation: 300, Volatility: 0.06}, Score: 0},
	}, 0.5)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name      string
		got, want float64
		tol       float64
	}{
		{"rating", got.Rating, 1464.06, 0.01},
		{"deviation", got.Deviation, 151.52, 0.01},
		{"volatility", got.Volatility, 0.05999, 0.00001}, // 0.059996 exactly; the paper truncates
	} {
		if math.Abs(c.got-c.want) > c.tol {
			t.Errorf("%s = %.5f, the paper gives %.5f", c.name, c.got, c.want)
		}
	}
}

// Step 6: a player who does not compete keeps r and σ; RD grows to
// sqrt(φ² + σ²) on the Glicko-2 scale.
func TestNoGamesOnlyDeviationGrows(t *testing.T) {
	p := Rating{Rating: 1600, Deviation: 50, Volatility: 0.06}
	got, err := Update(p, nil, Tau)
	if err != nil {
		t.Fatal(err)
	}
	want := scale * math.Sqrt(math.Pow(50/scale, 2)+0.06*0.06)
	if got.Rating != 1600 || got.Volatility != 0.06 || math.Abs(got.Deviation-want) > 1e-9 {
		t.Fatalf("got %+v, want rating 1600, deviation %.4f", got, want)
	}
}

func TestRateOrderAndRecords(t *testing.T) {
	players, err := Rate([]Game{{Winner: "a", Loser: "b"}, {Winner: "a", Loser: "b"}, {Winner: "b", Loser: "c"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(players) != 3 || players[0].ID != "a" || players[1].ID != "b" || players[2].ID != "c" {
		t.Fatalf("players %+v", players)
	}
	a, b, c := players[0], players[1], players[2]
	if a.Games != 2 || a.Wins != 2 || b.Games != 3 || b.Wins != 1 || c.Games != 1 || c.Wins != 0 {
		t.Fatalf("records: %+v", players)
	}
	if !(a.Rating.Rating > b.Rating.Rating && b.Rating.Rating > c.Rating.Rating) {
		t.Fatalf("ratings not ordered by results: %+v", players)
	}
	if a.Rating.Deviation >= DefaultDeviation {
		t.Fatalf("deviation should shrink after games: %+v", a.Rating)
	}
}

func TestInvalidInputs(t *testing.T) {
	if _, err := Rate([]Game{{Winner: "a", Loser: "a"}}); err == nil {
		t.Error("a game against oneself was rated")
	}
	if _, err := Update(Rating{Rating: 1500, Deviation: 0, Volatility: 0.06}, nil, Tau); err == nil {
		t.Error("zero deviation accepted")
	}
	if _, err := Update(New(), []Result{{Opponent: New(), Score: 2}}, Tau); err == nil {
		t.Error("score 2 accepted")
	}
}
