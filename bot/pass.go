package bot

// What a reminder pass reads at once. A pass over many due reminders
// (due.go, reminders.go) needs, for each game, its guild's interval and
// its deciding players' notification preferences and time away. Read one
// game at a time that is three to five queries per reminder (each a round
// trip on PostgreSQL), the same guild and member read again for each of
// their games. Instead, for each batch of due items the pass reads the
// batch's games (records and players, no state), then the settings of
// their guilds, the preferences and the spells away of their players: one
// query each for the whole batch. Each reminder then finds them here.
// They are as read at the start of the batch (seconds old at most): a
// member who changes a preference during a pass is served as before the
// change for that pass, as if the change had come a moment later. What
// the batch did not read (an error, a game the pass did not expect) is
// read as before, one at a time. The batch's reminders are then sent a
// few at a time (remindWorkers, due.go): each waits mostly for the
// database and Discord, and each game is under its own lock and claim,
// so the order between games is the only thing this changes.

import (
	"context"
	"slices"
	"strings"
	"time"

	"github.com/rfop/rfop/storage"
)

// passData is what the pass read for its batches, by guild and member.
type passData struct {
	intervals map[string]time.Duration
	notify    map[string]storage.Notify
	// away: each member's spells ending after since, the batch's now (a
	// member read with none is present with a nil slice).
	away  map[string][]storage.Away
	since time.Time
}

type passKey struct{}

// withPass is ctx carrying an empty passData for a pass.
func withPass(ctx context.Context) context.Context {
	return context.WithValue(ctx, passKey{}, &passData{intervals: map[string]time.Duration{},
		notify: map[string]storage.Notify{}, away: map[string][]storage.Away{}})
}

// passOf is the pass data ctx carries (nil outside a pass).
func passOf(ctx context.Context) *passData {
	pd, _ := ctx.Value(passKey{}).(*passData)
	return pd
}

// prefetchRemind reads, in one query each, what the reminders of items
// need of their games' guilds and players (see above). Errors leave the
// pass to read them one at a time.
func (b *Bot) prefetchRemind(ctx context.Context, items []storage.Due, now time.Time) {
	pd := passOf(ctx)
	if pd == nil || len(items) == 0 {
		return
	}
	ids := make([]int64, 0, len(items))
	for _, d := range items {
		if d.GameID != 0 {
			ids = append(ids, d.GameID)
		}
	}
	games, err := b.Store.GamesByIDs(ctx, ids...)
	if err != nil {
		b.Log.Warn("reminders: read the batch's games", "err", err)
		return
	}
	var guilds, users []string
	for _, rec := range games {
		if _, ok := pd.intervals[rec.GuildID]; !ok && !slices.Contains(guilds, rec.GuildID) {
			guilds = append(guilds, rec.GuildID)
		}
		for _, p := range rec.Players {
			if _, ok := pd.notify[p.UserID]; !ok && !p.IsBot && p.UserID != "" && !slices.Contains(users, p.UserID) {
				users = append(users, p.UserID)
			}
		}
	}
	if len(guilds) > 0 {
		if set, err := b.Store.GuildSettingsOf(ctx, guilds...); err != nil {
			b.Log.Warn("reminders: read the guilds' settings", "err", err)
		} else {
			for id, st := range set {
				pd.intervals[id] = st.ReminderInterval
			}
		}
	}
	if len(users) == 0 {
		return
	}
	spells, err := b.Store.AwaySpells(ctx, now, users...)
	if err != nil {
		b.Log.Warn("reminders: read the members' time away", "err", err)
		return
	}
	prefs, err := b.Store.MemberPrefsOf(ctx, users...)
	if err != nil {
		b.Log.Warn("reminders: read the members' preferences", "err", err)
		return
	}
	if pd.since.IsZero() || now.Before(pd.since) {
		pd.since = now // the pass's now: the same for every batch
	}
	for _, u := range users {
		pd.away[u] = nil
	}
	for _, a := range spells {
		pd.away[a.UserID] = append(pd.away[a.UserID], a)
	}
	for id, p := range prefs {
		pd.notify[id] = p.Notify
	}
}

// passAway is the member's spells away as the pass read them (ok false:
// not read).
func passAway(ctx context.Context, userID string) ([]storage.Away, bool) {
	pd := passOf(ctx)
	if pd == nil {
		return nil, false
	}
	spells, ok := pd.away[userID]
	return spells, ok
}

// passAwaySince is the spells of users ending after from, as the pass
// read them: ok only if it read every one of them from a time no later
// than from.
func passAwaySince(ctx context.Context, from time.Time, users []string) ([]storage.Away, bool) {
	pd := passOf(ctx)
	if pd == nil || pd.since.IsZero() || from.Before(pd.since) {
		return nil, false
	}
	var out []storage.Away
	for _, u := range users {
		spells, ok := pd.away[u]
		if !ok {
			return nil, false
		}
		for _, a := range spells {
			if a.End.After(from) {
				out = append(out, a)
			}
		}
	}
	slices.SortStableFunc(out, func(a, b storage.Away) int { // as the store orders them
		if c := a.Start.Compare(b.Start); c != 0 {
			return c
		}
		return strings.Compare(a.UserID, b.UserID)
	})
	return out, true
}
