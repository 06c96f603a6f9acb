package bot

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rfop/rfop/locale"
	"github.com/rfop/rfop/storage"
)

func langBot(t *testing.T) (*Bot, *storage.SQLiteStore, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "rfop.db")
	st, err := storage.Open(context.Background(), path)
	require.NoError(t, err)
	t.Cleanup(func() { _ = st.Close() })
	return New(Deps{Store: st}), st, path
}

func setLanguage(t *testing.T, st storage.Store, guild, lang string) {
	t.Helper()
	set, err := st.GuildSettings(context.Background(), guild)
	require.NoError(t, err)
	set.Language = lang
	_, err = st.SetGuildSettings(context.Background(), set)
	require.NoError(t, err)
}

func interaction(guild, userLocale, guildLocale string) *discordgo.Interaction {
	i := &discordgo.Interaction{GuildID: guild, Locale: discordgo.Locale(userLocale)}
	u := &discordgo.User{ID: "u1"}
	if guild != "" {
		i.Member = &discordgo.Member{User: u}
		if guildLocale != "" {
			gl := discordgo.Locale(guildLocale)
			i.GuildLocale = &gl
		}
	} else {
		i.User = u
	}
	return i
}

// Public content speaks the server's `language` setting; a server that
// never chose one speaks its preferred locale when supported, else
// English; DMs are English here (games in DMs: gamePrinter).
func TestPublicLanguageIsTheSettingElseThePreferredLocale(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name      string
		setting   string // "" never chosen
		preferred string // Discord's preferred_locale, "" unknown
		want      locale.Lang
	}{
		{"nothing known: English", "", "", locale.English},
		{"preferred French", "", "fr", locale.French},
		{"preferred Russian", "", "ru", locale.Russian},
		{"preferred US English", "", "en-US", locale.English},
		{"preferred German: English", "", "de", locale.English},
		{"the setting wins over the preferred locale", "fr", "ru", locale.French},
		{"English chosen on a Russian server", "en", "ru", locale.English},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			b, st, _ := langBot(t)
			if tc.setting != "" {
				setLanguage(t, st, "g", tc.setting)
			}
			b.SeeGuildLocale(context.Background(), "g", tc.preferred)
			assert.Equal(t, tc.want, b.publicPrinter("g").Lang())
			assert.Equal(t, tc.want, b.langOf("g"), "pictures and terms follow the same language")
			assert.Equal(t, locale.English, b.publicPrinter("").Lang())
		})
	}
}

// Private content follows the clicking user's Discord locale when it is
// French or Russian, else the server's language; in DMs, the user's locale.
func TestPrivateLanguageIsTheUsersFrenchOrRussianElseTheServers(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name        string
		guild       string
		setting     string
		userLocale  string
		guildLocale string
		want        locale.Lang
	}{
		{"Russian user on an English server", "g", "en", "ru", "", locale.Russian},
		{"French user on a Russian server", "g", "ru", "fr", "", locale.French},
		{"US user on a French server", "g", "fr", "en-US", "", locale.French},
		{"German user on a Russian server", "g", "ru", "de", "", locale.Russian},
		{"US user, server never chose, prefers Russian", "g", "", "en-GB", "ru", locale.Russian},
		{"French user in DMs", "", "", "fr", "", locale.French},
		{"German user in DMs", "", "", "de", "", locale.English},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			b, st, _ := langBot(t)
			if tc.setting != "" {
				setLanguage(t, st, "g", tc.setting)
			}
			i := interaction(tc.guild, tc.userLocale, tc.guildLocale)
			b.observe(i)(context.Background())
			assert.Equal(t, tc.want, b.privatePrinter(&discordgo.InteractionCreate{Interaction: i}).Lang())
			assert.Equal(t, tc.want, b.privatePrinterOf(i).Lang())
		})
	}
}

// A DM outside any interaction follows the user's last-seen locale, kept
// across restarts; games in DMs follow their player's locale everywhere.
func TestDMsFollowTheLastSeenLocaleAcrossRestarts(t *testing.T) {
	t.Parallel()
	b, st, path := langBot(t)
	setLanguage(t, st, "g", "fr")
	assert.Equal(t, locale.French, b.userPrinter("u1", "g").Lang(), "never seen: the server's language")
	assert.Equal(t, locale.English, b.userPrinter("u1", "").Lang(), "never seen, a DM game: English")

	b.observe(interaction("g", "ru", "fr"))(context.Background())
	assert.Equal(t, locale.Russian, b.userPrinter("u1", "g").Lang())

	// A new process on the same database remembers it.
	require.NoError(t, st.Close())
	st2, err := storage.Open(context.Background(), path)
	require.NoError(t, err)
	t.Cleanup(func() { _ = st2.Close() })
	b2 := New(Deps{Store: st2})
	assert.Equal(t, locale.Russian, b2.userPrinter("u1", "g").Lang())
	assert.Equal(t, locale.French, b2.publicPrinter("g").Lang(), "the setting was kept")

	dmGame := storage.Game{Players: []storage.Player{{Side: storage.SideCommune, UserID: "u1"}, {Side: storage.SideVersailles, IsBot: true}}}
	assert.Equal(t, locale.Russian, b2.gamePrinter(dmGame).Lang(), "a game in DMs speaks its player's locale")
	assert.Equal(t, locale.French, b2.gamePrinter(storage.Game{GuildID: "g"}).Lang())

	// An English user follows the server in a guild, English in a DM game.
	b2.observe(interaction("", "en-US", ""))(context.Background())
	assert.Equal(t, locale.French, b2.userPrinter("u1", "g").Lang())
	assert.Equal(t, locale.English, b2.gamePrinter(dmGame).Lang())
}

// Changing another setting keeps a server that never chose a language on
// its preferred locale; choosing one takes effect at once.
func TestSettingsChangeKeepsOrReplacesTheDefault(t *testing.T) {
	t.Parallel()
	b, st, _ := langBot(t)
	b.SeeGuildLocale(context.Background(), "g", "ru")
	assert.Equal(t, locale.Russian, b.langOf("g"))
	setLanguage(t, st, "g", "") // e.g. only the reminder interval changed
	b.setLang("g", locale.English)
	assert.Equal(t, locale.Russian, b.langOf("g"))
	setLanguage(t, st, "g", "fr")
	b.setLang("g", locale.French)
	assert.Equal(t, locale.French, b.langOf("g"))
	assert.Equal(t, "Élan révolutionnaire", b.publicPrinter("g").Term("Revolutionary Momentum"), "terms in the same language")
	assert.Equal(t, "Élan révolutionnaire", b.termsFor("g").Text("Revolutionary Momentum"))
}
