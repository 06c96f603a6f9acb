package engine

import (
	"bytes"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"sort"
	"strings"
	"sync"
	"unicode/utf8"
)

// CardKind separates the three decks.
type CardKind int8

const (
	StrategyCard    CardKind = iota
	FinalCrisisCard          // #17 and #34, held face up from setup
	ObjectiveCard
)

// CardStatus says how much of a card's effect is the printed text.
type CardStatus string

const (
	StatusKnown       CardStatus = "known"
	StatusPartial     CardStatus = "partial"
	StatusProvisional CardStatus = "provisional"
)

// Card is one card of the deck file, compiled.
type Card struct {
	Num    int
	Name   string
	Side   Side // NoSide for neutral strategy cards and objectives
	OP     int
	Kind   CardKind
	Space  Space // objective cards: the space named on the card
	Status CardStatus
	Text   string
	// TwoPlayerOnly cards are left out of the solo deck (#1 #12 #13 #22 #29 #30).
	TwoPlayerOnly bool
	// Names and Texts are a deck file's own translations of its name and
	// text, by language ("fr", "ru"); optional (package locale shows them
	// for a card that differs from the built-in one).
	Names map[string]string
	Texts map[string]string

	nodes  []node // nodes[0] is the root effect
	effect string // the effect as canonical JSON, to compare decks
}

// SameCard reports whether c has the name, text and effect of o: a custom
// deck's card that does may be shown with the catalogue's translation of
// the built-in card.
func (c *Card) SameCard(o *Card) bool {
	return c != nil && o != nil && c.Num == o.Num && c.Name == o.Name && c.Text == o.Text && c.effect == o.effect
}

// Colour describes the card's background for players.
func (c *Card) Colour() string {
	switch {
	case c.Kind == ObjectiveCard:
		return "objective"
	case c.Side == Versailles:
		return "blue"
	case c.Side == Commune:
		return "red"
	}
	return "grey"
}

// Deck is the compiled set of all 53 cards.
type Deck struct {
	cards [numCards + 1]*Card
	// ID identifies the deck's contents: a hash of its canonical form
	// (Canonical), so whitespace, key order and card order in the file do
	// not change it. A saved game records it so it is never resumed with
	// different card effects.
	ID    string
	canon []byte
}

// Limits of a deck file, checked before anything else is done with it so
// that a huge or hostile file is refused quickly and cheaply.
const (
	MaxDeckBytes     = 1 << 20 // the whole file
	MaxCardNameRunes = 60
	MaxCardTextRunes = 1000
	MaxEffectDepth   = 6  // nesting of effect nodes (the embedded deck uses 3)
	MaxEffectNodes   = 64 // effect nodes of one card (the embedded deck uses 5)
)

// Canonical returns the deck in its canonical form: the deck format,
// cards in number order, fields in a fixed order, no insignificant
// whitespace. ParseDeck of it gives the same deck and the same ID; it is
// what a database stores to keep a game's deck.
func (d *Deck) Canonical() []byte { return append([]byte(nil), d.canon...) }

// Relabel returns the same cards under another ID. It exists for games
// saved before deck IDs were canonical (their state names the hash of the
// file's bytes): a caller that decided which deck such a game plays with
// gives it that deck under the ID its state names. The receiver is not
// changed.
func (d *Deck) Relabel(id string) *Deck {
	c := *d
	c.ID = id
	return &c
}

// DeckIDOf returns the deck ID a saved state (Save) names. It reads the
// state only up to that field (the third one Save writes), since callers
// do this before every Load.
func DeckIDOf(state []byte) (string, error) {
	dec := json.NewDecoder(bytes.NewReader(state))
	bad := func(err error) (string, error) {
		return "", fmt.Errorf("read deck id: state is not valid JSON: %w", err)
	}
	if t, err := dec.Token(); err != nil {
		return bad(err)
	} else if t != json.Delim('{') {
		return bad(errors.New("not an object"))
	}
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			return bad(err)
		}
		if k == "deckId" {
			var id string
			if err := dec.Decode(&id); err != nil {
				return bad(err)
			}
			return id, nil
		}
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			return bad(err)
		}
	}
	return "", nil
}

const (
	numCards          = 53
	firstObjective    = 42
	versaillesFCCard  = 17
	communeFCCard     = 34
	numStrategyInDeck = 39
)

