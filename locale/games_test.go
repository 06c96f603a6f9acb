package locale

import (
	"fmt"
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rfop/rfop/engine"
	"github.com/rfop/rfop/solo"
)

// ruProperNames are the Latin words a Russian text may keep on purpose.
// None so far: every card name, space and term has a Russian form.
var ruProperNames = []string{}

// latinRun finds two or more Latin-alphabet words in a row.
var latinRun = regexp.MustCompile(`\p{Latin}+(?:['’-]\p{Latin}+)*(?:[ ,]+\p{Latin}+(?:['’-]\p{Latin}+)*)+`)

// printed is one text shown to players, with the message it came from.
type printed struct {
	text string
	msg  *engine.Msg // nil: a card's name or text
	what string
}

// collector prints everything a game shows, in one language.
type collector struct {
	p   *Printer
	out []printed
}

func (c *collector) add(g *engine.Game, m engine.Msg, what string) {
	c.out = append(c.out, printed{c.p.Msg(g.Deck(), m), &m, what})
}

// step prints every pending prompt, every choice offered and the log lines
// written since seq.
func (c *collector) step(g *engine.Game, seq int) int {
	for _, pr := range g.Prompts() {
		c.add(g, g.PromptMsg(pr), "prompt "+string(pr.Kind))
		for _, ch := range pr.Choices {
			c.add(g, g.ChoiceMsg(pr, ch), "choice of "+string(pr.Kind))
		}
	}
	for _, e := range g.S.Log[seq:] {
		if e.Msg != nil {
			c.add(g, *e.Msg, "log")
		}
	}
	return len(g.S.Log)
}

// playGames plays the same random games for each language and returns
// what each printed: 2-player standard and Censorship, and solo (the solo
// opponent's decisions by its policy, with its notes in the log).
func playGames(t *testing.T, langs ...Lang) map[Lang][]printed {
	t.Helper()
	out := map[Lang][]printed{}
	for _, l := range langs {
		c := &collector{p: For(l)}
		for _, cfg := range []engine.Options{
			{Variant: engine.Standard, Seed: 1, BotSide: engine.NoSide},
			{Variant: engine.Censorship, Seed: 2, BotSide: engine.NoSide},
			{Variant: engine.Standard, Seed: 3, BotSide: engine.Commune},
			{Variant: engine.Standard, Seed: 4, BotSide: engine.Versailles},
		} {
			g, err := engine.New(cfg)
			require.NoError(t, err)
			r := rand.New(rand.NewPCG(uint64(cfg.Seed), 9))
			pol := &solo.Policy{}
			seq := 0
			for n := 0; g.S.Result == nil; n++ {
				require.Less(t, n, 5000, "the game ends")
				seq = c.step(g, seq)
				if cfg.BotSide != engine.NoSide {
					if _, ok, err := pol.Step(g); err != nil {
						t.Fatal(err)
					} else if ok {
						continue
					}
				}
				m, ok := g.RandomMove(r)
				require.True(t, ok)
				require.NoError(t, g.ApplyMove(m))
			}
			c.step(g, seq)
			c.add(g, *g.S.Result.Msg, "result")
		}
		p := For(l)
		for n := 1; n <= 53; n++ {
			c.out = append(c.out, printed{p.CardName(nil, n), nil, fmt.Sprintf("card #%d name", n)},
				printed{p.CardText(nil, n), nil, fmt.Sprintf("card #%d text", n)})
		}
		out[l] = c.out
	}
	return out
}

// isSoloNote: a note of English text (the solo opponent's explanations
// stored before they were messages). The games played here write their
// explanations as messages of the solo area (issue 26), which the tests
// check like any line; none should be text.
func isSoloNote(x printed) bool {
	if x.msg == nil || x.msg.ID != "engine.log.note" {
		return false
	}
	for _, a := range x.msg.Args {
		if a.Kind == engine.ArgText {
			return true
		}
	}
	return false
}

// Whole random games in Russian: no run of two or more Latin words outside
// the card numbers and the names kept on purpose, and no message missing.
func TestRussianGamesHaveNoEnglish(t *testing.T) {
	all := playGames(t, Russian)[Russian]
	require.Greater(t, len(all), 1000)
	seen := map[string]bool{}
	for _, x := range all {
		if isSoloNote(x) {
			continue
		}
		if x.msg != nil {
			x.msg.Walk(func(m engine.Msg) {
				assert.True(t, For(Russian).Has(m.ID), "%s: message %s is not in Russian", x.what, m.ID)
			})
		}
		s := x.text
		for _, name := range ruProperNames {
			s = strings.ReplaceAll(s, name, "")
		}
		if run := latinRun.FindString(s); run != "" && !seen[x.text] {
			seen[x.text] = true
			t.Errorf("%s: Latin words %q in %q", x.what, run, x.text)
		}
		assert.NotContains(t, x.text, "[engine.", x.what)
		assert.NotContains(t, x.text, "<no value>", x.what)
	}
}

// englishFragments are the literal parts of a message's English forms
// with two words or more: a French line containing one still speaks the
// English template.
var tplField = regexp.MustCompile(`\{\{[^}]*\}\}`)

func englishFragments(id string) []string {
	m, ok := catalog[English][id]
	if !ok {
		return nil
	}
	var out []string
	for _, f := range forms(m) {
		for _, part := range tplField.Split(f, -1) {
			part = strings.TrimSpace(strings.Trim(part, " .,:;()—-"))
			if len(strings.Fields(part)) >= 2 {
				out = append(out, part)
			}
		}
	}
	return out
}

