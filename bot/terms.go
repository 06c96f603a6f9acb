package bot

import (
	"context"
	"fmt"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/rfop/rfop/glossary"
)

// Game terms in the words of each server's edition (the `language`
// setting, package glossary): space names, tracks, zones, VP kinds and
// the like, in the board picture and in every text about a game; the
// bot's own sentences stay in English and card names never change. Games
// in DMs belong to no server and use English.

// langOf returns the language set for guildID (English for DMs, or when
// the settings cannot be read: terms are a nicety, not worth failing for).
// It is cached; the first read of a guild's settings has its own deadline,
// so text builders need no context.
func (b *Bot) langOf(guildID string) glossary.Lang {
	if guildID == "" {
		return glossary.English
	}
	b.mu.Lock()
	l, ok := b.langs[guildID]
	b.mu.Unlock()
	if ok {
		return l
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	set, err := b.Store.GuildSettings(ctx, guildID)
	if err != nil {
		b.Log.Warn("read settings for the language", "guild", guildID, "err", err)
		return glossary.English
	}
	l, err = glossary.ParseLang(set.Language)
	if err != nil {
		b.Log.Warn("stored language", "guild", guildID, "err", err)
		l = glossary.English
	}
	b.mu.Lock()
	b.langs[guildID] = l
	b.mu.Unlock()
	return l
}

// setLang records a guild's new language (the settings command).
func (b *Bot) setLang(guildID string, l glossary.Lang) {
	b.mu.Lock()
	b.langs[guildID] = l
	b.mu.Unlock()
}

// termsFor returns the term localiser of guildID's language.
func (b *Bot) termsFor(guildID string) *glossary.Terms {
	l := b.langOf(guildID)
	b.mu.Lock()
	defer b.mu.Unlock()
	t, ok := b.terms[l]
	if !ok {
		t = glossary.ForDeck(l, b.Deck)
		b.terms[l] = t
	}
	return t
}

// languageChoices are the `language` setting's choices.
func languageChoices() []*discordgo.ApplicationCommandOptionChoice {
	var out []*discordgo.ApplicationCommandOptionChoice
	for _, l := range glossary.Langs {
		out = append(out, &discordgo.ApplicationCommandOptionChoice{Name: fmt.Sprintf("%s — %s", l.Name(), l.Edition()), Value: string(l)})
	}
	return out
}