// FinalCrisisCardOf returns the Final Crisis card number of a side.
func FinalCrisisCardOf(s Side) int {
	if s == Versailles {
		return versaillesFCCard
	}
	return communeFCCard
}

// Card returns card n (1..53), or nil.
func (d *Deck) Card(n int) *Card {
	if n < 1 || n > numCards {
		return nil
	}
	return d.cards[n]
}

// Cards returns all cards in number order.
func (d *Deck) Cards() []*Card { return append([]*Card(nil), d.cards[1:]...) }

// FindCard finds a card by number or by (part of) its name, case-insensitively.
func (d *Deck) FindCard(q string) []*Card {
	q = strings.ToLower(strings.TrimSpace(strings.TrimPrefix(q, "#")))
	var out []*Card
	for _, c := range d.cards[1:] {
		if fmt.Sprint(c.Num) == q {
			return []*Card{c}
		}
		if q != "" && strings.Contains(strings.ToLower(c.Name), q) {
			out = append(out, c)
		}
	}
	return out
}

//go:embed cards.json
var defaultDeckJSON []byte

var (
	defaultDeck     *Deck
	defaultDeckOnce sync.Once
)

// DefaultDeck returns the deck embedded in the binary (cards.json). Safe
// for concurrent use.
func DefaultDeck() *Deck {
	defaultDeckOnce.Do(func() {
		d, err := ParseDeck(defaultDeckJSON)
		if err != nil {
			panic("engine: embedded cards.json is invalid: " + err.Error()) // a build defect, caught by the tests
		}
		defaultDeck = d
	})
	return defaultDeck
}

// DefaultDeckJSON returns the embedded deck file (cards.json), the
// starting point of a custom deck.
func DefaultDeckJSON() []byte { return append([]byte(nil), defaultDeckJSON...) }

// LoadDeckFile reads and validates a deck file (same format as cards.json).
// A file larger than MaxDeckBytes is refused before it is read.
func LoadDeckFile(path string) (*Deck, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("read deck file: %w", pathError(err))
	}
	defer f.Close()
	if st, err := f.Stat(); err == nil && st.Size() > MaxDeckBytes {
		return nil, fmt.Errorf("deck file %s: %w", Quote(path), errDeckTooBig(st.Size()))
	}
	// The file may grow after Stat: never read more than one byte too many.
	b, err := io.ReadAll(io.LimitReader(f, MaxDeckBytes+1))
	if err != nil {
		return nil, fmt.Errorf("read deck file: %w", pathError(err))
	}
	d, err := ParseDeck(b)
	if err != nil {
		return nil, fmt.Errorf("deck file %s: %w", Quote(path), err)
	}
	return d, nil
}

// pathError is an error of the file system that names the file only
// quoted (Quote): a file name is outside input. errors.Is still sees the
// cause (fs.ErrNotExist...).
func pathError(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return &fs.PathError{Op: pe.Op, Path: Quote(pe.Path), Err: pe.Err}
	}
	return ShortError(err)
}

// ---- the deck file format ----

type deckFile struct {
	Cards []cardJSON `json:"cards"`
}

type cardJSON struct {
	Num           int         `json:"num"`
	Name          string      `json:"name"`
	Side          string      `json:"side"` // versailles | commune | neutral | objective
	OP            int         `json:"op"`
	FinalCrisis   bool        `json:"finalCrisis,omitempty"`
	Space         string      `json:"space,omitempty"` // objectives
	Status        string      `json:"status"`
	Text          string      `json:"text"`
	TwoPlayerOnly bool        `json:"twoPlayerOnly,omitempty"`
	Effect        *EffectJSON `json:"effect"`
	// Names and Texts: the card's name and text in other languages
	// ("fr", "ru"), for a deck whose cards differ from the built-in ones.
	Names map[string]string `json:"names,omitempty"`
	Texts map[string]string `json:"texts,omitempty"`
}

