package engine

import "strconv"

// Board queries and the low-level moves every rule is built from.

// Pieces counts a side's cubes plus its disc in x ("Presence and Control").
func (s *State) Pieces(side Side, x Space) int {
	if x < 0 || x >= NumMapSpaces {
		return 0
	}
	n := int(s.Cubes[side][x])
	if s.Disc[x] == side {
		n++
	}
	return n
}

// Present: the side has a piece in x, or x is one of its permanent-presence
// spaces (decision 9).
func (s *State) Present(side Side, x Space) bool {
	if x >= NumMapSpaces || x < 0 {
		return false
	}
	return spaceTable[x].Permanent == side || s.Pieces(side, x) > 0
}

// Controls: more pieces than the opponent; Versailles always controls its HQ
// and the Prussian Occupied Territory at Prussian Collaboration 3.
func (s *State) Controls(side Side, x Space) bool {
	switch x {
	case VersaillesHQ:
		return side == Versailles
	case PrussianTerritory:
		return side == Versailles && s.Momentum[Versailles] == maxMomentum
	}
	return s.Pieces(side, x) > s.Pieces(side.Other(), x)
}

// Controller returns who controls x, or NoSide.
func (s *State) Controller(x Space) Side {
	switch {
	case s.Controls(Versailles, x):
		return Versailles
	case s.Controls(Commune, x):
		return Commune
	}
	return NoSide
}

// ControlledSet is the set of spaces side controls (HQ and POT included).
func (s *State) ControlledSet(side Side) SpaceSet {
	var m SpaceSet
	for x := Space(0); x < NumSpaces; x++ {
		if s.Controls(side, x) {
			m = m.With(x)
		}
	}
	return m
}

// PresentSet is the set of spaces where side is present.
func (s *State) PresentSet(side Side) SpaceSet {
	var m SpaceSet
	for x := Space(0); x < NumMapSpaces; x++ {
		if s.Present(side, x) {
			m = m.With(x)
		}
	}
	return m
}

// ReachSet: spaces the side may operate in — present, or adjacent to a
// space it controls (decision 9).
func (s *State) ReachSet(side Side) SpaceSet {
	ctrl := s.ControlledSet(side)
	m := s.PresentSet(side)
	for x := Space(0); x < NumMapSpaces; x++ {
		if feeders[x]&ctrl != 0 {
			m = m.With(x)
		}
	}
	return m
}

// FedSet: spaces adjacent to a space side controls (the D10 meaning).
func (s *State) FedSet(side Side) SpaceSet {
	ctrl := s.ControlledSet(side)
	var m SpaceSet
	for x := Space(0); x < NumMapSpaces; x++ {
		if feeders[x]&ctrl != 0 {
			m = m.With(x)
		}
	}
	return m
}

// Strength is the military strength of a removal attempt in x before any
// extra OP: adjacent controlled spaces, +1 presence, +1 control (decision 10).
func (s *State) Strength(side Side, x Space) int {
	n := (feeders[x] & s.ControlledSet(side)).Count()
	if s.Present(side, x) {
		n++
	}
	if s.Controls(side, x) {
		n++
	}
	return n
}

// DimensionController returns the side controlling all three spaces of d.
func (s *State) DimensionController(d Dimension) Side {
	for _, side := range [2]Side{Versailles, Commune} {
		all := true
		for x := Space(0); x < NumMapSpaces; x++ {
			if spaceTable[x].Dim == d && !s.Controls(side, x) {
				all = false
				break
			}
		}
		if all {
			return side
		}
	}
	return NoSide
}

// DiscsOnMap counts a side's discs on the board.
func (s *State) DiscsOnMap(side Side) int {
	n := 0
	for _, d := range s.Disc {
		if d == side {
			n++
		}
	}
	return n
}

// PoolCap is the side's pool capacity (Versailles: unlimited).
func (s *State) PoolCap(side Side) int {
	if side == Versailles {
		return 1 << 10
	}
	return int(communePoolCap[s.Momentum[Commune]])
}

