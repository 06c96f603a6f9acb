package bot

import (
	"context"
	"fmt"
	"strings"
	"time"

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
		if !reminderDue(rec, set.ReminderInterval, now) {
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

// reminderDue: idle for a whole interval since the last move, and no
// reminder within the last interval (so: one after the interval, then at
// most one per interval while nobody moves).
func reminderDue(rec storage.Game, interval time.Duration, now time.Time) bool {
	if rec.Status != storage.StatusActive || interval <= 0 || now.Before(rec.LastActionAt.Add(interval)) {
		return false
	}
	return rec.RemindedAt.IsZero() || rec.RemindedAt.Before(rec.LastActionAt) || !now.Before(rec.RemindedAt.Add(interval))
}