// EffectJSON is one node of the effect language (see cards.json and the
// package documentation). Exactly the fields its op uses may be set.
type EffectJSON struct {
	Op            string         `json:"op"`
	Steps         []*EffectJSON  `json:"steps,omitempty"`
	Cond          *CondJSON      `json:"cond,omitempty"`
	Do            *EffectJSON    `json:"do,omitempty"`
	N             int            `json:"n,omitempty"`
	UpTo          bool           `json:"upTo,omitempty"`
	In            *ScopeJSON     `json:"in,omitempty"`
	MaxPerSpace   int            `json:"maxPerSpace,omitempty"`
	Caps          map[string]int `json:"caps,omitempty"`
	Return        bool           `json:"return,omitempty"`
	EvenIfCubes   bool           `json:"evenIfCubes,omitempty"`
	OneSpace      bool           `json:"oneSpace,omitempty"`
	Who           string         `json:"who,omitempty"`
	Delta         int            `json:"delta,omitempty"`
	Chooser       string         `json:"chooser,omitempty"`
	OnlyEffective bool           `json:"onlyEffective,omitempty"`
	Must          bool           `json:"must,omitempty"`
}

// ScopeJSON restricts where an effect acts. Spaces and dims are united;
// the other fields narrow the result.
type ScopeJSON struct {
	Spaces           []string `json:"spaces,omitempty"`
	Dims             []string `json:"dims,omitempty"`
	Sphere           string   `json:"sphere,omitempty"`
	Present          bool     `json:"present,omitempty"`
	AdjControlled    bool     `json:"adjControlled,omitempty"`
	OpponentControls bool     `json:"opponentControls,omitempty"`
	BothPresent      bool     `json:"bothPresent,omitempty"`
	AdjacentTo       string   `json:"adjacentTo,omitempty"`
	Same             bool     `json:"same,omitempty"`
}

// CondJSON is the condition of an "if" node.
type CondJSON struct {
	Control string `json:"control,omitempty"` // you control this space
}

// ---- compiled effect nodes ----

type opKind int8

const (
	opThen opKind = iota
	opChoose
	opAndOr
	opIf
	opPlace
	opRemove
	opReplace
	opPlaceDisc
	opRemoveDisc
	opOps
	opMomentum
	opReveal
	opDraw
	opDiscard
	opForceDiscard
	numOps
)

var opNames = [numOps]string{"then", "choose", "andor", "if", "place", "remove", "replace",
	"placeDisc", "removeDisc", "ops", "momentum", "reveal", "draw", "discard", "forceDiscard"}

type scope struct {
	static        SpaceSet
	present       bool
	adjControlled bool
	oppControls   bool
	bothPresent   bool
	same          bool
}

type node struct {
	op            opKind
	kids          []int16
	n             int8
	upTo          bool
	must          bool
	ret           bool
	evenIfCubes   bool
	oneSpace      bool
	onlyEffective bool
	chooserOpp    bool
	whoOpp        bool // momentum: the opponent's track
	delta         int8
	maxPer        int8
	capMask       SpaceSet
	caps          [NumMapSpaces]int8
	sc            scope
	condControl   Space
}

func errDeckTooBig(n int64) error {
	return fmt.Errorf("the deck is %d bytes; a deck may have at most %d bytes (1 MiB)", n, MaxDeckBytes)
}

// ParseDeck parses and validates a deck file. Errors name the card and field.
func ParseDeck(b []byte) (*Deck, error) {
	if len(b) > MaxDeckBytes {
		return nil, errDeckTooBig(int64(len(b)))
	}
	var f deckFile
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return nil, fmt.Errorf("deck is not valid JSON for the deck format: %w", ShortError(err))
	}
	d := &Deck{}
	for i := range f.Cards {
		cj := &f.Cards[i]
		c, err := compileCard(cj)
		if err != nil {
			return nil, fmt.Errorf("card #%d %s: %w", cj.Num, Quote(cj.Name), err)
		}
		if d.cards[c.Num] != nil {
			return nil, fmt.Errorf("card #%d: number used twice", c.Num)
		}
		d.cards[c.Num] = c
	}
	var missing []string
	for n := 1; n <= numCards; n++ {
		if d.cards[n] == nil {
			missing = append(missing, fmt.Sprint(n))
		}
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("deck must define all cards 1-%d; missing: %s", numCards, strings.Join(missing, ", "))
	}
	// Each map space has exactly one objective card.
	seen := map[Space]int{}
	for n := firstObjective; n <= numCards; n++ {
		c := d.cards[n]
		if prev, ok := seen[c.Space]; ok {
			return nil, fmt.Errorf("card #%d: field space: %s is already the objective of #%d", n, c.Space.Key(), prev)
		}
		seen[c.Space] = n
	}
	// The identity is the parsed form written back in a fixed layout, so
	// reformatting the file keeps its games playing.
	sort.Slice(f.Cards, func(i, j int) bool { return f.Cards[i].Num < f.Cards[j].Num })
	canon, err := json.Marshal(f)
	if err != nil {
		return nil, fmt.Errorf("deck: canonical form: %w", err)
	}
	sum := sha256.Sum256(canon)
	d.ID, d.canon = hex.EncodeToString(sum[:8]), canon
	return d, nil
}

