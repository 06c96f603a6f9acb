package storage

import (
	"context"
	"fmt"
	"strings"
	"time"
)

// Clocks: a game's clock (opaque JSON, Game.Clock) written outside a
// move, the games a member plays, and members' time away (migration
// 0010). The bot gives them meaning (bot/clock.go, bot/away.go).
type Clocks interface {
	// SetClock replaces an active game's clock if the game is still at
	// w.Version with the clock w.Old (compare and swap: of two processes
	// one wins; false for the other, or if the game moved or ended), and
	// in the same transaction replaces its schedule rows of w.Kinds with
	// w.Due.
	SetClock(ctx context.Context, w ClockWrite) (bool, error)
	// AddAway records a spell of time away. ErrConflict if it overlaps
	// one of the member's spells.
	AddAway(ctx context.Context, a Away) error
	// EndAway ends the member's spell running at at (its end moved to at);
	// false if none runs then.
	EndAway(ctx context.Context, userID string, at time.Time) (bool, error)
	// AwaySpells lists the spells of the members that end after since,
	// oldest first.
	AwaySpells(ctx context.Context, since time.Time, userIDs ...string) ([]Away, error)
}

// ClockWrite is one write of a game's clock outside a move (SetClock).
type ClockWrite struct {
	GameID   int64
	Version  int64  // the game's StateVersion the clock was read at
	Old, New []byte // the clock read, and its replacement (JSON)
	// Kinds are the schedule kinds the write replaces with Due (the
	// game's items: GameID and ShardKey are set by the store; a zero At
	// is In after now).
	Kinds []string
	Due   []Due
}

// Away is one spell of a member's time away: from Start until End.
type Away struct {
	UserID     string
	Start, End time.Time
}

// SetClock replaces a game's clock if unchanged since read.
func (s *sqlStore) SetClock(ctx context.Context, w ClockWrite) (bool, error) {
	if err := validJSON("clock", w.New, false); err != nil {
		return false, err
	}
	if err := validDueItems(w.Due); err != nil {
		return false, err
	}
	ok := false
	err := s.write(ctx, func(tx conn) error {
		at := s.now()
		res, err := tx.ExecContext(ctx, `UPDATE games SET clock = ?, updated_at = ?
			WHERE id = ? AND status = 'active' AND state_version = ? AND clock = ?`,
			string(w.New), formatTime(at), w.GameID, w.Version, string(w.Old))
		if err != nil {
			return fmt.Errorf("storage: game %d: setting its clock: %w", w.GameID, err)
		}
		n, err := res.RowsAffected()
		if err != nil {
			return fmt.Errorf("storage: game %d: setting its clock: %w", w.GameID, err)
		}
		if n != 1 {
			return nil
		}
		ok = true
		if len(w.Kinds) == 0 {
			return nil
		}
		marks := strings.TrimSuffix(strings.Repeat("?, ", len(w.Kinds)), ", ")
		args := []any{w.GameID}
		for _, k := range w.Kinds {
			args = append(args, k)
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM schedule WHERE game_id = ? AND kind IN (`+marks+`)`, args...); err != nil {
			return fmt.Errorf("storage: game %d: replacing its clock's schedule: %w", w.GameID, err)
		}
		var key int64
		if err := tx.QueryRowContext(ctx, `SELECT shard_key FROM games WHERE id = ?`, w.GameID).Scan(&key); err != nil {
			return fmt.Errorf("storage: game %d: its shard key: %w", w.GameID, err)
		}
		for _, d := range w.Due {
			d.GameID, d.ShardKey = w.GameID, key
			if d.At.IsZero() {
				d.At = at.Add(d.In)
			}
			if err := upsertDue(ctx, tx, d); err != nil {
				return err
			}
		}
		return nil
	})
	return ok && err == nil, err
}

// AddAway records a spell, refusing one that overlaps another.
func (s *sqlStore) AddAway(ctx context.Context, a Away) error {
	if a.UserID == "" || a.Start.IsZero() || a.End.Before(a.Start) {
		return fmt.Errorf("%w: away spell %+v", ErrInvalid, a)
	}
	return s.write(ctx, func(tx conn) error {
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM away WHERE user_id = ? AND starts_at < ? AND ends_at > ?`,
			a.UserID, formatTime(a.End), formatTime(a.Start)).Scan(&n); err != nil {
			return fmt.Errorf("storage: away spells of %s: %w", a.UserID, err)
		}
		if n > 0 {
			return fmt.Errorf("%w: %s is already away then", ErrConflict, a.UserID)
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO away (user_id, starts_at, ends_at) VALUES (?, ?, ?)`,
			a.UserID, formatTime(a.Start), formatTime(a.End)); err != nil {
			return fmt.Errorf("storage: recording %s away: %w", a.UserID, err)
		}
		return nil
	})
}

// EndAway ends the spell running at at.
func (s *sqlStore) EndAway(ctx context.Context, userID string, at time.Time) (bool, error) {
	ended := false
	err := s.write(ctx, func(tx conn) error {
		res, err := tx.ExecContext(ctx, `UPDATE away SET ends_at = ? WHERE user_id = ? AND starts_at <= ? AND ends_at > ?`,
			formatTime(at), userID, formatTime(at), formatTime(at))
		if err != nil {
			return fmt.Errorf("storage: ending %s's time away: %w", userID, err)
		}
		n, err := res.RowsAffected()
		ended = n > 0
		return err
	})
	return ended, err
}

// AwaySpells lists the members' spells ending after since.
func (s *sqlStore) AwaySpells(ctx context.Context, since time.Time, userIDs ...string) ([]Away, error) {
	if len(userIDs) == 0 {
		return nil, nil
	}
	marks := strings.TrimSuffix(strings.Repeat("?, ", len(userIDs)), ", ")
	args := []any{formatTime(since)}
	for _, u := range userIDs {
		args = append(args, u)
	}
	rows, err := s.readDB().QueryContext(ctx, `SELECT user_id, starts_at, ends_at FROM away
		WHERE ends_at > ? AND user_id IN (`+marks+`) ORDER BY starts_at, user_id`, args...)
	if err != nil {
		return nil, fmt.Errorf("storage: away spells: %w", err)
	}
	defer rows.Close()
	var out []Away
	for rows.Next() {
		var a Away
		var start, end string
		if err := rows.Scan(&a.UserID, &start, &end); err != nil {
			return nil, fmt.Errorf("storage: away spells: %w", err)
		}
		if a.Start, err = parseTime(start); err != nil {
			return nil, err
		}
		if a.End, err = parseTime(end); err != nil {
			return nil, err
		}
		out = append(out, a)
	}
	return out, rows.Err()
}
