package fakediscord

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image"
	_ "image/gif"  // decode GIF attachments
	_ "image/jpeg" // decode JPEG attachments
	_ "image/png"  // decode PNG attachments
	"net/url"
	"slices"
	"time"

	"github.com/bwmarrin/discordgo"
)

// Message is one version of a message as the fake stored it. A Message is
// an immutable snapshot: every edit creates a new *Message (see
// MessageHistory), so it is safe to keep and read from any goroutine.
type Message struct {
	ID        string
	ChannelID string
	GuildID   string // "" in DMs
	AuthorID  string // the bot's user id, or a user's for Say
	Type      discordgo.MessageType
	Content   string
	Embeds    []*discordgo.MessageEmbed
	// Components is the component tree as sent (action rows, or components
	// v2 containers); see AllComponents, Button, FindComponent.
	Components []*Component
	// RawComponents is the components JSON exactly as the bot sent it.
	RawComponents json.RawMessage
	Attachments   []*Attachment
	Flags         discordgo.MessageFlags

	CreatedAt time.Time
	EditedAt  time.Time // zero if never edited
	Version   int       // 0 when created, +1 per edit
	Deleted   bool      // the last version of a deleted message

	// InteractionID is set on messages created through an interaction
	// (initial response or follow-up).
	InteractionID string
	// EphemeralTo is the id of the only user who sees the message
	// (ephemeral interaction responses and follow-ups).
	EphemeralTo string
	// WebhookID is the application id for interaction messages.
	WebhookID string
	// ReplyTo is the message_reference message id, if any.
	ReplyTo string
	// Notified lists the users this version pings: the user mentions of
	// a new message's content that its allowed_mentions permit (all when
	// absent), in order of appearance. Edits notify nobody, as on Discord.
	Notified []string
}

// Ephemeral reports whether the message is ephemeral (flag 64).
func (m *Message) Ephemeral() bool { return m.Flags&discordgo.MessageFlagsEphemeral != 0 }

// Loading reports whether the message is a deferred "thinking..." message
// that has not been filled in yet (flag 128).
func (m *Message) Loading() bool { return m.Flags&discordgo.MessageFlagsLoading != 0 }

// AllComponents returns every component of the message, depth first
// (rows, then their buttons and menus; sections' accessories included).
func (m *Message) AllComponents() []*Component {
	var out []*Component
	var walk func(cs []*Component)
	walk = func(cs []*Component) {
		for _, c := range cs {
			if c == nil {
				continue
			}
			out = append(out, c)
			walk(c.Components)
			if c.Accessory != nil {
				walk([]*Component{c.Accessory})
			}
		}
	}
	walk(m.Components)
	return out
}

// Buttons returns the message's buttons in order.
func (m *Message) Buttons() []*Component {
	var out []*Component
	for _, c := range m.AllComponents() {
		if c.Type == discordgo.ButtonComponent {
			out = append(out, c)
		}
	}
	return out
}

// Button returns the button whose custom_id or label is key, or nil.
// custom_id matches win over label matches.
func (m *Message) Button(key string) *Component {
	bs := m.Buttons()
	for _, b := range bs {
		if b.CustomID == key {
			return b
		}
	}
	for _, b := range bs {
		if b.Label == key {
			return b
		}
	}
	return nil
}

// FindComponent returns the component (of any type) with this custom_id,
// or nil.
func (m *Message) FindComponent(customID string) *Component {
	for _, c := range m.AllComponents() {
		if c.CustomID == customID && customID != "" {
			return c
		}
	}
	return nil
}

// SelectMenus returns the message's select menus (all kinds) in order.
func (m *Message) SelectMenus() []*Component {
	var out []*Component
	for _, c := range m.AllComponents() {
		if c.isSelect() {
			out = append(out, c)
		}
	}
	return out
}

// Attachment returns the attachment with this filename, or nil.
func (m *Message) Attachment(filename string) *Attachment {
	for _, a := range m.Attachments {
		if a.Filename == filename {
			return a
		}
	}
	return nil
}

func (m *Message) String() string {
	return fmt.Sprintf("message %s v%d in %s: %q (%d embeds, %d components, %d files, flags %d)",
		m.ID, m.Version, m.ChannelID, m.Content, len(m.Embeds), len(m.AllComponents()), len(m.Attachments), m.Flags)
}

// Component is a message (or modal) component as sent by the bot. It
// covers every component type: unused fields are zero.
type Component struct {
	Type        discordgo.ComponentType   `json:"type"`
	ID          int                       `json:"id,omitempty"`
	CustomID    string                    `json:"custom_id,omitempty"`
	Label       string                    `json:"label,omitempty"`
	Style       int                       `json:"style,omitempty"`
	Disabled    bool                      `json:"disabled,omitempty"`
	URL         string                    `json:"url,omitempty"`
	Emoji       *discordgo.ComponentEmoji `json:"emoji,omitempty"`
	Placeholder string                    `json:"placeholder,omitempty"`
	MinValues   *int                      `json:"min_values,omitempty"`
	MaxValues   int                       `json:"max_values,omitempty"`
	Options     []SelectOption            `json:"options,omitempty"`
	Value       string                    `json:"value,omitempty"`    // text input
	Required    *bool                     `json:"required,omitempty"` // text input
	Content     string                    `json:"content,omitempty"`  // text display (components v2)
	Components  []*Component              `json:"components,omitempty"`
	Accessory   *Component                `json:"accessory,omitempty"`
	Component   *Component                `json:"component,omitempty"` // label (components v2)
}

