package bot_test

import (
	"regexp"
	"strings"
	"testing"
	"unicode"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rfop/rfop/internal/fakediscord"
	"github.com/rfop/rfop/locale"
	"github.com/rfop/rfop/storage"
)

// What a reader's language check leaves out: code spans (commands and
// their options, as the reader's Discord shows them), mentions, and the
// names kept on purpose (Discord, Glicko-2, the command rfop).
var cmdNotProse = regexp.MustCompile("`[^`]*`|<[@#][&!]?\\d+>|Glicko-2|Discord|\\brfop\\b")

// cmdEnglishWords are words of English sentences that French and Russian
// never use: one of them left in a reply is an English template.
var cmdEnglishWords = map[string]bool{
	"the": true, "you": true, "your": true, "game": true, "games": true, "with": true, "this": true, "not": true,
	"and": true, "to": true, "of": true, "for": true, "was": true, "is": true, "are": true, "there": true,
	"please": true, "could": true, "channel": true, "board": true, "turn": true, "play": true, "challenge": true,
	"rules": true, "won": true, "round": true, "waiting": true, "yet": true, "settings": true, "only": true,
}

var cmdWordRE = regexp.MustCompile(`\p{L}+`)

// englishIn reports the English left in text read in language l: for
// both, any word of an English sentence; for Russian also any run of two
// or more Latin-alphabet words.
func englishIn(l locale.Lang, text string) []string {
	prose := cmdNotProse.ReplaceAllString(text, " ")
	var found []string
	for _, w := range cmdWordRE.FindAllString(prose, -1) {
		if cmdEnglishWords[strings.ToLower(w)] {
			found = append(found, w)
		}
	}
	if l == locale.Russian {
		// Runs of Latin words separated by nothing but spaces and
		// punctuation.
		run := []string{}
		flush := func() {
			if len(run) >= 2 {
				found = append(found, strings.Join(run, " "))
			}
			run = run[:0]
		}
		for _, tok := range regexp.MustCompile(`\p{L}+|\d+`).FindAllString(prose, -1) {
			latin := true
			for _, r := range tok {
				if !unicode.In(r, unicode.Latin) {
					latin = false
					break
				}
			}
			if latin {
				run = append(run, tok)
			} else {
				flush()
			}
		}
		flush()
	}
	return found
}

func TestEnglishInCatchesEnglish(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		lang locale.Lang
		text string
		bad  bool
	}{
		{locale.French, "Aucune partie n'est en cours dans ce salon.", false},
		{locale.French, "There is no game running in this channel.", true},
		{locale.French, "Lancez-en une avec `/rfop défier` : <@301> (Glicko-2)", false},
		{locale.Russian, "В этом канале нет текущей партии. `/rfop replay game:1`", false},
		{locale.Russian, "Партия №1 — Final Crisis", true},
		{locale.Russian, "Рейтинг (Glicko-2) · Discord", false},
	} {
		assert.Equal(t, tc.bad, len(englishIn(tc.lang, tc.text)) > 0, "%q: %v", tc.text, englishIn(tc.lang, tc.text))
	}
}

// l10nHarness: the cast's server with a French or Russian preferred
// locale, and every member's Discord in that language.
func l10nHarness(t *testing.T, l locale.Lang) *harness {
	g := defaultGuildConfig()
	g.PreferredLocale = string(l)
	opts := []fakediscord.Option{}
	for _, u := range []struct{ id, name string }{{alice, "alice"}, {bob, "bob"}, {carol, "carol"}, {manager, "manager"}} {
		opts = append(opts, fakediscord.WithUser(fakediscord.User{ID: u.id, Username: u.name, Locale: string(l)}))
	}
	return newHarnessWith(t, nil, append(opts, fakediscord.WithGuild(g))...)
}

// replies collects the texts a member read, by what they answered.
type replies struct {
	t    *testing.T
	h    *harness
	seen []struct{ what, text string }
}

func (r *replies) add(what, text string) {
	r.t.Helper()
	require.NotEmpty(r.t, strings.TrimSpace(text), "%s: an empty reply", what)
	r.seen = append(r.seen, struct{ what, text string }{what, text})
}

