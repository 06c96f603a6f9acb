// Package glossary holds the game's terms as printed in the three editions
// of the rulebook — English (GMT), French (Nuts! Publishing, "La Commune ou
// la Mort") and Russian — so that a server can show its players the words
// of the edition they own. docs/terms.md lists them for players (a test
// keeps the two in step), with the gaps we filled.
//
// It localises terms, not sentences: space names, Crisis Dimensions, the
// tracks and their zones, VP kinds, bonus actions, pieces and factions.
// The engine writes its prompts and log in English; Terms.Text replaces
// the English terms in such a text with the edition's, leaving every card
// name (the English project names of docs/cards.md: the French and Russian
// rulebooks name almost no card) and every other word as it is. Russian
// terms are given in the nominative, as the rulebook's glossary lists them.
package glossary

import (
	"fmt"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/rfop/rfop/engine"
)

// Lang is an edition's language.
type Lang string

const (
	English Lang = "en"
	French  Lang = "fr"
	Russian Lang = "ru"
)

// Langs lists the supported languages, English first.
var Langs = []Lang{English, French, Russian}

// ParseLang reads "en", "fr" or "ru" (empty: English).
func ParseLang(s string) (Lang, error) {
	switch Lang(strings.ToLower(strings.TrimSpace(s))) {
	case "", English:
		return English, nil
	case French:
		return French, nil
	case Russian:
		return Russian, nil
	}
	return English, fmt.Errorf("unknown language %s (want en, fr or ru)", engine.Quote(s))
}

// Name is the language's own name, for menus.
func (l Lang) Name() string {
	switch l {
	case French:
		return "Français"
	case Russian:
		return "Русский"
	}
	return "English"
}

// Edition names the rulebook whose words the language shows.
func (l Lang) Edition() string {
	switch l {
	case French:
		return "La Commune ou la Mort (Nuts! Publishing)"
	case Russian:
		return "Красное знамя над Парижем"
	}
	return "Red Flag Over Paris (GMT Games)"
}

// term is one row of the table: the English text as the engine, the bot
// and the renderer write it, and the French and Russian editions' words.
type term struct{ en, fr, ru string }

