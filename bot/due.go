package bot

// Due work. What the bot must do at a time of its own (remind a player,
// expire a challenge, carry a game on after a stop) is a row of the
// database's schedule (storage.Due), written in the same transaction as
// the change that makes it due: dueWork computes a game's rows after each
// of its writes (a challenge, its start, every move). The periodic pass
// (Remind) reads only the rows whose time has come, of this process's
// shard, through an index, in batches (storage.DueWork): a pass with
// nothing due costs one index probe per kind, whatever the number of
// games stored. Start-up reads the resume rows the same way (Resume), and
// publication retries the index of undelivered outbox entries (Redeliver).
//
// Adding a kind of due work (the clock's deadlines, a member's digest...):
//
//  1. name it (a constant below);
//  2. a game's work: add its rows to dueWork, which every write of the
//     game calls with what the game is waiting for; the store replaces
//     the game's rows with them and deletes them when the game ends. A
//     user's work (GameID 0, Subject the user): write it with
//     Store.ScheduleDue;
//  3. handle it: add the kind and its handler to dueKinds. A handler gets
//     the row as read. It must claim it before acting (Store.ClaimDue
//     moves it from the time read to its next time, or deletes it, and of
//     several processes exactly one succeeds; a reminder's claim is
//     ClaimReminder), under whatever lock makes the work exclusive, and
//     must move or delete it when there is nothing to do, so that the
//     next pass does not meet it again. A row may be early (a setting
//     changed since it was written): the handler checks the real state
//     and moves the row to the real time (moveDue).

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/rfop/rfop/engine"
	"github.com/rfop/rfop/locale"
	"github.com/rfop/rfop/storage"
)

// Kinds of due work (storage.Due.Kind).
const (
	// dueExpire: a challenge nobody accepted expires (challengeTTL after
	// it was issued).
	dueExpire = "expire"
	// dueRemind: the players who must decide are reminded (the server's
	// interval after the last move, or after the last reminder).
	dueRemind = "remind"
	// dueClockWarn, dueClockOut (clock.go): a side's time is 80 % used,
	// or all used.

	// dueResume: looked at once at the next start: the solo opponent's or
	// the AI's turn a stop may have interrupted, a start whose first
	// publication may not have been stored. Never run by the periodic
	// pass.
	dueResume = "resume"
)

// dueHandler runs one kind of due work.
type dueHandler struct {
	kind string
	run  func(ctx context.Context, d storage.Due)
	// prefetch, if set, reads at once what the items of a batch need
	// (pass.go), before they run.
	prefetch func(ctx context.Context, items []storage.Due, now time.Time)
	// workers, if above 1, is how many items of a batch run at once (each
	// game's under its own lock and claim): a handler that waits for the
	// database and Discord more than it computes (on PostgreSQL each
	// query is a round trip) then waits for several at once.
	workers int
}

// remindWorkers is how many reminders a pass sends at once: a few of
// the store's connections (storage.PostgresConns), leaving the others to
// the moves being played meanwhile.
const remindWorkers = 4

// dueKinds are the kinds the periodic pass runs, in this order.
func (b *Bot) dueKinds() []dueHandler {
	return []dueHandler{{dueExpire, b.expireDue, nil, 1}, {dueRemind, b.remindDue, b.prefetchRemind, remindWorkers}, {dueDigest, b.digestDue, nil, 1},
		{dueClockWarn, b.clockWarnDue, nil, 1}, {dueClockOut, b.clockOutDue, nil, 1}}
}

// gameNow is what a write leaves a game at, for dueWork.
type gameNow struct {
	rec    storage.Game   // the game (its guild, players)
	status storage.Status // its status after the write
	// deciding: the sides with a decision to make after the write (none
	// once the game is over).
	deciding [2]bool
	// started: the write is the game's start (its first publication is
	// stored separately).
	started bool
	// clock: the clock's due work after the write (clock.go), if it has one.
	clock []storage.Due
}

// decidingOf lists the sides g waits for.
func decidingOf(g *engine.Game) [2]bool {
	var d [2]bool
	if g == nil || g.S.Result != nil {
		return d
	}
	for _, p := range g.Prompts() {
		if p.Side == engine.Versailles || p.Side == engine.Commune {
			d[p.Side] = true
		}
	}
	return d
}

// dueWork is a game's due work after a write: the rows of the schedule
// the store replaces the game's with (timed from the write itself when
// they give In). THE EXTENSION POINT for a game's due work: see the top
// of this file.
func (b *Bot) dueWork(ctx context.Context, w gameNow) []storage.Due {
	switch w.status {
	case storage.StatusWaiting:
		return []storage.Due{{Kind: dueExpire, In: challengeTTL}}
	case storage.StatusActive:
	default:
		return nil // an ended game has none
	}
	var out []storage.Due
	human := humanSides(w.rec)
	if interval := b.reminderInterval(ctx, w.rec.GuildID); interval > 0 &&
		(human[engine.Versailles] && w.deciding[engine.Versailles] || human[engine.Commune] && w.deciding[engine.Commune]) {
		out = append(out, storage.Due{Kind: dueRemind, In: interval})
	}
	auto := false
	for side := engine.Versailles; side <= engine.Commune; side++ {
		auto = auto || w.deciding[side] && !human[side]
	}
	if w.started || auto {
		out = append(out, storage.Due{Kind: dueResume})
	}
	return append(out, w.clock...)
}