// TrackCubes is how many cubes remain on the side's Crisis Track.
func (s *State) TrackCubes(side Side) int {
	n := 0
	for _, c := range s.Track[side] {
		n += int(c)
	}
	return n
}

// CanSupply: a cube can be placed (pool first, then Crisis Track; decision 13).
func (s *State) CanSupply(side Side) bool {
	return s.Pool[side] > 0 || s.TrackCubes(side) > 0
}

// Supply is how many cubes the side could still place.
func (s *State) Supply(side Side) int { return int(s.Pool[side]) + s.TrackCubes(side) }

// VPFor returns the VP of kind (Political or Military) from side's point of view.
func (s *State) VPFor(side Side, kind Sphere) int {
	v := int(s.VP[kind])
	if side == Commune {
		return -v
	}
	return v
}

// ---- moves ----

// takeCube removes one cube from side's supply: pool first, then the Crisis
// Track from the centre outward, breaching zones (decisions 13, 14).
func (g *Game) takeCube(side Side) bool {
	s := &g.S
	if s.Pool[side] > 0 {
		s.Pool[side]--
		return true
	}
	for z := 0; z < NumZones; z++ {
		if s.Track[side][z] == 0 {
			continue
		}
		s.Track[side][z]--
		if !s.Breached[side][z] {
			s.Breached[side][z] = true
			s.Pending[side][z] = true
			if z == ZoneFinalCrisis && s.FCFirst == NoSide {
				s.FCFirst = side
			}
			g.log(NoSide, msg("engine.log.breach", aSide("Side", side), aZone("Zone", z)))
			g.soloBreach(side) // solo: the bot's bonus cubes arrive at once (solo_rules.go)
		}
		return true
	}
	return false
}

// placeCube puts one of side's cubes in x from its supply (or, with
// fromOutOfPlay, a cube removed from play: #23).
func (g *Game) placeCube(side Side, x Space, fromOutOfPlay bool) {
	if fromOutOfPlay {
		g.S.OutOfPlay[side]--
	} else if !g.takeCube(side) {
		return
	}
	g.S.Cubes[side][x]++
}

// toPool returns n of side's cubes to its pool; Commune cubes without a free
// pool cell are removed from play (decision 15). It reports how many were
// removed from play.
func (g *Game) toPool(side Side, n int) int {
	s := &g.S
	room := s.PoolCap(side) - int(s.Pool[side])
	if room < 0 {
		room = 0
	}
	k := n
	if k > room {
		k = room
	}
	s.Pool[side] += int8(k)
	s.OutOfPlay[side] += int8(n - k)
	return n - k
}

// removeCube takes one of side's cubes off x into its pool.
func (g *Game) removeCube(side Side, x Space) {
	g.S.Cubes[side][x]--
	if g.toPool(side, 1) > 0 {
		g.log(NoSide, msg("engine.log.pool-full", aSide("Side", side)))
	}
}

// payBonuses pays the bonus cubes of zones breached during the play or
// action that just ended (decision 14).
func (g *Game) payBonuses() {
	s := &g.S
	for _, side := range [2]Side{Versailles, Commune} {
		for z := 0; z < NumZones; z++ {
			if !s.Pending[side][z] {
				continue
			}
			s.Pending[side][z] = false
			n := int(s.Bonus[side][z])
			s.Bonus[side][z] = 0
			if z == ZoneFinalCrisis {
				if s.FCFirst == side {
					g.addVP(side, Political, -1)
					g.log(NoSide, msg("engine.log.fc-first", aSide("Side", side)))
				} else {
					s.OutOfPlay[side] += int8(n)
					if n > 0 {
						g.log(NoSide, msg("engine.log.fc-second", aSide("Side", side), aCount(int(n))))
					}
					continue
				}
			}
			if n == 0 {
				continue
			}
			lost := g.toPool(side, n)
			if lost > 0 {
				g.log(NoSide, msg("engine.log.bonus-cubes-lost", aSide("Side", side), aCount(int(n)-lost), aZone("Zone", z), aCubes("Lost", lost)))
			} else {
				g.log(NoSide, msg("engine.log.bonus-cubes", aSide("Side", side), aCount(int(n)), aZone("Zone", z)))
			}
		}
	}
}

