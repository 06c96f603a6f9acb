package fakediscord

import (
	"sort"
	"time"

	"github.com/bwmarrin/discordgo"
)

// everyonePermissions are the @everyone permissions of a new Discord guild
// (roughly): enough to see channels, talk and use application commands.
const everyonePermissions = discordgo.PermissionViewChannel |
	discordgo.PermissionSendMessages |
	discordgo.PermissionSendMessagesInThreads |
	discordgo.PermissionEmbedLinks |
	discordgo.PermissionAttachFiles |
	discordgo.PermissionReadMessageHistory |
	discordgo.PermissionAddReactions |
	discordgo.PermissionUseExternalEmojis |
	discordgo.PermissionUseApplicationCommands |
	discordgo.PermissionCreateInstantInvite |
	discordgo.PermissionChangeNickname |
	discordgo.PermissionVoiceConnect |
	discordgo.PermissionVoiceSpeak

type guildState struct {
	cfg      Guild
	joinedAt time.Time
	roles    []Role
	members  map[string]*Member
	order    []string // member user ids in join order
	channels []string // channel ids in order
}

type channelState struct {
	ID          string
	GuildID     string
	Name        string
	Type        discordgo.ChannelType
	ParentID    string
	Topic       string
	RecipientID string // DM channels
	// Private: a group DM or a DM between users (a user install's
	// context 2): the bot is not in it and cannot post there.
	Private    bool
	Deleted    bool
	Overwrites []*discordgo.PermissionOverwrite
}

// addGuildLocked registers g (s.mu held or not yet shared).
func (s *Server) addGuildLocked(g Guild) *guildState {
	gs := &guildState{cfg: g, joinedAt: time.Now().UTC(), members: map[string]*Member{}}
	if gs.cfg.Name == "" {
		gs.cfg.Name = "guild-" + g.ID
	}
	hasEveryone := false
	for _, r := range g.Roles {
		if r.ID == g.ID {
			hasEveryone = true
		}
	}
	if !hasEveryone {
		gs.roles = append(gs.roles, Role{ID: g.ID, Name: "@everyone", Permissions: everyonePermissions})
	}
	gs.roles = append(gs.roles, g.Roles...)
	for _, c := range g.Channels {
		s.addChannelLocked(gs, c)
	}
	if !g.WithoutBot {
		s.addMemberLocked(gs, Member{UserID: s.bot.ID, Username: s.bot.Username})
	}
	for _, m := range g.Members {
		s.addMemberLocked(gs, m)
	}
	if _, ok := s.guilds[g.ID]; !ok {
		s.guildOrder = append(s.guildOrder, g.ID)
	}
	s.guilds[g.ID] = gs
	return gs
}

func (s *Server) addChannelLocked(gs *guildState, c Channel) *channelState {
	if c.Name == "" {
		c.Name = "channel-" + c.ID
	}
	cs := &channelState{ID: c.ID, GuildID: gs.cfg.ID, Name: c.Name, Type: c.Type, ParentID: c.ParentID, Topic: c.Topic,
		Overwrites: copyOverwrites(c.Overwrites)}
	if _, ok := s.channels[c.ID]; !ok {
		gs.channels = append(gs.channels, c.ID)
	}
	s.channels[c.ID] = cs
	return cs
}

func (s *Server) addMemberLocked(gs *guildState, m Member) {
	if _, ok := s.users[m.UserID]; !ok {
		name := m.Username
		if name == "" {
			name = "user-" + m.UserID
		}
		s.users[m.UserID] = &User{ID: m.UserID, Username: name}
	}
	mc := m
	mc.Roles = append([]string(nil), m.Roles...)
	if _, ok := gs.members[m.UserID]; !ok {
		gs.order = append(gs.order, m.UserID)
	}
	gs.members[m.UserID] = &mc
}

// userLocked returns the user, creating "user-<id>" if unknown.
func (s *Server) userLocked(id string) *User {
	u, ok := s.users[id]
	if !ok {
		u = &User{ID: id, Username: "user-" + id}
		s.users[id] = u
	}
	return u
}

// AddGuild adds a guild while the fake runs, and sends GUILD_CREATE to the
// connected gateway sessions (as when the bot is invited to a server).
func (s *Server) AddGuild(g Guild) {
	s.mu.Lock()
	gs := s.addGuildLocked(g)
	payload := s.guildCreateLocked(gs)
	s.notifyLocked()
	s.mu.Unlock()
	if !g.WithoutBot {
		s.gw.broadcast("GUILD_CREATE", g.ID, payload, nil)
	}
}

// AddUser adds (or replaces) a user.
func (s *Server) AddUser(u User) {
	s.mu.Lock()
	uc := u
	s.users[u.ID] = &uc
	s.notifyLocked()
	s.mu.Unlock()
}

