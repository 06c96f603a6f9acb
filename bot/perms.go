package bot

import (
	"context"
	"fmt"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/rfop/rfop/engine"
	"github.com/rfop/rfop/locale"
	"github.com/rfop/rfop/storage"
)

// Who may do what. This file is the one place that decides; the README's
// table "Who may do what" says the same in words, and each row has an
// end-to-end test (e2e_perms_test.go).
//
//	action                     who
//	change settings            Manage Server (guild-wide) or the admin role
//	name both players          Manage Channels in that channel or the admin role
//	abandon a game             its players, its challenger, Manage Channels in
//	                           its channel, or the admin role
//	play, hand, resign, undo   the player of that side (plays)
//	answer an undo request     the other side's player, while the request is
//	                           pending (stored) for that version
//	repost the board           anyone in the channel, once a minute each
//	ask the opponent for undo  a player, once every five minutes
//	see a game (status,        its players; in a server, members who can
//	  history, stats, replay,  view its channel (visibility.go, the one
//	  buttons naming it)       rule for who sees what)
//
// Every button is authorised before anything changes, and a refusal is a
// private answer to the clicker: a message others see changes only by an
// allowed click on the message its button was made for (components.go).
//
// Guild-wide permissions come from the guild's roles (Directory), not from
// the permissions Discord sends with an interaction, which are computed
// for its channel and include that channel's overwrites.

// Directory is where the bot reads a guild's roles and owner and a
// channel's permission overwrites: the gateway's cache (*discordgo.State).
type Directory interface {
	Guild(guildID string) (*discordgo.Guild, error)
	Channel(channelID string) (*discordgo.Channel, error)
}

// stateDirectory is the gateway's cache as a Directory that hands out
// copies taken under the cache's lock: discordgo updates a cached guild or
// channel in place when an event changes it (GUILD_UPDATE, CHANNEL_UPDATE,
// GUILD_ROLE_UPDATE), so reading the cached structs without the lock would
// race with the gateway. New wraps a *discordgo.State in it.
type stateDirectory struct{ s *discordgo.State }

// Guild returns a copy of the guild's id, owner and roles.
func (d stateDirectory) Guild(guildID string) (*discordgo.Guild, error) {
	g, err := d.s.Guild(guildID)
	if err != nil {
		return nil, err
	}
	d.s.RLock()
	defer d.s.RUnlock()
	cp := &discordgo.Guild{ID: g.ID, OwnerID: g.OwnerID, Roles: make([]*discordgo.Role, 0, len(g.Roles))}
	for _, r := range g.Roles {
		role := *r
		cp.Roles = append(cp.Roles, &role)
	}
	return cp, nil
}

// Channel returns a copy of the channel with its permission overwrites.
func (d stateDirectory) Channel(channelID string) (*discordgo.Channel, error) {
	c, err := d.s.Channel(channelID)
	if err != nil {
		return nil, err
	}
	d.s.RLock()
	defer d.s.RUnlock()
	cp := &discordgo.Channel{ID: c.ID, GuildID: c.GuildID, Type: c.Type, ParentID: c.ParentID,
		PermissionOverwrites: make([]*discordgo.PermissionOverwrite, 0, len(c.PermissionOverwrites))}
	for _, o := range c.PermissionOverwrites {
		ow := *o
		cp.PermissionOverwrites = append(cp.PermissionOverwrites, &ow)
	}
	return cp, nil
}

type action int

const (
	actChangeSettings action = iota
	actNameBothPlayers
	actAbandon
	actRepostBoard
	actAskUndo
)

// Cool-downs per member (spam and pings).
const (
	boardCoolDown   = time.Minute
	askUndoCoolDown = 5 * time.Minute
)

// The refusals are catalogue messages (cmd.refuse.*), in the language of
// the member refused.

// may decides whether the member behind i may do a on rec (nil for
// actions that concern no game); when not, it returns the polite refusal,
// in the member's language (private). Rate-limited actions are counted
// when allowed.
func (b *Bot) may(ctx context.Context, i *discordgo.Interaction, a action, rec *storage.Game) (bool, string) {
	user := userID(i)
	p := b.privatePrinterOf(i)
	switch a {
	case actChangeSettings:
		if b.guildPermissions(i)&(discordgo.PermissionAdministrator|discordgo.PermissionManageServer) != 0 || b.hasAdminRole(ctx, i) {
			return true, ""
		}
		return false, p.T("cmd.refuse.settings", nil)
	case actNameBothPlayers:
		if channelPermissions(i)&(discordgo.PermissionAdministrator|discordgo.PermissionManageChannels) != 0 || b.hasAdminRole(ctx, i) {
			return true, ""
		}
		return false, p.T("cmd.refuse.name-both", nil)
	case actAbandon:
		if len(rec.SidesOf(user)) > 0 || rec.CreatedBy == user ||
			channelPermissions(i)&(discordgo.PermissionAdministrator|discordgo.PermissionManageChannels) != 0 || b.hasAdminRole(ctx, i) {
			return true, ""
		}
		return false, p.T("cmd.refuse.abandon", nil)
	case actRepostBoard:
		if wait := b.coolDown(fmt.Sprintf("board/%d/%s", rec.ID, user), boardCoolDown); wait > 0 {
			return false, p.T("cmd.refuse.board-wait", locale.Args{"Wait": roundUp(p, wait)})
		}
		return true, ""
	case actAskUndo:
		if wait := b.coolDown(fmt.Sprintf("undo/%d/%s", rec.ID, user), askUndoCoolDown); wait > 0 {
			return false, p.T("cmd.refuse.undo-wait", locale.Args{"Wait": roundUp(p, wait)})
		}
		return true, ""
	}
	return false, p.T("cmd.refuse.unknown", nil)
}

