package bot

import (
	"github.com/bwmarrin/discordgo"
	"github.com/rfop/rfop/locale"
)

// Short rules help (/rfop rules): one message per topic, help.rules.KEY,
// each citing the section of the reader's edition's rulebook it
// summarises (Red Flag Over Paris, GMT 2021, Rules of Play: pages; La
// Commune ou la Mort: section titles and pages of its table of contents;
// the Russian edition: section titles, its rulebook has no page index).
// A topic's name is the `topic` option's choice, cmd.choice.topic.KEY.
var ruleTopics = []string{
	"overview", "cards", "operations", "military", "tracks", "momentum",
	"bonus", "objectives", "final", "victory", "solo", "censorship",
}

// ruleTopicChoices are the `topic` option's choices (localiseCommand
// names them).
func ruleTopicChoices() []*discordgo.ApplicationCommandOptionChoice {
	out := make([]*discordgo.ApplicationCommandOptionChoice, 0, len(ruleTopics))
	for _, t := range ruleTopics {
		out = append(out, &discordgo.ApplicationCommandOptionChoice{Value: t})
	}
	return out
}

// helpText is /rfop help: how to play with the bot, naming the commands
// as the reader's Discord shows them.
func helpText(p *locale.Printer) string {
	return p.T("help.text", nil)
}
