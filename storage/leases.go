package storage

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// Atomic claims for several bot processes on one database (gateway
// shards): a game's publications and its reminders must be delivered by
// one process only, whichever tries first.

// LeaseHolder names a bot process in the outbox leases. Name is unique to
// the process (it renews and releases by it); Shard is its gateway shard
// and Incarnation the number NextIncarnation gave this start of it. A
// newer incarnation of the same shard takes an older one's lease at once
// (the older process was stopped or killed: its successor does its
// work); any other holder waits for the lease to expire. A holder with
// Incarnation 0 or a negative Shard takes nothing over and is taken over
// only at expiry.
type LeaseHolder struct {
	Name        string
	Shard       int
	Incarnation int64
}

// NextIncarnation records a new start of the shard's process and returns
// its incarnation: 1 at the shard's first start, then one more at each.
func (s *sqlStore) NextIncarnation(ctx context.Context, shard int) (int64, error) {
	if shard < 0 {
		return 0, fmt.Errorf("%w: shard %d", ErrInvalid, shard)
	}
	var n int64
	err := s.write(ctx, func(tx conn) error {
		err := tx.QueryRowContext(ctx, `INSERT INTO shard_incarnations (shard, incarnation) VALUES (?, 1)
			ON CONFLICT (shard) DO UPDATE SET incarnation = shard_incarnations.incarnation + 1
			RETURNING incarnation`, shard).Scan(&n)
		if err != nil {
			return fmt.Errorf("storage: shard %d: a new incarnation: %w", shard, err)
		}
		return nil
	})
	return n, err
}

// ClaimOutbox takes or renews h's lease on delivering the game's outbox
// until until. It reports false when another holder's lease has not
// expired at now (that process is delivering) and is not an older
// incarnation of h's shard. Lease times are kept in milliseconds.
func (s *sqlStore) ClaimOutbox(ctx context.Context, gameID int64, h LeaseHolder, now, until time.Time) (bool, error) {
	if h.Name == "" {
		return false, fmt.Errorf("%w: outbox lease without a holder", ErrInvalid)
	}
	claimed := false
	err := s.write(ctx, func(tx conn) (err error) {
		claimed, err = claimOutbox(ctx, tx, gameID, h, now, until)
		return err
	})
	return claimed, err
}

// claimOutbox is ClaimOutbox in the transaction tx (h.Name is set).
func claimOutbox(ctx context.Context, tx conn, gameID int64, h LeaseHolder, now, until time.Time) (bool, error) {
	st := claimOutboxStep(tx.d, gameID, h, now, until)
	var n int64
	st.affected = &n
	if err := runStep(ctx, tx, st); err != nil {
		return false, err
	}
	return n == 1, nil
}

// claimOutboxStep is claimOutbox's statement: it changes one row (sets
// affected to 1) if it took or renewed the lease.
func claimOutboxStep(d *dialect, gameID int64, h LeaseHolder, now, until time.Time) step {
	shard, inc := int64(h.Shard), h.Incarnation
	if shard < 0 || inc <= 0 {
		shard, inc = -1, 0
	}
	return step{
		query: `INSERT INTO outbox_leases (game_id, holder, until_ms, shard, incarnation) VALUES (?, ?, ?, ?, ?)` + leaseUpsert,
		args:  []any{gameID, h.Name, until.UnixMilli(), shard, inc, now.UnixMilli()},
		fail: func(err error) error {
			if d.isForeignKey(err) {
				return fmt.Errorf("%w: game %d (outbox lease)", ErrNotFound, gameID)
			}
			return fmt.Errorf("storage: game %d: claiming the outbox: %w", gameID, err)
		},
	}
}

// leaseUpsert takes an existing lease row only if it is the holder's,
// expired, or an older incarnation's of the holder's shard (its one
// parameter: now in milliseconds).
const leaseUpsert = `
		ON CONFLICT (game_id) DO UPDATE SET holder = excluded.holder, until_ms = excluded.until_ms,
			shard = excluded.shard, incarnation = excluded.incarnation
		WHERE outbox_leases.holder = excluded.holder OR outbox_leases.until_ms <= ?
			OR (excluded.shard >= 0 AND outbox_leases.shard = excluded.shard AND outbox_leases.incarnation < excluded.incarnation)`

// HoldsOutbox reports whether holder (a LeaseHolder's Name) holds the
// game's outbox lease: a publisher checks it before each entry, so that a
// process whose lease a newer incarnation of its shard took over stops at
// once.
func (s *sqlStore) HoldsOutbox(ctx context.Context, gameID int64, holder string) (bool, error) {
	var got string
	err := s.readDB().QueryRowContext(ctx, `SELECT holder FROM outbox_leases WHERE game_id = ?`, gameID).Scan(&got)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("storage: game %d: reading the outbox lease: %w", gameID, err)
	}
	return got == holder, nil
}

