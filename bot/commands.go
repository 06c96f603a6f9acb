package bot

import (
	"slices"
	"strings"

	"github.com/bwmarrin/discordgo"
	"github.com/rfop/rfop/locale"
)

// commandName is the single top-level slash command; everything else is a
// subcommand of it.
const commandName = "rfop"

var (
	minReminder = float64(0)
	oneGame     = float64(1)
)

// Where a subcommand makes sense. Discord sets an application command's
// contexts (a server, the bot's DM, a private channel: a group DM or a DM
// between users) for the command as a whole, and ours is one command,
// /rfop, with subcommands: it is registered for the union of these, for
// both installs (a server's, and a user's own account), and the bot
// refuses a subcommand outside its contexts (placeOf, onCommand).
var (
	// everywhere: what a member does for themselves (a game against the
	// solo opponent or the AI is played in the bot's DM when it cannot be
	// played where it was asked), and the information commands.
	everywhere = []discordgo.InteractionContextType{discordgo.InteractionContextGuild,
		discordgo.InteractionContextBotDM, discordgo.InteractionContextPrivateChannel}
	// whereGames: the commands on the channel's game, which may be a game
	// in the bot's DM.
	whereGames = []discordgo.InteractionContextType{discordgo.InteractionContextGuild, discordgo.InteractionContextBotDM}
	// serverOnly: a challenge between members, the server's settings.
	serverOnly = []discordgo.InteractionContextType{discordgo.InteractionContextGuild}
)

// subcommandContexts lists where each subcommand may be used.
var subcommandContexts = map[string][]discordgo.InteractionContextType{
	"solo": everywhere, "ai": everywhere, "hint": everywhere, "status": everywhere, "history": everywhere,
	"stats": everywhere, "help": everywhere, "rules": everywhere, "card": everywhere, "notify": everywhere, "away": everywhere, "back": everywhere,
	"board": whereGames, "hand": whereGames, "turn": whereGames, "log": whereGames, "resign": whereGames,
	"undo": whereGames, "abandon": whereGames, "replay": whereGames, "analysis": whereGames,
	"new": serverOnly, "settings": serverOnly,
}

// SubcommandContexts reports where a subcommand may be used (tests and
// docs).
func SubcommandContexts(name string) []discordgo.InteractionContextType {
	return subcommandContexts[name]
}

// Choices carry their English name here; localise gives every choice its
// name from the catalogue (cmd.choice.OPTION.VALUE) and its French and
// Russian localisations.
func sideChoices() []*discordgo.ApplicationCommandOptionChoice {
	return []*discordgo.ApplicationCommandOptionChoice{{Value: "commune"}, {Value: "versailles"}}
}

func variantChoices() []*discordgo.ApplicationCommandOptionChoice {
	return []*discordgo.ApplicationCommandOptionChoice{{Value: "standard"}, {Value: "censorship"}}
}

func aiLevelChoices() []*discordgo.ApplicationCommandOptionChoice {
	return []*discordgo.ApplicationCommandOptionChoice{{Value: "easy"}, {Value: "normal"}, {Value: "hard"}}
}

func sub(name string, opts ...*discordgo.ApplicationCommandOption) *discordgo.ApplicationCommandOption {
	return &discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionSubCommand, Name: name, Options: opts}
}

func opt(t discordgo.ApplicationCommandOptionType, name string) *discordgo.ApplicationCommandOption {
	return &discordgo.ApplicationCommandOption{Type: t, Name: name}
}

func required(o *discordgo.ApplicationCommandOption) *discordgo.ApplicationCommandOption {
	o.Required = true
	return o
}

func withChoices(o *discordgo.ApplicationCommandOption, cs []*discordgo.ApplicationCommandOptionChoice) *discordgo.ApplicationCommandOption {
	o.Choices = cs
	return o
}

