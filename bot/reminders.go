package bot

import (
	"context"
	"errors"
	"slices"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/rfop/rfop/engine"
	"github.com/rfop/rfop/locale"
	"github.com/rfop/rfop/storage"
)

// remindDue runs a reminder item (due.go): the players who must decide,
// idle for the guild's interval since the last move, are reminded as
// they chose (notify.go: a new board mentioning them, or a DM), then at
// most once per interval while nobody moves, at most maxReminders times. The item is
// moved to the game's real next reminder when it is early (the interval
// changed), and by an interval when nobody can be reminded now (the
// game is paused, or only the AI decides).
func (b *Bot) remindDue(ctx context.Context, d storage.Due) {
	now := b.Clock.Now()
	unlock := b.lockGame(d.GameID)
	defer unlock()
	rec, g, logged, err := b.loadGameLog(ctx, d.GameID) // checked here if not yet, on the log the board replays
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
	case err != nil || g == nil || len(decidingUsers(rec, g)) == len(b.awayOf(ctx, rec, g, now)):
		// Nobody to remind (time away: away.go).
		b.moveDue(ctx, d, now.Add(interval))
	default:
		b.remind(ctx, rec, g, logged, interval, now)
	}
}

// remind posts the board again as the newest message, calling whoever
// must decide: a reminder is a new board (the previous one collapses), so
// the live buttons and the picture stay in the newest message. It is
// posted at most once: the reminder is claimed in the database first
// (another process may send the same one), with the game's outbox lease
// (no publication is being delivered meanwhile, here or elsewhere), both
// in one transaction; the claim schedules the next one. logged is the
// game's log as read with it (nil: read again for the board). The caller
// holds the game's lock.
func (b *Bot) remind(ctx context.Context, rec storage.Game, g *engine.Game, logged *replayNotes, interval time.Duration, now time.Time) {
	gameID := rec.ID
	unpub := b.lockPublisher(gameID)
	rel := &leaseRelease{holder: b.lease.Name}
	defer func() {
		unpub()
		if !rel.done || rel.pending {
			// Publications that waited for the lease. (None if the
			// recording that ended it saw none: one committed later finds
			// the lease free and is delivered by its own process.)
			b.kick(gameID)
		}
	}()
	next := storage.Due{Kind: dueRemind, At: now.Add(interval)}
	if rec.Reminders+1 >= maxReminders {
		next = storage.Due{} // that is the last one
	}
	h := b.incarnate(ctx)
	lease := b.Clock.Now()
	ok, live, err := b.Store.ClaimReminderOutbox(ctx, rec.ID, h, lease, lease.Add(outboxLease), rec.RemindedAt, now, next)
	if err != nil || !ok {
		if err != nil {
			b.Log.Warn("claim reminder", "game", rec.ID, "err", err)
		}
		// Being published elsewhere (a move: it reschedules), or sent by
		// another process: the next pass looks again.
		return
	}
	defer func() {
		if rel.done {
			return // ended with the board's recording
		}
		if err := b.Store.ReleaseOutbox(ctx, gameID, b.lease.Name); err != nil {
			b.Log.Warn("release the outbox", "game", gameID, "err", err)
		}
	}()
	b.Log.Info("reminder", "game", rec.ID, "claimed_at", now.UTC().Format(time.RFC3339Nano))
	ping, dms := b.reminderCalls(ctx, rec, g)
	if len(ping) > 0 {
		note := b.gamePrinter(rec).T("bot.note.reminder", locale.Args{"ID": rec.ID})
		bp := boardPost{notify: true, ping: ping, notes: []string{note}, live: &live}
		if len(dms) == 0 {
			// Nothing else to send under the lease: it ends with the
			// board's recording (one commit instead of two).
			bp.release = rel
		}
		if err := b.repostBoardLocked(ctx, rec, g, logged, bp); err != nil {
			if discordErrorCode(err) == codeUnknownChannel {
				b.HandleChannelDelete(ctx, rec.ChannelID)
				return
			}
			b.Log.Warn("reminder", "game", rec.ID, "err", err)
		}
	}
	for _, side := range dms {
		pl, _ := rec.Player(sideKey(side))
		live := ""
		if m, err := b.Store.LatestMessage(ctx, rec.ID, storage.KindBoard); err == nil {
			live = m.MessageID
		}
		ch, err := b.dmChannel(pl.UserID)
		if err == nil {
			_, err = b.Session.ChannelMessageSendComplex(ch, &discordgo.MessageSend{Content: b.turnDM(rec, side, live, true)})
			b.dmFailed(pl.UserID, err)
		}
		if err != nil {
			b.Log.Info("reminder DM not delivered", "game", rec.ID, "user", pl.UserID, "err", err)
		}
	}
}

// reminderCalls are whom a reminder calls, as each chose: the users the
// board pings and the sides DMed (a digest lists the game instead; off
// is nothing). In DMs the board itself is the DM.
func (b *Bot) reminderCalls(ctx context.Context, rec storage.Game, g *engine.Game) (ping []string, dms []engine.Side) {
	for _, p := range g.Prompts() {
		pl, ok := rec.Player(sideKey(p.Side))
		if !ok || pl.IsBot || slices.Contains(ping, pl.UserID) || slices.Contains(dms, p.Side) {
			continue
		}
		switch how := b.notifyOf(ctx, pl.UserID); {
		case how == storage.NotifyMention || how == storage.NotifyDM && rec.GuildID == "":
			ping = append(ping, pl.UserID)
		case how == storage.NotifyDM:
			dms = append(dms, p.Side)
		}
	}
	return ping, dms
}

// reminderDue: idle for a whole interval since the last move, and no
// reminder within the last interval (so: one after the interval, then at
// most one per interval while nobody moves), and fewer than
// maxReminders sent since the last move (counted by the store, so a
// stopped bot sends them late rather than never).
func reminderDue(rec storage.Game, interval time.Duration, now time.Time) bool {
	if rec.Status != storage.StatusActive || interval <= 0 || now.Before(rec.LastActionAt.Add(interval)) ||
		remindersDone(rec) {
		return false
	}
	return rec.RemindedAt.IsZero() || rec.RemindedAt.Before(rec.LastActionAt) || !now.Before(rec.RemindedAt.Add(interval))
}

// nextReminder is when reminderDue becomes true: an interval after the
// last move, or after the last reminder if one was sent since; zero once
// maxReminders were sent (the game then waits without reminders).
func nextReminder(rec storage.Game, interval time.Duration) time.Time {
	from := rec.LastActionAt
	if rec.RemindedAt.After(from) {
		from = rec.RemindedAt
	}
	if remindersDone(rec) {
		return time.Time{}
	}
	return from.Add(interval)
}

// remindersDone: the game had its maxReminders since its last move.
func remindersDone(rec storage.Game) bool {
	return rec.Reminders >= maxReminders // a move sets the count back to 0
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
