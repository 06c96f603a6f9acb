package rating

import "math"

// The sides of Red Flag Over Paris are not equal: which one is favoured,
// and by how much, depends on how people play (random play: the Commune
// wins 62%; the AI ladder: Versailles more often). Glicko-2 alone treats
// a win with either side alike, so a player who happens to play the
// favoured side more often is rated too high. The side term corrects the
// expected score of each rated game by the advantage of the side each
// player had, estimated from the server's rated results before that game
// (docs/ratings.md has the method and a worked example).

// Side is the side a player had in a game.
type Side int8

const (
	NoSide Side = iota
	Versailles
	Commune
)

// PriorGames is the weight of the estimate's prior: as many games, won
// half by each side. With few results the estimate stays near even
// sides; after many it follows them.
const PriorGames = 20

// SideAdvantage counts the rated games whose winner's side is known and
// the Commune's wins among them: the evidence for the side term.
type SideAdvantage struct {
	Games       int
	CommuneWins int
}

// With is the estimate after one more game won by side (NoSide: no change).
func (a SideAdvantage) With(winner Side) SideAdvantage {
	switch winner {
	case Commune:
		a.Games++
		a.CommuneWins++
	case Versailles:
		a.Games++
	}
	return a
}

// CommuneShare is the Commune's expected score between two equally
// rated players: the Commune's share of the wins, with PriorGames games
// shared evenly added (the posterior mean of a Beta(10, 10) prior).
func (a SideAdvantage) CommuneShare() float64 {
	return (float64(a.CommuneWins) + PriorGames/2) / (float64(a.Games) + PriorGames)
}

// Points is the Commune's advantage in rating points: the rating
// difference at which Glicko-2's expected score (for opponents of no
// deviation) equals CommuneShare, ln(p/(1-p)) on the Glicko-2 scale.
// Negative when Versailles is favoured.
func (a SideAdvantage) Points() float64 {
	p := a.CommuneShare()
	return scale * math.Log(p/(1-p))
}