func compileCard(cj *cardJSON) (*Card, error) {
	if cj.Num < 1 || cj.Num > numCards {
		return nil, fmt.Errorf("field num: %d is not between 1 and %d", cj.Num, numCards)
	}
	if strings.TrimSpace(cj.Name) == "" {
		return nil, errors.New("field name: empty")
	}
	if n := utf8.RuneCountInString(cj.Name); n > MaxCardNameRunes {
		return nil, fmt.Errorf("field name: %d characters; at most %d", n, MaxCardNameRunes)
	}
	if n := utf8.RuneCountInString(cj.Text); n > MaxCardTextRunes {
		return nil, fmt.Errorf("field text: %d characters; at most %d", n, MaxCardTextRunes)
	}
	c := &Card{Num: cj.Num, Name: cj.Name, OP: cj.OP, Text: cj.Text, TwoPlayerOnly: cj.TwoPlayerOnly, Space: NoSpace,
		Names: cj.Names, Texts: cj.Texts}
	if eff, err := json.Marshal(cj.Effect); err == nil {
		c.effect = string(eff)
	}
	wantObjective := cj.Num >= firstObjective
	wantFC := cj.Num == versaillesFCCard || cj.Num == communeFCCard
	switch cj.Side {
	case "versailles":
		c.Side = Versailles
	case "commune":
		c.Side = Commune
	case "neutral", "objective":
		c.Side = NoSide
	default:
		return nil, fmt.Errorf("field side: %s (want versailles, commune, neutral or objective)", Quote(cj.Side))
	}
	switch {
	case wantObjective:
		if cj.Side != "objective" {
			return nil, fmt.Errorf("field side: cards %d-%d are objectives, got %s", firstObjective, numCards, Quote(cj.Side))
		}
		c.Kind = ObjectiveCard
		sp, err := ParseSpace(cj.Space)
		if err != nil || sp >= NumMapSpaces {
			return nil, fmt.Errorf("field space: %s is not a map space", Quote(cj.Space))
		}
		c.Space = sp
		if cj.OP != 0 {
			return nil, errors.New("field op: objective cards have no Operations Points")
		}
	default:
		if cj.Side == "objective" {
			return nil, errors.New("field side: only cards 42-53 are objectives")
		}
		if cj.Space != "" {
			return nil, errors.New("field space: only objective cards name a space")
		}
		if cj.OP < 1 || cj.OP > maxOP {
			return nil, fmt.Errorf("field op: %d is not between 1 and %d", cj.OP, maxOP)
		}
		c.Kind = StrategyCard
		if wantFC {
			c.Kind = FinalCrisisCard
			want := Versailles
			if cj.Num == communeFCCard {
				want = Commune
			}
			if c.Side != want {
				return nil, fmt.Errorf("field side: Final Crisis card #%d belongs to %s", cj.Num, want)
			}
		}
	}
	if cj.FinalCrisis != wantFC {
		return nil, fmt.Errorf("field finalCrisis: only #%d and #%d are Final Crisis cards", versaillesFCCard, communeFCCard)
	}
	switch CardStatus(cj.Status) {
	case StatusKnown, StatusPartial, StatusProvisional:
		c.Status = CardStatus(cj.Status)
	default:
		return nil, fmt.Errorf("field status: %s (want known, partial or provisional)", Quote(cj.Status))
	}
	if cj.Effect == nil {
		return nil, errors.New("field effect: missing")
	}
	if _, err := compileNode(&c.nodes, cj.Effect, "effect", 1); err != nil {
		return nil, err
	}
	return c, nil
}

