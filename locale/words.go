package locale

import (
	"strconv"
	"strings"

	"github.com/rfop/rfop/engine"
)

// word is a game term in a sentence. A Russian sentence declines it
// ({{.Side.Gen}}: "куб Коммуны"); a French one puts the article in
// ({{.Side.Cap}} at the start of a sentence: "La Commune", {{.Side.De}}:
// "de la Commune", {{.Side.A}}: "à la Commune", {{.Space.Le}}: "la
// Presse", "le Mont-Valérien", "l'Église catholique"), with the
// contractions (du, au, des, aux) and the elision before a vowel. Where a
// language does not need a form it is the word itself. Printed alone
// ({{.Side}}, {{.Space}}) it is the nominative, without an article.
type word struct{ Nom, Gen, Dat, Acc, Ins, Loc, Cap, De, A, Le, Dans string }

func (w word) String() string { return w.Nom }

func plain(s string) word { return word{s, s, s, s, s, s, s, s, s, s, s} }

// ru fills the forms a Russian word does not decline into.
func ru(nom, gen, dat, acc, ins, loc string) word {
	return word{nom, gen, dat, acc, ins, loc, nom, nom, nom, nom, nom}
}

// fr is a French term with its article: "la Commune", "La Commune",
// "de la Commune", "à la Commune".
func fr(nom, cap, de, a string) word {
	return word{nom, nom, nom, nom, nom, nom, cap, de, a, nom, nom}
}

// frArticle builds the forms of a French noun from its article: "le", "la",
// "l'" (elided before a vowel) or "les"; de + le = du, de + les = des,
// à + le = au, à + les = aux.
func frArticle(article, noun string) word {
	le := article + " " + noun
	if article == "l'" {
		le = article + noun
	}
	de, a := "de "+le, "à "+le
	switch article {
	case "le":
		de, a = "du "+noun, "au "+noun
	case "les":
		de, a = "des "+noun, "aux "+noun
	}
	cap := strings.ToUpper(le[:1]) + le[1:]
	return word{noun, noun, noun, noun, noun, noun, cap, de, a, le, "dans " + le}
}

// frPeople is frArticle for a space named after people, where one goes
// "chez" them: "chez les Royalistes", as the French rulebook writes.
func frPeople(noun string) word {
	w := frArticle("les", noun)
	w.Dans = "chez les " + noun
	return w
}

// frSpaces are the French edition's space names with their articles, as
// the rulebook writes them ("L'Assemblée Nationale est adjacente aux
// Royalistes"). A deck whose French terms differ gets "l'espace X".
var frSpaces = map[string]word{
	"Royalistes":                      frPeople("Royalistes"),
	"Assemblée Nationale":             frArticle("l'", "Assemblée Nationale"),
	"Républicains":                    frPeople("Républicains"),
	"Église catholique":               frArticle("l'", "Église catholique"),
	"Presse":                          frArticle("la", "Presse"),
	"Mouvements Sociaux":              frArticle("les", "Mouvements Sociaux"),
	"Mont-Valérien":                   frArticle("le", "Mont-Valérien"),
	"Fort d'Issy":                     frArticle("le", "Fort d'Issy"),
	"Château de Vincennes":            frArticle("le", "Château de Vincennes"),
	"Butte Montmartre":                frArticle("la", "Butte Montmartre"),
	"Butte-aux-Cailles":               frArticle("la", "Butte-aux-Cailles"),
	"Père Lachaise":                   frArticle("le", "Père Lachaise"),
	"QG de Versailles":                frArticle("le", "QG de Versailles"),
	"Territoire occupé par la Prusse": frArticle("le", "Territoire occupé par la Prusse"),
}

// spaceWord is a space name in the Printer's language: in French with its
// article forms ({{.Space.Le}}, {{.Space.De}}, {{.Space.A}}, {{.Space.Cap}},
// {{.Space.Dans}}: "dans la Presse", "chez les Royalistes").
func (p *Printer) spaceWord(deck *engine.Deck, x engine.Space) word {
	name := p.terms(deck).Text(x.String())
	if p.lang != French {
		return plain(name)
	}
	if w, ok := frSpaces[name]; ok {
		return w
	}
	w := frArticle("l'", "espace "+name)
	w.Nom, w.Gen, w.Dat, w.Acc, w.Ins, w.Loc = name, name, name, name, name, name
	return w
}

var frSides = map[engine.Side]word{
	engine.Versailles: fr("Versailles", "Versailles", "de Versailles", "à Versailles"),
	engine.Commune:    fr("la Commune", "La Commune", "de la Commune", "à la Commune"),
	engine.NoSide:     fr("personne", "Personne", "de personne", "à personne"),
}

var frTracks = map[engine.Side]word{
	engine.Versailles: fr("la Collaboration prussienne", "La Collaboration prussienne", "de la Collaboration prussienne", "à la Collaboration prussienne"),
	engine.Commune:    fr("l'Élan révolutionnaire", "L'Élan révolutionnaire", "de l'Élan révolutionnaire", "à l'Élan révolutionnaire"),
}

// Russian case forms of the terms the engine's sentences decline: the
// factions, their discs and their momentum tracks (the glossary's words,
// the tracks capitalised as names, as on the board).
var ruSides = map[engine.Side]word{
	engine.Versailles: ru("Версаль", "Версаля", "Версалю", "Версаль", "Версалем", "Версале"),
	engine.Commune:    ru("Коммуна", "Коммуны", "Коммуне", "Коммуну", "Коммуной", "Коммуне"),
	engine.NoSide:     ru("никто", "никого", "никому", "никого", "никем", "ком"),
}

