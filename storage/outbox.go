package storage

import (
	"cmp"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
)

// The outbox: what committed moves must publish (see migration 0004).
// ApplyMove writes a move's entries in its own transaction; the bot
// delivers them, records what each delivery produced (UpdateOutbox) and
// marks them done.
//
// A version's entries are stored as one row, a publication: the row of
// kind "parts" holds the entries' kinds and payloads in payload and their
// outcomes and delivery times in outcome (JSON arrays, one element per
// entry), and is done once all its entries are; a version with one entry
// is a row of that entry's kind, as every row was before publications
// were grouped. So the undelivered rows say how many versions a game's
// channel is behind, not how many calls each version makes. Callers see
// entries, never rows: an entry's ID is its row's id × PartsPerRow plus
// its place in the row (0 for a row of one entry), so IDs keep the order
// of the entries and each names one entry.

const outboxCols = `id, game_id, version, kind, payload, outcome, created_at, done_at`

// PartsPerRow bounds the entries of one publication (one version); an
// entry's ID is its row's id × PartsPerRow + its place in the row.
const PartsPerRow = 64

// kindParts is the kind of a row holding several entries.
const kindParts = "parts"

// partHead is one entry of a parts row's payload, partState one of its
// outcome.
type partHead struct {
	Kind    string          `json:"kind"`
	Payload json.RawMessage `json:"payload,omitempty"`
}

type partState struct {
	Outcome json.RawMessage `json:"outcome,omitempty"`
	DoneAt  string          `json:"done_at,omitempty"`
}

func validOutbox(e OutboxEntry) error {
	if e.Kind == "" {
		return fmt.Errorf("%w: outbox entry without a kind", ErrInvalid)
	}
	if e.Kind == kindParts {
		return fmt.Errorf("%w: outbox entry of the reserved kind %q", ErrInvalid, kindParts)
	}
	if e.Version < 0 {
		return fmt.Errorf("%w: outbox entry with a negative version", ErrInvalid)
	}
	if err := validJSON("outbox payload", e.Payload, false); err != nil {
		return err
	}
	return validJSON("outbox outcome", e.Outcome, false)
}

// insertOutbox stores entries, one row per run of entries of the same
// game and version (their publication).
func insertOutbox(ctx context.Context, tx conn, entries []OutboxEntry, now string) error {
	for len(entries) > 0 {
		n := 1
		for n < len(entries) && n < PartsPerRow && entries[n].GameID == entries[0].GameID && entries[n].Version == entries[0].Version {
			n++
		}
		if err := insertOutboxRow(ctx, tx, entries[:n], now); err != nil {
			return err
		}
		entries = entries[n:]
	}
	return nil
}

func insertOutboxRow(ctx context.Context, tx conn, entries []OutboxEntry, now string) error {
	e := entries[0]
	kind, payload, outcome := e.Kind, string(e.Payload), string(e.Outcome)
	if len(entries) > 1 {
		heads, states := make([]partHead, len(entries)), make([]partState, len(entries))
		for k, p := range entries {
			heads[k] = partHead{Kind: p.Kind, Payload: json.RawMessage(p.Payload)}
			states[k] = partState{Outcome: json.RawMessage(p.Outcome)}
		}
		h, err := json.Marshal(heads)
		if err != nil {
			return fmt.Errorf("storage: game %d: encoding a publication: %w", e.GameID, err)
		}
		s, err := json.Marshal(states)
		if err != nil {
			return fmt.Errorf("storage: game %d: encoding a publication: %w", e.GameID, err)
		}
		kind, payload, outcome = kindParts, string(h), string(s)
	}
	_, err := tx.ExecContext(ctx, `INSERT INTO outbox (game_id, version, kind, payload, outcome, created_at)
		VALUES (?, ?, ?, ?, ?, ?)`, e.GameID, e.Version, kind, payload, outcome, now)
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
		return insertOutbox(ctx, tx, entries, s.stamp())
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
	all, err := s.listOutbox(ctx, q+` ORDER BY id`, args...)
	if err != nil {
		return nil, err
	}
	pending := all[:0]
	for _, e := range all {
		if e.DoneAt.IsZero() { // a publication's entries already delivered are not
			pending = append(pending, e)
		}
	}
	return pending, nil
}

// OutboxBatch lists every entry the game's version produced, oldest first.
func (s *sqlStore) OutboxBatch(ctx context.Context, gameID, version int64) ([]OutboxEntry, error) {
	return s.listOutbox(ctx, `SELECT `+outboxCols+` FROM outbox WHERE game_id = ? AND version = ? ORDER BY id`, gameID, version)
}

// listOutbox reads rows and returns their entries.
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
		if e.CreatedAt, err = parseTime(created); err != nil {
			return nil, err
		}
		if e.DoneAt, err = parseTime(done); err != nil {
			return nil, err
		}
		if out, err = appendEntries(out, e, payload, outcome); err != nil {
			return nil, err
		}
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("storage: reading the outbox: %w", err)
	}
	return out, nil
}