// addVP moves a VP marker by n in side's favour, capped at ±5.
func (g *Game) addVP(side Side, kind Sphere, n int) {
	v := int(g.S.VP[kind])
	if side == Commune {
		n = -n
	}
	v += n
	if v > maxVP {
		v = maxVP
	}
	if v < -maxVP {
		v = -maxVP
	}
	g.S.VP[kind] = int8(v)
}

// changeMomentum moves side's track by delta (−1 or +1). Raising to 2 or 3
// queues the opponent's free cube (decision 17). It reports whether the
// track moved.
func (g *Game) changeMomentum(side Side, delta int) bool {
	s := &g.S
	m := int(s.Momentum[side]) + delta
	if m < 0 || m > maxMomentum {
		return false
	}
	s.Momentum[side] = int8(m)
	g.log(side, msg("engine.log.momentum-moves", aTrack("Track", side), aNum("Level", int(m))))
	if side == Versailles && delta > 0 && s.Prussian[m-1] > 0 {
		n := s.Prussian[m-1]
		s.Prussian[m-1] = 0
		s.Pool[Versailles] += n
		g.log(Versailles, msg("engine.log.prussian-cubes", aCount(int(n)), aNum("Level", int(m))))
	}
	if side == Commune && delta < 0 {
		if over := int(s.Pool[Commune]) - s.PoolCap(Commune); over > 0 {
			s.Pool[Commune] -= int8(over)
			s.OutOfPlay[Commune] += int8(over)
			g.log(Commune, msg("engine.log.pool-closes", aCount(int(over))))
		}
	}
	if delta > 0 && m >= 2 {
		g.push(Frame{K: fFreeCube, Side: side.Other(), You: side.Other()})
	}
	return true
}

// drawCard turns over the top Strategy card: a deal, a draw, a military
// test, the solo opponent's reveal (decisions 4, 6, 25). ok is false when no card can be drawn.
func (g *Game) drawCard() (card int, ok bool) {
	s := &g.S
	if len(s.Deck) == 0 && !g.reshuffle() {
		return 0, false
	}
	c := s.Deck[len(s.Deck)-1]
	s.Deck = s.Deck[:len(s.Deck)-1]
	g.revealed = true
	return int(c), true
}

// reshuffle makes a new deck from the discard pile (decision 6).
func (g *Game) reshuffle() bool {
	s := &g.S
	if len(s.Discard) == 0 {
		return false
	}
	for _, e := range s.Discard {
		s.Deck = append(s.Deck, e.Card)
	}
	s.Discard = s.Discard[:0]
	g.shuffle(s.Deck)
	g.revealed = true
	g.log(NoSide, msg("engine.log.reshuffle", aNCards("Cards", len(s.Deck))))
	return true
}

// removeFromGame handles a card played for momentum or drawn for a military
// test: out of the game, or under the discard pile in the Censorship variant.
func (g *Game) removeFromGame(card int) {
	s := &g.S
	if s.Variant == Censorship {
		s.Discard = append([]DiscardEntry{{Card: int8(card), By: NoSide, Round: s.Round}}, s.Discard...)
		return
	}
	s.Removed = append(s.Removed, int8(card))
}

func (g *Game) discard(card int, by Side) {
	g.S.Discard = append(g.S.Discard, DiscardEntry{Card: int8(card), By: by, Round: g.S.Round})
}

func removeCard(a []int8, card int) ([]int8, bool) {
	for i, c := range a {
		if int(c) == card {
			return append(a[:i], a[i+1:]...), true
		}
	}
	return a, false
}

func hasCard(a []int8, card int) bool {
	for _, c := range a {
		if int(c) == card {
			return true
		}
	}
	return false
}

func itoa(n int) string { return strconv.Itoa(n) }
