package bot

import (
	"bytes"

	"github.com/bwmarrin/discordgo"
)

// Thin wrappers over the interaction responses, logging failures (a failed
// response cannot be reported to the user anyway).

func (b *Bot) respond(i *discordgo.Interaction, r *discordgo.InteractionResponse) bool {
	deferred := r.Type == discordgo.InteractionResponseDeferredChannelMessageWithSource ||
		r.Type == discordgo.InteractionResponseDeferredMessageUpdate
	if !deferred {
		b.admit.leave(i) // answered: what follows waits for Discord (admission.go)
	}
	if err := b.Session.InteractionRespond(i, r); err != nil {
		b.Log.Warn("interaction response failed", "interaction", i.ID, "err", err)
		return false
	}
	if deferred {
		b.admit.enter(i) // acknowledged: the work follows in its turn (admission.go)
	}
	return true
}

func (b *Bot) replyEphemeral(i *discordgo.Interaction, content string, comps ...discordgo.MessageComponent) {
	b.respond(i, &discordgo.InteractionResponse{
		Type: discordgo.InteractionResponseChannelMessageWithSource,
		Data: &discordgo.InteractionResponseData{Content: content, Flags: discordgo.MessageFlagsEphemeral, Components: comps,
			AllowedMentions: &discordgo.MessageAllowedMentions{}},
	})
}

// deferEphemeral acknowledges a command with "thinking…" visible only to
// the user; editOriginal fills it in.
func (b *Bot) deferEphemeral(i *discordgo.Interaction) bool {
	return b.respond(i, &discordgo.InteractionResponse{
		Type: discordgo.InteractionResponseDeferredChannelMessageWithSource,
		Data: &discordgo.InteractionResponseData{Flags: discordgo.MessageFlagsEphemeral},
	})
}

// deferPublic acknowledges a command whose answer everyone sees.
func (b *Bot) deferPublic(i *discordgo.Interaction) bool {
	return b.respond(i, &discordgo.InteractionResponse{Type: discordgo.InteractionResponseDeferredChannelMessageWithSource})
}

// deferUpdate acknowledges a component click; editOriginal then edits the
// message the component is on.
func (b *Bot) deferUpdate(i *discordgo.Interaction) bool {
	return b.respond(i, &discordgo.InteractionResponse{Type: discordgo.InteractionResponseDeferredMessageUpdate})
}

type msg struct {
	content string
	comps   []discordgo.MessageComponent
	files   []*discordgo.File
	embeds  []*discordgo.MessageEmbed
}

func pngFile(name string, data []byte) *discordgo.File {
	return &discordgo.File{Name: name, ContentType: "image/png", Reader: bytes.NewReader(data)}
}

// editOriginal replaces the deferred response (or the clicked message).
func (b *Bot) editOriginal(i *discordgo.Interaction, m msg) {
	if err := b.editPanel(i, m); err != nil {
		b.Log.Warn("edit interaction response failed", "interaction", i.ID, "err", err)
	}
}

// editPanel is editOriginal returning the error (the publisher edits a
// mover's panel from the stored interaction token).
func (b *Bot) editPanel(i *discordgo.Interaction, m msg) error {
	b.admit.leave(i) // answered: what follows waits for Discord (admission.go)
	comps := m.comps
	if comps == nil {
		comps = []discordgo.MessageComponent{}
	}
	e := &discordgo.WebhookEdit{Content: &m.content, Components: &comps, Files: m.files, Embeds: &m.embeds,
		AllowedMentions: &discordgo.MessageAllowedMentions{}}
	if m.embeds == nil {
		e.Embeds = nil
	}
	if len(m.files) > 0 {
		empty := []*discordgo.MessageAttachment{}
		e.Attachments = &empty // replace, never append
	}
	return editInteraction(b.Session, i, e)
}

// followupEphemeral sends another private message on an interaction.
func (b *Bot) followupEphemeral(i *discordgo.Interaction, m msg) {
	b.admit.leave(i)
	_, err := b.Session.FollowupMessageCreate(i, true, &discordgo.WebhookParams{
		Content: m.content, Components: m.comps, Files: m.files, Flags: discordgo.MessageFlagsEphemeral,
		AllowedMentions: &discordgo.MessageAllowedMentions{},
	})
	if err != nil {
		b.Log.Warn("follow-up failed", "interaction", i.ID, "err", err)
	}
}
