package bot

import (
	"context"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/rfop/rfop/locale"
	"github.com/rfop/rfop/storage"
)

// Remind runs one reminder pass over the games this shard owns: a player
// who has not acted within the guild's interval is mentioned once, then at
// most once per interval; challenges older than 24 hours expire. The bot
// calls it every minute.
func (b *Bot) Remind(ctx context.Context) {
	now := b.Clock.Now()
	if waiting, err := b.Store.GamesByStatus(ctx, storage.StatusWaiting); err == nil {
		for _, rec := range waiting {
			if b.owns(rec) && now.After(rec.CreatedAt.Add(challengeTTL)) {
				if _, err := b.Store.Abandon(ctx, rec.ID); err == nil {
					_, _ = b.Session.ChannelMessageSendComplex(rec.ChannelID, &discordgo.MessageSend{
						Content: b.gamePrinter(rec).T("bot.challenge.expired", locale.Args{"ID": rec.ID}), AllowedMentions: &discordgo.MessageAllowedMentions{}})
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
		if !b.owns(rec) {
			continue
		}
		set, err := b.Store.GuildSettings(ctx, rec.GuildID)
		if err != nil {
			continue
		}
		if reminderDue(rec, set.ReminderInterval, now) {
			b.remind(ctx, rec.ID, set.ReminderInterval, now)
		}
	}
}

// remind posts the board again as the newest message, calling whoever
// must decide: a reminder is a new board (the previous one collapses), so
// the live buttons and the picture stay in the newest message. It is
// posted at most once: the reminder is claimed in the database first
// (another process may send the same one), under the game's outbox lease
// (no publication is being delivered meanwhile, here or elsewhere).
func (b *Bot) remind(ctx context.Context, gameID int64, interval time.Duration, now time.Time) {
	unlock := b.lockGame(gameID)
	defer unlock()
	rec, g, err := b.loadGame(ctx, gameID)
	if err != nil || g == nil || !reminderDue(rec, interval, now) {
		return // moved or ended meanwhile
	}
	if len(decidingUsers(rec, g)) == 0 {
		return
	}
	unpub := b.lockPublisher(gameID)
	defer func() {
		unpub()
		b.kick(gameID) // publications that waited for the lease
	}()
	if ok, err := b.claimOutbox(ctx, gameID); err != nil || !ok {
		return // being published elsewhere: the next pass reminds
	}
	defer func() {
		if err := b.Store.ReleaseOutbox(ctx, gameID, b.holder); err != nil {
			b.Log.Warn("release the outbox", "game", gameID, "err", err)
		}
	}()
	if ok, err := b.Store.ClaimReminder(ctx, rec.ID, rec.RemindedAt, now); err != nil || !ok {
		if err != nil {
			b.Log.Warn("claim reminder", "game", rec.ID, "err", err)
		}
		return // sent by another process
	}
	b.Log.Info("reminder", "game", rec.ID, "claimed_at", now.UTC().Format(time.RFC3339Nano))
	note := b.gamePrinter(rec).T("bot.note.reminder", locale.Args{"ID": rec.ID})
	if err := b.repostBoardLocked(ctx, rec, g, boardPost{notify: true, notes: []string{note}}); err != nil {
		if discordErrorCode(err) == codeUnknownChannel {
			b.HandleChannelDelete(ctx, rec.ChannelID)
		} else {
			b.Log.Warn("reminder", "game", rec.ID, "err", err)
		}
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
