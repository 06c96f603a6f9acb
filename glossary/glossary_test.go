package glossary

import (
	"testing"

	"github.com/rfop/rfop/engine"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func deckNames() []string {
	var out []string
	for _, c := range engine.DefaultDeck().Cards() {
		out = append(out, c.Name)
	}
	return out
}

// docs/terms.md: each player sees the words printed in the edition they own.
func TestTextUsesTheEditionsTerms(t *testing.T) {
	tests := []struct {
		name string
		lang Lang
		in   string
		want string
	}{
		{"English is unchanged", English,
			"Commune places a cube in Press (1 OP).",
			"Commune places a cube in Press (1 OP)."},
		{"French space name", French,
			"Commune places a cube in Press (1 OP).",
			"Commune places a cube in Presse (1 OP)."},
		{"Russian faction and space", Russian,
			"Commune places a cube in Press (1 OP).",
			"Коммуна places a cube in Пресса (1 OP)."},
		{"longest phrase first: the zone, not the round", French,
			"Versailles breaches its Final Crisis zone.",
			"Versailles breaches its zone de Crise Finale."},
		{"Versailles HQ is not the faction", Russian,
			"Versailles HQ is always controlled by Versailles",
			"Версаль (ставка) is always controlled by Версаль"},
		{"momentum tracks", French,
			"Prussian Collaboration moves to 2. Revolutionary Momentum moves to 1.",
			"Collaboration prussienne moves to 2. Élan révolutionnaire moves to 1."},
		{"VP kinds", Russian,
			"Versailles controls Forts: +1 Military VP.",
			"Версаль controls Форты: +1 воен. ПО."},
		{"whole words only", French,
			"Pressing matters: VPs and Roundabouts.",
			"Pressing matters: VPs and Roundabouts."},
		{"card names are kept: they contain space names", French,
			"Versailles plays #48 Revolution in the Press and #42 Paris Cannons in Press.",
			"Versailles plays #48 Revolution in the Press and #42 Paris Cannons in Presse."},
		{"card names are kept in Russian too", Russian,
			"#10 Fortification of Mont-Valérien: place a Fortification in Mont-Valérien.",
			"#10 Fortification of Mont-Valérien: place a укрепление in Мон-Валерьен."},
		{"the game's title", French,
			"Red Flag Over Paris — game #3",
			"La Commune ou la Mort — game #3"},
		{"accented neighbours are letters", Russian,
			"ÉParis Paris",
			"ÉParis Париж"},
	}
	protect := deckNames()
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, New(tc.lang, protect).Text(tc.in))
		})
	}
}

// Everything the board names must have a row, or a French or Russian board
// would show English words among its own.
func TestEveryBoardTermHasARow(t *testing.T) {
	rows := map[string]term{}
	for _, r := range table {
		require.NotEmpty(t, r.en)
		require.NotEmpty(t, r.fr, "row %q has no French", r.en)
		require.NotEmpty(t, r.ru, "row %q has no Russian", r.en)
		_, dup := rows[r.en]
		require.False(t, dup, "row %q twice", r.en)
		rows[r.en] = r
	}
	var names []string
	for x := engine.Space(0); x < engine.NumSpaces; x++ {
		names = append(names, x.String())
	}
	for d := engine.Dimension(0); d < engine.NumDimensions; d++ {
		names = append(names, d.String())
	}
	for z := 0; z < engine.NumZones; z++ {
		names = append(names, engine.ZoneName(z))
	}
	names = append(names, engine.MomentumTrackName(engine.Versailles), engine.MomentumTrackName(engine.Commune),
		engine.Versailles.String(), engine.Commune.String(), engine.Political.String(), engine.Military.String())
	for _, n := range names {
		_, ok := rows[n]
		assert.True(t, ok, "no glossary row for %q", n)
	}
}

func TestParseLang(t *testing.T) {
	for in, want := range map[string]Lang{"": English, "en": English, "FR": French, " ru ": Russian} {
		got, err := ParseLang(in)
		require.NoError(t, err, in)
		assert.Equal(t, want, got, in)
	}
	_, err := ParseLang("de")
	assert.ErrorContains(t, err, `unknown language "de"`)
}

func TestNilAndEnglishTermsAreIdentity(t *testing.T) {
	var none *Terms
	assert.Equal(t, "Press", none.Text("Press"))
	assert.Equal(t, English, none.Lang())
	assert.Equal(t, "Press", New(English, nil).Text("Press"))
}

// The renderer translates a label before measuring it and again when it
// draws it: translating twice must change nothing.
func TestTextIsIdempotent(t *testing.T) {
	protect := deckNames()
	for _, l := range []Lang{French, Russian} {
		terms := New(l, protect)
		for _, r := range table {
			once := terms.Text(r.en)
			assert.Equal(t, once, terms.Text(once), "%s: %q", l, r.en)
		}
		for _, c := range engine.DefaultDeck().Cards() {
			once := terms.Text(c.Text)
			assert.Equal(t, once, terms.Text(once), "%s: card #%d's text", l, c.Num)
		}
	}
}
