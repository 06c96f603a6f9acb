package fakediscord

import (
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/bwmarrin/discordgo"
)

// ixState is the server side of an interaction.
type ixState struct {
	h          *Interaction
	resp       *InteractionResponse
	respCh     chan struct{} // closed on the first accepted callback
	originalID string        // message id of @original
	loading    bool          // @original is a deferred placeholder not yet filled
	followups  []string
	edited     *Message // @original as this interaction's token last edited it
	errs       []string
	err        error // could not be dispatched
}

// ixFailLocked answers an interaction-related request with e and records
// it on the interaction.
func (s *Server) ixFailLocked(c *rctx, st *ixState, e *apiErr) {
	if st != nil {
		st.errs = append(st.errs, fmt.Sprintf("%s %s: %d %d %s", c.req.Method, c.req.Path, e.status, e.code, e.msg))
		s.notifyLocked()
	}
	c.fail(e)
}

func responseAllowed(ix discordgo.InteractionType, hasMsg bool, rt discordgo.InteractionResponseType) bool {
	switch ix {
	case discordgo.InteractionApplicationCommand:
		return rt == discordgo.InteractionResponseChannelMessageWithSource ||
			rt == discordgo.InteractionResponseDeferredChannelMessageWithSource ||
			rt == discordgo.InteractionResponseModal
	case discordgo.InteractionMessageComponent:
		return rt == discordgo.InteractionResponseChannelMessageWithSource ||
			rt == discordgo.InteractionResponseDeferredChannelMessageWithSource ||
			rt == discordgo.InteractionResponseDeferredMessageUpdate ||
			rt == discordgo.InteractionResponseUpdateMessage ||
			rt == discordgo.InteractionResponseModal
	case discordgo.InteractionApplicationCommandAutocomplete:
		return rt == discordgo.InteractionApplicationCommandAutocompleteResult
	case discordgo.InteractionModalSubmit:
		return rt == discordgo.InteractionResponseChannelMessageWithSource ||
			rt == discordgo.InteractionResponseDeferredChannelMessageWithSource ||
			(hasMsg && (rt == discordgo.InteractionResponseDeferredMessageUpdate || rt == discordgo.InteractionResponseUpdateMessage))
	}
	return false
}

