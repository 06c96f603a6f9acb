package bot

import (
	"context"
	"fmt"
	"strings"

	"github.com/bwmarrin/discordgo"
	"github.com/rfop/rfop/storage"
)

// Remind runs one reminder pass: a player who has not acted within the
// guild's interval is mentioned once, then at most once per interval;
// challenges older than 24 hours expire. The bot calls it every minute.
func (b *Bot) Remind(ctx context.Context) {
	now := b.Clock.Now()
	if waiting, err := b.Store.GamesByStatus(ctx, storage.StatusWaiting); err == nil {
		for _, rec := range waiting {
			if now.After(rec.CreatedAt.Add(challengeTTL)) {
				if _, err := b.Store.Abandon(ctx, rec.ID); err == nil {
					_, _ = b.Session.ChannelMessageSendComplex(rec.ChannelID, &discordgo.MessageSend{
						Content: fmt.Sprintf("Challenge #%d expired after 24 hours.", rec.ID), AllowedMentions: &discordgo.MessageAllowedMentions{}})
				}
			}
		}
	}
	games, err := b.Store.ActiveGames(ctx)
	if err != nil {
		b.Log.Warn("reminders: list games", "err", err)
		return
	}
	for _, rec := range games {
		set, err := b.Store.GuildSettings(ctx, rec.GuildID)
		if err != nil {
			continue
		}
		if !rec.ReminderDue(set.ReminderInterval, now) {
			continue
		}
		if !rec.RemindedAt.IsZero() && now.Before(rec.RemindedAt.Add(set.ReminderInterval)) {
			continue
		}
		_, g, err := b.loadGame(ctx, rec.ID)
		if err != nil || g == nil {
			continue
		}
		var who, users []string
		for _, p := range g.Prompts() {
			if pl, ok := rec.Player(sideKey(p.Side)); ok && !pl.IsBot {
				who = append(who, mention(pl.UserID))
				users = append(users, pl.UserID)
			}
		}
		if len(who) == 0 {
			continue
		}
		_, err = b.Session.ChannelMessageSendComplex(rec.ChannelID, &discordgo.MessageSend{
			Content:         fmt.Sprintf("⏰ %s — game #%d is waiting for you.", strings.Join(who, " and "), rec.ID),
			Components:      []discordgo.MessageComponent{turnRow(rec.ID)},
			AllowedMentions: &discordgo.MessageAllowedMentions{Users: users},
		})
		if err != nil {
			if discordErrorCode(err) == codeUnknownChannel {
				b.HandleChannelDelete(ctx, rec.ChannelID)
			}
			continue
		}
		_ = b.Store.MarkReminded(ctx, rec.ID, now)
	}
}