// Commands returns the application commands the bot registers: the
// English names the handlers dispatch on (Discord always sends those),
// with the descriptions, and the French and Russian names and
// descriptions, from the catalogue (area "cmd").
func Commands() []*discordgo.ApplicationCommand {
	str, user := discordgo.ApplicationCommandOptionString, discordgo.ApplicationCommandOptionUser
	integer := discordgo.ApplicationCommandOptionInteger
	newSide := append(sideChoices(), &discordgo.ApplicationCommandOptionChoice{Value: "random"})
	count := opt(integer, "count")
	count.MinValue, count.MaxValue = &minReminder, 50
	reminder := opt(integer, "reminder_hours")
	reminder.MinValue, reminder.MaxValue = &minReminder, 24*14
	game := opt(integer, "game")
	game.MinValue = &oneGame
	awayDays := opt(integer, "days")
	awayDays.MinValue, awayDays.MaxValue = &oneGame, float64(awayBudget/day)
	card := required(opt(str, "name"))
	card.Autocomplete = true
	installs := []discordgo.ApplicationIntegrationType{discordgo.ApplicationIntegrationGuildInstall, discordgo.ApplicationIntegrationUserInstall}
	contexts := slices.Clone(everywhere)
	cmd := &discordgo.ApplicationCommand{
		Name:             commandName,
		IntegrationTypes: &installs,
		Contexts:         &contexts,
		Options: []*discordgo.ApplicationCommandOption{
			sub("new",
				required(opt(user, "opponent")),
				withChoices(opt(str, "side"), newSide),
				withChoices(opt(str, "variant"), variantChoices()),
				opt(user, "player"),
				withChoices(opt(str, "pace"), paceChoices()),
			),
			sub("solo", required(withChoices(opt(str, "side"), sideChoices()))),
			sub("ai",
				required(withChoices(opt(str, "side"), sideChoices())),
				withChoices(opt(str, "level"), aiLevelChoices()),
				withChoices(opt(str, "variant"), variantChoices()),
			),
			sub("hint"),
			sub("board"),
			sub("hand"),
			sub("turn"),
			sub("log", count),
			sub("card", card),
			sub("rules", withChoices(opt(str, "topic"), ruleTopicChoices())),
			sub("status"),
			sub("resign"),
			sub("undo"),
			sub("abandon"),
			sub("settings",
				reminder,
				opt(discordgo.ApplicationCommandOptionRole, "admin_role"),
				opt(discordgo.ApplicationCommandOptionBoolean, "clear_admin_role"),
				withChoices(opt(str, "language"), languageChoices()),
				withChoices(opt(str, "pace"), paceChoices()),
			),
			sub("replay", game),
			sub("analysis", game),
			sub("history", opt(user, "member")),
			sub("stats", opt(user, "member")),
			sub("notify", withChoices(opt(str, "how"), notifyChoices())),
			sub("away", required(awayDays)),
			sub("back"),
			sub("help"),
		},
	}
	localiseCommand(cmd)
	return []*discordgo.ApplicationCommand{cmd}
}

// commandLocales are the Discord locales the commands are translated to.
var commandLocales = map[discordgo.Locale]locale.Lang{discordgo.French: locale.French, discordgo.Russian: locale.Russian}

// Catalogue ids of the commands' words: option names use "-" where the
// option uses "_".
func cmdID(parts ...string) string {
	return "cmd." + strings.ReplaceAll(strings.Join(parts, "."), "_", "-")
}

// inLangs is a message in each command locale.
func inLangs(id string) map[discordgo.Locale]string {
	out := make(map[discordgo.Locale]string, len(commandLocales))
	for dl, l := range commandLocales {
		out[dl] = locale.For(l).T(id, nil)
	}
	return out
}

// localiseCommand fills in the descriptions and the localisations of the
// command, its subcommands, their options and the options' choices:
//
//	cmd.rfop.desc                 the command
//	cmd.SUB.name, cmd.SUB.desc    a subcommand
//	cmd.opt.OPTION.name           an option's name (the same everywhere)
//	cmd.SUB.OPTION.desc           an option's description
//	cmd.choice.OPTION.VALUE       a choice's name
//
// The `language` choices are each language's own name, the same in every
// locale.
func localiseCommand(c *discordgo.ApplicationCommand) {
	en := locale.For(locale.English)
	c.Description = en.T(cmdID(c.Name, "desc"), nil)
	names := map[discordgo.Locale]string{}
	for dl := range commandLocales {
		names[dl] = c.Name // the command keeps its short name everywhere
	}
	descs := inLangs(cmdID(c.Name, "desc"))
	c.NameLocalizations, c.DescriptionLocalizations = &names, &descs
	for _, s := range c.Options {
		s.Description = en.T(cmdID(s.Name, "desc"), nil)
		s.NameLocalizations = inLangs(cmdID(s.Name, "name"))
		s.DescriptionLocalizations = inLangs(cmdID(s.Name, "desc"))
		for _, o := range s.Options {
			o.Description = en.T(cmdID(s.Name, o.Name, "desc"), nil)
			o.NameLocalizations = inLangs(cmdID("opt", o.Name, "name"))
			o.DescriptionLocalizations = inLangs(cmdID(s.Name, o.Name, "desc"))
			for _, ch := range o.Choices {
				if o.Name == "language" {
					ch.NameLocalizations = map[discordgo.Locale]string{}
					for dl := range commandLocales {
						ch.NameLocalizations[dl] = ch.Name
					}
					continue
				}
				id := cmdID("choice", o.Name, ch.Value.(string))
				ch.Name = en.T(id, nil)
				ch.NameLocalizations = inLangs(id)
			}
		}
	}
}
