package locale

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCatalogueLoads(t *testing.T) {
	require.NoError(t, Err())
	for _, l := range Langs {
		assert.NotEmpty(t, catalog[l], "language %s has messages", l)
	}
}

// Russian nouns after numerals take three forms (CLDR one/few/many):
// 1, 21 куб; 2, 22 куба; 5, 11 кубов.
func TestRussianPluralsOfCubesCardsOP(t *testing.T) {
	ru := For(Russian)
	cases := []struct {
		n                int
		cubes, cards, op string
	}{
		{1, "1 куб", "1 карта", "1 очко действий"},
		{2, "2 куба", "2 карты", "2 очка действий"},
		{5, "5 кубов", "5 карт", "5 очков действий"},
		{11, "11 кубов", "11 карт", "11 очков действий"},
		{21, "21 куб", "21 карта", "21 очко действий"},
		{22, "22 куба", "22 карты", "22 очка действий"},
	}
	for _, c := range cases {
		t.Run(fmt.Sprint(c.n), func(t *testing.T) {
			assert.Equal(t, c.cubes, ru.N("common.cubes", c.n, nil))
			assert.Equal(t, c.cards, ru.N("common.cards", c.n, nil))
			assert.Equal(t, c.op, ru.N("common.op", c.n, nil))
		})
	}
}

// French treats 0 and 1 alike (CLDR "one" is i = 0,1); English says "0 cubes".
func TestFrenchZeroIsSingular(t *testing.T) {
	assert.Equal(t, "0 cube", For(French).N("common.cubes", 0, nil))
	assert.Equal(t, "1 cube", For(French).N("common.cubes", 1, nil))
	assert.Equal(t, "2 cubes", For(French).N("common.cubes", 2, nil))
	assert.Equal(t, "0 cubes", For(English).N("common.cubes", 0, nil))
	assert.Equal(t, "1 cube", For(English).N("common.cubes", 1, nil))
}

func TestMissingMessageIsVisible(t *testing.T) {
	assert.Equal(t, "[nope.missing]", For(English).T("nope.missing", nil))
}

func TestFromDiscord(t *testing.T) {
	for in, want := range map[string]struct {
		l  Lang
		ok bool
	}{
		"fr": {French, true}, "ru": {Russian, true}, "en-US": {English, true},
		"en-GB": {English, true}, "de": {English, false}, "": {English, false},
	} {
		l, ok := FromDiscord(in)
		assert.Equal(t, want.l, l, in)
		assert.Equal(t, want.ok, ok, in)
	}
}
