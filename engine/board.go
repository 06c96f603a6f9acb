package engine

import "fmt"

// Side is a faction. Versailles is blue, the Commune red.
type Side int8

const (
	Versailles Side = 0
	Commune    Side = 1
	// NoSide marks "nobody" (an uncontrolled space, a neutral card).
	NoSide Side = -1
)

// Other returns the opposing faction.
func (s Side) Other() Side { return 1 - s }

func (s Side) String() string {
	switch s {
	case Versailles:
		return "Versailles"
	case Commune:
		return "Commune"
	}
	return "nobody"
}

// Key is the lower-case identifier used in JSON and on the command line.
func (s Side) Key() string {
	switch s {
	case Versailles:
		return "versailles"
	case Commune:
		return "commune"
	}
	return "neutral"
}

// ParseSide reads "versailles" or "commune".
func ParseSide(s string) (Side, error) {
	switch s {
	case "versailles", "Versailles", "v", "V":
		return Versailles, nil
	case "commune", "Commune", "c", "C":
		return Commune, nil
	}
	return NoSide, fmt.Errorf("unknown side %s (want versailles or commune)", Quote(s))
}

// Sphere splits the map into Political and Military halves.
type Sphere int8

const (
	Political Sphere = 0
	Military  Sphere = 1
)

func (s Sphere) String() string {
	if s == Political {
		return "Political"
	}
	return "Military"
}

// Dimension is a Crisis Dimension: three same-colour spaces.
type Dimension int8

const (
	Institutional Dimension = iota // green square
	PublicOpinion                  // orange triangle
	Forts                          // teal circle
	Paris                          // purple diamond
	NumDimensions = 4
)

var dimensionNames = [NumDimensions]string{"Institutional", "Public Opinion", "Forts", "Paris"}
var dimensionKeys = [NumDimensions]string{"institutional", "public_opinion", "forts", "paris"}

func (d Dimension) String() string { return dimensionNames[d] }

// Key is the identifier used in deck files.
func (d Dimension) Key() string { return dimensionKeys[d] }

// Sphere of the dimension.
func (d Dimension) Sphere() Sphere {
	if d <= PublicOpinion {
		return Political
	}
	return Military
}

// Spaces returns the dimension's three spaces, pivotal one included.
func (d Dimension) Spaces() SpaceSet { return dimensionMask[d] }

// Space is a map space. The twelve playable spaces come first, in the
// canonical order of solo.md §0 (used for die rolls and logs); the two
// off-map Versailles spaces follow.
type Space int8

const (
	Royalists Space = iota
	NationalAssembly
	Republicans
	CatholicChurch
	Press
	SocialMovements
	MontValerien
	FortIssy
	ChateauVincennes
	ButteMontmartre
	ButteAuxCailles
	PereLachaise
	VersaillesHQ
	PrussianTerritory

	NumMapSpaces       = 12 // spaces that hold pieces
	NumSpaces          = 14
	NoSpace      Space = -1
)

// SpaceInfo is one row of the board table (map.md "Spaces").
type SpaceInfo struct {
	Key       string
	Name      string
	Sphere    Sphere
	Dim       Dimension
	Pivotal   bool
	Permanent Side // side that is always present here, or NoSide
}

// spaceTable is the board data of map.md. Keep every board fact here.
var spaceTable = [NumSpaces]SpaceInfo{
	Royalists:         {"royalists", "Royalists", Political, Institutional, false, Versailles},
	NationalAssembly:  {"national_assembly", "National Assembly", Political, Institutional, true, NoSide},
	Republicans:       {"republicans", "Republicans", Political, Institutional, false, NoSide},
	CatholicChurch:    {"catholic_church", "Catholic Church", Political, PublicOpinion, false, NoSide},
	Press:             {"press", "Press", Political, PublicOpinion, true, NoSide},
	SocialMovements:   {"social_movements", "Social Movements", Political, PublicOpinion, false, Commune},
	MontValerien:      {"mont_valerien", "Mont-Valérien", Military, Forts, true, NoSide},
	FortIssy:          {"fort_issy", "Fort d'Issy", Military, Forts, false, NoSide},
	ChateauVincennes:  {"chateau_vincennes", "Château de Vincennes", Military, Forts, false, NoSide},
	ButteMontmartre:   {"butte_montmartre", "Butte Montmartre", Military, Paris, true, NoSide},
	ButteAuxCailles:   {"butte_aux_cailles", "Butte-aux-Cailles", Military, Paris, false, NoSide},
	PereLachaise:      {"pere_lachaise", "Père Lachaise", Military, Paris, false, Commune},
	VersaillesHQ:      {"versailles_hq", "Versailles HQ", Military, -1, false, NoSide},
	PrussianTerritory: {"prussian_territory", "Prussian Occupied Territory", Military, -1, false, NoSide},
}

// links are the adjacency links of map.md. A two-way link makes each end
// adjacent to the other; a one-way link {from, to} means "to is adjacent to
// from": controlling from lets a player operate in to.
var twoWayLinks = [][2]Space{
	{Royalists, CatholicChurch}, {Royalists, Press}, {CatholicChurch, Press},
	{Press, Republicans}, {Press, SocialMovements}, {Republicans, SocialMovements},
	{MontValerien, ButteMontmartre}, {MontValerien, VersaillesHQ},
	{FortIssy, VersaillesHQ}, {FortIssy, ButteAuxCailles}, {FortIssy, ChateauVincennes},
	{ButteMontmartre, ButteAuxCailles}, {ButteMontmartre, PereLachaise},
	{ButteAuxCailles, PereLachaise}, {PereLachaise, ChateauVincennes},
	{PereLachaise, PrussianTerritory}, {ChateauVincennes, PrussianTerritory},
}

