package bot

import (
	"context"
	"errors"
	"time"

	"github.com/rfop/rfop/engine"
	"github.com/rfop/rfop/locale"
	"github.com/rfop/rfop/storage"
)

// remindDue runs a reminder item (due.go): the players who must decide,
// idle for the guild's interval since the last move, are called on a new
// board, then at most once per interval while nobody moves. The item is
// moved to the game's real next reminder when it is early (the interval
// changed), and by an interval when nobody can be reminded now (the
// game is paused, or only the AI decides).
func (b *Bot) remindDue(ctx context.Context, d storage.Due) {
	now := b.Clock.Now()
	unlock := b.lockGame(d.GameID)
	defer unlock()
	rec, g, err := b.loadGame(ctx, d.GameID)
	if errors.Is(err, storage.ErrNotFound) {
		b.moveDue(ctx, d, time.Time{})
		return
	}
	if err != nil && !errors.Is(err, errPaused) {
		b.Log.Warn("reminder", "game", d.GameID, "err", err)
		return
	}
	interval := b.reminderInterval(ctx, rec.GuildID)
	switch {
	case rec.Status != storage.StatusActive || interval <= 0:
		b.moveDue(ctx, d, time.Time{})
	case !reminderDue(rec, interval, now):
		b.moveDue(ctx, d, nextReminder(rec, interval))
	case err != nil || g == nil || len(decidingUsers(rec, g)) == 0:
		b.moveDue(ctx, d, now.Add(interval))
	default:
		b.remind(ctx, rec, g, interval, now)
	}
}

// remind posts the board again as the newest message, calling whoever
// must decide: a reminder is a new board (the previous one collapses), so
// the live buttons and the picture stay in the newest message. It is
// posted at most once: the reminder is claimed in the database first
// (another process may send the same one), under the game's outbox lease
// (no publication is being delivered meanwhile, here or elsewhere); the
// claim schedules the next one. The caller holds the game's lock.
func (b *Bot) remind(ctx context.Context, rec storage.Game, g *engine.Game, interval time.Duration, now time.Time) {
	gameID := rec.ID
	unpub := b.lockPublisher(gameID)
	defer func() {
		unpub()
		b.kick(gameID) // publications that waited for the lease
	}()
	if ok, err := b.claimOutbox(ctx, gameID); err != nil || !ok {
		return // being published elsewhere (a move: it reschedules): the next pass looks again
	}
	defer func() {
		if err := b.Store.ReleaseOutbox(ctx, gameID, b.lease.Name); err != nil {
			b.Log.Warn("release the outbox", "game", gameID, "err", err)
		}
	}()
	next := storage.Due{Kind: dueRemind, At: now.Add(interval)}
	if ok, err := b.Store.ClaimReminder(ctx, rec.ID, rec.RemindedAt, now, next); err != nil || !ok {
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

// nextReminder is when reminderDue becomes true: an interval after the
// last move, or after the last reminder if one was sent since.
func nextReminder(rec storage.Game, interval time.Duration) time.Time {
	from := rec.LastActionAt
	if rec.RemindedAt.After(from) {
		from = rec.RemindedAt
	}
	return from.Add(interval)
}

// rescheduleReminders gives the guild's active games their next reminder
// at its new interval (called when it changes; a longer interval is also
// corrected when an early row fires, a shorter one only here).
func (b *Bot) rescheduleReminders(ctx context.Context, guildID string, interval time.Duration) {
	if interval <= 0 {
		return // the rows fire once more and are deleted
	}
	games, err := b.Store.GamesInGuild(ctx, guildID, storage.StatusActive)
	if err != nil {
		b.Log.Warn("reschedule reminders", "guild", guildID, "err", err)
		return
	}
	items := make([]storage.Due, 0, len(games))
	for _, rec := range games {
		items = append(items, storage.Due{Kind: dueRemind, GameID: rec.ID, ShardKey: storage.ShardKey(rec.GuildID), At: nextReminder(rec, interval)})
	}
	if err := b.Store.ScheduleDue(ctx, items...); err != nil {
		b.Log.Warn("reschedule reminders", "guild", guildID, "err", err)
	}
}
