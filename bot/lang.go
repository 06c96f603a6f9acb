package bot

import (
	"context"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/rfop/rfop/engine"
	"github.com/rfop/rfop/glossary"
	"github.com/rfop/rfop/locale"
	"github.com/rfop/rfop/storage"
)

// Who reads which language (issue 13):
//
//   - Public content (boards, pings, results, public replies) speaks the
//     server's `language` setting; a server that never chose one speaks
//     its preferred locale (Discord's preferred_locale, from GUILD_CREATE
//     or an interaction's guild_locale) when it is English, French or
//     Russian, else English. publicPrinter.
//   - Private content in an interaction (panels, ephemeral replies)
//     speaks the clicking user's Discord locale when it is French or
//     Russian, else the server's language. privatePrinter.
//   - A DM sent outside any interaction (hands, reveals, reminders)
//     speaks the user's last-seen Discord locale the same way; the bot
//     remembers it durably (storage.SetUserLocale). userPrinter.
//   - A game in DMs belongs to no server: it follows its player's locale
//     for everything. gamePrinter.
//
// The game terms (spaces, tracks, VP…) follow the same language: a
// Printer uses its language's edition's terms, and the pictures and the
// term localiser (termsFor) take the same language.

// localeTimeout bounds a read of a remembered locale or setting, so that
// text builders need no context.
const localeTimeout = 2 * time.Second

// publicLang is the language of guildID's public content (English for a
// DM: see gamePrinter for games in DMs).
func (b *Bot) publicLang(guildID string) locale.Lang {
	if guildID == "" {
		return locale.English
	}
	if set, ok := b.chosenLang(guildID); ok {
		return set
	}
	if l, ok := locale.FromDiscord(b.guildLocale(guildID)); ok {
		return l
	}
	return locale.English
}

// publicPrinter prints guildID's public content: boards, pings, results,
// public replies.
func (b *Bot) publicPrinter(guildID string) *locale.Printer {
	return locale.For(b.publicLang(guildID))
}

// privatePrinter prints what only the interaction's user sees: panels and
// ephemeral replies.
func (b *Bot) privatePrinter(i *discordgo.InteractionCreate) *locale.Printer {
	if i == nil {
		return locale.For(locale.English)
	}
	return b.privatePrinterOf(i.Interaction)
}

// privatePrinterOf is privatePrinter for handlers holding the
// *discordgo.Interaction.
func (b *Bot) privatePrinterOf(i *discordgo.Interaction) *locale.Printer {
	if i == nil {
		return locale.For(locale.English)
	}
	if l, ok := overriding(string(i.Locale)); ok {
		return locale.For(l)
	}
	if i.GuildID == "" {
		// In DMs there is no server setting: the user's own locale.
		if l, ok := locale.FromDiscord(string(i.Locale)); ok {
			return locale.For(l)
		}
		return locale.For(locale.English)
	}
	return b.publicPrinter(i.GuildID)
}

// userPrinter prints a DM to userID outside any interaction, about
// something in guildID ("" for a game in DMs): the user's last-seen
// locale when it is French or Russian, else the server's language (for a
// game in DMs, the user's locale, else English).
func (b *Bot) userPrinter(userID, guildID string) *locale.Printer {
	seen := b.userLocale(userID)
	if l, ok := overriding(seen); ok {
		return locale.For(l)
	}
	if guildID == "" {
		if l, ok := locale.FromDiscord(seen); ok {
			return locale.For(l)
		}
		return locale.For(locale.English)
	}
	return b.publicPrinter(guildID)
}

// gamePrinter prints a game's public content: the server's language, or
// for a game in DMs its (human) player's locale.
func (b *Bot) gamePrinter(rec storage.Game) *locale.Printer {
	if rec.GuildID != "" {
		return b.publicPrinter(rec.GuildID)
	}
	return b.userPrinter(dmPlayer(rec), "")
}

// dmPlayer is the human player of a game in DMs (its creator if no
// player is recorded yet).
func dmPlayer(rec storage.Game) string {
	for _, p := range rec.Players {
		if !p.IsBot && p.UserID != "" {
			return p.UserID
		}
	}
	return rec.CreatedBy
}

// overriding reports a Discord locale that overrides a server's language
// for private content: French or Russian.
func overriding(discordLocale string) (locale.Lang, bool) {
	l, ok := locale.FromDiscord(discordLocale)
	if !ok || l == locale.English {
		return locale.English, false
	}
	return l, true
}

