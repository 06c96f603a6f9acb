package bot

// Installs and contexts. The app can be installed to a server (the bot
// joins it) and to a member's own account (a user install: the member's
// commands work anywhere, but the bot joins nothing). An interaction says
// where it was made (its context) and which installs authorise it. The
// bot can post only in a server channel of a server that installed it and
// in its own DM with the member: elsewhere (a group DM, a DM between
// members, a server without the bot) a game against the solo opponent or
// the AI is played in the bot's DM, and the other commands answer only
// privately (see commands.go, subcommandContexts).

import (
	"context"
	"slices"

	"github.com/bwmarrin/discordgo"
	"github.com/rfop/rfop/locale"
	"github.com/rfop/rfop/storage"
)

// place is where an interaction was made, as the bot can act there.
type place int

const (
	placeServer      place = iota // a channel of a server that installed the bot
	placeBotDM                    // the member's DM with the bot
	placePrivate                  // a group DM or a DM between members (a user install)
	placeServerAlone              // a server without the bot (a user install)
)

// placeOf tells where i was made. An interaction without
// authorizing_integration_owners (older payloads) counts as the server's
// install.
func placeOf(i *discordgo.Interaction) place {
	if i.GuildID != "" {
		if owners := i.AuthorizingIntegrationOwners; len(owners) > 0 {
			if owner, ok := owners[discordgo.ApplicationIntegrationGuildInstall]; !ok || owner != i.GuildID {
				return placeServerAlone
			}
		}
		return placeServer
	}
	if i.Context == discordgo.InteractionContextPrivateChannel {
		return placePrivate
	}
	return placeBotDM
}

// canPost: the bot can post messages where the interaction was made.
func (p place) canPost() bool { return p == placeServer || p == placeBotDM }

// allowedHere reports whether the subcommand may run where i was made,
// and else why not (in the member's language).
func (b *Bot) allowedHere(i *discordgo.Interaction, name string) (bool, string) {
	where, ok := subcommandContexts[name]
	if !ok {
		return true, "" // help, for anything unknown
	}
	pl := placeOf(i)
	var ctx discordgo.InteractionContextType
	switch pl {
	case placeServer:
		ctx = discordgo.InteractionContextGuild
	case placeBotDM:
		ctx = discordgo.InteractionContextBotDM
	default:
		// Where the bot cannot post, only what works from anywhere.
		ctx = discordgo.InteractionContextPrivateChannel
	}
	if slices.Contains(where, ctx) {
		return true, ""
	}
	p := b.privatePrinterOf(i)
	if slices.Contains(where, discordgo.InteractionContextBotDM) {
		return false, p.T("cmd.where.games", nil)
	}
	return false, p.T("cmd.where.server", nil)
}

// personalChannel is where a game against the solo opponent or the AI
// that i starts is played: where it was asked, or the member's DM with
// the bot when the bot cannot post there (moved).
func (b *Bot) personalChannel(i *discordgo.Interaction) (guildID, channelID string, moved bool, err error) {
	if placeOf(i).canPost() {
		return i.GuildID, i.ChannelID, false, nil
	}
	ch, err := b.dmChannel(userID(i))
	if err != nil {
		return "", "", true, err
	}
	return "", ch, true, nil
}

// firstBoardRefused delivers a new game's first board in DMs now and
// returns the Discord code that refused it (cannotDM), 0 if it was
// posted or failed otherwise (the publisher retries those).
func (b *Bot) firstBoardRefused(ctx context.Context, rec storage.Game) int {
	err := b.deliverGame(ctx, rec.ID)
	if v, ok := b.dmRefused.LoadAndDelete(rec.ID); ok {
		return v.(int)
	}
	if cannotDM(err) {
		return discordErrorCode(err)
	}
	return 0
}

// dmRefusedText tells the member why the bot cannot write to them and
// what to do; their game is saved and waits.
func dmRefusedText(p *locale.Printer, code int, gameID int64) string {
	if code == codeNoMutualGuilds {
		return p.T("cmd.dm-refused.no-server", locale.Args{"ID": gameID})
	}
	return p.T("cmd.dm-refused.closed", locale.Args{"ID": gameID})
}

// dmLink is the address of the member's DM with the bot.
func dmLink(channelID string) string { return "https://discord.com/channels/@me/" + channelID }

// startedInDMs finishes the answer to a command that started a game in
// the member's DM with the bot: if Discord refused the first board, the
// member is told what to do (the game is saved and waits); if the game
// moved there from where it was asked, they are told where it is. It
// reports whether it answered.
func (b *Bot) startedInDMs(ctx context.Context, i *discordgo.Interaction, p *locale.Printer, rec storage.Game, moved bool) bool {
	if rec.GuildID != "" {
		return false
	}
	if code := b.firstBoardRefused(ctx, rec); code != 0 {
		b.editOriginal(i, msg{content: dmRefusedText(p, code, rec.ID)})
		return true
	}
	if moved {
		b.editOriginal(i, msg{content: p.T("cmd.solo.in-dm", locale.Args{"ID": rec.ID, "Link": dmLink(rec.ChannelID)})})
		return true
	}
	return false
}