// POST /interactions/{id}/{token}/callback
func (s *Server) interactionCallback(c *rctx) {
	received := c.req.At
	s.mu.Lock()
	defer s.mu.Unlock()
	st := s.ixByID[c.p[0]]
	if st == nil || st.h.Token != c.p[1] {
		s.ixFailLocked(c, nil, errUnknownInteraction)
		return
	}
	h := st.h
	dispatched := h.DispatchedAt()
	if s.cfg.deadline > 0 && received.Sub(dispatched) > s.cfg.deadline {
		s.ixFailLocked(c, st, errUnknownInteraction)
		return
	}
	if st.resp != nil {
		s.ixFailLocked(c, st, errAlreadyAcked)
		return
	}
	f, e := c.fields()
	if e != nil {
		s.ixFailLocked(c, st, e)
		return
	}
	var rt discordgo.InteractionResponseType
	if e := f.decode("type", &rt); e != nil || !f.has("type") {
		s.ixFailLocked(c, st, invalidForm("type", "This field is required"))
		return
	}
	df := fields{}
	if f.has("data") && !f.null("data") {
		if df, e = decodeFields(f["data"]); e != nil {
			s.ixFailLocked(c, st, e)
			return
		}
	}
	if !responseAllowed(h.Type, h.MessageID != "", rt) {
		s.ixFailLocked(c, st, invalidForm("type", fmt.Sprintf("Interaction response type %d is not valid for an interaction of type %d", rt, h.Type)))
		return
	}
	resp := &InteractionResponse{Type: rt, Raw: append(json.RawMessage(nil), c.req.Payload...), Interaction: h,
		ReceivedAt: received, Latency: received.Sub(dispatched)}
	_ = df.decode("flags", &resp.Flags)

	var m *Message
	var added []*Attachment
	kind := MessageCreated
	switch rt {
	case discordgo.InteractionResponseChannelMessageWithSource:
		if m, added, e = s.buildMessage(nil, df, c.files, true); e != nil {
			s.ixFailLocked(c, st, e)
			return
		}
		s.fillInteractionMessage(m, h, true)
	case discordgo.InteractionResponseDeferredChannelMessageWithSource:
		m = &Message{ID: s.newID(), CreatedAt: time.Now().UTC(),
			Flags: discordgo.MessageFlagsLoading | resp.Flags&discordgo.MessageFlagsEphemeral}
		s.fillInteractionMessage(m, h, true)
		st.loading = true
	case discordgo.InteractionResponseDeferredMessageUpdate, discordgo.InteractionResponseUpdateMessage:
		ms := s.msgs[h.MessageID]
		if ms == nil || ms.cur.Deleted {
			s.ixFailLocked(c, st, errUnknownMessage)
			return
		}
		if rt == discordgo.InteractionResponseDeferredMessageUpdate {
			st.originalID = ms.cur.ID
			resp.Message = ms.cur
			break
		}
		if e = s.checkEditAttachments(c, ms.cur, df); e != nil {
			s.ixFailLocked(c, st, e)
			return
		}
		if m, added, e = s.buildMessage(ms.cur, df, c.files, false); e != nil {
			s.ixFailLocked(c, st, e)
			return
		}
		kind = MessageEdited
	case discordgo.InteractionApplicationCommandAutocompleteResult:
		if e := df.decode("choices", &resp.Choices); e != nil {
			s.ixFailLocked(c, st, e)
			return
		}
		if len(resp.Choices) > 25 && !s.cfg.noValidation {
			s.ixFailLocked(c, st, invalidForm("data.choices", "Must be 25 or fewer in length."))
			return
		}
	case discordgo.InteractionResponseModal:
		_ = df.decode("custom_id", &resp.CustomID)
		_ = df.decode("title", &resp.Title)
		if e := df.decode("components", &resp.Components); e != nil {
			s.ixFailLocked(c, st, e)
			return
		}
		if !s.cfg.noValidation {
			switch {
			case resp.CustomID == "":
				e = invalidForm("data.custom_id", "This field is required")
			case resp.Title == "":
				e = invalidForm("data.title", "This field is required")
			case len(resp.Components) < 1 || len(resp.Components) > 5:
				e = invalidForm("data.components", "Must be between 1 and 5 in length.")
			}
			if e != nil {
				s.ixFailLocked(c, st, e)
				return
			}
		}
	}
	if m != nil {
		s.commitLocked(kind, m, added, h.Token)
		st.originalID = m.ID
		resp.Message = m
		resp.Content, resp.Embeds, resp.Components, resp.Attachments = m.Content, m.Embeds, m.Components, added
		c.emit(s.messageEventLocked(kind, m))
	}
	st.resp = resp
	s.responses = append(s.responses, resp)
	close(st.respCh)
	s.notifyLocked()
	c.noContent()
}

// fillInteractionMessage sets the fields of a message created through an
// interaction.
func (s *Server) fillInteractionMessage(m *Message, h *Interaction, original bool) {
	m.ChannelID, m.GuildID, m.AuthorID = h.ChannelID, h.GuildID, s.bot.ID
	m.InteractionID, m.WebhookID = h.ID, s.appID
	if original && h.Type == discordgo.InteractionApplicationCommand {
		m.Type = discordgo.MessageTypeChatInputCommand
	}
	if m.Ephemeral() {
		m.EphemeralTo = h.UserID
	}
}

// webhookLocked finds the interaction of a /webhooks/{app}/{token} route.
func (s *Server) webhookLocked(c *rctx) (*ixState, *apiErr) {
	st := s.ixByToken[c.p[1]]
	if c.p[0] != s.appID || st == nil {
		return nil, errUnknownWebhook
	}
	return st, nil
}

// webhookMessageLocked resolves "@original" or a follow-up id.
func (s *Server) webhookMessageLocked(st *ixState, id string) (*msgState, *apiErr) {
	if id == "@original" {
		id = st.originalID
	} else if id != st.originalID && !slices.Contains(st.followups, id) {
		return nil, errUnknownMessage
	}
	ms := s.msgs[id]
	if id == "" || ms == nil || ms.cur.Deleted {
		return nil, errUnknownMessage
	}
	return ms, nil
}

