package storage

import (
	"context"
	"fmt"
	"time"
)

// Atomic claims for several bot processes on one database (gateway
// shards): a game's publications and its reminders must be delivered by
// one process only, whichever tries first.

// ClaimOutbox takes or renews holder's lease on delivering the game's
// outbox until until. It reports false when another holder's lease has not
// expired at now (that process is delivering). Lease times are kept in
// milliseconds.
func (s *sqlStore) ClaimOutbox(ctx context.Context, gameID int64, holder string, now, until time.Time) (bool, error) {
	if holder == "" {
		return false, fmt.Errorf("%w: outbox lease without a holder", ErrInvalid)
	}
	claimed := false
	err := s.write(ctx, func(tx conn) error {
		res, err := tx.ExecContext(ctx, `INSERT INTO outbox_leases (game_id, holder, until_ms) VALUES (?, ?, ?)
			ON CONFLICT (game_id) DO UPDATE SET holder = excluded.holder, until_ms = excluded.until_ms
			WHERE outbox_leases.holder = excluded.holder OR outbox_leases.until_ms <= ?`,
			gameID, holder, until.UnixMilli(), now.UnixMilli())
		if tx.d.isForeignKey(err) {
			return fmt.Errorf("%w: game %d (outbox lease)", ErrNotFound, gameID)
		}
		if err != nil {
			return fmt.Errorf("storage: game %d: claiming the outbox: %w", gameID, err)
		}
		n, err := res.RowsAffected()
		if err != nil {
			return fmt.Errorf("storage: game %d: claiming the outbox: %w", gameID, err)
		}
		claimed = n == 1
		return nil
	})
	return claimed, err
}

// ReleaseOutbox ends holder's lease on the game's outbox (nothing if it
// holds none).
func (s *sqlStore) ReleaseOutbox(ctx context.Context, gameID int64, holder string) error {
	return s.write(ctx, func(tx conn) error {
		if _, err := tx.ExecContext(ctx, `DELETE FROM outbox_leases WHERE game_id = ? AND holder = ?`, gameID, holder); err != nil {
			return fmt.Errorf("storage: game %d: releasing the outbox: %w", gameID, err)
		}
		return nil
	})
}

// ClaimReminder records a reminder for an active game at at, if its
// reminded_at is still seen (the RemindedAt the caller read; zero for
// never): of two processes that read the same game, exactly one claims
// its reminder. It reports false if another claimed it first or the game
// is no longer active. The claim stores next (if it has a Kind) as the
// game's next reminder in its schedule, in the same transaction.
func (s *sqlStore) ClaimReminder(ctx context.Context, id int64, seen, at time.Time, next Due) (bool, error) {
	if next.Kind != "" {
		if err := validDue(next, true); err != nil {
			return false, err
		}
	}
	claimed := false
	err := s.write(ctx, func(tx conn) error {
		res, err := tx.ExecContext(ctx, `UPDATE games SET reminded_at = ? WHERE id = ? AND status = 'active' AND reminded_at = ?`,
			formatTime(at), id, formatTime(seen))
		if err != nil {
			return fmt.Errorf("storage: game %d: claiming a reminder: %w", id, err)
		}
		n, err := res.RowsAffected()
		if err != nil {
			return fmt.Errorf("storage: game %d: claiming a reminder: %w", id, err)
		}
		claimed = n == 1
		if !claimed || next.Kind == "" {
			return nil
		}
		next.GameID = id
		if err := tx.QueryRowContext(ctx, `SELECT shard_key FROM games WHERE id = ?`, id).Scan(&next.ShardKey); err != nil {
			return fmt.Errorf("storage: game %d: claiming a reminder: %w", id, err)
		}
		return upsertDue(ctx, tx, next)
	})
	return claimed, err
}
