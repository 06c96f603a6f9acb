package solo

import (
	"encoding/json"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rfop/rfop/engine"
	"github.com/rfop/rfop/locale"
)

// The catalogue's English for the solo area is this package's table.
func TestSoloCatalogueEnglishIsTheTable(t *testing.T) {
	b, err := os.ReadFile("../locale/messages/en/solo.json")
	require.NoError(t, err)
	var cat map[string]string
	require.NoError(t, json.Unmarshal(b, &cat))
	assert.Equal(t, English, cat)
}

var latinWords = regexp.MustCompile(`\p{Latin}{2,}(?:[ ,'’-]+\p{Latin}{2,})+`)

// Every decision of whole solo games reads as a sentence in English,
// French and Russian (issue 26): an action and, where there is one, its
// reason, with the rows at the end; no message missing, no empty
// argument, no English left in the French and Russian lines but names.
// It also counts the reasons seen, so that a sentence never written by
// any game is noticed.
func TestExplanationsReadInEveryLanguage(t *testing.T) {
	games := 12
	if testing.Short() {
		games = 4
	}
	used := map[string]bool{}
	printers := map[locale.Lang]*locale.Printer{}
	for _, l := range locale.Langs {
		printers[l] = locale.For(l)
	}
	seen := map[string]bool{}
	for _, bot := range []engine.Side{engine.Versailles, engine.Commune} {
		for seed := int64(1); seed <= int64(games); seed++ {
			g, _ := playSoloGame(t, bot, seed, nil)
			for _, e := range g.S.Log {
				if e.Msg == nil || e.Msg.ID != "engine.log.note" {
					continue
				}
				require.Len(t, e.Msg.Args, 1)
				why := e.Msg.Args[0].Msg
				require.NotNil(t, why, "a new game's note is a message")
				why.Walk(func(m engine.Msg) {
					used[m.ID] = true
					require.NotEmpty(t, m.ID, "a decision without its action or reason: %+v", why)
				})
				for l, p := range printers {
					s := p.Msg(g.Deck(), *why)
					assert.NotContains(t, s, "[solo.", l)
					assert.NotContains(t, s, "<no value>", l)
					assert.NotContains(t, s, "()", l)
					if l == locale.English || seen[s] {
						continue
					}
					seen[s] = true
					rest := s[:strings.LastIndex(s, " (")] // the table reference is in the rulebook's row ids
					for n := 1; n <= 53; n++ {
						rest = strings.ReplaceAll(rest, p.CardName(g.Deck(), n), "")
					}
					for _, name := range []string{"Versailles", "Commune", "Mont-Valérien", "Fort d'Issy", "Château de Vincennes",
						"Butte Montmartre", "Butte-aux-Cailles", "Père Lachaise", "Paris"} {
						rest = strings.ReplaceAll(rest, name, "")
					}
					if l == locale.Russian {
						assert.Empty(t, latinWords.FindString(rest), "Latin words in %q", s)
					} else {
						for _, en := range []string{" because ", " removes ", " places ", " it can ", " the ", " its "} {
							assert.NotContains(t, rest, en, "English in %q", s)
						}
					}
				}
			}
		}
	}
	// The common sentences come up in any dozen games.
	for _, id := range []string{"solo.note", "solo.act.ops", "solo.act.sphere", "solo.act.place", "solo.act.event",
		"solo.act.remove", "solo.reason.both", "solo.reason.PR4"} {
		assert.True(t, used[id], "%s never used", id)
	}
	t.Logf("%d of %d solo messages used", len(used), len(English))
}

// The sentence of a decision names its action and its reason; the rows
// come at the end. Example 1 of solo.md §9 (TestExample1's position).
func TestExplanationSentence(t *testing.T) {
	g, err := engine.New(engine.Options{Seed: 3, BotSide: engine.Commune})
	require.NoError(t, err)
	p := &Policy{}
	for n := 0; n < 200 && g.S.Result == nil; n++ {
		if pr, ok := g.PromptFor(engine.Commune); ok {
			_, ex, err := p.Decide(g, pr)
			require.NoError(t, err)
			en := locale.For(locale.English).Msg(g.Deck(), ex.Why)
			require.True(t, strings.HasPrefix(en, "Solo opponent "), en)
			require.True(t, strings.HasSuffix(en, ")."), en)
			if ex.Prompt == engine.PromptPlay {
				assert.Regexp(t, `^Solo opponent (uses the event of|conducts operations with) .* because .* \(§6\.1\.[345]\)\.$`, en)
			}
			_, ok, err := p.Step(g)
			require.NoError(t, err)
			require.True(t, ok)
			continue
		}
		pr := g.Prompts()[0]
		require.NoError(t, g.Apply(pr.Side, pr.Choices[0]))
	}
}
