package bot

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Every endpoint discordgo builds, REST and gateway, names API v10 once
// this package is initialised (the end-to-end tests check each request:
// the fake serves only v10 to them).
func TestDiscordgoSpeaksAPIv10(t *testing.T) {
	t.Parallel()
	assert.Equal(t, "10", discordgo.APIVersion, "the gateway's ?v=")
	for _, u := range []string{
		discordgo.EndpointAPI, discordgo.EndpointGuilds, discordgo.EndpointChannels, discordgo.EndpointUsers,
		discordgo.EndpointGateway, discordgo.EndpointGatewayBot, discordgo.EndpointWebhooks, discordgo.EndpointStickers,
		discordgo.EndpointStageInstances, discordgo.EndpointSKUs, discordgo.EndpointVoice, discordgo.EndpointVoiceRegions,
		discordgo.EndpointNitroStickersPacks, discordgo.EndpointGuildCreate, discordgo.EndpointApplications,
		discordgo.EndpointOAuth2, discordgo.EndpointOAuth2Applications, discordgo.EndpointOauth2, discordgo.EndpointOauth2Applications,
		// What the bot calls.
		discordgo.EndpointInteractionResponse("i", "t"), discordgo.EndpointWebhookMessage("a", "t", "@original"),
		discordgo.EndpointFollowupMessage("a", "t"), discordgo.EndpointChannelMessages("c"), discordgo.EndpointChannelMessage("c", "m"),
		discordgo.EndpointUserChannels("@me"), discordgo.EndpointApplicationGlobalCommands("a"),
		discordgo.EndpointApplicationGuildCommands("a", "g"), discordgo.EndpointOAuth2Application("@me"),
	} {
		assert.True(t, strings.HasPrefix(u, "https://discord.com/api/v10/"), u)
	}
}

// An edit that uploads lists its new files by index, after what it keeps
// (API v10), with only the fields a request takes.
func TestEditListsItsUploads(t *testing.T) {
	t.Parallel()
	png := []*discordgo.File{{Name: "board.png"}, {Name: "legend.png"}}
	assert.Nil(t, attachmentsAfter(nil, nil), "no list: the message keeps its attachments")
	assert.Equal(t, []attachmentRef{}, *attachmentsAfter(&[]*discordgo.MessageAttachment{}, nil))
	assert.Equal(t, []attachmentRef{{ID: "0", Filename: "board.png"}, {ID: "1", Filename: "legend.png"}}, *attachmentsAfter(nil, png))
	assert.Equal(t, []attachmentRef{{ID: "55"}, {ID: "0", Filename: "board.png"}},
		*attachmentsAfter(&[]*discordgo.MessageAttachment{{ID: "55", URL: "x"}}, png[:1]))

	content := "hello"
	raw, err := json.Marshal(webhookEdit{WebhookEdit: &discordgo.WebhookEdit{Content: &content,
		Attachments: &[]*discordgo.MessageAttachment{}}, Attachments: attachmentsAfter(&[]*discordgo.MessageAttachment{}, png[:1])})
	require.NoError(t, err)
	assert.JSONEq(t, `{"content":"hello","attachments":[{"id":"0","filename":"board.png"}]}`, string(raw))
	raw, err = json.Marshal(messageEdit{MessageEdit: &discordgo.MessageEdit{ID: "m", Channel: "c", Content: &content}})
	require.NoError(t, err)
	assert.JSONEq(t, `{"content":"hello"}`, string(raw), "no attachments field: kept")
}
