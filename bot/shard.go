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
// retries, start-up checks and AI resumption of the games it owns, and
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
// passed); after that a process killed while delivering is taken over.
const outboxLease = 30 * time.Second

// claimOutbox takes or renews this process's lease on the game's outbox.
func (b *Bot) claimOutbox(ctx context.Context, gameID int64) (bool, error) {
	now := time.Now()
	return b.Store.ClaimOutbox(ctx, gameID, b.holder, now, now.Add(outboxLease))
}

// checkForeign verifies, once per process, a game another shard owns
// before this process plays on it (its owner checked it at its start, and
// the pause it may have found is in that process's memory only).
func (b *Bot) checkForeign(ctx context.Context, rec storage.Game) {
	if rec.Status != storage.StatusActive || b.owns(rec) {
		return
	}
	b.mu.Lock()
	done := b.checked[rec.ID]
	b.checked[rec.ID] = true
	b.mu.Unlock()
	if done {
		return
	}
	if err := b.checkDeck(ctx, rec); err != nil {
		b.Log.Error("game's deck unavailable: paused until abandoned", "game", rec.ID, "err", err)
		b.pause(rec.ID, err)
		return
	}
	if err := b.Store.VerifyGame(ctx, rec.ID, b.Verify); err != nil {
		b.Log.Error("game failed its integrity check: paused until abandoned", "game", rec.ID, "err", err)
		b.pause(rec.ID, err)
	}
}
