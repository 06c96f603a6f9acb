package bot_test

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"
	"unicode"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rfop/rfop/engine"
	"github.com/rfop/rfop/glossary"
	"github.com/rfop/rfop/internal/fakediscord"
	"github.com/rfop/rfop/locale"
	"github.com/rfop/rfop/render"
	"github.com/rfop/rfop/replay"
	"github.com/rfop/rfop/storage"
)

// Issue 13, "Tests", second bullet: whole random games — two players
// (standard and Censorship) and solo in DMs — played through the bot
// against the fake Discord on a French and on a Russian server (a server
// that never chose its language: its preferred locale decides), with one
// player whose Discord locale is that language and one in en-US (whose
// private texts then follow the server). Every text the games showed is
// collected (message contents of every version, embeds, buttons, select
// placeholders, options and their descriptions, DMs, ephemeral panels)
// and checked: in Russian no run of two Latin words outside the names
// kept on purpose; in French no English sentence (no fragment of an
// English catalogue sentence, no English function word). The pictures are
// drawn in the same language. The slash commands' replies that start the
// games (/rfop new, /rfop solo) are collected too, and so are the captions
// of each game's replay (/rfop replay), which the same check reads (issue
// 26: they were English on French and Russian servers).
func TestE2EWholeGamesSpeakTheServersLanguage(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		lang  locale.Lang
		check func([]string) []string
	}{
		{locale.French, frenchProblems},
		{locale.Russian, russianProblems},
	} {
		t.Run(string(tc.lang), func(t *testing.T) {
			t.Parallel()
			// The checker catches an English sentence of the gameplay path.
			en := locale.For(locale.English)
			require.NotEmpty(t, tc.check([]string{en.T("bot.note.done", nil)}), "the check must catch an English sentence")
			require.NotEmpty(t, tc.check([]string{en.T("bot.waiting", locale.Args{"Who": "<@1> (Commune) to play a card"})}))
			require.Greater(t, len(englishFragments()), 100, "the English catalogue was read")

			pics := &recordingPictures{}
			h := newHarnessWith(t, pics,
				fakediscord.WithMessageEvents(),
				fakediscord.WithUser(fakediscord.User{ID: alice, Username: "alice", Locale: string(tc.lang)}),
				fakediscord.WithUser(fakediscord.User{ID: bob, Username: "bob", Locale: "en-US"}),
				fakediscord.WithGuild(fakediscord.Guild{ID: guildID, Name: "Paris 1871", OwnerID: owner, PreferredLocale: string(tc.lang),
					Channels: []fakediscord.Channel{{ID: chanID, Name: "commune"}, {ID: chan2ID, Name: "versailles"}},
					Members:  []fakediscord.Member{{UserID: alice, Username: "alice"}, {UserID: bob, Username: "bob"}, {UserID: owner, Username: "owner"}}}))
			r := rand.New(rand.NewPCG(13, uint64(len(tc.lang))))

			for _, g := range []struct {
				channel string
				variant string
			}{{chanID, "standard"}, {chan2ID, "censorship"}} {
				rec := h.startLocalChallenge(g.channel, g.variant, tc.lang)
				rec = h.playByIDs(rec.ID, g.channel, []string{alice, bob}, r)
				require.Equal(t, storage.StatusFinished, rec.Status)
			}
			i, _ := h.command(alice, "", "", fakediscord.SubCmd("solo", fakediscord.StrArg("side", "commune")))
			h.settled(i)
			require.NoError(t, h.b.WaitPublished(h.ctx))
			dm := i.ChannelID
			rec := h.playByIDs(h.game(dm).ID, dm, []string{alice}, r)
			require.Equal(t, storage.StatusFinished, rec.Status)

			texts := h.gameplayTexts()
			require.Greater(t, len(texts), 300, "the games showed many texts")
			problems := tc.check(texts)
			assert.Empty(t, problems, "texts not in %s:\n%s", tc.lang, strings.Join(problems, "\n"))
			// The result was announced in the language, naming the winner.
			last := h.srv.LastMessage(dm).Content
			assert.Contains(t, last, locale.For(tc.lang).T("bot.result", locale.Args{"ID": rec.ID, "Result": ""}))
			for _, l := range pics.seen() {
				require.Equal(t, tc.lang, l, "every picture is drawn in the game's language")
			}
			assert.Greater(t, len(pics.seen()), 20)
			// Each game's replay, asked where it was played.
			for _, where := range []struct{ guild, channel string }{{guildID, chanID}, {guildID, chan2ID}, {"", dm}} {
				ri, _ := h.command(alice, where.guild, where.channel, fakediscord.SubCmd("replay"))
				h.settled(ri)
			}
			captions := pics.replayCaptions()
			require.Greater(t, len(captions), 30, "three replays were drawn, with their captions")
			for _, l := range pics.seen() {
				require.Equal(t, tc.lang, l, "every replay is drawn in the game's language")
			}
			if problems := tc.check(captions); len(problems) > 0 {
				t.Errorf("replay captions not in %s:\n%s", tc.lang, strings.Join(problems, "\n"))
			}

		})
	}
}

