package fakediscord

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/bwmarrin/discordgo"
)

// maxBody bounds a request body; maxFileSize is Discord's default upload
// limit per file.
const (
	maxBody     = 64 << 20
	maxFileSize = 10 << 20
)

// upload is a file part of a multipart request.
type upload struct {
	index       int
	name        string
	contentType string
	data        []byte
}

// parseBody reads a JSON or multipart/form-data (payload_json + files[n])
// body. payload is the JSON document; raw the whole body.
// readBody reads a request's body, at most maxBody+1 bytes, into one
// buffer of its announced length (io.ReadAll would grow a picture's
// upload by doubling: the load benchmarks' largest allocation).
func readBody(r *http.Request) ([]byte, error) {
	if n := r.ContentLength; n > 0 && n <= maxBody {
		raw := make([]byte, n, n+1)
		if _, err := io.ReadFull(r.Body, raw); err != nil {
			return nil, err
		}
		// Anything past the announced length is read too, so that an
		// oversized body is still refused below.
		rest, err := io.ReadAll(io.LimitReader(r.Body, maxBody+1-n))
		return append(raw, rest...), err
	}
	return io.ReadAll(io.LimitReader(r.Body, maxBody+1))
}

func parseBody(r *http.Request) (raw, payload []byte, files []*upload, err error) {
	if r.Body == nil {
		return nil, nil, nil, nil
	}
	raw, err = readBody(r)
	if err != nil {
		return nil, nil, nil, err
	}
	if len(raw) > maxBody {
		return nil, nil, nil, fmt.Errorf("request body larger than %d bytes", maxBody)
	}
	mt, params, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if mt != "multipart/form-data" {
		return raw, raw, nil, nil
	}
	mr := multipart.NewReader(bytes.NewReader(raw), params["boundary"])
	next := 0
	for {
		p, perr := mr.NextPart()
		if perr == io.EOF {
			break
		}
		if perr != nil {
			return raw, nil, nil, fmt.Errorf("bad multipart body: %v", perr)
		}
		data, rerr := io.ReadAll(p)
		if rerr != nil {
			return raw, nil, nil, fmt.Errorf("bad multipart body: %v", rerr)
		}
		name := p.FormName()
		switch {
		case name == "payload_json":
			payload = data
		case p.FileName() != "" || strings.HasPrefix(name, "files["):
			idx := next
			if strings.HasPrefix(name, "files[") && strings.HasSuffix(name, "]") {
				if n, e := strconv.Atoi(name[len("files[") : len(name)-1]); e == nil {
					idx = n
				}
			}
			next = idx + 1
			files = append(files, &upload{index: idx, name: p.FileName(), contentType: p.Header.Get("Content-Type"), data: data})
		}
	}
	return raw, payload, files, nil
}

// fields is a decoded JSON object whose keys we test for presence (absent
// and null differ in PATCH requests).
type fields map[string]json.RawMessage

func decodeFields(payload []byte) (fields, *apiErr) {
	f := fields{}
	if len(bytes.TrimSpace(payload)) == 0 {
		return f, nil
	}
	if err := json.Unmarshal(payload, &f); err != nil {
		return nil, errBadJSON(err)
	}
	return f, nil
}

func (f fields) has(k string) bool { _, ok := f[k]; return ok }

func (f fields) null(k string) bool {
	v, ok := f[k]
	return ok && (len(v) == 0 || string(v) == "null")
}

// decode decodes key k into v; absent or null leaves v alone.
func (f fields) decode(k string, v any) *apiErr {
	if !f.has(k) || f.null(k) {
		return nil
	}
	if err := json.Unmarshal(f[k], v); err != nil {
		return invalidForm(k, err.Error())
	}
	return nil
}