// AddMember adds (or replaces) a guild member and sends GUILD_MEMBER_ADD.
// It reports false if the guild is unknown.
func (s *Server) AddMember(guildID string, m Member) bool {
	s.mu.Lock()
	gs, ok := s.guilds[guildID]
	if !ok {
		s.mu.Unlock()
		return false
	}
	s.addMemberLocked(gs, m)
	mem := s.memberLocked(gs, m.UserID)
	s.notifyLocked()
	s.mu.Unlock()
	s.gw.broadcast("GUILD_MEMBER_ADD", guildID, mem, nil)
	return true
}

// AddChannel adds a channel to a guild and sends CHANNEL_CREATE. It
// reports false if the guild is unknown.
func (s *Server) AddChannel(guildID string, c Channel) bool {
	s.mu.Lock()
	gs, ok := s.guilds[guildID]
	if !ok {
		s.mu.Unlock()
		return false
	}
	cs := s.addChannelLocked(gs, c)
	ch := s.channelLocked(cs)
	s.notifyLocked()
	s.mu.Unlock()
	s.gw.broadcast("CHANNEL_CREATE", guildID, ch, nil)
	return true
}

// SetOverwrites replaces a channel's permission overwrites and sends
// CHANNEL_UPDATE. It reports false if the channel is unknown.
func (s *Server) SetOverwrites(channelID string, ows []*discordgo.PermissionOverwrite) bool {
	s.mu.Lock()
	cs, ok := s.channels[channelID]
	if !ok || cs.Deleted {
		s.mu.Unlock()
		return false
	}
	cs.Overwrites = copyOverwrites(ows)
	ch := s.channelLocked(cs)
	s.notifyLocked()
	s.mu.Unlock()
	s.gw.broadcast("CHANNEL_UPDATE", cs.GuildID, ch, nil)
	return true
}

func copyOverwrites(ows []*discordgo.PermissionOverwrite) []*discordgo.PermissionOverwrite {
	out := make([]*discordgo.PermissionOverwrite, 0, len(ows))
	for _, o := range ows {
		c := *o
		out = append(out, &c)
	}
	return out
}

// DeleteChannel deletes a channel: CHANNEL_DELETE is dispatched, and any
// later request on it is answered 404 / 10003 "Unknown Channel". It reports
// false if the channel is unknown.
func (s *Server) DeleteChannel(channelID string) bool {
	s.mu.Lock()
	cs, ok := s.channels[channelID]
	if !ok || cs.Deleted {
		s.mu.Unlock()
		return false
	}
	cs.Deleted = true
	ch := s.channelLocked(cs)
	s.notifyLocked()
	s.mu.Unlock()
	s.gw.broadcast("CHANNEL_DELETE", cs.GuildID, ch, nil)
	return true
}

// CloseDMs makes the user refuse DMs from the bot: opening the DM channel
// still works (as on Discord), but sending a message in it is answered 403
// / 50007 "Cannot send messages to this user".
func (s *Server) CloseDMs(userID string) {
	s.mu.Lock()
	s.closedDMs[userID] = true
	s.notifyLocked()
	s.mu.Unlock()
}

// NoMutualGuilds makes DMs to the user fail as for a user who installed
// the app to their account and shares no server with the bot: sending a
// message in their DM channel is answered 403 / 50278 "Cannot send
// messages to this user due to having no mutual guilds" (interaction
// responses still work). OpenDMs undoes it.
func (s *Server) NoMutualGuilds(userID string) {
	s.mu.Lock()
	s.noMutual[userID] = true
	s.notifyLocked()
	s.mu.Unlock()
}

// OpenDMs undoes CloseDMs and NoMutualGuilds.
func (s *Server) OpenDMs(userID string) {
	s.mu.Lock()
	delete(s.closedDMs, userID)
	delete(s.noMutual, userID)
	s.notifyLocked()
	s.mu.Unlock()
}

// DMChannelID returns the id of the DM channel between the bot and the
// user, or "" if it does not exist yet (it is created when the bot opens it
// or when the user runs a command in DMs).
func (s *Server) DMChannelID(userID string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.dmByUser[userID]
}

// dmChannelLocked returns the user's DM channel, creating it.
func (s *Server) dmChannelLocked(userID string) *channelState {
	if id, ok := s.dmByUser[userID]; ok {
		return s.channels[id]
	}
	cs := &channelState{ID: s.newID(), Type: discordgo.ChannelTypeDM, RecipientID: userID}
	s.channels[cs.ID] = cs
	s.dmByUser[userID] = cs.ID
	return cs
}

// privateChannelLocked is the group DM (or DM between users) id, created
// if new (a new id if "").
func (s *Server) privateChannelLocked(id string) *channelState {
	if cs, ok := s.channels[id]; ok && id != "" {
		return cs
	}
	if id == "" {
		id = s.newID()
	}
	cs := &channelState{ID: id, Type: discordgo.ChannelTypeGroupDM, Private: true}
	s.channels[id] = cs
	return cs
}

// --- wire representations ---

func (s *Server) discordUserLocked(id string) *discordgo.User {
	if id == s.bot.ID {
		return s.BotUser()
	}
	u := s.userLocked(id)
	return &discordgo.User{ID: u.ID, Username: u.Username, GlobalName: u.GlobalName, Discriminator: "0", Bot: u.Bot}
}