// recordingPictures draws nothing and records each picture's language,
// and the captions each replay would have (render.ReplayCaptions).
type recordingPictures struct {
	stubPictures
	mu       sync.Mutex
	langs    []glossary.Lang
	captions []string
}

// Replay records the captions of the replay in language l, as the real
// renderer writes them, and returns a stand-in picture.
func (p *recordingPictures) Replay(l glossary.Lang, o engine.Options, moves []engine.Move) ([]byte, replay.Summary, bool, error) {
	p.note(l)
	r, err := render.NewFor(o.Deck, l)
	if err != nil {
		return nil, replay.Summary{}, false, err
	}
	caps, err := r.ReplayCaptions(o, moves)
	if err != nil {
		return nil, replay.Summary{}, false, err
	}
	sum, err := replay.Count(o, moves)
	p.mu.Lock()
	p.captions = append(p.captions, caps...)
	p.mu.Unlock()
	return []byte("GIF89a"), sum, false, err
}

func (p *recordingPictures) replayCaptions() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.captions...)
}

func (p *recordingPictures) note(l glossary.Lang) {
	p.mu.Lock()
	p.langs = append(p.langs, l)
	p.mu.Unlock()
}

func (p *recordingPictures) Board(l glossary.Lang, d *engine.Deck, v engine.View, prev *engine.View, caption string) ([]byte, error) {
	p.note(l)
	return newStubPictures().Board(l, d, v, prev, caption)
}

func (p *recordingPictures) Hand(l glossary.Lang, d *engine.Deck, v engine.View) ([]byte, error) {
	p.note(l)
	return newStubPictures().Hand(l, d, v)
}

func (p *recordingPictures) Card(l glossary.Lang, d *engine.Deck, n int) ([]byte, error) {
	return newStubPictures().Card(l, d, n)
}

func (p *recordingPictures) seen() []glossary.Lang {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]glossary.Lang(nil), p.langs...)
}

// startLocalChallenge: alice challenges bob with /rfop new, bob accepts
// by the button's custom id (its label is in the server's language), and
// the acceptance is announced in that language.
func (h *harness) startLocalChallenge(channel, variant string, lang locale.Lang) storage.Game {
	h.t.Helper()
	_, resp := h.command(alice, guildID, channel, fakediscord.SubCmd("new",
		fakediscord.UserArg("opponent", bob), fakediscord.StrArg("side", "versailles"), fakediscord.StrArg("variant", variant)))
	require.NotNil(h.t, resp.Message)
	var accept string
	for _, c := range resp.Message.AllComponents() {
		if strings.HasPrefix(c.CustomID, "rfop/accept/") {
			accept = c.CustomID
		}
	}
	require.NotEmpty(h.t, accept, "the challenge has an Accept button")
	i := h.srv.Click(bob, resp.Message, accept)
	_, err := i.WaitResponse(h.ctx)
	require.NoError(h.t, err)
	head := strings.SplitN(locale.For(lang).T("bot.challenge.accepted", nil), "#", 2)[0]
	_, err = h.srv.WaitMessage(h.ctx, func(m *fakediscord.Message) bool {
		return m.ID == resp.Message.ID && strings.HasPrefix(m.Content, head)
	})
	require.NoError(h.t, err, "the acceptance is announced in %s", lang)
	rec := h.game(channel)
	require.Equal(h.t, storage.StatusActive, rec.Status)
	require.NoError(h.t, h.b.WaitPublished(h.ctx))
	return rec
}