func compileNode(nodes *[]node, e *EffectJSON, path string, depth int) (int16, error) {
	if e == nil {
		return 0, fmt.Errorf("field %s: null", path)
	}
	if depth > MaxEffectDepth {
		return 0, fmt.Errorf("field %s: effects nest deeper than %d levels", path, MaxEffectDepth)
	}
	if len(*nodes) >= MaxEffectNodes {
		return 0, fmt.Errorf("field %s: a card's effect may have at most %d steps", path, MaxEffectNodes)
	}
	op := opKind(-1)
	for i, name := range opNames {
		if e.Op == name {
			op = opKind(i)
		}
	}
	if op < 0 {
		return 0, fmt.Errorf("field %s.op: unknown op %s (want one of %s)", path, Quote(e.Op), strings.Join(opNames[:], ", "))
	}
	idx := int16(len(*nodes))
	*nodes = append(*nodes, node{op: op, condControl: NoSpace})
	n := node{op: op, upTo: e.UpTo, must: e.Must, ret: e.Return, evenIfCubes: e.EvenIfCubes,
		oneSpace: e.OneSpace, onlyEffective: e.OnlyEffective, condControl: NoSpace}
	bad := func(field, why string) error { return fmt.Errorf("field %s.%s: %s", path, field, why) }
	// Which fields each op accepts.
	type fields struct{ steps, cond, do, n, in, per, caps, ret, even, one, who, delta, chooser, only bool }
	var allow fields
	switch op {
	case opThen, opAndOr:
		allow.steps = true
	case opChoose:
		allow.steps, allow.chooser, allow.only = true, true, true
	case opIf:
		allow.cond, allow.do = true, true
	case opPlace:
		allow.n, allow.in, allow.per, allow.caps, allow.ret = true, true, true, true, true
	case opRemove:
		allow.n, allow.in, allow.per, allow.chooser = true, true, true, true
	case opReplace:
		allow.n, allow.in = true, true
	case opPlaceDisc:
		allow.in = true
	case opRemoveDisc:
		allow.in, allow.even = true, true
	case opOps:
		allow.n, allow.in, allow.one = true, true, true
	case opMomentum:
		allow.who, allow.delta = true, true
	case opReveal:
	case opDraw, opDiscard:
		allow.n = true
	case opForceDiscard:
	}
	switch {
	case len(e.Steps) > 0 && !allow.steps:
		return 0, bad("steps", "not allowed for op "+e.Op)
	case e.Cond != nil && !allow.cond:
		return 0, bad("cond", "not allowed for op "+e.Op)
	case e.Do != nil && !allow.do:
		return 0, bad("do", "not allowed for op "+e.Op)
	case e.N != 0 && !allow.n:
		return 0, bad("n", "not allowed for op "+e.Op)
	case e.In != nil && !allow.in:
		return 0, bad("in", "not allowed for op "+e.Op)
	case e.MaxPerSpace != 0 && !allow.per:
		return 0, bad("maxPerSpace", "not allowed for op "+e.Op)
	case len(e.Caps) > 0 && !allow.caps:
		return 0, bad("caps", "not allowed for op "+e.Op)
	case e.Return && !allow.ret:
		return 0, bad("return", "not allowed for op "+e.Op)
	case e.EvenIfCubes && !allow.even:
		return 0, bad("evenIfCubes", "not allowed for op "+e.Op)
	case e.OneSpace && !allow.one:
		return 0, bad("oneSpace", "not allowed for op "+e.Op)
	case e.Who != "" && !allow.who:
		return 0, bad("who", "not allowed for op "+e.Op)
	case e.Delta != 0 && !allow.delta:
		return 0, bad("delta", "not allowed for op "+e.Op)
	case e.Chooser != "" && !allow.chooser:
		return 0, bad("chooser", "not allowed for op "+e.Op)
	case e.OnlyEffective && !allow.only:
		return 0, bad("onlyEffective", "not allowed for op "+e.Op)
	}
	if allow.n {
		if e.N < 1 || e.N > 9 {
			return 0, bad("n", fmt.Sprintf("%d is not between 1 and 9", e.N))
		}
		n.n = int8(e.N)
	}
	if allow.steps {
		if len(e.Steps) < 2 {
			return 0, bad("steps", "needs at least two steps")
		}
	}
	if e.MaxPerSpace < 0 || e.MaxPerSpace > maxCubes {
		return 0, bad("maxPerSpace", "must be between 1 and 4")
	}
	n.maxPer = int8(e.MaxPerSpace)
	for k, v := range e.Caps {
		sp, err := ParseSpace(k)
		if err != nil || sp >= NumMapSpaces {
			return 0, bad("caps", Quote(k)+" is not a map space")
		}
		if v < 0 || v > maxCubes {
			return 0, bad("caps", fmt.Sprintf("cap %d for %s is not between 0 and 4", v, k))
		}
		n.capMask = n.capMask.With(sp)
		n.caps[sp] = int8(v)
	}
	switch e.Chooser {
	case "", "you":
	case "opponent":
		n.chooserOpp = true
	default:
		return 0, bad("chooser", Quote(e.Chooser)+" (want you or opponent)")
	}
	if op == opMomentum {
		switch e.Who {
		case "you":
		case "opponent":
			n.whoOpp = true
		default:
			return 0, bad("who", Quote(e.Who)+" (want you or opponent)")
		}
		if e.Delta != 1 && e.Delta != -1 {
			return 0, bad("delta", "must be 1 or -1")
		}
		n.delta = int8(e.Delta)
	}
	if op == opIf {
		if e.Cond == nil || e.Do == nil {
			return 0, bad("cond", "an if needs cond and do")
		}
		sp, err := ParseSpace(e.Cond.Control)
		if err != nil || sp >= NumMapSpaces {
			return 0, bad("cond.control", Quote(e.Cond.Control)+" is not a map space")
		}
		n.condControl = sp
	}
	if allow.in {
		sc, err := compileScope(e.In)
		if err != nil {
			return 0, bad("in", err.Error())
		}
		if op == opPlaceDisc || op == opRemoveDisc {
			sc.static &= sphereMask[Military] // discs live only in Military spaces
		}
		if sc.static == 0 && !sc.same {
			return 0, bad("in", "selects no map space")
		}
		n.sc = sc
	}
	// Children are compiled after the parent slot is reserved, so the root
	// stays at index 0 and the tree is in pre-order.
	for i, s := range e.Steps {
		k, err := compileNode(nodes, s, fmt.Sprintf("%s.steps[%d]", path, i), depth+1)
		if err != nil {
			return 0, err
		}
		n.kids = append(n.kids, k)
	}
	if e.Do != nil {
		k, err := compileNode(nodes, e.Do, path+".do", depth+1)
		if err != nil {
			return 0, err
		}
		n.kids = append(n.kids, k)
	}
	(*nodes)[idx] = n
	return idx, nil
}

