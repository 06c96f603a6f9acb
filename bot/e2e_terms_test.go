package bot_test

import (
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/rfop/rfop/bot"
	"github.com/rfop/rfop/engine"
	"github.com/rfop/rfop/glossary"
	"github.com/rfop/rfop/internal/fakediscord"
	"github.com/rfop/rfop/locale"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// langPictures records the language each picture is drawn in.
type langPictures struct {
	bot.Pictures
	mu    sync.Mutex
	langs []glossary.Lang
}

func (p *langPictures) note(l glossary.Lang) {
	p.mu.Lock()
	p.langs = append(p.langs, l)
	p.mu.Unlock()
}

func (p *langPictures) Board(l glossary.Lang, d *engine.Deck, v engine.View, prev *engine.View, caption string) ([]byte, error) {
	p.note(l)
	return p.Pictures.Board(l, d, v, prev, caption)
}

func (p *langPictures) Hand(l glossary.Lang, d *engine.Deck, v engine.View) ([]byte, error) {
	p.note(l)
	return p.Pictures.Hand(l, d, v)
}

func (p *langPictures) seen() []glossary.Lang {
	p.mu.Lock()
	defer p.mu.Unlock()
	return slices.Clone(p.langs)
}

// The `language` setting (glossary.md): a server set to French sees the
// French edition's game terms on the board picture, in the board's text,
// the turn panels and the hand DMs; cards keep their numbers and show the
// French edition's names.
func TestE2EGameTermsInTheServersEdition(t *testing.T) {
	t.Parallel()
	pics := &langPictures{Pictures: sharedPictures(t)}
	h := newHarnessWith(t, pics, defaultGuild())

	_, resp := h.command(alice, guildID, chanID, fakediscord.SubCmd("settings", fakediscord.StrArg("language", "fr")))
	assert.Contains(t, resp.Content, "Only members with Manage Server", "a player cannot change the settings")
	_, resp = h.command(manager, guildID, chanID, fakediscord.SubCmd("settings", fakediscord.StrArg("language", "fr")))
	require.Contains(t, resp.Content, "Réglages enregistrés", "the answer speaks the server's new language")
	assert.Contains(t, resp.Content, "Français")

	rec := h.startLocalChallenge(chanID, "standard", locale.French)
	board, turn := h.turnButton(chanID)
	require.NotNil(t, board)
	assert.Contains(t, board.Content, "La Commune ou la Mort — partie #", "the game's title in the French edition")
	assert.Contains(t, board.Content, "Manche 1", "Round is Manche")
	assert.Contains(t, pics.seen(), glossary.French, "the picture is drawn in French terms")
	assert.NotContains(t, pics.seen(), glossary.English)

	// Alice's hand DM lists her cards by number and French name.
	g := h.engineGame(h.gameByID(rec.ID))
	fr := locale.For(locale.French)
	dms := h.srv.DMs(alice)
	require.NotEmpty(t, dms)
	dm := dms[len(dms)-1].Content
	for _, n := range g.S.Hand[engine.Versailles] {
		assert.Contains(t, dm, fr.CardName(g.Deck(), int(n)), "#N and the French name")
	}
	assert.Contains(t, dm, "Manche 1")

	// Her panel: the objective labels name their spaces in French.
	i := h.srv.Click(alice, board, turn)
	pr, err := i.WaitResponse(h.ctx)
	require.NoError(t, err)
	panel := pr.Message
	assert.Contains(t, panel.Content, "Manche 1")
	var labels []string
	for _, c := range panel.AllComponents() {
		labels = append(labels, c.Label)
		for _, o := range c.Options {
			labels = append(labels, o.Label)
		}
	}
	all := strings.Join(labels, "\n")
	for _, o := range g.S.ObjOffer[engine.Versailles] {
		c := g.Deck().Card(int(o))
		assert.Contains(t, all, fr.CardName(g.Deck(), c.Num), "the objective's card")
		assert.Contains(t, all, glossary.New(glossary.French, nil).Text(c.Space.String()), "its space in French")
	}
	// No English space name is left where French differs from it.
	for x := engine.Space(0); x < engine.NumMapSpaces; x++ {
		en, fr := x.String(), glossary.New(glossary.French, nil).Text(x.String())
		if en == fr {
			continue
		}
		re := regexp.MustCompile(`\(` + regexp.QuoteMeta(en) + `\)`)
		assert.False(t, re.MatchString(all), "%q left in English in the panel", en)
	}
}
