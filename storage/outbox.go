package storage

import (
	"context"
	"fmt"
)

// The outbox: what committed moves must publish (see migration 0004).
// ApplyMove writes a move's entries in its own transaction; the bot
// delivers them, records what each delivery produced (UpdateOutbox) and
// marks them done.

const outboxCols = `id, game_id, version, kind, payload, outcome, created_at, done_at`

func validOutbox(e OutboxEntry) error {
	if e.Kind == "" {
		return fmt.Errorf("%w: outbox entry without a kind", ErrInvalid)
	}
	if e.Version < 0 {
		return fmt.Errorf("%w: outbox entry with a negative version", ErrInvalid)
	}
	if err := validJSON("outbox payload", e.Payload, false); err != nil {
		return err
	}
	return validJSON("outbox outcome", e.Outcome, false)
}

func insertOutbox(ctx context.Context, tx conn, e OutboxEntry, now string) error {
	_, err := tx.ExecContext(ctx, `INSERT INTO outbox (game_id, version, kind, payload, outcome, created_at)
		VALUES (?, ?, ?, ?, ?, ?)`, e.GameID, e.Version, e.Kind, string(e.Payload), string(e.Outcome), now)
	if tx.d.isForeignKey(err) {
		return fmt.Errorf("%w: game %d (outbox entry %s)", ErrNotFound, e.GameID, e.Kind)
	}
	if err != nil {
		return fmt.Errorf("storage: game %d: storing outbox entry %s: %w", e.GameID, e.Kind, err)
	}
	return nil
}

// Enqueue stores outbox entries outside a move, in one transaction (a
// game's first publication: its start is not a move).
func (s *sqlStore) Enqueue(ctx context.Context, entries ...OutboxEntry) error {
	for _, e := range entries {
		if err := validOutbox(e); err != nil {
			return err
		}
	}
	return s.write(ctx, func(tx conn) error {
		now := s.stamp()
		for _, e := range entries {
			if err := insertOutbox(ctx, tx, e, now); err != nil {
				return err
			}
		}
		return nil
	})
}

// PendingOutbox lists undelivered entries, oldest first: the game's, or
// every game's if gameID is 0.
func (s *sqlStore) PendingOutbox(ctx context.Context, gameID int64) ([]OutboxEntry, error) {
	q, args := `SELECT `+outboxCols+` FROM outbox WHERE done_at = ''`, []any{}
	if gameID != 0 {
		q += ` AND game_id = ?`
		args = append(args, gameID)
	}
	return s.listOutbox(ctx, q+` ORDER BY id`, args...)
}

// OutboxBatch lists every entry the game's version produced, oldest first.
func (s *sqlStore) OutboxBatch(ctx context.Context, gameID, version int64) ([]OutboxEntry, error) {
	return s.listOutbox(ctx, `SELECT `+outboxCols+` FROM outbox WHERE game_id = ? AND version = ? ORDER BY id`, gameID, version)
}

func (s *sqlStore) listOutbox(ctx context.Context, q string, args ...any) ([]OutboxEntry, error) {
	rows, err := s.readDB().QueryContext(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("storage: reading the outbox: %w", err)
	}
	defer rows.Close()
	out := []OutboxEntry{}
	for rows.Next() {
		var (
			e                         OutboxEntry
			payload, outcome, created string
			done                      string
		)
		if err := rows.Scan(&e.ID, &e.GameID, &e.Version, &e.Kind, &payload, &outcome, &created, &done); err != nil {
			return nil, fmt.Errorf("storage: reading the outbox: %w", err)
		}
		if payload != "" {
			e.Payload = []byte(payload)
		}
		if outcome != "" {
			e.Outcome = []byte(outcome)
		}
		if e.CreatedAt, err = parseTime(created); err != nil {
			return nil, err
		}
		if e.DoneAt, err = parseTime(done); err != nil {
			return nil, err
		}
		out = append(out, e)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("storage: reading the outbox: %w", err)
	}
	return out, nil
}