func compileScope(s *ScopeJSON) (scope, error) {
	var sc scope
	if s == nil {
		sc.static = allMapSpaces
		return sc, nil
	}
	for _, k := range s.Spaces {
		sp, err := ParseSpace(k)
		if err != nil || sp >= NumMapSpaces {
			return sc, fmt.Errorf("spaces: %s is not a map space", Quote(k))
		}
		sc.static = sc.static.With(sp)
	}
	for _, k := range s.Dims {
		d, err := ParseDimension(k)
		if err != nil {
			return sc, fmt.Errorf("dims: %w", err)
		}
		sc.static |= dimensionMask[d]
	}
	if len(s.Spaces) == 0 && len(s.Dims) == 0 {
		sc.static = allMapSpaces
	}
	switch s.Sphere {
	case "":
	case "political":
		sc.static &= sphereMask[Political]
	case "military":
		sc.static &= sphereMask[Military]
	default:
		return sc, fmt.Errorf("sphere: %s (want political or military)", Quote(s.Sphere))
	}
	if s.AdjacentTo != "" {
		sp, err := ParseSpace(s.AdjacentTo)
		if err != nil || sp >= NumMapSpaces {
			return sc, fmt.Errorf("adjacentTo: %s is not a map space", Quote(s.AdjacentTo))
		}
		// Spaces X adjacent to sp: those sp's control gives reach into.
		var m SpaceSet
		for x := Space(0); x < NumMapSpaces; x++ {
			if feeders[x].Has(sp) {
				m = m.With(x)
			}
		}
		sc.static &= m
	}
	sc.present, sc.adjControlled, sc.oppControls, sc.bothPresent, sc.same =
		s.Present, s.AdjControlled, s.OpponentControls, s.BothPresent, s.Same
	return sc, nil
}