// turnButton finds the newest message of channel with a Take my turn
// button (by custom id), and that id.
func (h *harness) turnButton(channel string) (*fakediscord.Message, string) {
	msgs := h.srv.Messages(channel)
	for k := len(msgs) - 1; k >= 0; k-- {
		for _, c := range msgs[k].AllComponents() {
			if strings.HasPrefix(c.CustomID, "rfop/turn/") {
				return msgs[k], c.CustomID
			}
		}
	}
	return nil, ""
}

// playByIDs is playUntil for boards in any language: buttons are found
// by custom id.
func (h *harness) playByIDs(gameID int64, channel string, users []string, r *rand.Rand) storage.Game {
	h.t.Helper()
	for round := 0; round < 2000; round++ {
		rec := h.gameByID(gameID)
		if rec.Status != storage.StatusActive {
			return rec
		}
		acted := false
		require.NoError(h.t, h.b.WaitPublished(h.ctx))
		for _, u := range users {
			board, id := h.turnButton(channel)
			if board == nil {
				break
			}
			i := h.srv.Click(u, board, id)
			resp, err := i.WaitResponse(h.ctx)
			require.NoError(h.t, err)
			panel := resp.Message
			for steps := 0; steps < 200; steps++ {
				if b, s := choiceComponents(panel); len(b)+len(s) == 0 {
					break
				}
				panel = h.choose(u, panel, r)
				acted = true
			}
		}
		if !acted && h.gameByID(gameID).Status == storage.StatusActive {
			h.t.Fatalf("nobody could act in game %d", gameID)
		}
	}
	h.t.Fatalf("game %d did not end", gameID)
	return storage.Game{}
}

// gameplayTexts is every text the bot showed: every version of every
// message, ephemeral ones and DMs included.
func (h *harness) gameplayTexts() []string {
	var out []string
	seen := map[string]bool{}
	add := func(s string) {
		if s = strings.TrimSpace(s); s != "" && !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	var comp func(c *fakediscord.Component)
	comp = func(c *fakediscord.Component) {
		add(c.Label)
		add(c.Placeholder)
		add(c.Content)
		for _, o := range c.Options {
			add(o.Label)
			add(o.Description)
		}
		for _, sub := range c.Components {
			comp(sub)
		}
	}
	for _, e := range h.srv.MessageEvents() {
		m := e.Message
		if m == nil || m.AuthorID != "" && m.AuthorID != h.botUserID() {
			continue
		}
		add(m.Content)
		for _, em := range m.Embeds {
			add(em.Title)
			add(em.Description)
			for _, f := range em.Fields {
				add(f.Name)
				add(f.Value)
			}
		}
		for _, c := range m.Components {
			comp(c)
		}
	}
	return out
}

func (h *harness) botUserID() string {
	if h.dg != nil && h.dg.State != nil && h.dg.State.User != nil {
		return h.dg.State.User.ID
	}
	return ""
}

// Tokens every language keeps: mentions, channel links, card numbers,
// `/rfop …` commands (typed as they are).
var keptTokens = regexp.MustCompile("<[@#][&!]?\\d+>|#\\d+|`[^`]*`")

// latinKept are the Latin words a Russian text keeps on purpose: the
// `side` option's values a user types (commune, versailles).
var latinKept = map[string]bool{"commune": true, "versailles": true}

// russianProblems flags runs of two or more Latin-alphabet words (words
// only, punctuation between them allowed; a Cyrillic word ends a run).
func russianProblems(texts []string) []string {
	var out []string
	for _, t := range texts {
		run := 0
		for _, w := range strings.FieldsFunc(keptTokens.ReplaceAllString(t, " "), func(r rune) bool { return !unicode.IsLetter(r) }) {
			latin := true
			for _, r := range w {
				if !unicode.In(r, unicode.Latin) {
					latin = false
				}
			}
			if !latin || latinKept[strings.ToLower(w)] {
				run = 0
				continue
			}
			if run++; run == 2 {
				out = append(out, fmt.Sprintf("%q in %q", w, t))
			}
		}
	}
	return out
}

// englishFunctionWords are English function words no French sentence contains.
var englishFunctionWords = regexp.MustCompile(`(?i)\b(the|you|your|to|and|of|is|are|with|this|that|for|from|its|their|my|not|was|has|have|who|which|what|by|it|at|nobody|none)\b`)

var (
	fragmentsOnce sync.Once
	fragments     []string
)

// englishFragments are the pieces of the English catalogue's sentences
// between placeholders, of two words or more (bot, engine and common
// areas: the texts a game shows).
func englishFragments() []string {
	fragmentsOnce.Do(func() {
		placeholder := regexp.MustCompile(`\{\{[^}]*\}\}`)
		set := map[string]bool{}
		dir := filepath.Join("..", "locale", "messages", "en")
		_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			switch filepath.Base(p) {
			case "bot.json", "engine.json", "common.json":
			default:
				return nil
			}
			buf, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			var raw map[string]any
			if err := json.Unmarshal(buf, &raw); err != nil {
				return err
			}
			var forms []string
			for _, v := range raw {
				switch v := v.(type) {
				case string:
					forms = append(forms, v)
				case map[string]any:
					for _, f := range v {
						if s, ok := f.(string); ok {
							forms = append(forms, s)
						}
					}
				}
			}
			for _, f := range forms {
				for _, piece := range placeholder.Split(f, -1) {
					for _, line := range strings.Split(piece, "\n") {
						line = strings.TrimSpace(strings.Trim(line, " .:;,*()·—"))
						if len(strings.Fields(line)) >= 2 {
							set[line] = true
						}
					}
				}
			}
			return nil
		})
		for s := range set {
			fragments = append(fragments, s)
		}
		sort.Strings(fragments)
	})
	return fragments
}

