package bot

import (
	"errors"
	"net/http"
	"net/url"
	"strconv"

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
	body := webhookEdit{WebhookEdit: e, Attachments: attachmentsAfter(e.Attachments, e.Files)}
	if len(e.Files) > 0 {
		ct, raw, err := discordgo.MultipartBodyWithJSON(body, e.Files)
		if err != nil {
			return err
		}
		_, err = s.RequestRaw("PATCH", uri, ct, raw, uri, 0)
		return err
	}
	_, err := s.RequestWithBucketID("PATCH", uri, body, uri)
	return err
}

// editMessage edits a channel message, as discordgo's
// ChannelMessageEditComplex does (same rate-limit bucket), with API v10's
// "attachments".
func editMessage(s Session, e *discordgo.MessageEdit) error {
	uri := discordgo.EndpointChannelMessage(e.Channel, e.ID)
	bucket := discordgo.EndpointChannelMessage(e.Channel, "")
	body := messageEdit{MessageEdit: e, Attachments: attachmentsAfter(e.Attachments, e.Files)}
	if len(e.Files) > 0 {
		ct, raw, err := discordgo.MultipartBodyWithJSON(body, e.Files)
		if err != nil {
			return err
		}
		_, err = s.RequestRaw("PATCH", uri, ct, raw, bucket, 0)
		return err
	}
	_, err := s.RequestWithBucketID("PATCH", uri, body, bucket)
	return err
}

// attachmentRef is one entry of an edit's "attachments". From API v10 the
// list names every attachment the message has after the edit: the ones it
// keeps by their id, and each new upload by the index n of its files[n]
// part (with its file name). discordgo's MessageAttachment would also send
// empty url, size and the like, which are not part of the request.
type attachmentRef struct {
	ID       string `json:"id"`
	Filename string `json:"filename,omitempty"`
}

// attachmentsAfter is the "attachments" of an edit keeping keep (nil:
// the field is left out, so the message keeps what it has) and uploading
// files. An upload always replaces what the edit does not list: the bot
// never appends a picture to an old one.
func attachmentsAfter(keep *[]*discordgo.MessageAttachment, files []*discordgo.File) *[]attachmentRef {
	if keep == nil && len(files) == 0 {
		return nil
	}
	refs := []attachmentRef{}
	if keep != nil {
		for _, a := range *keep {
			refs = append(refs, attachmentRef{ID: a.ID})
		}
	}
	for n, f := range files {
		refs = append(refs, attachmentRef{ID: strconv.Itoa(n), Filename: f.Name})
	}
	return &refs
}

// webhookEdit and messageEdit are discordgo's edits with v10's
// "attachments": the outer field hides the embedded one in JSON.
type webhookEdit struct {
	*discordgo.WebhookEdit
	Attachments *[]attachmentRef `json:"attachments,omitempty"`
}

type messageEdit struct {
	*discordgo.MessageEdit
	Attachments *[]attachmentRef `json:"attachments,omitempty"`
	// The message's address is in the URL; discordgo would also send
	// its two fields as "ID" and "Channel" (these, always nil, hide them).
	ID      *struct{} `json:"ID,omitempty"`
	Channel *struct{} `json:"Channel,omitempty"`
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
	codeNoMutualGuilds = 50278 // Cannot send messages to this user due to having no mutual guilds
	codeUnknownChannel = 10003
)

// cannotDM reports whether Discord refused to open or write to a user's
// DMs: their privacy settings (50007), or no server shared with the bot
// (50278, an app installed to the user's account only).
func cannotDM(err error) bool {
	code := discordErrorCode(err)
	return code == codeCannotDM || code == codeNoMutualGuilds
}
