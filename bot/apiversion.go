package bot

import "github.com/bwmarrin/discordgo"

// APIVersion is the Discord API version the bot speaks, REST and gateway:
// v10 (v9, discordgo v0.29's default, is deprecated).
//
// What v10 changes for this bot (docs/discord-api.md): message content
// needs a privileged intent, which the bot does not ask for, as it reads
// no member's messages (it reads back only its own, whose content Discord
// always gives it); and an edit's "attachments" must list every file the
// message keeps, new uploads included (editMessage, editInteraction).
const APIVersion = "10"

// discordgo v0.29 has the version as a package variable, APIVersion, but
// builds its endpoint strings from it once, when its package initialises:
// changing the variable afterwards only changes the gateway's "?v=". The
// endpoint functions read those strings when called, so rebuilding the
// strings moves every request. This is done here, in this package's
// initialisation, before any session exists: nothing can race it, and
// every session in the process (two bots in one test binary included)
// speaks the same version from its first request.
func init() { useAPIVersion(APIVersion) }

// useAPIVersion points discordgo at version v (what its endpoints.go does
// at initialisation, with v instead of its default).
func useAPIVersion(v string) {
	discordgo.APIVersion = v
	discordgo.EndpointAPI = discordgo.EndpointDiscord + "api/v" + v + "/"
	discordgo.EndpointGuilds = discordgo.EndpointAPI + "guilds/"
	discordgo.EndpointChannels = discordgo.EndpointAPI + "channels/"
	discordgo.EndpointUsers = discordgo.EndpointAPI + "users/"
	discordgo.EndpointGateway = discordgo.EndpointAPI + "gateway"
	discordgo.EndpointGatewayBot = discordgo.EndpointGateway + "/bot"
	discordgo.EndpointWebhooks = discordgo.EndpointAPI + "webhooks/"
	discordgo.EndpointStickers = discordgo.EndpointAPI + "stickers/"
	discordgo.EndpointStageInstances = discordgo.EndpointAPI + "stage-instances"
	discordgo.EndpointSKUs = discordgo.EndpointAPI + "skus"
	discordgo.EndpointVoice = discordgo.EndpointAPI + "/voice/"
	discordgo.EndpointVoiceRegions = discordgo.EndpointVoice + "regions"
	discordgo.EndpointNitroStickersPacks = discordgo.EndpointAPI + "/sticker-packs"
	discordgo.EndpointGuildCreate = discordgo.EndpointAPI + "guilds"
	discordgo.EndpointApplications = discordgo.EndpointAPI + "applications"
	discordgo.EndpointOAuth2 = discordgo.EndpointAPI + "oauth2/"
	discordgo.EndpointOAuth2Applications = discordgo.EndpointOAuth2 + "applications"
	discordgo.EndpointOauth2 = discordgo.EndpointOAuth2
	discordgo.EndpointOauth2Applications = discordgo.EndpointOAuth2Applications
}
