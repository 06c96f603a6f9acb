package bot

// Time away (/rfop away days:N, /rfop back): a member declares a spell of
// absence. While it lasts, their clocks in every game are stopped (the
// clock subtracts the spells from the time it charges: clock.go), no
// reminder pings them (reminders.go), and the boards and /rfop status say
// "away until …". The spells are rows of the store (Store.AddAway); a
// budget (awayBudget per awayWindow) keeps away from stalling a game for
// ever. Nothing is rewritten when a spell starts or ends: the clock's due
// rows are never late (clock.go), so coming back early needs no work.

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

const (
	// awayBudget is how many days of away a member may take within any
	// awayWindow (the README states both).
	awayBudget = 14 * day
	awayWindow = 60 * day
)

// awayOf lists the game's deciding players who are away at now.
func (b *Bot) awayOf(ctx context.Context, rec storage.Game, g *engine.Game, now time.Time) []string {
	users := decidingUsers(rec, g)
	if len(users) == 0 {
		return nil
	}
	var spells []storage.Away
	read := true
	for _, u := range users {
		s, ok := passAway(ctx, u) // read with the pass's batch (pass.go)
		read = read && ok
		spells = append(spells, s...)
	}
	if !read {
		var err error
		if spells, err = b.Store.AwaySpells(ctx, now, users...); err != nil {
			b.Log.Warn("read time away", "game", rec.ID, "err", err)
			return nil
		}
	}
	var out []string
	for _, a := range spells {
		if !a.Start.After(now) && a.End.After(now) && !slices.Contains(out, a.UserID) {
			out = append(out, a.UserID)
		}
	}
	return out
}

// isAway: userID is away now (a read error counts as not away: a
// notification too many rather than one lost).
func (b *Bot) isAway(ctx context.Context, userID string) bool {
	now := b.Clock.Now()
	spells, ok := passAway(ctx, userID) // read with the pass's batch (pass.go)
	if !ok {
		var err error
		if spells, err = b.Store.AwaySpells(ctx, now, userID); err != nil {
			b.Log.Warn("read time away", "user", userID, "err", err)
			return false
		}
	}
	for _, a := range spells {
		if !a.Start.After(now) && a.End.After(now) {
			return true
		}
	}
	return false
}

// awayUsed is how much of the budget the spells use within the window
// ending at now (a running spell counts whole: it was granted whole).
func awayUsed(spells []storage.Away, now time.Time) time.Duration {
	from := now.Add(-awayWindow)
	var used time.Duration
	for _, a := range spells {
		s := a.Start
		if s.Before(from) {
			s = from
		}
		if a.End.After(s) {
			used += a.End.Sub(s)
		}
	}
	return used
}

// cmdAway starts a spell of days days from now, within the budget.
func (b *Bot) cmdAway(ctx context.Context, i *discordgo.Interaction, o options) {
	p := b.privatePrinterOf(i)
	user := userID(i)
	days := o.int("days", 0)
	if days < 1 || time.Duration(days)*day > awayBudget {
		b.replyEphemeral(i, p.T("cmd.away.bad-days", locale.Args{"Max": int(awayBudget / day)}))
		return
	}
	if !b.deferEphemeral(i) {
		return
	}
	now := b.Clock.Now()
	spells, err := b.Store.AwaySpells(ctx, now.Add(-awayWindow), user)
	if err != nil {
		b.Log.Warn("read time away", "user", user, "err", err)
		b.editOriginal(i, msg{content: p.T("cmd.away.failed", nil)})
		return
	}
	for _, a := range spells {
		if a.End.After(now) {
			b.editOriginal(i, msg{content: p.T("cmd.away.already", locale.Args{"Until": discordTime(a.End, "f")})})
			return
		}
	}
	used := awayUsed(spells, now)
	want := time.Duration(days) * day
	if used+want > awayBudget {
		left := max(awayBudget-used, 0)
		b.editOriginal(i, msg{content: p.N("cmd.away.over-budget", int(left/day), locale.Args{"Budget": int(awayBudget / day),
			"Window": int(awayWindow / day), "Used": durationWords(p, used), "Left": int(left / day)})})
		return
	}
	until := now.Add(want)
	if err := b.Store.AddAway(ctx, storage.Away{UserID: user, Start: now, End: until}); err != nil {
		if !errors.Is(err, storage.ErrConflict) {
			b.Log.Warn("record time away", "user", user, "err", err)
		}
		b.editOriginal(i, msg{content: p.T("cmd.away.failed", nil)})
		return
	}
	games := b.announceAway(ctx, user, func(pub *locale.Printer) string {
		return pub.T("bot.note.away", locale.Args{"Player": mention(user), "Until": discordTime(until, "f")})
	})
	b.editOriginal(i, msg{content: p.N("cmd.away.done", games, locale.Args{"Until": discordTime(until, "f"),
		"Left": durationWords(p, awayBudget-used-want), "Window": int(awayWindow / day)})})
}

// cmdBack ends the member's spell now.
func (b *Bot) cmdBack(ctx context.Context, i *discordgo.Interaction) {
	p := b.privatePrinterOf(i)
	user := userID(i)
	if !b.deferEphemeral(i) {
		return
	}
	ended, err := b.Store.EndAway(ctx, user, b.Clock.Now())
	if err != nil {
		b.Log.Warn("end time away", "user", user, "err", err)
		b.editOriginal(i, msg{content: p.T("cmd.away.failed", nil)})
		return
	}
	if !ended {
		b.editOriginal(i, msg{content: p.T("cmd.back.not-away", nil)})
		return
	}
	games := b.announceAway(ctx, user, func(pub *locale.Printer) string {
		return pub.T("bot.note.back", locale.Args{"Player": mention(user)})
	})
	b.editOriginal(i, msg{content: p.N("cmd.back.done", games, nil)})
}

// announceAway posts the board again, with a note, in each of the user's
// active games (it calls nobody), and returns how many there are.
func (b *Bot) announceAway(ctx context.Context, user string, note func(*locale.Printer) string) int {
	games, err := b.Store.ActiveGamesOf(ctx, user)
	if err != nil {
		b.Log.Warn("games of a member", "user", user, "err", err)
		return 0
	}
	for _, rec := range games {
		func() {
			unlock := b.lockGame(rec.ID)
			defer unlock()
			rec, g, err := b.loadGame(ctx, rec.ID)
			if err != nil || g == nil || rec.Status != storage.StatusActive {
				return
			}
			if err := b.repostBoard(ctx, rec, g, boardPost{notes: []string{note(b.gamePrinter(rec))}}); err != nil {
				b.Log.Warn("announce time away", "game", rec.ID, "err", err)
			}
		}()
	}
	return len(games)
}
