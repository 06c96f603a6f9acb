// Package rating implements the Glicko-2 rating system (Mark E. Glickman,
// "Example of the Glicko-2 system", Boston University, 2013: steps 1-8),
// with a side term, for the per-server ratings of /rfop stats. It imports
// nothing of ours.
//
// No Go module implementing Glicko-2 is both maintained and widely used
// (the few on the module proxy are unversioned single-author code or
// change the algorithm), so this is Glickman's published algorithm,
// pinned by his worked example (glicko2_test.go).
//
// How rfop uses it (Table, Rate): every finished game between two human
// players is its own rating period for those two players, in the order
// the games ended, each updated from both players' ratings before the
// game. Draws do not exist in Red Flag Over Paris (the tiebreaker always
// names a winner). Players who do not play keep their rating and
// deviation: the deviation does not grow with idle time, since a Discord
// server's games come in irregular bursts rather than regular periods.
//
// The side term (sides.go, issue 29): the two sides are not equal, so
// each game's expected score gives the player of the favoured side an
// advantage in rating points, estimated from the server's rated games
// before that game (SideAdvantage: the Commune's share of the wins with
// 20 even games assumed). Table.Apply is the one step per game; Rate and
// RateTable apply it to every game in order, so a table kept up to date
// game by game equals one rebuilt from all the results. docs/ratings.md
// has the method and a worked example (pinned by sides_test.go).
package rating

import (
	"errors"
	"math"
)

// Glicko-2 constants.
const (
	// DefaultRating, DefaultDeviation and DefaultVolatility are a new
	// player's values (Glickman's recommendation, Glicko scale).
	DefaultRating     = 1500.0
	DefaultDeviation  = 350.0
	DefaultVolatility = 0.06
	// Tau constrains the change in volatility over time; Glickman
	// suggests 0.3 to 1.2. 0.5 is his example's value.
	Tau = 0.5

	scale   = 173.7178 // Glicko scale to Glicko-2 scale
	epsilon = 0.000001 // convergence tolerance of step 5
)

// Rating is one player's Glicko-2 state on the Glicko scale.
type Rating struct {
	Rating     float64 // r, about 1500 for an average player
	Deviation  float64 // RD: the rating is r ± 2 RD with 95% confidence
	Volatility float64 // σ: how erratic the player's results are
}

// New returns a new player's rating.
func New() Rating {
	return Rating{Rating: DefaultRating, Deviation: DefaultDeviation, Volatility: DefaultVolatility}
}

// Result is one game of a rating period from the rated player's side:
// the opponent's rating before the period and the score (1 win, 0 loss,
// 0.5 draw). Advantage, in rating points, is added to the player's side
// of the expected score (a side term, SideAdvantage.Points: positive when
// the player had the favoured side); 0 is Glickman's algorithm as he
// wrote it.
type Result struct {
	Opponent  Rating
	Score     float64
	Advantage float64
}

// ErrInvalid is returned for a rating or score outside its domain.
var ErrInvalid = errors.New("rating: invalid input")

// Update returns p's rating after a rating period with the given results
// (Glickman's steps 2-8). With no results only the deviation changes
// (step 6: φ* = sqrt(φ² + σ²)).
func Update(p Rating, results []Result, tau float64) (Rating, error) {
	if !valid(p) || tau <= 0 {
		return p, ErrInvalid
	}
	// Step 2: convert to the Glicko-2 scale.
	mu := (p.Rating - DefaultRating) / scale
	phi := p.Deviation / scale
	sigma := p.Volatility
	if len(results) == 0 {
		return Rating{Rating: p.Rating, Deviation: scale * math.Sqrt(phi*phi+sigma*sigma), Volatility: sigma}, nil
	}
	// Steps 3 and 4: the estimated variance v and improvement Δ.
	var vinv, sum float64
	for _, r := range results {
		if !valid(r.Opponent) || r.Score < 0 || r.Score > 1 || math.IsNaN(r.Score) || math.IsNaN(r.Advantage) || math.IsInf(r.Advantage, 0) {
			return p, ErrInvalid
		}
		muj := (r.Opponent.Rating - DefaultRating) / scale
		phij := r.Opponent.Deviation / scale
		gj := g(phij)
		ej := e(mu+r.Advantage/scale, muj, phij)
		vinv += gj * gj * ej * (1 - ej)
		sum += gj * (r.Score - ej)
	}
	v := 1 / vinv
	delta := v * sum

	// Step 5: the new volatility, by the Illinois algorithm.
	a := math.Log(sigma * sigma)
	f := func(x float64) float64 {
		ex := math.Exp(x)
		d := phi*phi + v + ex
		return ex*(delta*delta-phi*phi-v-ex)/(2*d*d) - (x-a)/(tau*tau)
	}
	A := a
	var B float64
	if delta*delta > phi*phi+v {
		B = math.Log(delta*delta - phi*phi - v)
	} else {
		k := 1.0
		for f(a-k*tau) < 0 {
			k++
		}
		B = a - k*tau
	}
	fA, fB := f(A), f(B)
	for i := 0; math.Abs(B-A) > epsilon && i < 1000; i++ {
		C := A + (A-B)*fA/(fB-fA)
		fC := f(C)
		if fC*fB <= 0 {
			A, fA = B, fB
		} else {
			fA /= 2
		}
		B, fB = C, fC
	}
	sigma2 := math.Exp(A / 2)

	// Steps 6 and 7: the new deviation and rating.
	phiStar := math.Sqrt(phi*phi + sigma2*sigma2)
	phi2 := 1 / math.Sqrt(1/(phiStar*phiStar)+1/v)
	mu2 := mu + phi2*phi2*sum

	// Step 8: back to the Glicko scale.
	return Rating{Rating: scale*mu2 + DefaultRating, Deviation: scale * phi2, Volatility: sigma2}, nil
}