// appendEntries appends the entries of row (its columns read into row,
// payload and outcome) to out.
func appendEntries(out []OutboxEntry, row OutboxEntry, payload, outcome string) ([]OutboxEntry, error) {
	rowID := row.ID
	row.ID = rowID * PartsPerRow
	if row.Kind != kindParts {
		if payload != "" {
			row.Payload = []byte(payload)
		}
		if outcome != "" {
			row.Outcome = []byte(outcome)
		}
		return append(out, row), nil
	}
	heads, states, err := decodeParts(rowID, payload, outcome)
	if err != nil {
		return nil, err
	}
	for k, h := range heads {
		e := row
		e.ID += int64(k)
		e.Kind, e.Payload, e.Outcome = h.Kind, []byte(h.Payload), []byte(states[k].Outcome)
		if len(e.Payload) == 0 {
			e.Payload = nil
		}
		if len(e.Outcome) == 0 {
			e.Outcome = nil
		}
		if e.DoneAt, err = parseTime(states[k].DoneAt); err != nil {
			return nil, err
		}
		out = append(out, e)
	}
	return out, nil
}

func decodeParts(rowID int64, payload, outcome string) ([]partHead, []partState, error) {
	var heads []partHead
	var states []partState
	if err := json.Unmarshal([]byte(payload), &heads); err != nil {
		return nil, nil, fmt.Errorf("storage: outbox row %d: reading its entries: %w", rowID, err)
	}
	if err := json.Unmarshal([]byte(outcome), &states); err != nil {
		return nil, nil, fmt.Errorf("storage: outbox row %d: reading its entries' outcomes: %w", rowID, err)
	}
	if len(heads) != len(states) || len(heads) == 0 || len(heads) > PartsPerRow {
		return nil, nil, fmt.Errorf("storage: outbox row %d: %d entries with %d outcomes", rowID, len(heads), len(states))
	}
	return heads, states, nil
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

// updateOutbox changes one entry. An entry of a parts row is changed in
// its row's outcome, read under a row lock (the bot's publisher and the
// mover's interaction may each update an entry of one publication), and
// the row is done once all its entries are.
func updateOutbox(ctx context.Context, tx conn, u OutboxUpdate, now string) error {
	rowID, part := u.ID/PartsPerRow, int(u.ID%PartsPerRow)
	var kind, payload, outcome string
	err := tx.QueryRowContext(ctx, `SELECT kind, payload, outcome FROM outbox WHERE id = ?`+tx.d.forNoKeyUpdate, rowID).Scan(&kind, &payload, &outcome)
	if errors.Is(err, sql.ErrNoRows) || err == nil && (kind != kindParts && part != 0) {
		return fmt.Errorf("%w: outbox entry %d", ErrNotFound, u.ID)
	}
	if err != nil {
		return fmt.Errorf("storage: updating outbox entry %d: %w", u.ID, err)
	}
	q, args := `UPDATE outbox SET`, []any{}
	sep := " "
	set := func(col string, v any) {
		q += sep + col + ` = ?`
		args = append(args, v)
		sep = ", "
	}
	if kind != kindParts {
		if u.Outcome != nil {
			set("outcome", string(u.Outcome))
		}
		if u.Done {
			set("done_at", now)
		}
	} else {
		heads, states, err := decodeParts(rowID, payload, outcome)
		if err != nil {
			return err
		}
		if part >= len(heads) {
			return fmt.Errorf("%w: outbox entry %d", ErrNotFound, u.ID)
		}
		if u.Outcome != nil {
			states[part].Outcome = json.RawMessage(u.Outcome)
		}
		if u.Done && states[part].DoneAt == "" {
			states[part].DoneAt = now
		}
		raw, err := json.Marshal(states)
		if err != nil {
			return fmt.Errorf("storage: updating outbox entry %d: %w", u.ID, err)
		}
		set("outcome", string(raw))
		all := true
		for _, st := range states {
			all = all && st.DoneAt != ""
		}
		if all {
			set("done_at", now)
		}
	}
	if sep == " " {
		return nil // nothing to change: the entry exists
	}
	if _, err := tx.ExecContext(ctx, q+` WHERE id = ?`, append(args, rowID)...); err != nil {
		return fmt.Errorf("storage: updating outbox entry %d: %w", u.ID, err)
	}
	return nil
}

// LastOutbox returns the game's newest delivered entry of kind before the
// entry beforeID.
func (s *sqlStore) LastOutbox(ctx context.Context, gameID int64, kind string, beforeID int64) (OutboxEntry, error) {
	// The rows up to beforeID's, newest first, a page at a time: a
	// publication's entries are delivered one by one, so its row may be
	// pending with the entry sought delivered.
	const page = 32
	upTo := beforeID / PartsPerRow
	for {
		var n int
		list, err := s.listOutbox(ctx, `SELECT `+outboxCols+` FROM outbox WHERE game_id = ? AND id <= ? AND kind IN (?, ?)
			ORDER BY id DESC LIMIT ?`, gameID, upTo, kind, kindParts, page)
		if err != nil {
			return OutboxEntry{}, err
		}
		slices.SortFunc(list, func(a, b OutboxEntry) int { return cmp.Compare(b.ID, a.ID) }) // newest entry first
		for _, e := range list {
			if e.ID < beforeID && e.Kind == kind && !e.DoneAt.IsZero() {
				return e, nil
			}
			if e.ID%PartsPerRow == 0 {
				n++ // a row's first entry: one row read
			}
		}
		if n < page {
			return OutboxEntry{}, fmt.Errorf("%w: no delivered %s of game %d before entry %d", ErrNotFound, kind, gameID, beforeID)
		}
		upTo = list[len(list)-1].ID/PartsPerRow - 1
	}
}
