package storage

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// Analyses keeps post-game analyses (issue 29; the bot encodes them with
// package analysis): made once on the AI worker, read back at once when
// asked again.
type Analyses interface {
	// SaveAnalysis stores a game's analysis (JSON) of an encoding version,
	// replacing any stored before.
	SaveAnalysis(ctx context.Context, gameID int64, version int, data []byte) error
	// Analysis returns a game's stored analysis and its version, or
	// ErrNotFound.
	Analysis(ctx context.Context, gameID int64) (version int, data []byte, err error)
}

func (s *sqlStore) SaveAnalysis(ctx context.Context, gameID int64, version int, data []byte) error {
	if err := validJSON("analysis", data, true); err != nil {
		return err
	}
	return s.write(ctx, func(tx conn) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO analyses (game_id, version, data, created_at) VALUES (?, ?, ?, ?)
			ON CONFLICT (game_id) DO UPDATE SET version = excluded.version, data = excluded.data, created_at = excluded.created_at`,
			gameID, version, string(data), s.stamp())
		if err != nil {
			return fmt.Errorf("storage: saving the analysis of game %d: %w", gameID, err)
		}
		return nil
	})
}

func (s *sqlStore) Analysis(ctx context.Context, gameID int64) (int, []byte, error) {
	var (
		version int
		data    string
	)
	err := s.read(ctx, func(tx conn) error {
		return tx.QueryRowContext(ctx, `SELECT version, data FROM analyses WHERE game_id = ?`, gameID).Scan(&version, &data)
	})
	if errors.Is(err, sql.ErrNoRows) {
		return 0, nil, fmt.Errorf("%w: no analysis of game %d", ErrNotFound, gameID)
	}
	if err != nil {
		return 0, nil, fmt.Errorf("storage: the analysis of game %d: %w", gameID, err)
	}
	return version, []byte(data), nil
}