// table is the glossary as data. Where an edition is silent the row uses
// our fill (the Note column of docs/terms.md). Phrases come with the
// single words they contain so that the longest match wins ("Final Crisis
// zone" before "Final Crisis", "Versailles HQ" before "Versailles").
var table = []term{
	// 1. Game and factions.
	{"Red Flag Over Paris", "La Commune ou la Mort", "Красное знамя над Парижем"},
	{"Versailles", "Versailles", "Версаль"},
	{"Commune", "Commune", "Коммуна"},
	{"VERSAILLES", "VERSAILLES", "ВЕРСАЛЬ"},
	{"COMMUNE", "COMMUNE", "КОММУНА"},
	{"solo opponent", "Adversaire Solo", "бот"},
	{"Solo opponent", "Adversaire Solo", "Бот"},

	// 2. Board and spaces (the 14 spaces, dimensions, spheres).
	{"Royalists", "Royalistes", "Роялисты"},
	{"National Assembly", "Assemblée Nationale", "Национальное собрание"},
	{"Republicans", "Républicains", "Республиканцы"},
	{"Catholic Church", "Église catholique", "Католическая церковь"},
	{"Press", "Presse", "Пресса"},
	{"Social Movements", "Mouvements Sociaux", "Рабочее движение"},
	{"Mont-Valérien", "Mont-Valérien", "Мон-Валерьен"},
	{"Fort d'Issy", "Fort d'Issy", "Форт Исси"},
	{"Château de Vincennes", "Château de Vincennes", "Венсенский замок"},
	{"Butte Montmartre", "Butte Montmartre", "Монмартр"},
	{"Butte-aux-Cailles", "Butte-aux-Cailles", "Бют-о-Кай"},
	{"Père Lachaise", "Père Lachaise", "Пер-Лашез"},
	{"Versailles HQ", "QG de Versailles", "Версаль (ставка)"},
	{"Prussian Occupied Territory", "Territoire occupé par la Prusse", "Территория, оккупированная Пруссией"},
	{"Institutional", "Institutionnel", "Правительство"},
	{"Public Opinion", "Opinion Publique", "Общественное мнение"},
	{"Paris", "Paris", "Париж"},
	{"Forts", "Forts", "Форты"},
	{"Crisis Dimensions", "Dimensions de Crise", "аспекты кризиса"},
	{"Crisis Dimension", "Dimension de Crise", "аспект кризиса"},
	{"Pivotal Spaces", "Espaces Pivots", "ключевые области"},
	{"Pivotal Space", "Espace Pivot", "ключевая область"},
	{"Political spaces", "espaces Politiques", "политические области"},
	{"Military spaces", "espaces Militaires", "военные области"},
	{"Political space", "espace Politique", "политическая область"},
	{"Military space", "espace Militaire", "военная область"},
	{"Political", "Politique", "Политическая сфера"},
	{"Military", "Militaire", "Военная сфера"},
	{"POLITICAL", "POLITIQUE", "ПОЛИТИЧЕСКАЯ"}, // the board's half headings
	{"MILITARY", "MILITAIRE", "ВОЕННАЯ"},

	// 3. Pieces.
	{"Fortifications", "Fortifications", "укрепления"},
	{"Fortification", "Fortification", "укрепление"},
	{"Barricades", "Barricades", "баррикады"},
	{"Barricade", "Barricade", "баррикада"},

	// 4. Tracks, zones, pools, VP.
	{"Crisis Tracks", "Pistes de Tension", "шкалы кризиса"},
	{"Crisis Track", "Piste de Tension", "шкала кризиса"},
	{"CRISIS TRACK", "PISTE DE TENSION", "ШКАЛА КРИЗИСА"},
	{"Starting zone", "zone de Démarrage", "деление «Начало»"},
	{"Escalation zone", "zone d'Escalade", "деление «Эскалация»"},
	{"Tension zone", "zone de Tension", "деление «Напряжённость»"},
	{"Final Crisis zone", "zone de Crise Finale", "деление «Решительный бой»"},
	{"Starting", "Démarrage", "Начало"},
	{"Escalation", "Escalade", "Эскалация"},
	{"Tension", "Tension", "Напряжённость"},
	{"Final Crisis", "Crise Finale", "Решительный бой"},
	{"bonus cubes", "cubes bonus", "дополнительные кубы"},
	{"bonus cube(s)", "cube(s) bonus", "дополнительные кубы"},
	{"cube pool", "réserve de cubes", "запас кубов"},
	{"CUBE POOL", "RÉSERVE", "ЗАПАС КУБОВ"},
	{"removed from play", "retiré(s) du jeu", "удалены из игры"},
	{"Removed from play", "Retirés du jeu", "Удалены из игры"},
	{"Prussian Collaboration", "Collaboration prussienne", "Вмешательство Пруссии"},
	{"Revolutionary Momentum", "Élan révolutionnaire", "Революционность"},
	{"Political VP", "PV Politiques", "полит. ПО"}, // the Russian rulebook's abbreviations
	{"Military VP", "PV Militaires", "воен. ПО"},
	{"VP", "PV", "ПО"},

	{"BREACHED", "FRANCHIE", "АКТИВНО"},
	{"Objectives fulfilled", "Objectifs atteints", "Выполненные цели"},
	{"Fulfilled:", "Atteints :", "Выполнены:"},

	// 7. Cards (board and card labels).
	{"Deck:", "Pioche :", "Колода:"},
	{"Discard:", "Défausse :", "Сброс:"},
	{"FINAL CRISIS CARD", "CARTE CRISE FINALE", "КАРТА РЕШИТЕЛЬНОГО БОЯ"},
	{"Final Crisis cards", "cartes Crise Finale", "карты решительного боя"},
	{"Final Crisis card", "carte Crise Finale", "карта решительного боя"},
	{"OBJECTIVE", "OBJECTIF", "ЦЕЛЬ"},
	{"NEUTRAL", "NEUTRE", "НЕЙТРАЛЬНАЯ"},

	// 5-6. Rounds, initiative.
	{"Initiative Player", "personne ayant l'Initiative", "игрок, владеющий инициативой"},
	{"Initiative levels", "Niveaux d'Initiative", "Значения инициативы"},
	{"Initiative level", "Niveau d'Initiative", "Значение инициативы"},
	{"Initiative", "Initiative", "Инициатива"},
	// Only the capitalised label ("Round 2"): inside an English sentence
	// a lone "раунд" reads worse than the English word.
	{"Round", "Manche", "Раунд"},

	// 8. Bonus actions.
	{"De-escalate", "Désescalade", "Деэскалация"},
	{"Spread Influence", "Étendre l'influence", "Распространение влияния"},
	{"Turncoat", "Transfuge", "Предательство"},

	// 9. Censorship variant.
	{"Censorship Phase", "Phase de Censure", "фаза «Цензор»"},
	{"Censorship", "Censure", "Цензор"},
}

