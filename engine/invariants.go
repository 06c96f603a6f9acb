package engine

import "fmt"

// CheckInvariants verifies the conservation and limit rules of map.md:
// 18 cubes per side all accounted for, at most 4 cubes per side per space,
// at most one disc per space and two per side, VP within ±5, momentum 0-3,
// the Commune pool within its capacity, every card in exactly one place.
func (g *Game) CheckInvariants() error {
	s := &g.S
	for _, side := range [2]Side{Versailles, Commune} {
		total := int(s.Pool[side]) + int(s.OutOfPlay[side])
		for x := 0; x < NumMapSpaces; x++ {
			c := s.Cubes[side][x]
			if c < 0 || c > maxCubes {
				return fmt.Errorf("%s has %d cubes in %s", side, c, Space(x))
			}
			total += int(c)
		}
		for z := 0; z < NumZones; z++ {
			if s.Track[side][z] < 0 || s.Bonus[side][z] < 0 {
				return fmt.Errorf("%s has a negative count in its %s zone", side, zoneNames[z])
			}
			total += int(s.Track[side][z]) + int(s.Bonus[side][z])
		}
		if side == Versailles {
			for _, n := range s.Prussian {
				total += int(n)
			}
		}
		if total != cubesPerSide {
			return fmt.Errorf("%s has %d cubes accounted for, want %d", side, total, cubesPerSide)
		}
		if s.Pool[side] < 0 || s.OutOfPlay[side] < 0 {
			return fmt.Errorf("%s has a negative pool or removed count", side)
		}
		if s.Momentum[side] < 0 || s.Momentum[side] > maxMomentum {
			return fmt.Errorf("%s momentum %d out of 0-3", side, s.Momentum[side])
		}
		if s.DiscsOnMap(side) > discsPerSide {
			return fmt.Errorf("%s has %d discs on the map", side, s.DiscsOnMap(side))
		}
	}
	if int(s.Pool[Commune]) > s.PoolCap(Commune) {
		return fmt.Errorf("Commune pool holds %d cubes but has %d cells", s.Pool[Commune], s.PoolCap(Commune))
	}
	for k := 0; k < 2; k++ {
		if s.VP[k] < -maxVP || s.VP[k] > maxVP {
			return fmt.Errorf("%s VP %d out of ±5", Sphere(k), s.VP[k])
		}
	}
	for x, d := range s.Disc {
		if d != NoSide && d != Versailles && d != Commune {
			return fmt.Errorf("invalid disc owner %d in %s", d, Space(x))
		}
		if d != NoSide && Space(x).Info().Sphere != Military {
			return fmt.Errorf("a disc in Political space %s", Space(x))
		}
	}
	if s.Round < 1 || s.Round > roundFinal {
		return fmt.Errorf("round %d out of 1-4", s.Round)
	}
	// Every card is in exactly one place.
	var seen [numCards + 1]int
	count := func(a []int8) error {
		for _, c := range a {
			if c < 1 || c > numCards {
				return fmt.Errorf("invalid card number %d", c)
			}
			seen[c]++
		}
		return nil
	}
	lists := [][]int8{s.Deck, s.Removed, s.ObjDeck}
	for i := 0; i < 2; i++ {
		lists = append(lists, s.Hand[i], s.SetAside[i], s.ObjOffer[i], s.Fulfilled[i])
	}
	for _, l := range lists {
		if err := count(l); err != nil {
			return err
		}
	}
	for _, e := range s.Discard {
		if e.Card < 1 || e.Card > numCards {
			return fmt.Errorf("invalid card number %d on the discard pile", e.Card)
		}
		seen[e.Card]++
	}
	for i := 0; i < 2; i++ {
		if s.Objective[i] < 0 || s.Objective[i] > numCards {
			return fmt.Errorf("invalid objective %d", s.Objective[i])
		}
		if s.Objective[i] > 0 {
			seen[s.Objective[i]]++
		}
	}
	for n := 1; n <= numCards; n++ {
		if seen[n] > 1 {
			return fmt.Errorf("card #%d is in %d places", n, seen[n])
		}
	}
	return nil
}