// SelectOption is an option of a string select menu.
type SelectOption struct {
	Label       string `json:"label"`
	Value       string `json:"value"`
	Description string `json:"description,omitempty"`
	Default     bool   `json:"default,omitempty"`
}

func (c *Component) isSelect() bool {
	switch c.Type {
	case discordgo.SelectMenuComponent, discordgo.UserSelectMenuComponent, discordgo.RoleSelectMenuComponent,
		discordgo.MentionableSelectMenuComponent, discordgo.ChannelSelectMenuComponent:
		return true
	}
	return false
}

// Attachment is an uploaded file, with its bytes.
type Attachment struct {
	ID          string
	MessageID   string
	ChannelID   string
	Filename    string
	ContentType string
	Size        int
	Width       int // images only
	Height      int // images only
	Data        []byte
	// URL serves Data from the fake.
	URL        string
	UploadedAt time.Time
}

// Image decodes the attachment (PNG, JPEG or GIF).
func (a *Attachment) Image() (image.Image, error) {
	img, _, err := image.Decode(bytes.NewReader(a.Data))
	return img, err
}

// MessageEventKind says what happened to a message.
type MessageEventKind string

// Kinds of MessageEvent.
const (
	MessageCreated MessageEventKind = "create"
	MessageEdited  MessageEventKind = "edit"
	MessageDeleted MessageEventKind = "delete"
)

// MessageEvent is one entry of the global message log.
type MessageEvent struct {
	Kind    MessageEventKind
	Message *Message // the version after the event
	At      time.Time
}

// InteractionResponse is the initial response (callback) of an interaction.
type InteractionResponse struct {
	Type        discordgo.InteractionResponseType
	Content     string
	Flags       discordgo.MessageFlags
	Embeds      []*discordgo.MessageEmbed
	Components  []*Component
	Attachments []*Attachment
	// Choices of an autocomplete result (type 8).
	Choices []*discordgo.ApplicationCommandOptionChoice
	// CustomID and Title of a modal (type 9); its fields are Components.
	CustomID string
	Title    string
	// Raw is the JSON body (payload_json for multipart requests).
	Raw json.RawMessage

	Interaction *Interaction
	ReceivedAt  time.Time
	// Latency is ReceivedAt minus the time the INTERACTION_CREATE was
	// written to the gateway.
	Latency time.Duration
	// Message is the message created (types 4, 5) or updated (type 7), or
	// the message the component is on (type 6), right after the callback.
	Message *Message
}

// Ephemeral reports whether the response asked for an ephemeral message.
func (r *InteractionResponse) Ephemeral() bool { return r.Flags&discordgo.MessageFlagsEphemeral != 0 }

// --- recorder accessors ---

type msgState struct {
	seq     int // index in Server.created
	cur     *Message
	history []*Message
	token   string // interaction token that owns it
}

// Message returns the current version of a message (nil if unknown). A
// deleted message is returned with Deleted set.
func (s *Server) Message(id string) *Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	if ms := s.msgs[id]; ms != nil {
		return ms.cur
	}
	return nil
}

// MessageHistory returns every version of a message, oldest first.
func (s *Server) MessageHistory(id string) []*Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	if ms := s.msgs[id]; ms != nil {
		return slices.Clone(ms.history)
	}
	return nil
}

// Messages returns the current, non-deleted, non-ephemeral messages of a
// channel (what everyone sees), oldest first.
func (s *Server) Messages(channelID string) []*Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.visibleLocked(channelID)
}

func (s *Server) visibleLocked(channelID string) []*Message {
	var out []*Message
	for _, id := range s.chanMsgs[channelID] {
		m := s.msgs[id].cur
		if !m.Deleted && !m.Ephemeral() {
			out = append(out, m)
		}
	}
	return out
}

// LastMessage returns the newest visible message of a channel, or nil.
func (s *Server) LastMessage(channelID string) *Message {
	ms := s.Messages(channelID)
	if len(ms) == 0 {
		return nil
	}
	return ms[len(ms)-1]
}

// DMs returns the current visible messages of the DM channel between the
// bot and the user, oldest first.
func (s *Server) DMs(userID string) []*Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	id := s.dmByUser[userID]
	if id == "" {
		return nil
	}
	return s.visibleLocked(id)
}