// frenchProblems flags a text holding an English catalogue fragment or an
// English function word.
func frenchProblems(texts []string) []string {
	frags := englishFragments()
	var out []string
	for _, t := range texts {
		clean := keptTokens.ReplaceAllString(t, " ")
		if w := englishFunctionWords.FindString(clean); w != "" {
			out = append(out, fmt.Sprintf("English word %q in %q", w, t))
			continue
		}
		for _, f := range frags {
			if strings.Contains(clean, f) {
				out = append(out, fmt.Sprintf("English sentence %q in %q", f, t))
				break
			}
		}
	}
	return out
}

// Private texts follow the reader: on an English server, a player whose
// Discord language is Russian gets a Russian panel and Russian hand DMs
// (and hand picture), while the board and the other player stay English.
func TestE2EPrivateTextsFollowThePlayersLocale(t *testing.T) {
	t.Parallel()
	pics := &recordingPictures{}
	h := newHarnessWith(t, pics,
		fakediscord.WithUser(fakediscord.User{ID: alice, Username: "alice", Locale: "ru"}),
		defaultGuild())
	rec := h.startChallenge(chanID, "versailles")
	board := h.requireOneLiveBoard(chanID)
	assert.Contains(t, board.Content, "Red Flag Over Paris — game #")
	assert.Contains(t, board.Content, "Waiting for")

	dms := h.srv.DMs(alice)
	require.NotEmpty(t, dms)
	assert.Contains(t, dms[len(dms)-1].Content, "Ваши карты:", "alice's hand DM is Russian")
	bobs := h.srv.DMs(bob)
	require.NotEmpty(t, bobs)
	assert.Contains(t, bobs[len(bobs)-1].Content, "Your hand:", "bob's stays English")
	assert.Contains(t, pics.seen(), glossary.Russian, "alice's hand picture")
	assert.Contains(t, pics.seen(), glossary.English, "the board and bob's hand")

	i := h.srv.ClickLabel(alice, board, "Take my turn")
	resp, err := i.WaitResponse(h.ctx)
	require.NoError(t, err)
	require.True(t, resp.Ephemeral())
	assert.Contains(t, resp.Message.Content, fmt.Sprintf("**Партия #%d · Раунд 1 · вы играете за Версаль**", rec.ID))
	assert.Empty(t, russianProblems([]string{resp.Message.Content}))
}
