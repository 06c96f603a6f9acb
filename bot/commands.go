package bot

import "github.com/bwmarrin/discordgo"

// commandName is the single top-level slash command; everything else is a
// subcommand of it.
const commandName = "rfop"

var (
	dmPermission   = true
	manageGuild    = int64(discordgo.PermissionManageServer)
	minReminder    = float64(0)
	oneGame        = float64(1)
	sideChoices    = []*discordgo.ApplicationCommandOptionChoice{{Name: "Commune", Value: "commune"}, {Name: "Versailles", Value: "versailles"}}
	variantChoice  = []*discordgo.ApplicationCommandOptionChoice{{Name: "Standard", Value: "standard"}, {Name: "Censorship (French/Russian editions)", Value: "censorship"}}
	aiLevelChoices = []*discordgo.ApplicationCommandOptionChoice{{Name: "Easy", Value: "easy"}, {Name: "Normal", Value: "normal"}, {Name: "Hard", Value: "hard"}}
)

func sub(name, desc string, opts ...*discordgo.ApplicationCommandOption) *discordgo.ApplicationCommandOption {
	return &discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionSubCommand, Name: name, Description: desc, Options: opts}
}

// Commands returns the application commands the bot registers.
func Commands() []*discordgo.ApplicationCommand {
	return []*discordgo.ApplicationCommand{{
		Name:         commandName,
		Description:  "Red Flag Over Paris: Versailles against the Paris Commune",
		DMPermission: &dmPermission,
		Options: []*discordgo.ApplicationCommandOption{
			sub("new", "Challenge a member to a game in this channel",
				&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionUser, Name: "opponent", Description: "Who you challenge (or, for admins naming both players, the second player)", Required: true},
				&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionString, Name: "side", Description: "Your side (random if not given)", Choices: append(append([]*discordgo.ApplicationCommandOptionChoice{}, sideChoices...), &discordgo.ApplicationCommandOptionChoice{Name: "Random", Value: "random"})},
				&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionString, Name: "variant", Description: "Rules variant", Choices: variantChoice},
				&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionUser, Name: "player", Description: "Admins: the first player instead of you (the game starts at once)"},
			),
			sub("solo", "Play against the solo opponent (here or in DMs)",
				&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionString, Name: "side", Description: "The side YOU play", Required: true, Choices: sideChoices},
			),
			sub("ai", "Play the full two-player game against the AI opponent (here or in DMs)",
				&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionString, Name: "side", Description: "The side YOU play", Required: true, Choices: sideChoices},
				&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionString, Name: "level", Description: "The AI's strength (default normal)", Choices: aiLevelChoices},
				&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionString, Name: "variant", Description: "Rules variant", Choices: variantChoice},
			),
			sub("hint", "In a game against the AI: its top three choices for your decision (only you see it)"),
			sub("board", "Post the current board again"),
			sub("hand", "Your hand and objective (only you see it)"),
			sub("turn", "Open your turn panel"),
			sub("log", "The game log",
				&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionInteger, Name: "count", Description: "How many lines (default 15)", MinValue: &minReminder, MaxValue: 50},
			),
			sub("card", "Show a card's text and status",
				&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionString, Name: "name", Description: "Card name or number", Required: true, Autocomplete: true},
			),
			sub("rules", "Short rules help with the rulebook section",
				&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionString, Name: "topic", Description: "Topic", Choices: ruleTopicChoices()},
			),
			sub("status", "Games in this server and whose turn it is"),
			sub("resign", "Resign the game in this channel"),
			sub("undo", "Take back your last choice (asks your opponent once they could have seen it)"),
			sub("abandon", "Abandon the game in this channel (players, Manage Channels here, or the admin role)"),
			sub("settings", "Server settings (changing them: Manage Server or the admin role)",
				&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionInteger, Name: "reminder_hours", Description: "Remind the player to act after this many hours (0 = off)", MinValue: &minReminder, MaxValue: 24 * 14},
				&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionRole, Name: "admin_role", Description: "A role allowed to change settings, name both players and abandon any game"},
				&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionBoolean, Name: "clear_admin_role", Description: "True: no admin role any more"},
				&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionString, Name: "language", Description: "Game terms (spaces, tracks, zones) as printed in your edition of the rulebook", Choices: languageChoices()},
			),
			sub("replay", "An animated replay of a finished game (this channel's last one by default)",
				&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionInteger, Name: "game", Description: "Game number (see /rfop history)", MinValue: &oneGame},
			),
			sub("history", "This server's finished games, newest first",
				&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionUser, Name: "member", Description: "Only this member's games"},
			),
			sub("stats", "This server's results, records and Glicko-2 leaderboard",
				&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionUser, Name: "member", Description: "This member's record and rating"},
			),
			sub("help", "How to play with this bot"),
		},
	}}
}