var ruDiscs = map[engine.Side]word{
	engine.Versailles: ru("укрепление", "укрепления", "укреплению", "укрепление", "укреплением", "укреплении"),
	engine.Commune:    ru("баррикада", "баррикады", "баррикаде", "баррикаду", "баррикадой", "баррикаде"),
}

var ruTracks = map[engine.Side]word{
	engine.Versailles: ru("Вмешательство Пруссии", "Вмешательства Пруссии", "Вмешательству Пруссии", "Вмешательство Пруссии", "Вмешательством Пруссии", "Вмешательстве Пруссии"),
	engine.Commune:    ru("Революционность", "Революционности", "Революционности", "Революционность", "Революционностью", "Революционности"),
}

// French names a Crisis Dimension after "Dimension de Crise", where the
// adjective agrees: "la Dimension de Crise Institutionnelle".
var frDims = [engine.NumDimensions]string{"Institutionnelle", "Opinion Publique", "Forts", "Paris"}

var noSideWord = map[Lang]string{English: "nobody", French: "personne"}

// letters of the options (a), (b): the Russian cards use а, б.
var ruLetters = []string{"а", "б", "в", "г"}

func (p *Printer) sideWord(deck *engine.Deck, s engine.Side) word {
	switch p.lang {
	case Russian:
		if w, ok := ruSides[s]; ok {
			return w
		}
	case French:
		if w, ok := frSides[s]; ok {
			return w
		}
	}
	if s != engine.Versailles && s != engine.Commune {
		return plain(noSideWord[p.lang])
	}
	return plain(p.terms(deck).Text(s.String()))
}

func (p *Printer) discWord(deck *engine.Deck, s engine.Side) word {
	if p.lang == Russian {
		return ruDiscs[s]
	}
	name := "Barricade"
	if s == engine.Versailles {
		name = "Fortification"
	}
	return plain(p.terms(deck).Text(name))
}

func (p *Printer) trackWord(deck *engine.Deck, s engine.Side) word {
	switch p.lang {
	case Russian:
		return ruTracks[s]
	case French:
		return frTracks[s]
	}
	return plain(p.terms(deck).Text(engine.MomentumTrackName(s)))
}

func (p *Printer) dimWord(deck *engine.Deck, d int) word {
	if d < 0 || d >= engine.NumDimensions {
		return plain("?")
	}
	if p.lang == French {
		return plain(frDims[d])
	}
	return plain(p.terms(deck).Text(engine.Dimension(d).String()))
}

func (p *Printer) letter(i int) string {
	if p.lang == Russian && i >= 0 && i < len(ruLetters) {
		return ruLetters[i]
	}
	return string(rune('a' + i))
}

// arg is one argument of an engine message in the Printer's language.
func (p *Printer) arg(deck *engine.Deck, a engine.Arg) any {
	t := p.terms(deck)
	switch a.Kind {
	case engine.ArgNum:
		return a.N
	case engine.ArgCubes:
		return p.N("common.cubes", a.N, nil)
	case engine.ArgCards:
		return p.N("common.cards", a.N, nil)
	case engine.ArgOP:
		return p.N("common.op", a.N, nil)
	case engine.ArgOPShort:
		return p.N("common.op-short", a.N, nil)
	case engine.ArgSide:
		return p.sideWord(deck, engine.Side(a.N))
	case engine.ArgSpace:
		return p.spaceWord(deck, engine.Space(a.N))
	case engine.ArgDim:
		return p.dimWord(deck, a.N)
	case engine.ArgSphere:
		return plain(t.Text(engine.Sphere(a.N).String()))
	case engine.ArgTrack:
		return p.trackWord(deck, engine.Side(a.N))
	case engine.ArgZone:
		if a.N < 0 || a.N >= engine.NumZones {
			return "?"
		}
		return plain(t.Text(engine.ZoneName(a.N)))
	case engine.ArgDisc:
		return p.discWord(deck, engine.Side(a.N))
	case engine.ArgCard:
		return p.CardName(deck, a.N)
	case engine.ArgCardSet:
		if len(a.List) == 0 {
			return p.T("common.no-cards", nil)
		}
		names := make([]string, len(a.List))
		for i, n := range a.List {
			names[i] = p.CardName(deck, n)
		}
		return strings.Join(names, ", ")
	case engine.ArgLetter:
		return p.letter(a.N)
	case engine.ArgVariant:
		return a.S
	case engine.ArgMsg:
		if a.Msg == nil {
			return ""
		}
		return p.Msg(deck, *a.Msg)
	case engine.ArgMsgs:
		sep := ""
		if a.Msg != nil {
			sep = p.Msg(deck, *a.Msg)
		}
		parts := make([]string, len(a.Msgs))
		for i, m := range a.Msgs {
			parts[i] = p.Msg(deck, m)
		}
		return strings.Join(parts, sep)
	case engine.ArgText:
		return a.S
	}
	return "?" + strconv.Itoa(a.N)
}

// Msg prints an engine message (a prompt, a choice, a log line, an effect)
// with the deck's card names (nil: the embedded deck).
func (p *Printer) Msg(deck *engine.Deck, m engine.Msg) string {
	data := make(Args, len(m.Args))
	for _, a := range m.Args {
		data[a.Name] = p.arg(deck, a)
	}
	if n, ok := m.Count(); ok {
		return p.localize(m.ID, data, n)
	}
	return p.localize(m.ID, data, nil)
}