// oneWayLinks: {feeder, fed}. Controlling Royalists or Republicans gives
// reach into the National Assembly, not the reverse.
var oneWayLinks = [][2]Space{
	{Royalists, NationalAssembly}, {Republicans, NationalAssembly},
}

// SpaceSet is a bit set of spaces.
type SpaceSet uint16

// Has reports whether x is in the set.
func (m SpaceSet) Has(x Space) bool { return x >= 0 && m&(1<<uint(x)) != 0 }

// With returns the set with x added.
func (m SpaceSet) With(x Space) SpaceSet { return m | 1<<uint(x) }

// Count returns the number of spaces in the set.
func (m SpaceSet) Count() int {
	n := 0
	for ; m != 0; m &= m - 1 {
		n++
	}
	return n
}

// Spaces lists the set's spaces in canonical order.
func (m SpaceSet) Spaces() []Space {
	var out []Space
	for x := Space(0); x < NumSpaces; x++ {
		if m.Has(x) {
			out = append(out, x)
		}
	}
	return out
}

const allMapSpaces SpaceSet = 1<<NumMapSpaces - 1

var (
	// feeders[x]: spaces whose control lets a side operate in x and adds 1 to
	// its military strength there.
	feeders       [NumSpaces]SpaceSet
	dimensionMask [NumDimensions]SpaceSet
	sphereMask    [2]SpaceSet
	pivotalMask   SpaceSet
	pivotalOf     [NumDimensions]Space
)

func init() {
	for _, l := range twoWayLinks {
		feeders[l[0]] = feeders[l[0]].With(l[1])
		feeders[l[1]] = feeders[l[1]].With(l[0])
	}
	for _, l := range oneWayLinks {
		feeders[l[1]] = feeders[l[1]].With(l[0])
	}
	for x := Space(0); x < NumMapSpaces; x++ {
		in := spaceTable[x]
		dimensionMask[in.Dim] = dimensionMask[in.Dim].With(x)
		sphereMask[in.Sphere] = sphereMask[in.Sphere].With(x)
		if in.Pivotal {
			pivotalMask = pivotalMask.With(x)
			pivotalOf[in.Dim] = x
		}
	}
}

// Info returns the board data for a space.
func (x Space) Info() SpaceInfo { return spaceTable[x] }

func (x Space) String() string {
	if x < 0 || x >= NumSpaces {
		return "no space"
	}
	return spaceTable[x].Name
}

// Key is the identifier used in deck files and JSON.
func (x Space) Key() string {
	if x < 0 || x >= NumSpaces {
		return ""
	}
	return spaceTable[x].Key
}

// Feeders returns the spaces adjacent-into x (their control gives reach into x).
func (x Space) Feeders() SpaceSet { return feeders[x] }

// PivotalSpace returns the dimension's pivotal space.
func (d Dimension) PivotalSpace() Space { return pivotalOf[d] }

// ParseSpace reads a space key such as "butte_montmartre".
func ParseSpace(s string) (Space, error) {
	for x := Space(0); x < NumSpaces; x++ {
		if spaceTable[x].Key == s {
			return x, nil
		}
	}
	return NoSpace, fmt.Errorf("unknown space %s", Quote(s))
}

// ParseDimension reads a dimension key such as "public_opinion".
func ParseDimension(s string) (Dimension, error) {
	for d := Dimension(0); d < NumDimensions; d++ {
		if dimensionKeys[d] == s {
			return d, nil
		}
	}
	return -1, fmt.Errorf("unknown Crisis Dimension %s", Quote(s))
}

// Crisis Track zones, from the centre of the board outward.
const (
	ZoneStarting = iota
	ZoneEscalation
	ZoneTension
	ZoneFinalCrisis
	NumZones
)

var zoneNames = [NumZones]string{"Starting", "Escalation", "Tension", "Final Crisis"}

// ZoneName names a Crisis Track zone.
func ZoneName(z int) string { return zoneNames[z] }

// Piece counts and track layout (map.md "Crisis Tracks", "Momentum tracks").
var (
	trackStart = [2][NumZones]int8{
		Versailles: {1, 2, 1, 2},
		Commune:    {3, 2, 2, 2},
	}
	bonusStart = [2][NumZones]int8{
		Versailles: {0, 1, 1, 2},
		Commune:    {0, 2, 2, 2},
	}
	// Cubes waiting under Prussian Collaboration levels 1, 2, 3 (assumed 2 each).
	prussianStart = [3]int8{2, 2, 2}
	// Commune pool capacity at Revolutionary Momentum 0..3.
	communePoolCap = [4]int8{0, 2, 3, 4}
)

const (
	cubesPerSide  = 18
	discsPerSide  = 2
	maxCubes      = 4 // per side per space
	maxVP         = 5
	maxMomentum   = 3
	maxOP         = 4
	roundsNormal  = 3
	roundFinal    = 4 // Round value during the Final Crisis
	handSize      = 4
	handSizeCens  = 5
	objectiveDeal = 2
)

// MomentumTrackName names a side's momentum track.
func MomentumTrackName(s Side) string {
	if s == Versailles {
		return "Prussian Collaboration"
	}
	return "Revolutionary Momentum"
}