// chosenLang is the language guildID chose with the `language` setting;
// ok is false if it never chose one (or the settings cannot be read: the
// language is a nicety, not worth failing for). Cached.
func (b *Bot) chosenLang(guildID string) (locale.Lang, bool) {
	b.mu.Lock()
	set, ok := b.langs[guildID]
	b.mu.Unlock()
	if !ok {
		if b.Store == nil {
			return locale.English, false
		}
		ctx, cancel := context.WithTimeout(context.Background(), localeTimeout)
		defer cancel()
		st, err := b.Store.GuildSettings(ctx, guildID)
		if err != nil {
			b.Log.Warn("read settings for the language", "guild", guildID, "err", err)
			return locale.English, false
		}
		set = st.Language
		b.mu.Lock()
		b.langs[guildID] = set
		b.mu.Unlock()
	}
	if set == "" {
		return locale.English, false
	}
	l, err := glossary.ParseLang(set)
	if err != nil {
		b.Log.Warn("stored language", "guild", guildID, "err", err)
		return locale.English, false
	}
	return l, true
}

// guildLocale is guildID's preferred locale as Discord last reported it
// ("" if never seen).
func (b *Bot) guildLocale(guildID string) string {
	if b.Store == nil {
		return b.seenLocale(b.guildLocales, guildID, nil)
	}
	return b.seenLocale(b.guildLocales, guildID, b.Store.GuildLocale)
}

// userLocale is userID's Discord locale as last seen ("" if never).
func (b *Bot) userLocale(userID string) string {
	if b.Store == nil {
		return b.seenLocale(b.userLocales, userID, nil)
	}
	return b.seenLocale(b.userLocales, userID, b.Store.UserLocale)
}

func (b *Bot) seenLocale(cache map[string]string, id string, read func(context.Context, string) (string, error)) string {
	if id == "" {
		return ""
	}
	b.mu.Lock()
	l, ok := cache[id]
	b.mu.Unlock()
	if ok || read == nil {
		return l
	}
	ctx, cancel := context.WithTimeout(context.Background(), localeTimeout)
	defer cancel()
	l, err := read(ctx, id)
	if err != nil {
		b.Log.Warn("read a remembered locale", "id", id, "err", err)
		return ""
	}
	b.mu.Lock()
	if _, raced := cache[id]; !raced {
		cache[id] = l
	} else {
		l = cache[id]
	}
	b.mu.Unlock()
	return l
}

// observe remembers the locales an interaction carries (the user's, and
// the guild's preferred one) in memory at once, so this interaction's
// replies use them, and returns their durable write, which the caller runs
// after handling the interaction: an acknowledgement never waits for a
// database write.
func (b *Bot) observe(i *discordgo.Interaction) (persist func(context.Context)) {
	var writes []func(context.Context)
	if uid := userID(i); uid != "" && i.Locale != "" {
		writes = append(writes, b.remember(true, uid, string(i.Locale)))
	}
	if i.GuildID != "" && i.GuildLocale != nil && *i.GuildLocale != "" {
		writes = append(writes, b.remember(false, i.GuildID, string(*i.GuildLocale)))
	}
	return func(ctx context.Context) {
		for _, w := range writes {
			if w != nil {
				w(ctx)
			}
		}
	}
}

// remember records a locale seen for a user (user) or a guild in memory
// and returns its durable write, nil when it did not change.
func (b *Bot) remember(user bool, id, l string) func(context.Context) {
	cache := b.guildLocales
	if user {
		cache = b.userLocales
	}
	b.mu.Lock()
	old, ok := cache[id]
	cache[id] = l
	b.mu.Unlock()
	if ok && old == l || b.Store == nil {
		return nil
	}
	write := b.Store.SetGuildLocale
	if user {
		write = b.Store.SetUserLocale
	}
	return func(ctx context.Context) {
		if err := write(ctx, id, l); err != nil {
			b.Log.Warn("remember a locale", "id", id, "err", err)
		}
	}
}

// OnGuildCreate is the discordgo handler for GUILD_CREATE: it remembers
// the server's preferred locale.
func (b *Bot) OnGuildCreate(_ *discordgo.Session, g *discordgo.GuildCreate) {
	if g == nil || g.Guild == nil {
		return
	}
	b.SeeGuildLocale(context.Background(), g.ID, g.PreferredLocale)
}

// OnGuildUpdate is the discordgo handler for GUILD_UPDATE (a server that
// changes its preferred locale).
func (b *Bot) OnGuildUpdate(_ *discordgo.Session, g *discordgo.GuildUpdate) {
	if g == nil || g.Guild == nil {
		return
	}
	b.SeeGuildLocale(context.Background(), g.ID, g.PreferredLocale)
}

// SeeGuildLocale records a guild's preferred locale.
func (b *Bot) SeeGuildLocale(ctx context.Context, guildID, preferred string) {
	if guildID == "" || preferred == "" {
		return
	}
	if write := b.remember(false, guildID, preferred); write != nil {
		write(ctx)
	}
}

// sidePrinter prints what side's player alone reads outside (or after) an
// interaction: panels, hand DMs, reveals. It is the player's private
// language (their last-seen locale is the one their last click carried).
func (b *Bot) sidePrinter(rec storage.Game, side engine.Side) *locale.Printer {
	if pl, ok := rec.Player(sideKey(side)); ok && !pl.IsBot && pl.UserID != "" {
		return b.userPrinter(pl.UserID, rec.GuildID)
	}
	return b.gamePrinter(rec)
}
