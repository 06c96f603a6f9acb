package bot

import (
	"fmt"

	"github.com/bwmarrin/discordgo"
	"github.com/rfop/rfop/glossary"
)

// Game terms in the words of each audience's language (lang.go, package
// glossary): space names, tracks, zones, VP kinds and the like, in the
// pictures and in every text about a game.

// langOf returns the language of guildID's public content (lang.go:
// the server's setting, else its preferred locale, else English; English
// for DMs). Text builders need no context: the reads behind it are cached
// and have their own deadline.
func (b *Bot) langOf(guildID string) glossary.Lang {
	return b.publicLang(guildID)
}

// setLang records that a guild changed its language (the settings
// command): the cached setting is dropped and read again, so a setting
// saved without a language keeps following the preferred locale.
func (b *Bot) setLang(guildID string, _ glossary.Lang) {
	b.mu.Lock()
	delete(b.langs, guildID)
	b.mu.Unlock()
}

// termsFor returns the term localiser of guildID's language.
func (b *Bot) termsFor(guildID string) *glossary.Terms {
	return b.termsIn(b.langOf(guildID))
}

// termsIn returns the term localiser of language l.
func (b *Bot) termsIn(l glossary.Lang) *glossary.Terms {
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
