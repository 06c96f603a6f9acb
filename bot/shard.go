package bot

import (
	"context"
	"time"

	"github.com/rfop/rfop/storage"
)

// Sharding: several bot processes may share one database, each opening
// one gateway shard (Config.Shard). Discord sends a guild's interactions
// to the shard (guild_id >> 22) % count, and DMs to shard 0; so does the
// background work here: each process runs the reminders, publication
// retries, background integrity sweep and AI resumption of the games it owns, and
// answers every interaction it receives, whoever owns the game (a hand DM
// of a guild's game arrives on shard 0). Two processes never both publish:
// a game's outbox is delivered under a lease in the database
// (storage.ClaimOutbox), and a reminder is claimed with a conditional
// update (storage.ClaimReminder).

// Shard is this process's gateway shard: ID of Count. The zero value, like
// {0, 1}, is one process owning everything.
type Shard struct {
	ID, Count int
}

// Owns reports whether the shard owns a guild's games ("" for DMs, shard
// 0's): Discord's (guild_id >> 22) % count (storage.ShardKey). A guild id
// that is not a snowflake belongs to shard 0.
func (s Shard) Owns(guildID string) bool {
	if s.Count <= 1 {
		return true
	}
	// The store's shard filter is the same formula, in SQL.
	return int(storage.ShardKey(guildID)%int64(s.Count)) == s.ID
}

// owns: this process runs the game's background work.
func (b *Bot) owns(rec storage.Game) bool { return b.Shard.Owns(rec.GuildID) }

// outboxLease is how long a process may deliver a game's outbox without
// renewing its lease (it renews before an entry once a third of it has
// passed); after that a process of another shard takes over the games of
// a process killed while delivering. A restart of the same shard does not
// wait: its lease names the shard and this start of it (the incarnation,
// storage.LeaseHolder), and a newer incarnation of a shard takes over the
// leases of an older one at once: that process was stopped or killed, and
// its successor does its work. Should the older process still be running
// (two processes started with one shard id), it sees its lease gone
// before its next entry (holdsOutbox) and stops publishing that game.
const outboxLease = 30 * time.Second

// incarnate takes this process's incarnation of its shard, once (Resume
// does it at start; a claim before that does it too).
func (b *Bot) incarnate(ctx context.Context) storage.LeaseHolder {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.lease.Incarnation == 0 {
		n, err := b.Store.NextIncarnation(ctx, b.Shard.ID)
		if err != nil {
			// Without one the leases still work; a restart then waits
			// for their expiry.
			b.Log.Warn("take an incarnation of the shard", "shard", b.Shard.ID, "err", err)
			return b.lease
		}
		b.lease.Incarnation = n
	}
	return b.lease
}

// claimOutbox takes or renews this process's lease on the game's outbox.
// Lease times are the bot's clock (the system's, but for tests).
func (b *Bot) claimOutbox(ctx context.Context, gameID int64) (bool, error) {
	h := b.incarnate(ctx)
	now := b.Clock.Now()
	return b.Store.ClaimOutbox(ctx, gameID, h, now, now.Add(outboxLease))
}

// holdsOutbox reports whether this process still holds the game's lease.
func (b *Bot) holdsOutbox(ctx context.Context, gameID int64) (bool, error) {
	return b.Store.HoldsOutbox(ctx, gameID, b.lease.Name)
}