// reminderInterval is the guild's reminder interval (the default if its
// settings cannot be read).
func (b *Bot) reminderInterval(ctx context.Context, guildID string) time.Duration {
	if pd := passOf(ctx); pd != nil {
		if iv, ok := pd.intervals[guildID]; ok { // read with the pass's batch (pass.go)
			return iv
		}
	}
	set, err := b.Store.GuildSettings(ctx, guildID)
	if err != nil {
		b.Log.Warn("read the guild's reminder interval", "guild", guildID, "err", err)
		return storage.DefaultReminderInterval
	}
	return set.ReminderInterval
}

// createGame creates a game with its due work (a challenge's expiry).
func (b *Bot) createGame(ctx context.Context, ng storage.NewGame) (storage.Game, error) {
	ng.Due = b.dueWork(ctx, gameNow{status: ng.Status})
	return b.Store.CreateGame(ctx, ng)
}

// shardFilter selects this process's games in the store's queries.
func (b *Bot) shardFilter() storage.ShardFilter {
	return storage.ShardFilter{Shard: b.Shard.ID, Shards: b.Shard.Count}
}

// Remind runs one pass of the due work this shard owns: challenges older
// than a day expire; a player who has not acted within the guild's
// interval is mentioned once, then at most once per interval. Run calls
// it every -reminder-every (a minute by default).
func (b *Bot) Remind(ctx context.Context) {
	start, now := time.Now(), b.Clock.Now()
	n := 0
	for _, h := range b.dueKinds() {
		n += b.runDue(ctx, h, now)
	}
	if n > 0 {
		b.Log.Debug("due work", "items", n, "took", time.Since(start))
	}
}

// runDue runs the items of one kind due at now, in batches, each once
// per pass (a handler may leave an item where it is: the next pass meets
// it again). It returns how many it ran.
func (b *Bot) runDue(ctx context.Context, h dueHandler, now time.Time) int {
	q := storage.DueQuery{Kind: h.kind, Now: now, Shard: b.shardFilter()}
	n := 0
	for {
		items, err := b.Store.DueWork(ctx, q)
		if err != nil {
			b.Log.Warn("read due work", "kind", h.kind, "err", err)
			return n
		}
		if h.prefetch != nil && len(items) > 0 {
			if passOf(ctx) == nil {
				ctx = withPass(ctx) // only when something is due: an idle pass allocates nothing for it
			}
			h.prefetch(ctx, items, now)
		}
		if h.workers > 1 && len(items) > 1 {
			n += runEach(ctx, items, h.workers, h.run)
			if ctx.Err() != nil {
				return n
			}
		} else {
			for _, d := range items {
				if ctx.Err() != nil {
					return n
				}
				h.run(ctx, d)
				n++
			}
		}
		if len(items) < storage.DueBatch {
			return n
		}
		q.After = &items[len(items)-1]
	}
}

// runEach runs the items on up to workers goroutines and returns when
// they are all done (or skipped: ctx ended), with how many ran.
func runEach(ctx context.Context, items []storage.Due, workers int, run func(context.Context, storage.Due)) int {
	var (
		wg   sync.WaitGroup
		mu   sync.Mutex
		next int
		ran  int
	)
	for range min(workers, len(items)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				mu.Lock()
				k := next
				next++
				mu.Unlock()
				if k >= len(items) || ctx.Err() != nil {
					return
				}
				run(ctx, items[k])
				mu.Lock()
				ran++
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	return ran
}

// moveDue moves an item read as d to next (deletes it if next is zero),
// unless it changed meanwhile (a move rewrote it, another process claimed
// it): then the newer row stands.
func (b *Bot) moveDue(ctx context.Context, d storage.Due, next time.Time) {
	if next.Equal(d.At) {
		return
	}
	if _, err := b.Store.ClaimDue(ctx, d, next); err != nil {
		b.Log.Warn("reschedule due work", "kind", d.Kind, "game", d.GameID, "err", err)
	}
}

// expireDue expires a challenge nobody accepted within challengeTTL.
func (b *Bot) expireDue(ctx context.Context, d storage.Due) {
	rec, err := b.Store.GameByID(ctx, d.GameID)
	if errors.Is(err, storage.ErrNotFound) || err == nil && rec.Status != storage.StatusWaiting {
		b.moveDue(ctx, d, time.Time{})
		return
	}
	if err != nil {
		b.Log.Warn("expire a challenge", "game", d.GameID, "err", err)
		return
	}
	if expires := rec.CreatedAt.Add(challengeTTL); !b.Clock.Now().After(expires) {
		b.moveDue(ctx, d, expires)
		return
	}
	// Abandon is the claim: of two processes, one changes the status.
	if _, err := b.Store.Abandon(ctx, rec.ID); err == nil {
		_, _ = b.Session.ChannelMessageSendComplex(rec.ChannelID, &discordgo.MessageSend{
			Content: b.gamePrinter(rec).T("bot.challenge.expired", locale.Args{"ID": rec.ID}), AllowedMentions: &discordgo.MessageAllowedMentions{}})
	}
}