// Ephemerals returns the current, non-deleted ephemeral messages that only
// this user sees (in any channel), oldest first.
func (s *Server) Ephemerals(userID string) []*Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []*Message
	for _, ev := range s.msgEvents {
		if ev.Kind != MessageCreated || ev.Message.EphemeralTo != userID {
			continue
		}
		if m := s.msgs[ev.Message.ID].cur; !m.Deleted {
			out = append(out, m)
		}
	}
	return out
}

// FindMessage returns the newest current message (any channel, ephemeral
// ones included, deleted ones excluded) for which match is true, or nil.
// match runs without the fake's lock held (it may call the fake); the
// messages are read a chunk at a time, newest first, without copying the
// whole store (load tests call this from hundreds of waiters at once).
func (s *Server) FindMessage(match func(*Message) bool) *Message {
	var buf [scanChunk]*Message
	s.mu.Lock()
	end := len(s.created)
	s.mu.Unlock()
	for end > 0 {
		start := max(0, end-scanChunk)
		n := 0
		s.mu.Lock()
		for i := end - 1; i >= start; i-- {
			buf[n] = s.created[i].cur
			n++
		}
		s.mu.Unlock()
		for _, m := range buf[:n] {
			if !m.Deleted && match(m) {
				return m
			}
		}
		end = start
	}
	return nil
}

// scanChunk is how many messages FindMessage reads under one lock.
const scanChunk = 256

// WaitMessage waits until FindMessage(match) finds a message, or ctx
// ends. match must depend only on the message it is given (and on what
// the fake does not change, like a DM channel's id): after one full
// search, only messages created or changed since are looked at again.
func (s *Server) WaitMessage(ctx context.Context, match func(*Message) bool) (*Message, error) {
	cursor := s.Cursor()
	if got := s.FindMessage(match); got != nil {
		return got, nil
	}
	return s.WaitMessageAfter(ctx, cursor, match)
}

// Cursor is the current position in the log of message creations, edits
// and deletions (MessageEvents), for WaitMessageAfter: take it before
// looking at what the bot did, so that nothing it does after that look is
// missed.
func (s *Server) Cursor() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.msgEvents)
}

// WaitMessageAfter waits until a message created or changed after cursor
// (see Cursor) matches, and returns it in its current version (the most
// recently changed one if several match), or gives up when ctx ends.
func (s *Server) WaitMessageAfter(ctx context.Context, cursor int, match func(*Message) bool) (*Message, error) {
	type changed struct {
		seq int
		m   *Message
	}
	var batch []changed
	var got *Message
	seen := cursor
	if s.WaitFor(ctx, func() bool {
		batch = batch[:0]
		s.mu.Lock()
		for _, ev := range s.msgEvents[min(seen, len(s.msgEvents)):] {
			ms := s.msgs[ev.Message.ID]
			batch = append(batch, changed{ms.seq, ms.cur})
		}
		seen = len(s.msgEvents)
		s.mu.Unlock()
		best := -1
		for _, c := range batch {
			if c.seq > best && !c.m.Deleted && match(c.m) {
				got, best = c.m, c.seq
			}
		}
		return got != nil
	}) {
		return got, nil
	}
	return nil, fmt.Errorf("fakediscord: no matching message (%v)", stopped(ctx))
}

// MessageEvents returns the global log of message creations, edits and
// deletions, in order.
func (s *Server) MessageEvents() []MessageEvent {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.msgEvents)
}

// Files returns every file uploaded by the bot, in order.
func (s *Server) Files() []*Attachment {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.files)
}

// Interactions returns every interaction dispatched by the simulation
// helpers, in order.
func (s *Server) Interactions() []*Interaction {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]*Interaction, 0, len(s.ixOrder))
	for _, st := range s.ixOrder {
		out = append(out, st.h)
	}
	return out
}

// InteractionResponses returns every accepted initial interaction response,
// in the order they arrived.
func (s *Server) InteractionResponses() []*InteractionResponse {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.responses)
}

// ResponseLatencies returns, for every interaction that got its initial
// response, the time from writing INTERACTION_CREATE to the gateway to
// receiving the callback.
func (s *Server) ResponseLatencies() []time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]time.Duration, 0, len(s.responses))
	for _, r := range s.responses {
		out = append(out, r.Latency)
	}
	return out
}

// Commands returns the registered application commands of a guild, or the
// global ones for guildID "".
func (s *Server) Commands(guildID string) []*discordgo.ApplicationCommand {
	s.mu.Lock()
	defer s.mu.Unlock()
	return cloneCommands(s.commands[guildID])
}

// Requests returns the log of REST requests (without bodies), in order.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]Request, len(s.requests))
	for i, r := range s.requests {
		out[i] = *r
	}
	return out
}

// Unknown returns the requests that hit no route ("METHOD /path?query").
func (s *Server) Unknown() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.unknown)
}

// RateLimited returns how many requests were answered 429 by RateLimit.
func (s *Server) RateLimited() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.rateLimited
}

// attachmentURL is where the fake serves an attachment.
func (s *Server) attachmentURL(channelID, id, filename string) string {
	return s.hs.URL + "/attachments/" + channelID + "/" + id + "/" + url.PathEscape(filename)
}