// permissionsLocked computes a member's guild-wide permissions.
func (s *Server) permissionsLocked(gs *guildState, m *Member) int64 {
	if m.Permissions != 0 {
		return m.Permissions
	}
	if m.UserID == gs.cfg.OwnerID || m.UserID == s.bot.ID {
		return discordgo.PermissionAll
	}
	var p int64
	for _, r := range gs.roles {
		if r.ID == gs.cfg.ID {
			p |= r.Permissions
		}
		for _, id := range m.Roles {
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

// channelPermissionsLocked computes a member's permissions in a channel:
// the guild-wide ones, then the channel's overwrites in Discord's order
// (@everyone, the member's roles with denies before allows, the member).
func (s *Server) channelPermissionsLocked(gs *guildState, cs *channelState, m *Member) int64 {
	p := s.permissionsLocked(gs, m)
	if m.Permissions != 0 || p&discordgo.PermissionAdministrator != 0 {
		return p
	}
	for _, o := range cs.Overwrites {
		if o.ID == gs.cfg.ID {
			p = p&^o.Deny | o.Allow
		}
	}
	var deny, allow int64
	for _, o := range cs.Overwrites {
		for _, r := range m.Roles {
			if o.Type == discordgo.PermissionOverwriteTypeRole && o.ID == r {
				deny |= o.Deny
				allow |= o.Allow
			}
		}
	}
	p = p&^deny | allow
	for _, o := range cs.Overwrites {
		if o.Type == discordgo.PermissionOverwriteTypeMember && o.ID == m.UserID {
			p = p&^o.Deny | o.Allow
		}
	}
	return p
}

func (s *Server) memberLocked(gs *guildState, userID string) *discordgo.Member {
	m, ok := gs.members[userID]
	if !ok {
		return nil
	}
	return &discordgo.Member{
		GuildID:     gs.cfg.ID,
		JoinedAt:    gs.joinedAt,
		Nick:        m.Nick,
		User:        s.discordUserLocked(userID),
		Roles:       append([]string{}, m.Roles...),
		Permissions: s.permissionsLocked(gs, m),
	}
}

func (s *Server) rolesLocked(gs *guildState) []*discordgo.Role {
	out := make([]*discordgo.Role, 0, len(gs.roles))
	for _, r := range gs.roles {
		out = append(out, &discordgo.Role{ID: r.ID, Name: r.Name, Permissions: r.Permissions, Position: r.Position, Color: r.Color})
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Position < out[j].Position })
	return out
}

func (s *Server) channelLocked(cs *channelState) *discordgo.Channel {
	ch := &discordgo.Channel{ID: cs.ID, GuildID: cs.GuildID, Name: cs.Name, Type: cs.Type, ParentID: cs.ParentID, Topic: cs.Topic,
		PermissionOverwrites: copyOverwrites(cs.Overwrites)}
	if cs.RecipientID != "" {
		ch.Recipients = []*discordgo.User{s.discordUserLocked(cs.RecipientID)}
	}
	if ids := s.chanMsgs[cs.ID]; len(ids) > 0 {
		ch.LastMessageID = ids[len(ids)-1]
	}
	return ch
}

func (s *Server) guildLocked(gs *guildState) *discordgo.Guild {
	return &discordgo.Guild{
		ID:              gs.cfg.ID,
		Name:            gs.cfg.Name,
		OwnerID:         gs.cfg.OwnerID,
		Roles:           s.rolesLocked(gs),
		Emojis:          []*discordgo.Emoji{},
		MemberCount:     len(gs.members),
		JoinedAt:        gs.joinedAt,
		PreferredLocale: gs.cfg.preferredLocale(),
	}
}

// preferredLocale is the guild's preferred locale, en-US unless set.
func (g Guild) preferredLocale() string {
	if g.PreferredLocale == "" {
		return string(discordgo.EnglishUS)
	}
	return g.PreferredLocale
}

func (s *Server) guildChannelsLocked(gs *guildState) []*discordgo.Channel {
	out := []*discordgo.Channel{}
	for _, id := range gs.channels {
		if cs := s.channels[id]; cs != nil && !cs.Deleted {
			out = append(out, s.channelLocked(cs))
		}
	}
	return out
}

func (s *Server) guildMembersLocked(gs *guildState) []*discordgo.Member {
	out := make([]*discordgo.Member, 0, len(gs.order))
	for _, id := range gs.order {
		out = append(out, s.memberLocked(gs, id))
	}
	return out
}

// guildCreateLocked is the GUILD_CREATE payload of a guild.
func (s *Server) guildCreateLocked(gs *guildState) *discordgo.Guild {
	g := s.guildLocked(gs)
	g.Channels = s.guildChannelsLocked(gs)
	g.Members = s.guildMembersLocked(gs)
	g.Threads = []*discordgo.Channel{}
	g.VoiceStates = []*discordgo.VoiceState{}
	g.Presences = []*discordgo.Presence{}
	return g
}
