package bot

import (
	"slices"

	"github.com/bwmarrin/discordgo"
	"github.com/rfop/rfop/storage"
)

// Who sees what: the one visibility rule, for every answer that names a
// game (its number, channel, players, position or result): /rfop history,
// /rfop stats, /rfop replay, /rfop status, the Take my turn and My hand
// buttons and every other button or command that acts on a game by number
// (/rfop analysis will too). The README's "Who may do what" table says it
// in words.
//
//   - Its players always see a game, wherever they ask from.
//   - A game in a server channel is shown to the members of that server
//     who can view the channel (View Channel, after the channel's
//     overwrites), asking from that server: in the channel itself
//     Discord's permissions for the interaction say it; elsewhere they are
//     computed from the gateway's cache (the member's roles, the
//     channel's overwrites; a thread follows its parent channel, a private
//     thread is its members' only). A channel the bot does not know (one
//     deleted since) is nobody's but the players'.
//   - A game in DMs is its player's only.
//
// What is not shown is not hinted at either: an answer about a game the
// member cannot see is the answer about a game that does not exist.
//
// Ratings are the exception, by nature: a member's rating, and the number
// of rated games it counts, are the same for everyone who asks; they name
// no game.

// viewer is one member asking: who they are, where from, and the channels
// they can view, each looked up once per answer.
type viewer struct {
	b     *Bot
	i     *discordgo.Interaction
	user  string
	views map[string]bool // channel id → can view
}

// viewerOf is the member behind i, for one answer (what they can view is
// cached for its lifetime: use a new one per interaction).
func (b *Bot) viewerOf(i *discordgo.Interaction) *viewer {
	return &viewer{b: b, i: i, user: userID(i), views: map[string]bool{}}
}

// canSeeGame is the rule for one game: may the member behind i see rec?
func (b *Bot) canSeeGame(i *discordgo.Interaction, rec storage.Game) bool {
	return b.viewerOf(i).seesGame(rec)
}

// seesGame: the rule for a stored game.
func (v *viewer) seesGame(rec storage.Game) bool {
	players := make([]string, 0, len(rec.Players))
	for _, p := range rec.Players {
		players = append(players, p.UserID)
	}
	return v.sees(rec.GuildID, rec.ChannelID, players...)
}

// seesResult: the rule for a finished game's result.
func (v *viewer) seesResult(r storage.GameResult) bool {
	return v.sees(r.GuildID, r.ChannelID, r.Versailles, r.Commune)
}

// sees: the rule for a game in guildID's channelID, played by players.
func (v *viewer) sees(guildID, channelID string, players ...string) bool {
	if v.user == "" {
		return false
	}
	if slices.Contains(players, v.user) {
		return true
	}
	if guildID == "" || guildID != v.i.GuildID || v.i.Member == nil {
		return false // a DM game, or a server the question does not come from
	}
	seen, ok := v.views[channelID]
	if !ok {
		seen = v.b.canViewChannel(v.i, channelID)
		v.views[channelID] = seen
	}
	return seen
}

// canViewChannel: the member behind i (in a server) can view channelID of
// that server.
func (b *Bot) canViewChannel(i *discordgo.Interaction, channelID string) bool {
	const view = discordgo.PermissionViewChannel | discordgo.PermissionAdministrator
	if i.Member == nil || i.GuildID == "" {
		return false
	}
	if channelID == i.ChannelID {
		// Discord computed them for this member in this channel.
		return i.Member.Permissions&view != 0
	}
	if b.Directory == nil {
		return false
	}
	ch, err := b.Directory.Channel(channelID)
	if err != nil || ch == nil || ch.GuildID != i.GuildID {
		return false
	}
	if ch.IsThread() {
		if ch.Type == discordgo.ChannelTypeGuildPrivateThread || ch.ParentID == "" {
			return false // its members are not known here
		}
		if ch, err = b.Directory.Channel(ch.ParentID); err != nil || ch == nil || ch.GuildID != i.GuildID {
			return false
		}
	}
	g, err := b.Directory.Guild(i.GuildID)
	if err != nil || g == nil {
		return false
	}
	return memberChannelPermissions(g, ch, userID(i), i.Member.Roles)&view != 0
}