func g(phi float64) float64 { return 1 / math.Sqrt(1+3*phi*phi/(math.Pi*math.Pi)) }

func e(mu, muj, phij float64) float64 { return 1 / (1 + math.Exp(-g(phij)*(mu-muj))) }

func valid(p Rating) bool {
	ok := func(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }
	return ok(p.Rating) && ok(p.Deviation) && ok(p.Volatility) && p.Deviation > 0 && p.Volatility > 0
}

// Game is one rated game for Rate: the two players, who won, and the
// side the winner played (NoSide: no side term for this game).
type Game struct {
	Winner, Loser string
	WinnerSide    Side
}

// Player is a player's rating and record after Rate.
type Player struct {
	ID     string
	Rating Rating
	Games  int // rated games played
	Wins   int
}

// Table is a server's ratings at one point of its history: every
// player's rating and record, and the side estimate from the games so
// far. Apply is the one step that takes it to the next game; Rate is
// that step applied to every game in order from an empty table, so a
// table kept up to date game by game and one rebuilt from all the
// results are the same.
type Table struct {
	Players []Player // in order of first appearance
	Sides   SideAdvantage
	idx     map[string]int
}

// NewTable is the table before any game.
func NewTable() *Table { return &Table{idx: map[string]int{}} }

// Player returns a player's entry, or false if they have not played.
func (t *Table) Player(id string) (Player, bool) {
	if k, ok := t.idx[id]; ok {
		return t.Players[k], true
	}
	return Player{}, false
}

// Add puts a player into the table as they are (a table rebuilt from
// stored ratings; Apply adds new players itself).
func (t *Table) Add(p Player) {
	if k, ok := t.idx[p.ID]; ok {
		t.Players[k] = p
		return
	}
	t.idx[p.ID] = len(t.Players)
	t.Players = append(t.Players, p)
}

func (t *Table) get(id string) int {
	if k, ok := t.idx[id]; ok {
		return k
	}
	t.Add(Player{ID: id, Rating: New()})
	return len(t.Players) - 1
}

// Apply rates one game, its own rating period for its two players, each
// updated from both players' ratings before the game, with the side term
// of the games before it (t.Sides); then the game counts in the side
// estimate.
func (t *Table) Apply(gm Game) error {
	if gm.Winner == "" || gm.Loser == "" || gm.Winner == gm.Loser {
		return ErrInvalid
	}
	adv := 0.0 // rating points in the winner's favour
	switch gm.WinnerSide {
	case Commune:
		adv = t.Sides.Points()
	case Versailles:
		adv = -t.Sides.Points()
	}
	w, l := t.get(gm.Winner), t.get(gm.Loser)
	rw, rl := t.Players[w].Rating, t.Players[l].Rating
	nw, err := Update(rw, []Result{{Opponent: rl, Score: 1, Advantage: adv}}, Tau)
	if err != nil {
		return err
	}
	nl, err := Update(rl, []Result{{Opponent: rw, Score: 0, Advantage: -adv}}, Tau)
	if err != nil {
		return err
	}
	t.Players[w].Rating, t.Players[l].Rating = nw, nl
	t.Players[w].Games++
	t.Players[l].Games++
	t.Players[w].Wins++
	t.Sides = t.Sides.With(gm.WinnerSide)
	return nil
}

// Rate replays games in order (Table.Apply each) from everyone's default
// rating and no side estimate, and returns every player's final rating
// and record, in order of first appearance.
func Rate(games []Game) ([]Player, error) {
	t, err := RateTable(games)
	if err != nil {
		return nil, err
	}
	return t.Players, nil
}

// RateTable is Rate's whole table, the side estimate included.
func RateTable(games []Game) (*Table, error) {
	t := NewTable()
	for _, gm := range games {
		if err := t.Apply(gm); err != nil {
			return nil, err
		}
	}
	return t, nil
}