// cmd runs a command and collects its answer (waiting for a deferred one).
func (r *replies) cmd(what, user string, sub fakediscord.Arg) *fakediscord.Message {
	r.t.Helper()
	i, resp := r.h.command(user, guildID, chanID, sub)
	m := resp.Message
	if resp.Type == discordgo.InteractionResponseDeferredChannelMessageWithSource {
		m = r.h.settled(i)
	}
	r.add(what, m.Content)
	for _, c := range m.AllComponents() {
		if c.Label != "" {
			r.add(what+" (button)", c.Label)
		}
	}
	return m
}

// Each command's answers, refusals and errors reach a French or a Russian
// member in their language: help, rules (citing that edition's rulebook),
// card, status, settings, a challenge, board, log, undo, resign, abandon,
// history, stats and replay. No English sentence is left (for Russian,
// no two Latin-alphabet words in a row either).
func TestE2ECommandRepliesInTheReadersLanguage(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		lang     locale.Lang
		citation string // how the rules help cites the edition's rulebook
	}{
		{locale.French, "Règles du jeu"},
		{locale.Russian, "(Правила, раздел"},
	} {
		t.Run(string(tc.lang), func(t *testing.T) {
			t.Parallel()
			h := l10nHarness(t, tc.lang)
			r := &replies{t: t, h: h}
			p := locale.For(tc.lang)

			r.cmd("help", carol, fakediscord.SubCmd("help"))
			r.cmd("rules", carol, fakediscord.SubCmd("rules"))
			for _, topic := range []string{"overview", "cards", "operations", "military", "tracks", "momentum",
				"bonus", "objectives", "final", "victory", "solo", "censorship"} {
				m := r.cmd("rules "+topic, carol, fakediscord.SubCmd("rules", fakediscord.StrArg("topic", topic)))
				assert.Contains(t, m.Content, tc.citation, "rules %s cites the %s rulebook", topic, tc.lang)
			}
			card := r.cmd("card", carol, fakediscord.SubCmd("card", fakediscord.StrArg("name", "27")))
			assert.Contains(t, card.Content, p.CardName(nil, 27), "the card's name in the reader's language")
			r.cmd("card not found", carol, fakediscord.SubCmd("card", fakediscord.StrArg("name", "zzz")))
			i := h.srv.Autocomplete(carol, guildID, chanID, "rfop", fakediscord.SubCmd("card", fakediscord.StrArg("name", "").Focus()))
			ac, err := i.WaitResponse(h.ctx)
			require.NoError(t, err)
			require.NotEmpty(t, ac.Choices)
			for _, c := range ac.Choices {
				r.add("card autocomplete", c.Name)
			}
			r.cmd("status, no game", carol, fakediscord.SubCmd("status"))
			r.cmd("history, no game", carol, fakediscord.SubCmd("history"))
			r.cmd("stats, no game", carol, fakediscord.SubCmd("stats"))
			r.cmd("replay, no game", carol, fakediscord.SubCmd("replay"))
			r.cmd("board, no game", carol, fakediscord.SubCmd("board"))
			r.cmd("turn, no game", carol, fakediscord.SubCmd("turn"))
			r.cmd("settings", carol, fakediscord.SubCmd("settings"))
			r.cmd("settings refused", carol, fakediscord.SubCmd("settings", fakediscord.IntArg("reminder_hours", 2)))
			r.cmd("settings saved", manager, fakediscord.SubCmd("settings", fakediscord.IntArg("reminder_hours", 2)))
			r.cmd("new: not yourself", alice, fakediscord.SubCmd("new", fakediscord.UserArg("opponent", alice)))
			r.cmd("new: naming both refused", alice, fakediscord.SubCmd("new", fakediscord.UserArg("opponent", bob), fakediscord.UserArg("player", carol)))

			challenge := r.cmd("new", alice, fakediscord.SubCmd("new", fakediscord.UserArg("opponent", bob), fakediscord.StrArg("side", "versailles")))
			r.cmd("status, a challenge", carol, fakediscord.SubCmd("status"))
			r.cmd("new: channel busy", carol, fakediscord.SubCmd("new", fakediscord.UserArg("opponent", bob)))
			acc := h.srv.Click(bob, challenge, h.verbButton(challenge, "accept").CustomID)
			_, err = acc.WaitResponse(h.ctx)
			require.NoError(t, err)
			require.True(t, h.srv.WaitFor(h.ctx, func() bool { return h.game(chanID).Status == storage.StatusActive }))
			_, err = h.srv.WaitMessage(h.ctx, func(m *fakediscord.Message) bool { return m.ChannelID == chanID && len(m.Attachments) > 0 })
			require.NoError(t, err, "the board is posted")
			rec := h.game(chanID)

			r.cmd("status, a game", carol, fakediscord.SubCmd("status"))
			r.cmd("board", carol, fakediscord.SubCmd("board"))
			r.cmd("board again, too soon", carol, fakediscord.SubCmd("board"))
			r.cmd("log", carol, fakediscord.SubCmd("log"))
			r.cmd("abandon refused", carol, fakediscord.SubCmd("abandon"))
			r.cmd("resign, not playing", carol, fakediscord.SubCmd("resign"))
			r.cmd("undo, nothing to undo", alice, fakediscord.SubCmd("undo"))
			confirm := r.cmd("resign", bob, fakediscord.SubCmd("resign"))
			res := h.srv.Click(bob, confirm, h.verbButton(confirm, "resign").CustomID)
			_, err = res.WaitResponse(h.ctx)
			require.NoError(t, err)
			require.True(t, h.srv.WaitFor(h.ctx, func() bool { return h.gameByID(rec.ID).Status == storage.StatusFinished }))

			r.cmd("history", carol, fakediscord.SubCmd("history"))
			r.cmd("history of a member", carol, fakediscord.SubCmd("history", fakediscord.UserArg("member", alice)))
			r.cmd("stats", carol, fakediscord.SubCmd("stats"))
			r.cmd("stats of a member", carol, fakediscord.SubCmd("stats", fakediscord.UserArg("member", alice)))
			r.cmd("replay", carol, fakediscord.SubCmd("replay"))
			r.cmd("replay, not here", carol, fakediscord.SubCmd("replay", fakediscord.IntArg("game", 99)))
			r.cmd("abandon, no game", carol, fakediscord.SubCmd("abandon"))

			for _, s := range r.seen {
				assert.Empty(t, englishIn(tc.lang, s.text), "%s (%s) left English: %q", s.what, tc.lang, s.text)
				assert.NotContains(t, s.text, "[cmd.", "%s: a missing message", s.what)
				assert.NotContains(t, s.text, "[history.", "%s: a missing message", s.what)
				assert.NotContains(t, s.text, "[help.", "%s: a missing message", s.what)
			}
			assert.Greater(t, len(r.seen), 40)
		})
	}
}

