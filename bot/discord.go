package bot

import (
	"errors"
	"net/http"
	"net/url"

	"github.com/bwmarrin/discordgo"
)

// Session is the part of *discordgo.Session the bot uses. Tests may supply
// their own; the end-to-end tests use the real discordgo client against a
// fake Discord on loopback.
type Session interface {
	InteractionRespond(i *discordgo.Interaction, r *discordgo.InteractionResponse, opts ...discordgo.RequestOption) error
	InteractionResponseEdit(i *discordgo.Interaction, e *discordgo.WebhookEdit, opts ...discordgo.RequestOption) (*discordgo.Message, error)
	FollowupMessageCreate(i *discordgo.Interaction, wait bool, data *discordgo.WebhookParams, opts ...discordgo.RequestOption) (*discordgo.Message, error)
	ChannelMessageSendComplex(channelID string, data *discordgo.MessageSend, opts ...discordgo.RequestOption) (*discordgo.Message, error)
	ChannelMessageEditComplex(m *discordgo.MessageEdit, opts ...discordgo.RequestOption) (*discordgo.Message, error)
	UserChannelCreate(recipientID string, opts ...discordgo.RequestOption) (*discordgo.Channel, error)
	ChannelMessages(channelID string, limit int, beforeID, afterID, aroundID string, opts ...discordgo.RequestOption) ([]*discordgo.Message, error)
	ApplicationCommandBulkOverwrite(appID string, guildID string, commands []*discordgo.ApplicationCommand, opts ...discordgo.RequestOption) ([]*discordgo.ApplicationCommand, error)
	RequestWithBucketID(method, urlStr string, data interface{}, bucketID string, opts ...discordgo.RequestOption) ([]byte, error)
	RequestRaw(method, urlStr, contentType string, b []byte, bucketID string, sequence int, opts ...discordgo.RequestOption) ([]byte, error)
}

// editInteraction edits an interaction's @original message. discordgo
// v0.29 puts every webhook edit without files in one shared rate-limit
// bucket, which serialises the panels of all games; Discord limits an
// interaction's webhook per token, so each token gets its own bucket here.
func editInteraction(s Session, i *discordgo.Interaction, e *discordgo.WebhookEdit) error {
	uri := discordgo.EndpointWebhookMessage(i.AppID, i.Token, "@original")
	if len(e.Files) > 0 {
		ct, body, err := discordgo.MultipartBodyWithJSON(e, e.Files)
		if err != nil {
			return err
		}
		_, err = s.RequestRaw("PATCH", uri, ct, body, uri, 0)
		return err
	}
	_, err := s.RequestWithBucketID("PATCH", uri, e, uri)
	return err
}

var _ Session = (*discordgo.Session)(nil)

// RewriteTransport sends every request to base (scheme and host), keeping
// the path: used for DISCORD_API_BASE (a rate-limit proxy shared by shards,
// or a fake Discord in tests).
type RewriteTransport struct {
	Base *url.URL
	Next http.RoundTripper
}

// RoundTrip implements http.RoundTripper.
func (t *RewriteTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.URL.Scheme = t.Base.Scheme
	r.URL.Host = t.Base.Host
	r.Host = t.Base.Host
	next := t.Next
	if next == nil {
		next = http.DefaultTransport
	}
	return next.RoundTrip(r)
}

// discordErrorCode extracts Discord's JSON error code from a REST error
// (wrapped or not).
func discordErrorCode(err error) int {
	var re *discordgo.RESTError
	if errors.As(err, &re) && re.Message != nil {
		return re.Message.Code
	}
	return 0
}

const (
	codeCannotDM       = 50007 // Cannot send messages to this user
	codeUnknownChannel = 10003
)