// plays reports whether user plays side in rec: only they may use that
// side's panel, hand, resignation and undo.
func plays(rec storage.Game, user string, side engine.Side) bool {
	for _, s := range rec.SidesOf(user) {
		if engineSide(s) == side {
			return true
		}
	}
	return false
}

// channelPermissions: what Discord computed for the interaction's member
// in the interaction's channel.
func channelPermissions(i *discordgo.Interaction) int64 {
	if i.Member == nil {
		return 0
	}
	return i.Member.Permissions
}

// guildPermissions: the member's guild-wide permissions, from the
// guild's roles. Without the guild in the cache it falls back to the
// interaction's, whose Manage Server and Administrator bits no channel
// overwrite can grant.
func (b *Bot) guildPermissions(i *discordgo.Interaction) int64 {
	if i.Member == nil || i.GuildID == "" {
		return 0
	}
	if b.Directory != nil {
		if g, err := b.Directory.Guild(i.GuildID); err == nil && g != nil {
			return memberGuildPermissions(g, userID(i), i.Member.Roles)
		}
	}
	return i.Member.Permissions & (discordgo.PermissionAdministrator | discordgo.PermissionManageServer)
}

// hasAdminRole: the member holds the guild's admin role (settings).
func (b *Bot) hasAdminRole(ctx context.Context, i *discordgo.Interaction) bool {
	if i.Member == nil || i.GuildID == "" {
		return false
	}
	set, err := b.Store.GuildSettings(ctx, i.GuildID)
	if err != nil || set.AdminRoleID == "" {
		return false
	}
	for _, r := range i.Member.Roles {
		if r == set.AdminRoleID {
			return true
		}
	}
	return false
}

// memberGuildPermissions is Discord's base permission computation: the
// owner has all; else @everyone's and the member's roles' permissions,
// all of them with Administrator.
func memberGuildPermissions(g *discordgo.Guild, userID string, roles []string) int64 {
	if userID == g.OwnerID {
		return discordgo.PermissionAll
	}
	var p int64
	for _, r := range g.Roles {
		if r.ID == g.ID {
			p |= r.Permissions
		}
		for _, id := range roles {
			if r.ID == id {
				p |= r.Permissions
			}
		}
	}
	if p&discordgo.PermissionAdministrator != 0 {
		return discordgo.PermissionAll
	}
	return p
}

// memberChannelPermissions applies a channel's overwrites to the base
// permissions, in Discord's order: @everyone, the member's roles (denies
// then allows), the member.
func memberChannelPermissions(g *discordgo.Guild, ch *discordgo.Channel, userID string, roles []string) int64 {
	p := memberGuildPermissions(g, userID, roles)
	if p&discordgo.PermissionAdministrator != 0 {
		return discordgo.PermissionAll
	}
	for _, o := range ch.PermissionOverwrites {
		if o.ID == g.ID {
			p = p&^o.Deny | o.Allow
		}
	}
	var deny, allow int64
	for _, o := range ch.PermissionOverwrites {
		if o.Type != discordgo.PermissionOverwriteTypeRole {
			continue
		}
		for _, id := range roles {
			if o.ID == id {
				deny |= o.Deny
				allow |= o.Allow
			}
		}
	}
	p = p&^deny | allow
	for _, o := range ch.PermissionOverwrites {
		if o.Type == discordgo.PermissionOverwriteTypeMember && o.ID == userID {
			p = p&^o.Deny | o.Allow
		}
	}
	return p
}

// coolDown returns how long the member must still wait before key's
// action, or 0, in which case the action is counted now.
func (b *Bot) coolDown(key string, every time.Duration) time.Duration {
	now := b.Clock.Now()
	b.mu.Lock()
	defer b.mu.Unlock()
	if last, ok := b.recent[key]; ok && now.Sub(last) < every {
		return every - now.Sub(last)
	}
	if len(b.recent) > 10000 { // forget what no longer counts
		for k, t := range b.recent {
			if now.Sub(t) >= askUndoCoolDown {
				delete(b.recent, k)
			}
		}
	}
	b.recent[key] = now
	return 0
}

// roundUp says a wait in whole seconds or minutes.
func roundUp(p *locale.Printer, d time.Duration) string {
	if d <= time.Minute {
		return p.N("cmd.wait-seconds", int((d+time.Second-1)/time.Second), nil)
	}
	return p.N("cmd.wait-minutes", int((d+time.Minute-1)/time.Minute), nil)
}
