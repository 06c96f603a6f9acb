package bot

import (
	"testing"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The gateway's cache is read through copies taken under its lock:
// discordgo updates a cached channel in place (CHANNEL_UPDATE), which
// must not change, or race with, what a permission check is reading.
func TestStateDirectoryHandsOutCopies(t *testing.T) {
	st := discordgo.NewState()
	require.NoError(t, st.GuildAdd(&discordgo.Guild{ID: "g", OwnerID: "o", Roles: []*discordgo.Role{{ID: "g", Permissions: discordgo.PermissionViewChannel}}}))
	require.NoError(t, st.ChannelAdd(&discordgo.Channel{ID: "c", GuildID: "g", Type: discordgo.ChannelTypeGuildText}))
	b := New(Deps{Directory: st})
	d, ok := b.Directory.(stateDirectory)
	require.True(t, ok, "New wraps the cache")

	ch, err := d.Channel("c")
	require.NoError(t, err)
	g, err := d.Guild("g")
	require.NoError(t, err)
	assert.Equal(t, int64(discordgo.PermissionViewChannel), memberChannelPermissions(g, ch, "u", nil)&discordgo.PermissionViewChannel)

	deny := []*discordgo.PermissionOverwrite{{ID: "g", Type: discordgo.PermissionOverwriteTypeRole, Deny: discordgo.PermissionViewChannel}}
	require.NoError(t, st.ChannelAdd(&discordgo.Channel{ID: "c", GuildID: "g", Type: discordgo.ChannelTypeGuildText, PermissionOverwrites: deny}))
	assert.Empty(t, ch.PermissionOverwrites, "the copy taken before the update is unchanged")
	ch, err = d.Channel("c")
	require.NoError(t, err)
	assert.Zero(t, memberChannelPermissions(g, ch, "u", nil)&discordgo.PermissionViewChannel, "a new copy has the update")
	_, err = d.Channel("missing")
	assert.Error(t, err)
}
