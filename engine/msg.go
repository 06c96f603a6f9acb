package engine

import (
	"bytes"
	"strconv"
	"strings"
	"sync"
	"text/template"
)

// Msg is a sentence for players: the id of a message in the catalogue
// (package locale prints it in a language) and its typed arguments. The
// engine writes every prompt, choice, log line and effect description as a
// Msg, so it holds no player's language; English prints the English for
// its own errors, tests and operator tools. Nothing in the engine prints
// a Msg while a game is played: its words are made when a line is read.
type Msg struct {
	ID   string `json:"id"`
	Args []Arg  `json:"args,omitempty"`
}

// ArgKind says what an argument is, so a printer can put it in its
// language: a side, a space and a card are words of the edition, counts of
// cubes, cards and Operations Points take their noun's plural form.
type ArgKind string

// The argument kinds. N holds the value unless noted.
const (
	ArgNum     ArgKind = "num"     // a number as digits; "Count" chooses the message's plural form
	ArgCubes   ArgKind = "cubes"   // N cubes, with the noun in its plural form
	ArgCards   ArgKind = "ncards"  // N cards, likewise
	ArgOP      ArgKind = "op"      // N Operations Points, in words
	ArgOPShort ArgKind = "opshort" // N OP, abbreviated (labels, parentheses)
	ArgSide    ArgKind = "side"    // a faction (NoSide: nobody)
	ArgSpace   ArgKind = "space"   // a map space
	ArgDim     ArgKind = "dim"     // a Crisis Dimension
	ArgSphere  ArgKind = "sphere"  // Political or Military
	ArgTrack   ArgKind = "track"   // the momentum track of side N
	ArgZone    ArgKind = "zone"    // a Crisis Track zone
	ArgDisc    ArgKind = "disc"    // the disc of side N: Fortification or Barricade
	ArgCard    ArgKind = "card"    // card N as "#N Name"
	ArgCardSet ArgKind = "cards"   // the cards in List, or "no cards"
	ArgLetter  ArgKind = "letter"  // option letter: 0 is a, 1 is b
	ArgVariant ArgKind = "variant" // the rules variant, in S
	ArgMsg     ArgKind = "msg"     // a nested message, in Msg
	ArgMsgs    ArgKind = "msgs"    // the messages in Msgs, joined by the one in Msg (nil: nothing between)
	ArgText    ArgKind = "text"    // verbatim text in S (a deck file's own words, an old note)
)

// Arg is one named argument of a Msg.
type Arg struct {
	Name string  `json:"k"`
	Kind ArgKind `json:"t"`
	N    int     `json:"n,omitempty"`
	S    string  `json:"s,omitempty"`
	List []int   `json:"l,omitempty"`
	Msg  *Msg    `json:"m,omitempty"`
	Msgs []Msg   `json:"ms,omitempty"`
}

func msg(id string, args ...Arg) Msg { return Msg{ID: id, Args: args} }

func aNum(k string, n int) Arg         { return Arg{Name: k, Kind: ArgNum, N: n} }
func aCount(n int) Arg                 { return Arg{Name: "Count", Kind: ArgNum, N: n} }
func aCubes(k string, n int) Arg       { return Arg{Name: k, Kind: ArgCubes, N: n} }
func aNCards(k string, n int) Arg      { return Arg{Name: k, Kind: ArgCards, N: n} }
func aOP(k string, n int) Arg          { return Arg{Name: k, Kind: ArgOP, N: n} }
func aOPShort(k string, n int) Arg     { return Arg{Name: k, Kind: ArgOPShort, N: n} }
func aSide(k string, s Side) Arg       { return Arg{Name: k, Kind: ArgSide, N: int(s)} }
func aSpace(k string, x Space) Arg     { return Arg{Name: k, Kind: ArgSpace, N: int(x)} }
func aDim(k string, d Dimension) Arg   { return Arg{Name: k, Kind: ArgDim, N: int(d)} }
func aSphere(k string, s Sphere) Arg   { return Arg{Name: k, Kind: ArgSphere, N: int(s)} }
func aTrack(k string, s Side) Arg      { return Arg{Name: k, Kind: ArgTrack, N: int(s)} }
func aZone(k string, z int) Arg        { return Arg{Name: k, Kind: ArgZone, N: z} }
func aDisc(k string, s Side) Arg       { return Arg{Name: k, Kind: ArgDisc, N: int(s)} }
func aCard(k string, n int) Arg        { return Arg{Name: k, Kind: ArgCard, N: n} }
func aLetter(k string, i int) Arg      { return Arg{Name: k, Kind: ArgLetter, N: i} }
func aVariant(k string, v Variant) Arg { return Arg{Name: k, Kind: ArgVariant, S: string(v)} }
func aText(k, s string) Arg            { return Arg{Name: k, Kind: ArgText, S: s} }
func aMsg(k string, m Msg) Arg         { return Arg{Name: k, Kind: ArgMsg, Msg: &m} }

// aMsgs joins ms with sep between them (nil: nothing between).
func aMsgs(k string, sep *Msg, ms []Msg) Arg {
	return Arg{Name: k, Kind: ArgMsgs, Msg: sep, Msgs: ms}
}

