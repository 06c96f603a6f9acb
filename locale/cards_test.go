package locale

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rfop/rfop/engine"
)

// All 53 cards have a name and a text in each language, the number
// always shows, and the editions' printed names are used where known
// (glossary.md section 12).
func TestCardsInEveryLanguage(t *testing.T) {
	for _, l := range Langs {
		p := For(l)
		for n := 1; n <= 53; n++ {
			id := "cards." + strconv.Itoa(n)
			require.True(t, p.Has(id+".name"), "%s %s", l, id)
			require.True(t, p.Has(id+".text"), "%s %s", l, id)
			assert.True(t, strings.HasPrefix(p.CardName(nil, n), "#"+strconv.Itoa(n)+" "), p.CardName(nil, n))
			if l != English {
				assert.NotEqual(t, For(English).CardText(nil, n), p.CardText(nil, n), "%s #%d text is translated", l, n)
			}
		}
	}
	printed := map[Lang]map[int]string{
		French:  {17: "Maréchal MacMahon", 34: "Charles Delescluze"},
		Russian: {1: "Жюль Дюкатель", 12: "Отто фон Бисмарк", 13: "Генерал Эрнест де Сиссэ", 22: "Расстрел генералов", 23: "Кантиньерки", 29: "Рауль Риго", 30: "Карл Маркс", 34: "Шарль Делеклюз", 48: "Революционная печать"},
	}
	for l, names := range printed {
		for n, name := range names {
			assert.Equal(t, name, For(l).CardTitle(nil, n), "%s #%d", l, n)
		}
	}
}

// customDeck is the built-in deck with card 5 changed by fn.
func customDeck(t *testing.T, fn func(c map[string]any)) *engine.Deck {
	t.Helper()
	var f struct {
		Cards []map[string]any `json:"cards"`
	}
	raw, err := json.Marshal(engineDeckJSON(t))
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(raw, &f))
	for _, c := range f.Cards {
		if c["num"].(float64) == 5 {
			fn(c)
		}
	}
	b, err := json.Marshal(f)
	require.NoError(t, err)
	d, err := engine.ParseDeck(b)
	require.NoError(t, err)
	return d
}

func engineDeckJSON(t *testing.T) any {
	t.Helper()
	var v any
	require.NoError(t, json.Unmarshal(engine.DefaultDeckJSON(), &v))
	return v
}

// A custom deck (RFOP_DECK): a card it leaves as built in is shown with the
// catalogue's translation; a card it changes shows the deck file's own
// name and text (terms in the edition's words), or the file's "names" and
// "texts" for the language when it gives them.
func TestCustomDeckCards(t *testing.T) {
	fr, ru := For(French), For(Russian)
	same := customDeck(t, func(c map[string]any) {})
	assert.Equal(t, fr.CardText(nil, 5), fr.CardText(same, 5))
	assert.Equal(t, fr.CardText(nil, 7), fr.CardText(same, 7))

	changed := customDeck(t, func(c map[string]any) {
		c["text"] = "PLACE up to 3 cubes in Press."
		c["effect"] = map[string]any{"op": "place", "n": 3, "upTo": true, "in": map[string]any{"spaces": []string{"press"}}}
	})
	assert.Equal(t, "#5 Le Figaro", fr.CardName(changed, 5), "the deck's own name")
	assert.Equal(t, "PLACE up to 3 cubes in Presse.", fr.CardText(changed, 5), "the deck's text, terms in French")
	assert.Equal(t, fr.CardText(nil, 7), fr.CardText(changed, 7), "other cards keep their translation")

	own := customDeck(t, func(c map[string]any) {
		c["text"] = "PLACE up to 3 cubes in Press."
		c["effect"] = map[string]any{"op": "place", "n": 3, "upTo": true, "in": map[string]any{"spaces": []string{"press"}}}
		c["names"] = map[string]string{"ru": "«Фигаро»"}
		c["texts"] = map[string]string{"ru": "Разместите до 3 кубов в области «Пресса».", "fr": "PLACEZ jusqu'à 3 cubes dans Presse."}
	})
	assert.Equal(t, "#5 «Фигаро»", ru.CardName(own, 5))
	assert.Equal(t, "Разместите до 3 кубов в области «Пресса».", ru.CardText(own, 5))
	assert.Equal(t, "PLACEZ jusqu'à 3 cubes dans Presse.", fr.CardText(own, 5))
	assert.Equal(t, "#5 Le Figaro", fr.CardName(own, 5), "no French name given: the deck's")
}
