package fakediscord

import (
	"encoding/json"
	"testing"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rfop/rfop/internal/testctx"
)

// Channel permission overwrites reach the client's state (so it can
// compute what a member may see), and an interaction's member permissions
// are computed for its channel, as Discord does.
func TestChannelOverwrites(t *testing.T) {
	ctx := testctx.Context(t)
	g := testGuild()
	g.Roles = append(g.Roles, Role{ID: "mods", Name: "mods"})
	g.Members = append(g.Members, Member{UserID: "u3", Username: "carol", Roles: []string{"mods"}})
	g.Channels = append(g.Channels, Channel{ID: "secret", Name: "secret", Overwrites: []*discordgo.PermissionOverwrite{
		{ID: "g1", Type: discordgo.PermissionOverwriteTypeRole, Deny: discordgo.PermissionViewChannel},
		{ID: "mods", Type: discordgo.PermissionOverwriteTypeRole, Allow: discordgo.PermissionViewChannel | discordgo.PermissionManageChannels},
		{ID: "u2", Type: discordgo.PermissionOverwriteTypeMember, Allow: discordgo.PermissionViewChannel},
	}})
	srv := New(t, WithGuild(g))
	dg := open(t, srv)

	var ch *discordgo.Channel
	require.True(t, srv.WaitFor(ctx, func() bool {
		var err error
		ch, err = dg.State.Channel("secret")
		return err == nil
	}), "GUILD_CREATE reaches the state")
	require.Len(t, ch.PermissionOverwrites, 3)
	assert.Equal(t, int64(discordgo.PermissionViewChannel), ch.PermissionOverwrites[0].Deny)

	perms := func(user, channel string) int64 {
		t.Helper()
		i := srv.SlashCommand(user, "g1", channel, "x")
		var p struct {
			Member struct {
				Permissions string `json:"permissions"`
			} `json:"member"`
		}
		require.NoError(t, json.Unmarshal(i.Payload, &p))
		var v int64
		require.NoError(t, json.Unmarshal([]byte(p.Member.Permissions), &v))
		return v
	}
	assert.NotZero(t, perms("u3", "secret")&discordgo.PermissionManageChannels, "the role overwrite allows")
	assert.Zero(t, perms("u3", "c1")&discordgo.PermissionManageChannels, "only in that channel")
	assert.NotZero(t, perms("u2", "secret")&discordgo.PermissionViewChannel, "the member overwrite allows")
	assert.Equal(t, int64(discordgo.PermissionAll), perms("u1", "secret"), "the owner has every permission")

	require.True(t, srv.SetOverwrites("secret", nil))
	require.True(t, srv.WaitFor(ctx, func() bool {
		ch, err := dg.State.Channel("secret")
		return err == nil && len(ch.PermissionOverwrites) == 0
	}), "CHANNEL_UPDATE reaches the state")
	assert.Zero(t, perms("u3", "secret")&discordgo.PermissionManageChannels)
}