// Whole random games in French: every message comes from the French
// catalogue (no English fallback) and no English template shows through.
func TestFrenchGamesComeFromTheCatalogue(t *testing.T) {
	all := playGames(t, French)[French]
	require.Greater(t, len(all), 1000)
	fr := For(French)
	for _, x := range all {
		if isSoloNote(x) {
			continue
		}
		assert.NotContains(t, x.text, "[engine.", x.what)
		assert.NotContains(t, x.text, "<no value>", x.what)
		if x.msg == nil {
			continue
		}
		x.msg.Walk(func(m engine.Msg) {
			if !assert.True(t, fr.Has(m.ID), "%s: message %s is not in French", x.what, m.ID) {
				return
			}
			for _, frag := range englishFragments(m.ID) {
				assert.NotContains(t, x.text, frag, "%s: %q shows the English of %s", x.what, x.text, m.ID)
			}
		})
	}
}

// Every message the engine can write (its English table, ids built at run
// time included) is in the catalogue in all three languages; the
// placeholders are checked by TestCatalogueComplete.
func TestEveryEngineMessageInAllLanguages(t *testing.T) {
	single, plural := engine.EnglishMessages()
	for id := range single {
		for _, l := range Langs {
			assert.True(t, For(l).Has(id), "%s: %s", l, id)
		}
	}
	for id := range plural {
		for _, l := range Langs {
			assert.True(t, For(l).Has(id), "%s: %s", l, id)
		}
	}
}

func count(n int) engine.Arg { return engine.Arg{Name: "Count", Kind: engine.ArgNum, N: n} }

// Russian plurals in the engine's own sentences (CLDR one/few/many): 1 and
// 21 take the singular, 2 and 22 the few form, 5 and 11 the many form.
func TestRussianPluralsInEngineSentences(t *testing.T) {
	ru := For(Russian)
	side := engine.Arg{Name: "Side", Kind: engine.ArgSide, N: int(engine.Commune)}
	card := engine.Arg{Name: "Card", Kind: engine.ArgCard, N: 21}
	cases := []struct {
		n                int
		cards, cubes, op string
	}{
		{1, "Коммуна берёт 1 карту.", "Закрывается ячейка запаса Коммуны: 1 куб удалён из игры.", "за 1 очко действий."},
		{2, "Коммуна берёт 2 карты.", "Закрывается ячейка запаса Коммуны: 2 куба удалены из игры.", "за 2 очка действий."},
		{5, "Коммуна берёт 5 карт.", "Закрывается ячейка запаса Коммуны: 5 кубов удалены из игры.", "за 5 очков действий."},
		{11, "Коммуна берёт 11 карт.", "Закрывается ячейка запаса Коммуны: 11 кубов удалены из игры.", "за 11 очков действий."},
		{21, "Коммуна берёт 21 карту.", "Закрывается ячейка запаса Коммуны: 21 куб удалён из игры.", "за 21 очко действий."},
		{22, "Коммуна берёт 22 карты.", "Закрывается ячейка запаса Коммуны: 22 куба удалены из игры.", "за 22 очка действий."},
	}
	for _, c := range cases {
		t.Run(fmt.Sprint(c.n), func(t *testing.T) {
			assert.Equal(t, c.cards, ru.Msg(nil, engine.Msg{ID: "engine.log.draws", Args: []engine.Arg{side, count(c.n)}}))
			assert.Equal(t, c.cubes, ru.Msg(nil, engine.Msg{ID: "engine.log.pool-closes", Args: []engine.Arg{count(c.n)}}))
			op := ru.Msg(nil, engine.Msg{ID: "engine.log.play-ops", Args: []engine.Arg{side, card,
				{Name: "OP", Kind: engine.ArgOP, N: c.n}}})
			assert.True(t, strings.HasSuffix(op, c.op), op)
		})
	}
	// An effect with "up to": до + genitive, singular only for 1 and 21.
	upto := func(n int) string {
		return ru.Msg(nil, engine.Msg{ID: "engine.effect.place-upto", Args: []engine.Arg{count(n), {Name: "Scope", Kind: engine.ArgMsgs}}})
	}
	assert.Equal(t, "разместить до 1 куба", upto(1))
	assert.Equal(t, "разместить до 2 кубов", upto(2))
	assert.Equal(t, "разместить до 5 кубов", upto(5))
	assert.Equal(t, "разместить до 21 куба", upto(21))
}

// English says "1 cube" and "2 cubes", never "cube(s)".
func TestEnglishPlurals(t *testing.T) {
	en := For(English)
	side := engine.Arg{Name: "Side", Kind: engine.ArgSide, N: int(engine.Versailles)}
	assert.Equal(t, "Versailles draws 1 card.", en.Msg(nil, engine.Msg{ID: "engine.log.draws", Args: []engine.Arg{side, count(1)}}))
	assert.Equal(t, "Versailles draws 2 cards.", en.Msg(nil, engine.Msg{ID: "engine.log.draws", Args: []engine.Arg{side, count(2)}}))
	single, plural := engine.EnglishMessages()
	for id, s := range single {
		assert.NotContains(t, s, "(s)", id)
	}
	for id, f := range plural {
		assert.NotContains(t, f[0]+f[1], "(s)", id)
	}
}
