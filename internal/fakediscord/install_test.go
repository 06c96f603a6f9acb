package fakediscord

import (
	"errors"
	"net/http"
	"testing"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rfop/rfop/internal/testctx"
)

// A command made through an install or in a context its registration does
// not list is refused, as Discord would not offer it (a Where given to
// SlashCommandWhere is checked, not only sent).
func TestSlashCommandWhereChecksInstallsAndContexts(t *testing.T) {
	t.Parallel()
	ctx := testctx.Context(t)
	rec := &recTB{TB: t}
	srv := New(rec, WithGuild(testGuild()))
	h, errs := respondWith(func(s *discordgo.Session, ic *discordgo.InteractionCreate) error {
		return s.InteractionRespond(ic.Interaction, &discordgo.InteractionResponse{
			Type: discordgo.InteractionResponseChannelMessageWithSource,
			Data: &discordgo.InteractionResponseData{Content: "ok", Flags: discordgo.MessageFlagsEphemeral}})
	})
	dg := open(t, srv, h)
	serverOnly := []discordgo.ApplicationIntegrationType{discordgo.ApplicationIntegrationGuildInstall}
	both := []discordgo.ApplicationIntegrationType{discordgo.ApplicationIntegrationGuildInstall, discordgo.ApplicationIntegrationUserInstall}
	notPrivate := []discordgo.InteractionContextType{discordgo.InteractionContextGuild, discordgo.InteractionContextBotDM}
	_, err := dg.ApplicationCommandBulkOverwrite(srv.AppID(), "", []*discordgo.ApplicationCommand{
		{Name: "server", Description: "Server install only", IntegrationTypes: &serverOnly},
		{Name: "mine", Description: "Both installs, not in group DMs", IntegrationTypes: &both, Contexts: &notPrivate},
	})
	require.NoError(t, err)

	assert.Error(t, srv.SlashCommandWhere("u1", "", "", Where{UserInstall: true}, "server").Err(), "no user install")
	assert.Error(t, srv.SlashCommandWhere("u1", "", "", Where{UserInstall: true, Private: true}, "mine").Err(), "not in context 2")
	assert.Len(t, rec.errors(), 2)
	i := srv.SlashCommandWhere("u1", "", "", Where{UserInstall: true}, "mine")
	require.NoError(t, i.Err())
	_, err = i.WaitResponse(ctx)
	require.NoError(t, err)
	noErrors(t, errs)
}

// A guild the bot is not in (Guild.WithoutBot): the gateway does not
// announce it, the REST API refuses it to the bot, and only the user
// install reaches it, with authorizing_integration_owners naming that
// install alone.
func TestGuildWithoutTheBot(t *testing.T) {
	t.Parallel()
	ctx := testctx.Context(t)
	rec := &recTB{TB: t}
	srv := New(rec, WithGuild(testGuild()), WithGuild(Guild{ID: "g9", Name: "Elsewhere", OwnerID: "u1", WithoutBot: true,
		Channels: []Channel{{ID: "c9", Name: "general"}}, Members: []Member{{UserID: "u1", Username: "alice"}}}))
	got := make(chan *discordgo.Interaction, 1)
	h, errs := respondWith(func(s *discordgo.Session, ic *discordgo.InteractionCreate) error {
		got <- ic.Interaction
		return s.InteractionRespond(ic.Interaction, &discordgo.InteractionResponse{
			Type: discordgo.InteractionResponseChannelMessageWithSource,
			Data: &discordgo.InteractionResponseData{Content: "only you", Flags: discordgo.MessageFlagsEphemeral}})
	})
	dg := open(t, srv, h)
	require.True(t, srv.WaitFor(ctx, func() bool { _, err := dg.State.Guild("g1"); return err == nil }), "g1 is announced")
	_, err := dg.State.Guild("g9")
	assert.Error(t, err, "g9 is not")
	mine, err := dg.UserGuilds(100, "", "", false)
	require.NoError(t, err)
	require.Len(t, mine, 1)
	assert.Equal(t, "g1", mine[0].ID)

	missingAccess := func(err error) bool {
		var rest *discordgo.RESTError
		return errors.As(err, &rest) && rest.Response.StatusCode == http.StatusForbidden && rest.Message != nil && rest.Message.Code == 50001
	}
	_, err = dg.Guild("g9")
	assert.True(t, missingAccess(err), "the guild: %v", err)
	_, err = dg.Channel("c9")
	assert.True(t, missingAccess(err), "its channel: %v", err)
	_, err = dg.ChannelMessageSend("c9", "hello")
	assert.True(t, missingAccess(err), "posting there: %v", err)
	_, err = dg.GuildMember("g9", "u1")
	assert.True(t, missingAccess(err), "its members: %v", err)
	assert.Empty(t, srv.Messages("c9"))

	assert.Error(t, srv.SlashCommand("u1", "g9", "c9", "game").Err(), "the server's install does not reach it")
	assert.Len(t, rec.errors(), 1)
	i := srv.SlashCommandWhere("u1", "g9", "c9", Where{UserInstall: true}, "game")
	require.NoError(t, i.Err())
	resp, err := i.WaitResponse(ctx)
	require.NoError(t, err)
	assert.True(t, resp.Ephemeral())
	ic := <-got
	assert.Equal(t, "g9", ic.GuildID)
	assert.Equal(t, "c9", ic.ChannelID)
	assert.Equal(t, discordgo.InteractionContextGuild, ic.Context)
	assert.Equal(t, map[discordgo.ApplicationIntegrationType]string{discordgo.ApplicationIntegrationUserInstall: "u1"},
		ic.AuthorizingIntegrationOwners, "only the user's install")
	assert.Equal(t, int64(everyonePermissions), ic.AppPermissions)
	noErrors(t, errs)
}