func aCardSet(k string, cards []int8) Arg {
	l := make([]int, len(cards))
	for i, c := range cards {
		l[i] = int(c)
	}
	return Arg{Name: k, Kind: ArgCardSet, List: l}
}

// Count is the value of the message's "Count" argument, which chooses
// its plural form; ok is false when it has none.
func (m Msg) Count() (n int, ok bool) {
	for _, a := range m.Args {
		if a.Name == "Count" {
			return a.N, true
		}
	}
	return 0, false
}

// Walk calls fn for m and every message nested in its arguments.
func (m Msg) Walk(fn func(Msg)) {
	fn(m)
	for _, a := range m.Args {
		if a.Msg != nil {
			a.Msg.Walk(fn)
		}
		for _, sub := range a.Msgs {
			sub.Walk(fn)
		}
	}
}

// English prints m in English with the deck's card names (nil: the
// embedded deck): the engine's own rendering, for errors, tests and
// LogEntry.English. Players read the catalogue's (package locale), whose
// English is the same text (a locale test keeps the two equal).
func (m Msg) English(d *Deck) string {
	if d == nil {
		d = DefaultDeck()
	}
	tpl := englishTemplate(m.ID, m)
	if tpl == nil {
		return "[" + m.ID + "]"
	}
	data := map[string]any{}
	for _, a := range m.Args {
		data[a.Name] = englishArg(d, a)
	}
	var b bytes.Buffer
	if err := tpl.Execute(&b, data); err != nil {
		return "[" + m.ID + ": " + err.Error() + "]"
	}
	return b.String()
}

var (
	tplMu    sync.Mutex
	tplCache = map[string]*template.Template{}
)

// englishTemplate returns the parsed English form of id for m's count.
func englishTemplate(id string, m Msg) *template.Template {
	src, ok := englishMessages[id]
	if !ok {
		src, ok = registeredSingle(id)
	}
	key := id
	if !ok {
		forms, ok := englishPlurals[id]
		if !ok {
			forms, ok = registeredPlural(id)
		}
		if !ok {
			return nil
		}
		n, _ := m.Count()
		if n == 1 {
			src, key = forms[0], id+"#one"
		} else {
			src, key = forms[1], id+"#other"
		}
	}
	tplMu.Lock()
	defer tplMu.Unlock()
	if t, ok := tplCache[key]; ok {
		return t
	}
	t, err := template.New(key).Option("missingkey=error").Parse(src)
	if err != nil {
		return nil
	}
	tplCache[key] = t
	return t
}

func englishArg(d *Deck, a Arg) string {
	switch a.Kind {
	case ArgNum:
		return strconv.Itoa(a.N)
	case ArgCubes:
		return englishCount(a.N, "cube", "cubes")
	case ArgCards:
		return englishCount(a.N, "card", "cards")
	case ArgOP:
		return englishCount(a.N, "Operations Point", "Operations Points")
	case ArgOPShort:
		return strconv.Itoa(a.N) + " OP"
	case ArgSide:
		return Side(a.N).String()
	case ArgSpace:
		return Space(a.N).String()
	case ArgDim:
		if a.N < 0 || a.N >= NumDimensions {
			return "?"
		}
		return Dimension(a.N).String()
	case ArgSphere:
		return Sphere(a.N).String()
	case ArgTrack:
		return MomentumTrackName(Side(a.N))
	case ArgZone:
		if a.N < 0 || a.N >= NumZones {
			return "?"
		}
		return zoneNames[a.N]
	case ArgDisc:
		return discName(Side(a.N))
	case ArgCard:
		return cardLabel(d, a.N)
	case ArgCardSet:
		if len(a.List) == 0 {
			return "no cards"
		}
		names := make([]string, len(a.List))
		for i, n := range a.List {
			names[i] = cardLabel(d, n)
		}
		return strings.Join(names, ", ")
	case ArgLetter:
		return string(rune('a' + a.N))
	case ArgVariant:
		return a.S
	case ArgMsg:
		if a.Msg == nil {
			return ""
		}
		return a.Msg.English(d)
	case ArgMsgs:
		sep := ""
		if a.Msg != nil {
			sep = a.Msg.English(d)
		}
		parts := make([]string, len(a.Msgs))
		for i, sub := range a.Msgs {
			parts[i] = sub.English(d)
		}
		return strings.Join(parts, sep)
	case ArgText:
		return a.S
	}
	return "?"
}

func englishCount(n int, one, other string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + other
}

func cardLabel(d *Deck, n int) string {
	c := d.Card(n)
	if c == nil {
		return "#" + itoa(n)
	}
	return "#" + itoa(n) + " " + c.Name
}

// EnglishMessages returns the engine's English messages (id → text) and
// plural messages (id → one, other forms): the catalogue's English for
// the engine area must be the same (package locale tests it).
func EnglishMessages() (single map[string]string, plural map[string][2]string) {
	single = make(map[string]string, len(englishMessages))
	for k, v := range englishMessages {
		single[k] = v
	}
	plural = make(map[string][2]string, len(englishPlurals))
	for k, v := range englishPlurals {
		plural[k] = v
	}
	return single, plural
}