// ReleaseOutbox ends holder's lease on the game's outbox (nothing if it
// holds none).
func (s *sqlStore) ReleaseOutbox(ctx context.Context, gameID int64, holder string) error {
	return s.writeOne(ctx, func(tx conn) error {
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
	err := s.write(ctx, func(tx conn) (err error) {
		claimed, err = claimReminder(ctx, tx, id, seen, at, next)
		return err
	})
	return claimed, err
}

// claimReminder is ClaimReminder in the transaction tx (next is valid).
func claimReminder(ctx context.Context, tx conn, id int64, seen, at time.Time, next Due) (bool, error) {
	var key int64
	err := tx.QueryRowContext(ctx, `UPDATE games SET reminded_at = ?, reminders = reminders + 1
		WHERE id = ? AND status = 'active' AND reminded_at = ? RETURNING shard_key`,
		formatTime(at), id, formatTime(seen)).Scan(&key)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("storage: game %d: claiming a reminder: %w", id, err)
	}
	if next.Kind == "" {
		return true, nil
	}
	next.GameID, next.ShardKey = id, key
	return true, upsertDue(ctx, tx, next)
}

// ClaimReminderOutbox takes the outbox lease and claims the reminder in
// one transaction: both or neither. It reads the game's live board in
// the same transaction, under the lease.
func (s *sqlStore) ClaimReminderOutbox(ctx context.Context, id int64, h LeaseHolder, now, until time.Time, seen, at time.Time, next Due) (bool, Message, error) {
	if h.Name == "" {
		return false, Message{}, fmt.Errorf("%w: outbox lease without a holder", ErrInvalid)
	}
	if next.Kind != "" {
		if err := validDue(next, true); err != nil {
			return false, Message{}, err
		}
	}
	// Pipelined and committed as sent (on PostgreSQL one round trip
	// instead of five): each statement's SQL checks that the one before
	// it did its part. The lease is taken only from the game's row as the
	// caller read it (its reminder not yet claimed, the game active),
	// which that statement locks (PostgreSQL; SQLite's writer runs alone)
	// until the commit: the claim that follows then finds the row
	// unchanged, and makes the claim if and only if the lease was taken.
	// The lock is FOR NO KEY UPDATE, the one the claim's UPDATE takes
	// anyway: a publisher recording a message under its lease takes a
	// KEY SHARE lock on the game's row (the message's foreign key), which
	// this one neither waits for nor blocks, so the two cannot deadlock.
	shard, inc := int64(h.Shard), h.Incarnation
	if shard < 0 || inc <= 0 {
		shard, inc = -1, 0
	}
	var leased int64
	claimed := false
	steps := []step{
		{query: `INSERT INTO outbox_leases (game_id, holder, until_ms, shard, incarnation)
		SELECT id, CAST(? AS text), CAST(? AS bigint), CAST(? AS bigint), CAST(? AS bigint) FROM games
		WHERE id = ? AND status = 'active' AND reminded_at = ?` + s.d.forNoKeyUpdate + leaseUpsert,
			args:     []any{h.Name, until.UnixMilli(), shard, inc, id, formatTime(seen), now.UnixMilli()},
			affected: &leased,
			fail: func(err error) error {
				return fmt.Errorf("storage: game %d: claiming the outbox: %w", id, err)
			}},
		{query: `UPDATE games SET reminded_at = ?, reminders = reminders + 1
		WHERE id = ? AND status = 'active' AND reminded_at = ?
			AND EXISTS (SELECT 1 FROM outbox_leases WHERE game_id = ? AND holder = ?) RETURNING shard_key`,
			args: []any{formatTime(at), id, formatTime(seen), id, h.Name},
			fail: func(err error) error { return fmt.Errorf("storage: game %d: claiming a reminder: %w", id, err) },
			rows: func(r rowReader) error {
				claimed = r.Next()
				return nil
			}},
	}
	if next.Kind != "" {
		// The game's shard key, from the row the claim just wrote (no
		// row, and nothing scheduled, if it did not).
		steps = append(steps, step{
			query: `INSERT INTO schedule (kind, game_id, subject, shard_key, due_at)
			SELECT ?, id, ?, shard_key, ? FROM games WHERE id = ? AND reminded_at = ?
			ON CONFLICT (kind, game_id, subject) DO UPDATE SET shard_key = excluded.shard_key, due_at = excluded.due_at`,
			args: []any{next.Kind, next.Subject, formatTime(next.At), id, formatTime(at)},
			fail: func(err error) error {
				return fmt.Errorf("storage: scheduling %s: %w", Due{Kind: next.Kind, GameID: id, Subject: next.Subject}.key(), err)
			},
		})
	}
	// The live board (LatestMessage's), which the reminder's new board
	// collapses: read here, it costs no round trip of its own.
	var live Message
	steps = append(steps, step{
		query: latestMessageSQL,
		args:  []any{id, string(KindBoard)},
		fail: func(err error) error {
			return fmt.Errorf("storage: latest %s message of game %d: %w", KindBoard, id, err)
		},
		rows: func(r rowReader) error {
			if r.Next() {
				// A row that cannot be read is no live board (as when
				// LatestMessage fails): the write is not undone for it
				// (pipe).
				if m, err := scanMessage(r); err == nil {
					live = m
				}
			}
			return nil
		},
	})
	if err := s.pipe(ctx, false, steps); err != nil {
		return false, Message{}, err
	}
	if leased == 1 && !claimed {
		// Ruled out by the row lock above; were it not, the lease alone
		// must not stay.
		err := s.ReleaseOutbox(ctx, id, h.Name)
		return false, Message{}, errors.Join(fmt.Errorf("storage: game %d: the outbox was leased without the reminder", id), err)
	}
	if !claimed {
		return false, Message{}, nil // neither
	}
	return true, live, nil
}
