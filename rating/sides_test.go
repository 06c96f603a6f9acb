package rating

import (
	"math"
	"testing"
)

// The worked example of docs/ratings.md: a server whose 30 rated games
// were won 21 times by the Commune estimates the Commune's share between
// equal players at (21 + 10) / (30 + 20) = 0.62, an advantage of
// 173.7178 × ln(0.62 / 0.38) = 85.04 rating points. Two new players
// (1500, RD 350, σ 0.06) meet: the Commune's expected score is 0.5812
// (not 0.62: the opponent's deviation damps it, g(φ) = 0.6690). If
// Versailles wins, the upset is worth more than without the side term:
// 1690.22 and 1309.78 (without it, 1662.31 and 1337.69); if the Commune
// wins, less: 1637.09. The figures were computed independently of this
// package (by the formulas of Glickman's paper, in another language) and
// are pinned here.
func TestSideTermWorkedExample(t *testing.T) {
	a := SideAdvantage{Games: 30, CommuneWins: 21}
	near(t, "share", a.CommuneShare(), 0.62, 1e-12)
	near(t, "points", a.Points(), 85.0432, 0.0001)

	p, q := New(), New()
	loser, err := Update(p, []Result{{Opponent: q, Score: 0, Advantage: a.Points()}}, Tau)
	if err != nil {
		t.Fatal(err)
	}
	winner, err := Update(q, []Result{{Opponent: p, Score: 1, Advantage: -a.Points()}}, Tau)
	if err != nil {
		t.Fatal(err)
	}
	near(t, "Commune loser", loser.Rating, 1309.78, 0.01)
	near(t, "Commune loser RD", loser.Deviation, 291.52, 0.01)
	near(t, "Versailles winner", winner.Rating, 1690.22, 0.01)
	plain, err := Update(q, []Result{{Opponent: p, Score: 1}}, Tau)
	if err != nil {
		t.Fatal(err)
	}
	near(t, "Versailles winner without the side term", plain.Rating, 1662.31, 0.01)
	cw, err := Update(p, []Result{{Opponent: q, Score: 1, Advantage: a.Points()}}, Tau)
	if err != nil {
		t.Fatal(err)
	}
	near(t, "Commune winner", cw.Rating, 1637.09, 0.01)
}

func near(t *testing.T, what string, got, want, tol float64) {
	t.Helper()
	if math.Abs(got-want) > tol {
		t.Errorf("%s = %.5f, want %.5f", what, got, want)
	}
}

// The side term moves the expected score the right way: a player with
// the favoured side is expected to score more, so winning with it gains
// less and losing with it costs more; with the other side, the
// opposite. No evidence (or an even record) is no term at all.
func TestSideTermDirection(t *testing.T) {
	commune := SideAdvantage{Games: 100, CommuneWins: 70}
	versailles := SideAdvantage{Games: 100, CommuneWins: 30}
	if commune.Points() <= 0 || versailles.Points() >= 0 {
		t.Fatalf("signs: %v %v", commune.Points(), versailles.Points())
	}
	if (SideAdvantage{}).Points() != 0 || (SideAdvantage{Games: 40, CommuneWins: 20}).Points() != 0 {
		t.Fatal("an even record is no side term")
	}
	p := Rating{Rating: 1600, Deviation: 80, Volatility: 0.06}
	opp := Rating{Rating: 1600, Deviation: 80, Volatility: 0.06}
	gain := func(adv float64, score float64) float64 {
		r, err := Update(p, []Result{{Opponent: opp, Score: score, Advantage: adv}}, Tau)
		if err != nil {
			t.Fatal(err)
		}
		return r.Rating - p.Rating
	}
	fav, none, under := commune.Points(), 0.0, -commune.Points()
	if !(gain(fav, 1) < gain(none, 1) && gain(none, 1) < gain(under, 1)) {
		t.Errorf("a win: favoured %.2f, even %.2f, underdog %.2f", gain(fav, 1), gain(none, 1), gain(under, 1))
	}
	if !(gain(fav, 0) < gain(none, 0) && gain(none, 0) < gain(under, 0)) {
		t.Errorf("a loss: favoured %.2f, even %.2f, underdog %.2f", gain(fav, 0), gain(none, 0), gain(under, 0))
	}
	// In a table: the same record, one player always with the favoured
	// side, the other always against it, end differently.
	games := []Game{}
	for k := 0; k < 30; k++ { // the server's history: the Commune wins 2 of 3
		side := Commune
		if k%3 == 2 {
			side = Versailles
		}
		games = append(games, Game{Winner: "x", Loser: "y", WinnerSide: side})
	}
	games = append(games, Game{Winner: "fav", Loser: "o1", WinnerSide: Commune}, Game{Winner: "dog", Loser: "o2", WinnerSide: Versailles})
	tab, err := RateTable(games)
	if err != nil {
		t.Fatal(err)
	}
	fv, _ := tab.Player("fav")
	dg, _ := tab.Player("dog")
	if !(dg.Rating.Rating > fv.Rating.Rating) {
		t.Errorf("winning as the underdog should count more: %.2f against %.2f", dg.Rating.Rating, fv.Rating.Rating)
	}
	if tab.Sides.Games != 32 || tab.Sides.CommuneWins != 21 {
		t.Errorf("the estimate counts every game with a side: %+v", tab.Sides)
	}
}

// One step per game: a table kept up to date game by game and one
// rebuilt from every game agree exactly, and each game's side term is
// the estimate from the games before it only.
func TestTableStepEqualsRebuild(t *testing.T) {
	var games []Game
	ids := []string{"a", "b", "c", "d"}
	for k := 0; k < 40; k++ {
		side := Versailles
		if k%5 < 3 {
			side = Commune
		}
		games = append(games, Game{Winner: ids[k%4], Loser: ids[(k*3+1)%4], WinnerSide: side})
	}
	games = append(games, Game{Winner: "a", Loser: "c"}) // no side known: no term, not counted
	rebuilt, err := RateTable(games)
	if err != nil {
		t.Fatal(err)
	}
	step := NewTable()
	for k, g := range games {
		before := step.Sides
		if err := step.Apply(g); err != nil {
			t.Fatal(err)
		}
		if want := before.With(g.WinnerSide); step.Sides != want {
			t.Fatalf("game %d: estimate %+v, want %+v", k, step.Sides, want)
		}
	}
	if len(step.Players) != len(rebuilt.Players) || step.Sides != rebuilt.Sides {
		t.Fatalf("step %+v, rebuilt %+v", step.Sides, rebuilt.Sides)
	}
	for k := range step.Players {
		if step.Players[k] != rebuilt.Players[k] {
			t.Errorf("%s: %+v against %+v", step.Players[k].ID, step.Players[k], rebuilt.Players[k])
		}
	}
}