// On an English server, a member whose Discord speaks French reads their
// private answers in French, while what the channel sees (a challenge)
// stays in the server's language.
func TestE2EPrivateAnswersFollowTheMembersLocale(t *testing.T) {
	t.Parallel()
	opts := []fakediscord.Option{
		fakediscord.WithUser(fakediscord.User{ID: alice, Username: "alice", Locale: "fr"}),
		fakediscord.WithUser(fakediscord.User{ID: carol, Username: "carol", Locale: "ru"}),
		defaultGuild(),
	}
	h := newHarnessWith(t, nil, opts...)
	_, resp := h.command(alice, guildID, chanID, fakediscord.SubCmd("help"))
	assert.True(t, resp.Ephemeral())
	assert.Contains(t, resp.Content, "`/rfop défier adversaire:@quelqu'un`")
	_, resp = h.command(carol, guildID, chanID, fakediscord.SubCmd("rules", fakediscord.StrArg("topic", "victory")))
	assert.Contains(t, resp.Content, "(Правила, раздел «Победа в игре»)")
	_, resp = h.command(alice, guildID, chanID, fakediscord.SubCmd("new", fakediscord.UserArg("opponent", alice)))
	assert.Equal(t, "Choisissez un autre membre comme adversaire.", resp.Content)
	_, resp = h.command(alice, guildID, chanID, fakediscord.SubCmd("new", fakediscord.UserArg("opponent", bob), fakediscord.StrArg("side", "commune")))
	assert.False(t, resp.Ephemeral())
	assert.Contains(t, resp.Content, "<@"+bob+">, <@"+alice+"> challenges you to **Red Flag Over Paris** (standard variant): you would play **Versailles**.",
		"the challenge is public: the server's language")
	assert.NotNil(t, resp.Message.Button("Accept"))
}