// UpdateOutbox records what delivering an entry produced (outcome, JSON;
// nil keeps the stored one) and, if done, marks it delivered.
func (s *sqlStore) UpdateOutbox(ctx context.Context, id int64, outcome []byte, done bool) error {
	return s.WriteOutbox(ctx, OutboxWrite{Updates: []OutboxUpdate{{ID: id, Outcome: outcome, Done: done}}})
}

// WriteOutbox makes w in one transaction; ErrNotFound (and nothing
// changed) if an update names no entry, ErrLeaseLost if w.Holder does not
// hold the game's lease.
func (s *sqlStore) WriteOutbox(ctx context.Context, w OutboxWrite) error {
	for _, u := range w.Updates {
		if err := validJSON("outbox outcome", u.Outcome, false); err != nil {
			return err
		}
		if u.Record != nil {
			if err := validMessage(*u.Record); err != nil {
				return err
			}
		}
	}
	if len(w.Updates) == 0 && w.Holder == "" {
		return nil
	}
	return s.write(ctx, func(tx conn) error {
		if w.Holder != "" {
			q, args := `UPDATE outbox_leases SET until_ms = until_ms`, []any{}
			if !w.Until.IsZero() {
				q, args = `UPDATE outbox_leases SET until_ms = ?`, append(args, w.Until.UnixMilli())
			}
			res, err := tx.ExecContext(ctx, q+` WHERE game_id = ? AND holder = ?`, append(args, w.GameID, w.Holder)...)
			if err != nil {
				return fmt.Errorf("storage: game %d: renewing the outbox lease: %w", w.GameID, err)
			}
			if n, err := res.RowsAffected(); err != nil {
				return fmt.Errorf("storage: game %d: renewing the outbox lease: %w", w.GameID, err)
			} else if n == 0 {
				return fmt.Errorf("%w: game %d", ErrLeaseLost, w.GameID)
			}
		}
		now := s.stamp()
		for _, u := range w.Updates {
			if err := updateOutbox(ctx, tx, u, now); err != nil {
				return err
			}
			if u.Record != nil {
				if _, err := recordMessage(ctx, tx, *u.Record, now); err != nil {
					return err
				}
			}
		}
		if w.Release {
			if _, err := tx.ExecContext(ctx, `DELETE FROM outbox_leases WHERE game_id = ? AND holder = ?`, w.GameID, w.Holder); err != nil {
				return fmt.Errorf("storage: game %d: releasing the outbox: %w", w.GameID, err)
			}
		}
		return nil
	})
}

func updateOutbox(ctx context.Context, tx conn, u OutboxUpdate, now string) error {
	q, args := `UPDATE outbox SET`, []any{}
	sep := " "
	if u.Outcome != nil {
		q += sep + `outcome = ?`
		args = append(args, string(u.Outcome))
		sep = ", "
	}
	if u.Done {
		q += sep + `done_at = ?`
		args = append(args, now)
		sep = ", "
	}
	if sep == " " {
		q += ` id = id`
	}
	res, err := tx.ExecContext(ctx, q+` WHERE id = ?`, append(args, u.ID)...)
	if err != nil {
		return fmt.Errorf("storage: updating outbox entry %d: %w", u.ID, err)
	}
	if n, err := res.RowsAffected(); err != nil {
		return fmt.Errorf("storage: updating outbox entry %d: %w", u.ID, err)
	} else if n == 0 {
		return fmt.Errorf("%w: outbox entry %d", ErrNotFound, u.ID)
	}
	return nil
}

// LastOutbox returns the game's newest delivered entry of kind before the
// entry beforeID.
func (s *sqlStore) LastOutbox(ctx context.Context, gameID int64, kind string, beforeID int64) (OutboxEntry, error) {
	list, err := s.listOutbox(ctx, `SELECT `+outboxCols+` FROM outbox WHERE game_id = ? AND kind = ? AND id < ? AND done_at <> ''
		ORDER BY id DESC LIMIT 1`, gameID, kind, beforeID)
	if err != nil {
		return OutboxEntry{}, err
	}
	if len(list) == 0 {
		return OutboxEntry{}, fmt.Errorf("%w: no delivered %s of game %d before entry %d", ErrNotFound, kind, gameID, beforeID)
	}
	return list[0], nil
}