// checkEditAttachments applies API v10's rule to an edit (of prev) that
// uploads files: its "attachments" names every attachment the message has
// after the edit, the ones it keeps by id and each new file by the index n
// of its files[n] part. Discord documents the list as required; the fake
// refuses an edit without it, or leaving out an upload, so that a client
// that forgets it sees its mistake instead of a picture that never shows.
// Earlier versions and edits without files are not checked.
func (s *Server) checkEditAttachments(c *rctx, prev *Message, f fields) *apiErr {
	if c.req.APIVersion < 10 || len(c.files) == 0 || s.cfg.noValidation {
		return nil
	}
	if !f.has("attachments") || f.null("attachments") {
		return invalidForm("attachments", "API v10: an edit that uploads files must list them in attachments (files[n] as id n)")
	}
	var list []struct {
		ID json.RawMessage `json:"id"`
	}
	if e := f.decode("attachments", &list); e != nil {
		return e
	}
	kept := map[string]bool{}
	for _, a := range prev.Attachments {
		kept[a.ID] = true
	}
	uploaded := map[string]bool{}
	for _, up := range c.files {
		uploaded[strconv.Itoa(up.index)] = true
	}
	listed := map[string]bool{}
	for k, a := range list {
		id := strings.Trim(string(a.ID), `"`)
		if id == "" || id == "null" {
			return invalidForm(fmt.Sprintf("attachments.%d.id", k), "This field is required")
		}
		if !kept[id] && !uploaded[id] {
			return invalidForm(fmt.Sprintf("attachments.%d.id", k), "Unknown attachment "+id+": neither one of the message's nor an uploaded files[n]")
		}
		listed[id] = true
	}
	for _, up := range c.files {
		if !listed[strconv.Itoa(up.index)] {
			return invalidForm("attachments", fmt.Sprintf("API v10: the uploaded files[%d] is not listed in attachments", up.index))
		}
	}
	return nil
}

// buildMessage applies a create (prev == nil) or edit payload and returns
// the new version plus the newly uploaded attachments.
func (s *Server) buildMessage(prev *Message, f fields, files []*upload, allowEphemeral bool) (*Message, []*Attachment, *apiErr) {
	now := time.Now().UTC()
	var m Message
	if prev != nil {
		m = *prev
		m.Version = prev.Version + 1
		if !prev.Loading() { // filling a deferred response is not an edit
			m.EditedAt = now
		}
		m.Attachments = append([]*Attachment(nil), prev.Attachments...)
	} else {
		m.ID = s.newID()
		m.CreatedAt = now
	}

	if f.has("content") {
		m.Content = ""
		if e := f.decode("content", &m.Content); e != nil {
			return nil, nil, e
		}
	}
	m.Notified = nil
	if prev == nil {
		var e *apiErr
		if m.Notified, e = notifiedUsers(m.Content, f); e != nil {
			return nil, nil, e
		}
	}
	if f.has("embeds") {
		m.Embeds = nil
		if e := f.decode("embeds", &m.Embeds); e != nil {
			return nil, nil, e
		}
		for _, em := range m.Embeds {
			if em != nil && em.Type == "" {
				em.Type = discordgo.EmbedTypeRich
			}
		}
	}
	if f.has("components") {
		m.Components, m.RawComponents = nil, nil
		if !f.null("components") {
			if e := f.decode("components", &m.Components); e != nil {
				return nil, nil, e
			}
			m.RawComponents = append(json.RawMessage(nil), f["components"]...)
		}
	}
	if f.has("flags") {
		var fl discordgo.MessageFlags
		if e := f.decode("flags", &fl); e != nil {
			return nil, nil, e
		}
		const editable = discordgo.MessageFlagsSuppressEmbeds | discordgo.MessageFlagsIsComponentsV2
		if prev == nil {
			allowed := editable | discordgo.MessageFlagsSuppressNotifications
			if allowEphemeral {
				allowed |= discordgo.MessageFlagsEphemeral
			}
			m.Flags = fl & allowed
		} else {
			m.Flags = m.Flags&^editable | fl&editable
		}
	}
	if f.has("message_reference") && prev == nil {
		var ref discordgo.MessageReference
		if e := f.decode("message_reference", &ref); e != nil {
			return nil, nil, e
		}
		m.ReplyTo = ref.MessageID
		if m.ReplyTo != "" {
			m.Type = discordgo.MessageTypeReply
		}
	}
	// "attachments" on an edit lists the existing attachments to keep;
	// files are always added.
	if prev != nil && f.has("attachments") {
		var keep []struct {
			ID json.RawMessage `json:"id"`
		}
		if e := f.decode("attachments", &keep); e != nil {
			return nil, nil, e
		}
		ids := map[string]bool{}
		for _, k := range keep {
			ids[strings.Trim(string(k.ID), `"`)] = true
		}
		kept := m.Attachments[:0:0]
		for _, a := range m.Attachments {
			if ids[a.ID] {
				kept = append(kept, a)
			}
		}
		m.Attachments = kept
	}
	var added []*Attachment
	for _, up := range files {
		if len(up.data) > maxFileSize {
			return nil, nil, &apiErr{status: http.StatusRequestEntityTooLarge, code: 40005, msg: "Request entity too large"}
		}
		a := &Attachment{
			ID:          s.newID(),
			MessageID:   m.ID,
			Filename:    up.name,
			ContentType: guessContentType(up),
			Size:        len(up.data),
			Data:        up.data,
			UploadedAt:  now,
		}
		if a.Filename == "" {
			a.Filename = "file" + strconv.Itoa(up.index)
		}
		if strings.HasPrefix(a.ContentType, "image/") {
			if cfg, _, err := image.DecodeConfig(bytes.NewReader(up.data)); err == nil {
				a.Width, a.Height = cfg.Width, cfg.Height
			}
		}
		if s.cfg.noFileData {
			a.Data = nil
		}
		added = append(added, a)
		m.Attachments = append(m.Attachments, a)
	}
	if len(m.Attachments) > 10 && !s.cfg.noValidation {
		return nil, nil, invalidForm("attachments", "Must be 10 or fewer in length.")
	}

	if !s.cfg.noValidation {
		if e := validateMessage(&m); e != nil {
			return nil, nil, e
		}
		var stickers []json.RawMessage
		_ = f.decode("sticker_ids", &stickers)
		hasPoll := f.has("poll") && !f.null("poll")
		if prev == nil && m.Content == "" && len(m.Embeds) == 0 && len(m.Components) == 0 &&
			len(m.Attachments) == 0 && len(stickers) == 0 && !hasPoll {
			return nil, nil, &apiErr{status: 400, code: 50006, msg: "Cannot send an empty message"}
		}
	}
	return &m, added, nil
}

// userMention matches <@id> and <@!id>, not role mentions (<@&id>).
var userMention = regexp.MustCompile(`<@!?([^&>\s!][^>\s]*)>`)

// notifiedUsers applies allowed_mentions to the user mentions of content.
func notifiedUsers(content string, f fields) ([]string, *apiErr) {
	all := true
	allowed := map[string]bool{}
	if f.has("allowed_mentions") && !f.null("allowed_mentions") {
		var am struct {
			Parse []string `json:"parse"`
			Users []string `json:"users"`
		}
		if e := f.decode("allowed_mentions", &am); e != nil {
			return nil, e
		}
		all = slices.Contains(am.Parse, "users")
		for _, u := range am.Users {
			allowed[u] = true
		}
	}
	var out []string
	for _, sm := range userMention.FindAllStringSubmatch(content, -1) {
		if id := sm[1]; (all || allowed[id]) && !slices.Contains(out, id) {
			out = append(out, id)
		}
	}
	return out, nil
}

func guessContentType(up *upload) string {
	ct := up.contentType
	if ct != "" && ct != "application/octet-stream" {
		return ct
	}
	if byExt := mime.TypeByExtension(strings.ToLower(path.Ext(up.name))); byExt != "" {
		return byExt
	}
	return http.DetectContentType(up.data)
}

// commitLocked stores a new version of a message and logs the event.
func (s *Server) commitLocked(kind MessageEventKind, m *Message, added []*Attachment, token string) {
	for _, a := range added {
		a.MessageID = m.ID
		a.ChannelID = m.ChannelID
		a.URL = s.attachmentURL(m.ChannelID, a.ID, a.Filename)
		s.files = append(s.files, a)
	}
	ms := s.msgs[m.ID]
	if ms == nil {
		ms = &msgState{token: token, seq: len(s.created)}
		s.msgs[m.ID] = ms
		s.created = append(s.created, ms)
		s.chanMsgs[m.ChannelID] = append(s.chanMsgs[m.ChannelID], m.ID)
	}
	ms.cur = m
	ms.history = append(ms.history, m)
	s.msgEvents = append(s.msgEvents, MessageEvent{Kind: kind, Message: m, At: time.Now()})
	s.notifyLocked()
}

// deleteLocked marks a message deleted.
func (s *Server) deleteLocked(ms *msgState) *Message {
	d := *ms.cur
	d.Deleted = true
	d.Version++
	ms.cur = &d
	ms.history = append(ms.history, &d)
	s.msgEvents = append(s.msgEvents, MessageEvent{Kind: MessageDeleted, Message: &d, At: time.Now()})
	s.notifyLocked()
	return &d
}

// messageEventLocked returns the gateway event for a bot message change,
// or "" when message events are off or the message is ephemeral.
func (s *Server) messageEventLocked(kind MessageEventKind, m *Message) (string, any) {
	if !s.cfg.messageEvents || m.Ephemeral() {
		return "", nil
	}
	switch kind {
	case MessageCreated:
		return "MESSAGE_CREATE", s.wireLocked(m)
	case MessageEdited:
		return "MESSAGE_UPDATE", s.wireLocked(m)
	default:
		return "MESSAGE_DELETE", map[string]string{"id": m.ID, "channel_id": m.ChannelID, "guild_id": m.GuildID}
	}
}

type wireMessage struct {
	ID               string                         `json:"id"`
	Type             discordgo.MessageType          `json:"type"`
	ChannelID        string                         `json:"channel_id"`
	GuildID          string                         `json:"guild_id,omitempty"`
	Author           *discordgo.User                `json:"author"`
	Content          string                         `json:"content"`
	Timestamp        time.Time                      `json:"timestamp"`
	EditedTimestamp  *time.Time                     `json:"edited_timestamp"`
	TTS              bool                           `json:"tts"`
	MentionEveryone  bool                           `json:"mention_everyone"`
	Mentions         []*discordgo.User              `json:"mentions"`
	MentionRoles     []string                       `json:"mention_roles"`
	Attachments      []*discordgo.MessageAttachment `json:"attachments"`
	Embeds           []*discordgo.MessageEmbed      `json:"embeds"`
	Components       json.RawMessage                `json:"components"`
	Flags            discordgo.MessageFlags         `json:"flags"`
	Pinned           bool                           `json:"pinned"`
	WebhookID        string                         `json:"webhook_id,omitempty"`
	ApplicationID    string                         `json:"application_id,omitempty"`
	MessageReference *discordgo.MessageReference    `json:"message_reference,omitempty"`
	Interaction      *wireMsgInteraction            `json:"interaction,omitempty"`
}

type wireMsgInteraction struct {
	ID   string                    `json:"id"`
	Type discordgo.InteractionType `json:"type"`
	Name string                    `json:"name"`
	User *discordgo.User           `json:"user"`
}

// wireLocked is the Discord JSON shape of a message.
func (s *Server) wireLocked(m *Message) *wireMessage {
	w := &wireMessage{
		ID: m.ID, Type: m.Type, ChannelID: m.ChannelID, GuildID: m.GuildID,
		Author: s.discordUserLocked(m.AuthorID), Content: m.Content, Timestamp: m.CreatedAt,
		Mentions: []*discordgo.User{}, MentionRoles: []string{},
		Attachments: []*discordgo.MessageAttachment{}, Embeds: m.Embeds, Components: m.RawComponents,
		Flags: m.Flags, WebhookID: m.WebhookID,
	}
	if w.Embeds == nil {
		w.Embeds = []*discordgo.MessageEmbed{}
	}
	if len(w.Components) == 0 {
		w.Components = json.RawMessage("[]")
	}
	if !m.EditedAt.IsZero() {
		t := m.EditedAt
		w.EditedTimestamp = &t
	}
	if m.WebhookID != "" {
		w.ApplicationID = s.appID
	}
	if m.ReplyTo != "" {
		w.MessageReference = &discordgo.MessageReference{MessageID: m.ReplyTo, ChannelID: m.ChannelID, GuildID: m.GuildID}
	}
	for _, a := range m.Attachments {
		w.Attachments = append(w.Attachments, &discordgo.MessageAttachment{
			ID: a.ID, URL: a.URL, ProxyURL: a.URL, Filename: a.Filename, ContentType: a.ContentType,
			Width: a.Width, Height: a.Height, Size: a.Size, Ephemeral: m.Ephemeral(),
		})
	}
	if st := s.ixByID[m.InteractionID]; st != nil && st.h.Type == discordgo.InteractionApplicationCommand && m.ID == st.originalID {
		w.Interaction = &wireMsgInteraction{ID: st.h.ID, Type: st.h.Type, Name: st.h.Name, User: s.discordUserLocked(st.h.UserID)}
	}
	return w
}

// --- validation of Discord's limits ---

func validateMessage(m *Message) *apiErr {
	if n := utf8.RuneCountInString(m.Content); n > 2000 {
		return invalidForm("content", fmt.Sprintf("Must be 2000 or fewer in length (got %d).", n))
	}
	if e := validateEmbeds(m.Embeds); e != nil {
		return e
	}
	return validateComponents(m.Components, m.Flags&discordgo.MessageFlagsIsComponentsV2 != 0)
}

func validateEmbeds(embeds []*discordgo.MessageEmbed) *apiErr {
	if len(embeds) > 10 {
		return invalidForm("embeds", "Must be 10 or fewer in length.")
	}
	total := 0
	check := func(field, v string, max int) *apiErr {
		n := utf8.RuneCountInString(v)
		total += n
		if n > max {
			return invalidForm(field, fmt.Sprintf("Must be %d or fewer in length (got %d).", max, n))
		}
		return nil
	}
	for i, e := range embeds {
		if e == nil {
			continue
		}
		p := fmt.Sprintf("embeds[%d].", i)
		if err := check(p+"title", e.Title, 256); err != nil {
			return err
		}
		if err := check(p+"description", e.Description, 4096); err != nil {
			return err
		}
		if e.Footer != nil {
			if err := check(p+"footer.text", e.Footer.Text, 2048); err != nil {
				return err
			}
		}
		if e.Author != nil {
			if err := check(p+"author.name", e.Author.Name, 256); err != nil {
				return err
			}
		}
		if len(e.Fields) > 25 {
			return invalidForm(p+"fields", "Must be 25 or fewer in length.")
		}
		for j, f := range e.Fields {
			if f == nil {
				continue
			}
			fp := fmt.Sprintf("%sfields[%d].", p, j)
			if err := check(fp+"name", f.Name, 256); err != nil {
				return err
			}
			if err := check(fp+"value", f.Value, 1024); err != nil {
				return err
			}
			if f.Name == "" || f.Value == "" {
				return invalidForm(fp+"value", "This field is required")
			}
		}
	}
	if total > 6000 {
		return invalidForm("embeds", "Embed size exceeds maximum size of 6000")
	}
	return nil
}

func validateComponents(rows []*Component, v2 bool) *apiErr {
	ids := map[string]bool{}
	checkInteractive := func(p string, c *Component) *apiErr {
		if c.CustomID != "" {
			if len(c.CustomID) > 100 {
				return invalidForm(p+".custom_id", "Must be 100 or fewer in length.")
			}
			if ids[c.CustomID] {
				return invalidForm(p+".custom_id", "Component custom id cannot be duplicated ("+c.CustomID+")")
			}
			ids[c.CustomID] = true
		}
		switch {
		case c.Type == discordgo.ButtonComponent:
			if utf8.RuneCountInString(c.Label) > 80 {
				return invalidForm(p+".label", "Must be 80 or fewer in length.")
			}
			switch discordgo.ButtonStyle(c.Style) {
			case discordgo.LinkButton:
				if c.URL == "" {
					return invalidForm(p+".url", "This field is required")
				}
			case discordgo.PrimaryButton, discordgo.SecondaryButton, discordgo.SuccessButton, discordgo.DangerButton:
				if c.CustomID == "" {
					return invalidForm(p+".custom_id", "This field is required")
				}
			case 6: // premium
			default:
				return invalidForm(p+".style", fmt.Sprintf("Value must be one of (1, 2, 3, 4, 5, 6) (got %d).", c.Style))
			}
			if c.Label == "" && c.Emoji == nil {
				return invalidForm(p, "A button needs a label or an emoji")
			}
		case c.isSelect():
			if c.CustomID == "" {
				return invalidForm(p+".custom_id", "This field is required")
			}
			if c.Type == discordgo.SelectMenuComponent && (len(c.Options) == 0 || len(c.Options) > 25) {
				return invalidForm(p+".options", "Must be between 1 and 25 in length.")
			}
			if c.MaxValues > 25 || (c.Type == discordgo.SelectMenuComponent && c.MaxValues > len(c.Options)) {
				return invalidForm(p+".max_values", "Must be less than or equal to the number of options.")
			}
			seen := map[string]bool{}
			for _, o := range c.Options {
				if seen[o.Value] {
					return invalidForm(p+".options", "Select option values must be unique ("+o.Value+")")
				}
				seen[o.Value] = true
				if utf8.RuneCountInString(o.Label) > 100 || utf8.RuneCountInString(o.Value) > 100 {
					return invalidForm(p+".options", "Option label and value must be 100 or fewer in length.")
				}
			}
		}
		return nil
	}
	if v2 {
		// Components v2: only check ids and buttons/menus wherever they are.
		var walk func(p string, cs []*Component) *apiErr
		walk = func(p string, cs []*Component) *apiErr {
			for i, c := range cs {
				if c == nil {
					continue
				}
				cp := fmt.Sprintf("%s[%d]", p, i)
				if e := checkInteractive(cp, c); e != nil {
					return e
				}
				if e := walk(cp+".components", c.Components); e != nil {
					return e
				}
				if c.Accessory != nil {
					if e := walk(cp+".accessory", []*Component{c.Accessory}); e != nil {
						return e
					}
				}
			}
			return nil
		}
		return walk("components", rows)
	}
	if len(rows) > 5 {
		return invalidForm("components", "Must be 5 or fewer in length.")
	}
	for i, row := range rows {
		p := fmt.Sprintf("components[%d]", i)
		if row == nil || row.Type != discordgo.ActionsRowComponent {
			return invalidForm(p+".type", "Top-level components must be action rows (type 1) unless the IS_COMPONENTS_V2 flag is set")
		}
		if len(row.Components) == 0 || len(row.Components) > 5 {
			return invalidForm(p+".components", "Must be between 1 and 5 in length.")
		}
		selects := 0
		for j, c := range row.Components {
			cp := fmt.Sprintf("%s.components[%d]", p, j)
			if c == nil {
				return invalidForm(cp, "Component is null")
			}
			if c.isSelect() {
				selects++
			} else if c.Type != discordgo.ButtonComponent {
				return invalidForm(cp+".type", fmt.Sprintf("Component type %d is not allowed in an action row of a message", c.Type))
			}
			if e := checkInteractive(cp, c); e != nil {
				return e
			}
		}
		if selects > 0 && len(row.Components) > 1 {
			return invalidForm(p+".components", "An action row with a select menu cannot hold other components")
		}
	}
	return nil
}

var commandNameRE = regexp.MustCompile(`^[-_\p{Ll}\p{Lo}\p{N}\p{Devanagari}\p{Thai}]{1,32}$`)

func validateCommand(c *discordgo.ApplicationCommand) *apiErr {
	t := c.Type
	if t == 0 {
		t = discordgo.ChatApplicationCommand
	}
	if t == discordgo.ChatApplicationCommand {
		if !commandNameRE.MatchString(c.Name) {
			return invalidForm("name", fmt.Sprintf("Command name %q is invalid (lower case, 1-32 characters, no spaces)", c.Name))
		}
		if n := utf8.RuneCountInString(c.Description); n < 1 || n > 100 {
			return invalidForm("description", fmt.Sprintf("Command %q: description must be between 1 and 100 in length", c.Name))
		}
	} else if n := utf8.RuneCountInString(c.Name); n < 1 || n > 32 {
		return invalidForm("name", "Must be between 1 and 32 in length.")
	}
	if e := validateInstalls(c); e != nil {
		return e
	}
	return validateCommandOptions("options", c.Name, c.Options)
}

// validateInstalls checks integration_types (0 server install, 1 user
// install) and contexts (0 server, 1 bot DM, 2 private channel): when
// given, non-empty, known values, each once; a command of a user install
// only cannot be used in a server's context... and a private channel
// context needs the user install (Discord's rules for user-installable
// commands).
func validateInstalls(c *discordgo.ApplicationCommand) *apiErr {
	if c.IntegrationTypes != nil {
		seen := map[discordgo.ApplicationIntegrationType]bool{}
		if len(*c.IntegrationTypes) == 0 {
			return invalidForm("integration_types", "Must be 1 or more in length.")
		}
		for k, t := range *c.IntegrationTypes {
			if t > discordgo.ApplicationIntegrationUserInstall || seen[t] {
				return invalidForm(fmt.Sprintf("integration_types[%d]", k), fmt.Sprintf("Value %d is not a valid enum value or is repeated.", t))
			}
			seen[t] = true
		}
	}
	if c.Contexts != nil {
		seen := map[discordgo.InteractionContextType]bool{}
		if len(*c.Contexts) == 0 {
			return invalidForm("contexts", "Must be 1 or more in length.")
		}
		for k, t := range *c.Contexts {
			if t > discordgo.InteractionContextPrivateChannel || seen[t] {
				return invalidForm(fmt.Sprintf("contexts[%d]", k), fmt.Sprintf("Value %d is not a valid enum value or is repeated.", t))
			}
			seen[t] = true
		}
		if seen[discordgo.InteractionContextPrivateChannel] && !installedAs(c, discordgo.ApplicationIntegrationUserInstall) {
			return invalidForm("contexts", "The private channel context needs the user install integration type.")
		}
	}
	return nil
}

// installedAs reports whether a command is available to install t
// (absent integration_types: the server install only).
func installedAs(c *discordgo.ApplicationCommand, t discordgo.ApplicationIntegrationType) bool {
	if c.IntegrationTypes == nil {
		return t == discordgo.ApplicationIntegrationGuildInstall
	}
	return slices.Contains(*c.IntegrationTypes, t)
}

// availableIn reports whether a command may be used in context ctx
// (absent contexts: every context its installs allow; a guild install
// without dm_permission false is also usable in the bot's DM).
func availableIn(c *discordgo.ApplicationCommand, ctx discordgo.InteractionContextType) bool {
	if c.Contexts == nil {
		switch ctx {
		case discordgo.InteractionContextPrivateChannel:
			return installedAs(c, discordgo.ApplicationIntegrationUserInstall)
		case discordgo.InteractionContextBotDM:
			return c.DMPermission == nil || *c.DMPermission
		}
		return true
	}
	return slices.Contains(*c.Contexts, ctx)
}

func validateCommandOptions(p, cmd string, opts []*discordgo.ApplicationCommandOption) *apiErr {
	if len(opts) > 25 {
		return invalidForm(p, "Must be 25 or fewer in length.")
	}
	seenOptional := false
	names := map[string]bool{}
	for i, o := range opts {
		op := fmt.Sprintf("%s[%d]", p, i)
		if o == nil {
			return invalidForm(op, "Option is null")
		}
		if !commandNameRE.MatchString(o.Name) {
			return invalidForm(op+".name", fmt.Sprintf("Command %q: option name %q is invalid", cmd, o.Name))
		}
		if names[o.Name] {
			return invalidForm(op+".name", fmt.Sprintf("Command %q: duplicate option name %q", cmd, o.Name))
		}
		names[o.Name] = true
		if n := utf8.RuneCountInString(o.Description); n < 1 || n > 100 {
			return invalidForm(op+".description", fmt.Sprintf("Command %q: option %q description must be between 1 and 100 in length", cmd, o.Name))
		}
		if len(o.Choices) > 25 {
			return invalidForm(op+".choices", "Must be 25 or fewer in length.")
		}
		if o.Autocomplete && len(o.Choices) > 0 {
			return invalidForm(op+".autocomplete", "Autocomplete cannot be set with choices")
		}
		switch o.Type {
		case discordgo.ApplicationCommandOptionSubCommand, discordgo.ApplicationCommandOptionSubCommandGroup:
			if e := validateCommandOptions(op+".options", cmd, o.Options); e != nil {
				return e
			}
		default:
			if o.Required && seenOptional {
				return invalidForm(op+".required", fmt.Sprintf("Command %q: required options must be placed before non-required options", cmd))
			}
			if !o.Required {
				seenOptional = true
			}
		}
	}
	return nil
}