// POST /webhooks/{app}/{token} (interaction follow-up)
func (s *Server) createFollowup(c *rctx) {
	s.mu.Lock()
	defer s.mu.Unlock()
	st, e := s.webhookLocked(c)
	if e != nil {
		s.ixFailLocked(c, nil, e)
		return
	}
	if st.resp == nil {
		// Discord only knows the webhook once the interaction is acknowledged.
		s.ixFailLocked(c, st, errUnknownWebhook)
		return
	}
	f, e := c.fields()
	if e != nil {
		s.ixFailLocked(c, st, e)
		return
	}
	var m *Message
	var added []*Attachment
	kind := MessageCreated
	if st.loading {
		// The first follow-up after a deferred response replaces the
		// "thinking..." message, keeping its ephemerality.
		for _, k := range []string{"content", "embeds", "components"} {
			if !f.has(k) {
				f[k] = json.RawMessage("null")
			}
		}
		delete(f, "attachments")
		delete(f, "flags")
		if m, added, e = s.buildMessage(s.msgs[st.originalID].cur, f, c.files, false); e != nil {
			s.ixFailLocked(c, st, e)
			return
		}
		m.Flags &^= discordgo.MessageFlagsLoading
		st.loading = false
		kind = MessageEdited
	} else {
		if m, added, e = s.buildMessage(nil, f, c.files, true); e != nil {
			s.ixFailLocked(c, st, e)
			return
		}
		s.fillInteractionMessage(m, st.h, false)
	}
	s.commitLocked(kind, m, added, st.h.Token)
	st.followups = append(st.followups, m.ID)
	c.emit(s.messageEventLocked(kind, m))
	if c.req.Query.Get("wait") == "true" {
		c.json(200, s.wireLocked(m))
		return
	}
	c.noContent()
}

// GET /webhooks/{app}/{token}/messages/{id}
func (s *Server) getWebhookMessage(c *rctx) {
	s.mu.Lock()
	defer s.mu.Unlock()
	st, e := s.webhookLocked(c)
	if e != nil {
		s.ixFailLocked(c, nil, e)
		return
	}
	ms, e := s.webhookMessageLocked(st, c.p[2])
	if e != nil {
		s.ixFailLocked(c, st, e)
		return
	}
	c.json(200, s.wireLocked(ms.cur))
}

// PATCH /webhooks/{app}/{token}/messages/{id}
func (s *Server) editWebhookMessage(c *rctx) {
	s.mu.Lock()
	defer s.mu.Unlock()
	st, e := s.webhookLocked(c)
	if e != nil {
		s.ixFailLocked(c, nil, e)
		return
	}
	ms, e := s.webhookMessageLocked(st, c.p[2])
	if e != nil {
		s.ixFailLocked(c, st, e)
		return
	}
	f, e := c.fields()
	if e != nil {
		s.ixFailLocked(c, st, e)
		return
	}
	if e := s.checkEditAttachments(c, ms.cur, f); e != nil {
		s.ixFailLocked(c, st, e)
		return
	}
	m, added, e := s.buildMessage(ms.cur, f, c.files, false)
	if e != nil {
		s.ixFailLocked(c, st, e)
		return
	}
	m.Flags &^= discordgo.MessageFlagsLoading
	if m.ID == st.originalID {
		st.loading = false
		st.edited = m
	}
	s.commitLocked(MessageEdited, m, added, st.h.Token)
	c.emit(s.messageEventLocked(MessageEdited, m))
	c.json(200, s.wireLocked(m))
}

// DELETE /webhooks/{app}/{token}/messages/{id}
func (s *Server) deleteWebhookMessage(c *rctx) {
	s.mu.Lock()
	defer s.mu.Unlock()
	st, e := s.webhookLocked(c)
	if e != nil {
		s.ixFailLocked(c, nil, e)
		return
	}
	ms, e := s.webhookMessageLocked(st, c.p[2])
	if e != nil {
		s.ixFailLocked(c, st, e)
		return
	}
	if ms.cur.ID == st.originalID {
		st.loading = false
	}
	d := s.deleteLocked(ms)
	c.emit(s.messageEventLocked(MessageDeleted, d))
	c.noContent()
}
