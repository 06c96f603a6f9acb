package storage

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// SaveDeck records a deck under its id (idempotent: an id already stored
// keeps its content). content is JSON.
func (s *sqlStore) SaveDeck(ctx context.Context, id string, content []byte) error {
	if id == "" {
		return fmt.Errorf("%w: empty deck id", ErrInvalid)
	}
	if err := validJSON("deck", content, true); err != nil {
		return err
	}
	return s.write(ctx, func(tx conn) error {
		if _, err := tx.ExecContext(ctx, `INSERT INTO decks (id, content, created_at) VALUES (?, ?, ?)
			ON CONFLICT (id) DO NOTHING`, id, string(content), s.stamp()); err != nil {
			return fmt.Errorf("storage: saving deck %s: %w", id, err)
		}
		return nil
	})
}

// Deck returns the content of a stored deck, or ErrNotFound.
func (s *sqlStore) Deck(ctx context.Context, id string) ([]byte, error) {
	var content string
	err := s.read(ctx, func(tx conn) error {
		return tx.QueryRowContext(ctx, `SELECT content FROM decks WHERE id = ?`, id).Scan(&content)
	})
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("%w: deck %s", ErrNotFound, id)
	}
	if err != nil {
		return nil, fmt.Errorf("storage: reading deck %s: %w", id, err)
	}
	return []byte(content), nil
}

// RequestUndo records r as the game's pending undo request, replacing any
// earlier one. ErrConflict if the game is no longer at r.Version,
// ErrWrongStatus if it is not active.
func (s *sqlStore) RequestUndo(ctx context.Context, r UndoRequest) error {
	if !r.Side.valid() || r.UserID == "" || r.Version < 0 {
		return fmt.Errorf("%w: undo request by side %q, user %q at version %d", ErrInvalid, r.Side, r.UserID, r.Version)
	}
	return s.write(ctx, func(tx conn) error {
		res, err := tx.ExecContext(ctx, `INSERT INTO undo_requests (game_id, side, user_id, version, created_at)
			SELECT id, ?, ?, state_version, ? FROM games WHERE id = ? AND state_version = ? AND status = 'active'`+tx.d.forUpdate+`
			ON CONFLICT (game_id) DO UPDATE SET side = excluded.side, user_id = excluded.user_id,
				version = excluded.version, created_at = excluded.created_at`,
			string(r.Side), r.UserID, s.stamp(), r.GameID, r.Version)
		if err != nil {
			return fmt.Errorf("storage: game %d: recording an undo request: %w", r.GameID, err)
		}
		if n, err := res.RowsAffected(); err != nil {
			return fmt.Errorf("storage: game %d: recording an undo request: %w", r.GameID, err)
		} else if n == 0 {
			return whyNot(ctx, tx, r.GameID, &r.Version, StatusActive)
		}
		return nil
	})
}

// PendingUndo returns the game's undo request if it is still pending (made
// at the game's current version), else ErrNotFound.
func (s *sqlStore) PendingUndo(ctx context.Context, gameID int64) (UndoRequest, error) {
	var r UndoRequest
	err := s.read(ctx, func(tx conn) (err error) {
		r, err = pendingUndo(ctx, tx, gameID)
		return err
	})
	return r, err
}

func pendingUndo(ctx context.Context, q queryer, gameID int64) (UndoRequest, error) {
	r := UndoRequest{GameID: gameID}
	var side, created string
	err := q.QueryRowContext(ctx, `SELECT u.side, u.user_id, u.version, u.created_at
		FROM undo_requests u JOIN games g ON g.id = u.game_id
		WHERE u.game_id = ? AND u.version = g.state_version AND g.status = 'active'`, gameID).
		Scan(&side, &r.UserID, &r.Version, &created)
	if errors.Is(err, sql.ErrNoRows) {
		return UndoRequest{}, fmt.Errorf("%w: pending undo request of game %d", ErrNotFound, gameID)
	}
	if err != nil {
		return UndoRequest{}, fmt.Errorf("storage: undo request of game %d: %w", gameID, err)
	}
	r.Side = Side(side)
	if r.CreatedAt, err = parseTime(created); err != nil {
		return UndoRequest{}, fmt.Errorf("storage: undo request of game %d: %w", gameID, err)
	}
	return r, nil
}

// DropUndoRequest forgets the game's undo request (refused); no error if
// there was none.
func (s *sqlStore) DropUndoRequest(ctx context.Context, gameID int64) error {
	return s.write(ctx, func(tx conn) error {
		if _, err := tx.ExecContext(ctx, `DELETE FROM undo_requests WHERE game_id = ?`, gameID); err != nil {
			return fmt.Errorf("storage: game %d: dropping the undo request: %w", gameID, err)
		}
		return nil
	})
}