// Terms localises terms into one language. The zero value (and English)
// leaves text unchanged.
type Terms struct {
	lang    Lang
	terms   []term // longest English first
	protect []string
}

// New returns the terms of lang. protect lists strings never to change
// inside a text: the deck's card names (which contain space names, such
// as "Paris Cannons" or "Revolution in the Press").
func New(lang Lang, protect []string) *Terms {
	t := &Terms{lang: lang}
	if lang == English || lang == "" {
		return t
	}
	t.terms = append([]term(nil), table...)
	sort.SliceStable(t.terms, func(i, j int) bool { return len(t.terms[i].en) > len(t.terms[j].en) })
	for _, p := range protect {
		if p != "" {
			t.protect = append(t.protect, p)
		}
	}
	sort.SliceStable(t.protect, func(i, j int) bool { return len(t.protect[i]) > len(t.protect[j]) })
	return t
}

// ForDeck returns the terms of lang that keep every card name of deck
// (nil: the embedded deck) as it is.
func ForDeck(lang Lang, deck *engine.Deck) *Terms {
	if deck == nil {
		deck = engine.DefaultDeck()
	}
	var names []string
	for _, c := range deck.Cards() {
		names = append(names, c.Name)
	}
	return New(lang, names)
}

// Lang returns the language.
func (t *Terms) Lang() Lang {
	if t == nil || t.lang == "" {
		return English
	}
	return t.lang
}

func (r term) in(l Lang) string {
	switch l {
	case French:
		return r.fr
	case Russian:
		return r.ru
	}
	return r.en
}

// Text replaces the English terms in s with the language's, whole words
// only and longest first; protected strings (card names) are kept.
func (t *Terms) Text(s string) string {
	if t == nil || len(t.terms) == 0 || s == "" {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + len(s)/4)
	for i := 0; i < len(s); {
		if wordStart(s, i) {
			if p := t.match(s, i, t.protect); p != "" {
				b.WriteString(p)
				i += len(p)
				continue
			}
			if r, ok := t.matchTerm(s, i); ok {
				b.WriteString(r.in(t.lang))
				i += len(r.en)
				continue
			}
		}
		_, n := utf8.DecodeRuneInString(s[i:])
		b.WriteString(s[i : i+n])
		i += n
	}
	return b.String()
}

func (t *Terms) match(s string, i int, cands []string) string {
	for _, p := range cands {
		if strings.HasPrefix(s[i:], p) && wordEnd(s, i+len(p)) {
			return p
		}
	}
	return ""
}

func (t *Terms) matchTerm(s string, i int) (term, bool) {
	for _, r := range t.terms {
		if strings.HasPrefix(s[i:], r.en) && wordEnd(s, i+len(r.en)) {
			return r, true
		}
	}
	return term{}, false
}

// wordStart: position i does not continue a word (letters and digits).
func wordStart(s string, i int) bool {
	if i == 0 {
		return true
	}
	r, _ := utf8.DecodeLastRuneInString(s[:i])
	return !isWordRune(r)
}

// wordEnd: position j does not continue the word before it.
func wordEnd(s string, j int) bool {
	if j >= len(s) {
		return true
	}
	r, _ := utf8.DecodeRuneInString(s[j:])
	return !isWordRune(r)
}

func isWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }
