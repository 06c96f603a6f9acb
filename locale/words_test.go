package locale

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/rfop/rfop/engine"
)

// French space names take their article in a sentence, with de + le = du,
// de + les = des, à + le = au, à + les = aux and the elision before a
// vowel (issue 26: "de Église catholique", "dans Presse").
func TestFrenchSpaceArticles(t *testing.T) {
	p := For(French)
	for _, tc := range []struct {
		x             engine.Space
		le, de, a, up string
	}{
		{engine.Press, "la Presse", "de la Presse", "à la Presse", "La Presse"},
		{engine.MontValerien, "le Mont-Valérien", "du Mont-Valérien", "au Mont-Valérien", "Le Mont-Valérien"},
		{engine.CatholicChurch, "l'Église catholique", "de l'Église catholique", "à l'Église catholique", "L'Église catholique"},
		{engine.NationalAssembly, "l'Assemblée Nationale", "de l'Assemblée Nationale", "à l'Assemblée Nationale", "L'Assemblée Nationale"},
		{engine.PereLachaise, "le Père Lachaise", "du Père Lachaise", "au Père Lachaise", "Le Père Lachaise"},
	} {
		w := p.spaceWord(nil, tc.x)
		assert.Equal(t, tc.le, w.Le)
		assert.Equal(t, tc.de, w.De)
		assert.Equal(t, tc.a, w.A)
		assert.Equal(t, tc.up, w.Cap)
		assert.Equal(t, w.Le[len(w.Le)-len(w.Nom):], w.Nom, "alone, the name has no article")
		assert.Equal(t, "dans "+tc.le, w.Dans)
	}
	royalists := p.spaceWord(nil, engine.Royalists)
	assert.Equal(t, []string{"les Royalistes", "des Royalistes", "aux Royalistes", "chez les Royalistes"},
		[]string{royalists.Le, royalists.De, royalists.A, royalists.Dans}, "a space named after people: chez")
	// Every space of the board has its forms; English and Russian keep the name.
	for x := engine.Space(0); x < engine.NumSpaces; x++ {
		assert.NotContains(t, p.spaceWord(nil, x).Le, "espace", "%s has its article", x)
		en := For(English).spaceWord(nil, x)
		assert.Equal(t, x.String(), en.Le)
		assert.Equal(t, x.String(), en.De)
	}
}

// The French card texts put the article before a space name (issue 26):
// every name comes after le, la, l', les, du, au, des, aux, or "espace".
func TestFrenchCardTextsHaveArticles(t *testing.T) {
	p := For(French)
	for n := 1; n <= 53; n++ {
		text := p.CardText(nil, n)
		for name := range frSpaces {
			for i := 0; ; {
				k := strings.Index(text[i:], name)
				if k < 0 {
					break
				}
				at := i + k
				before := text[:at]
				ok := false
				for _, a := range []string{"le ", "la ", "l'", "les ", "du ", "au ", "des ", "aux ", "espace ", "espaces "} {
					ok = ok || strings.HasSuffix(before, a)
				}
				assert.True(t, ok, "card #%d: %q without its article in %q", n, name, text)
				i = at + len(name)
			}
		}
	}
}
