package storage

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
)

// The schedule: due work found by index (migration 0007). See Due and the
// package documentation.

// Due is one piece of due work in the schedule: something the bot must do
// at or after a time, for a game or for a user. The store gives kinds no
// meaning; the bot names them (remind, expire, resume, ...) and computes
// them (bot/due.go).
type Due struct {
	// Kind names the work (the bot's name); required.
	Kind string
	// GameID is the game it concerns; 0 for an item of a user or a
	// server. Items given with a game's write (NewGame.Due, Activate,
	// Move.Due) are that game's: GameID and ShardKey are set by the store.
	GameID int64
	// Subject is what within: "" for the game itself, a side, a user id.
	Subject string
	// ShardKey is whose shard runs it: ShardKey(guild id), 0 for DMs.
	ShardKey int64
	// At is when it is due. Zero At, in an item given to a write, means
	// In after the write's own time, by the store's clock (a move's due
	// work counts from the move's last_action_at exactly).
	At time.Time
	In time.Duration
}

// key names a schedule row in errors.
func (d Due) key() string {
	return fmt.Sprintf("%s/%d/%s", d.Kind, d.GameID, d.Subject)
}

// ShardKey is a guild's shard key, Discord's guild_id >> 22: a shard of
// count runs the work of the keys with key % count == its id. DMs ("")
// and an id that is not a snowflake below 2^63 have key 0 (shard 0's).
func ShardKey(guildID string) int64 {
	if guildID == "" {
		return 0
	}
	id, err := strconv.ParseInt(guildID, 10, 64)
	if err != nil || id < 0 || strings.HasPrefix(guildID, "+") {
		return 0
	}
	return id >> 22
}

// ShardFilter is the shard whose work a query selects: Shard of Shards.
// Shards <= 1 selects everything.
type ShardFilter struct {
	Shard, Shards int
}

// sql returns the filter as an SQL condition on column (a shard key) and
// its arguments; "1 = 1" selects everything.
func (f ShardFilter) sql(column string) (string, []any) {
	if f.Shards <= 1 {
		return "1 = 1", nil
	}
	return column + " % ? = ?", []any{f.Shards, f.Shard}
}

// DueQuery selects due work of one kind.
type DueQuery struct {
	Kind string
	// Now: items due at or before it.
	Now time.Time
	// Shard: only this shard's items.
	Shard ShardFilter
	// After, if set, continues a listing after this item (in the order
	// due_at, game_id, subject), so that a pass goes through a long list
	// in batches even when it leaves some items where they are.
	After *Due
	// Limit caps the items returned (DueBatch if <= 0).
	Limit int
}

// DueBatch is DueWork's default batch size.
const DueBatch = 256

// Schedule is the part of the Store that keeps due work.
type Schedule interface {
	// DueWork lists the items of q.Kind due at q.Now for q.Shard, oldest
	// first, at most q.Limit: one index range, whatever the number of
	// games stored.
	DueWork(ctx context.Context, q DueQuery) ([]Due, error)
	// GameSchedule lists a game's items, by kind and subject.
	GameSchedule(ctx context.Context, gameID int64) ([]Due, error)
	// ScheduleDue stores items (replacing the items of the same kind,
	// game and subject). Each needs an At.
	ScheduleDue(ctx context.Context, items ...Due) error
	// ClaimDue moves an item the caller read (d, with the At it read) to
	// next, or deletes it if next is zero, if it is still due at d.At: of
	// several bot processes that read it, exactly one claims it. False if
	// another did (or it is gone).
	ClaimDue(ctx context.Context, d Due, next time.Time) (bool, error)
	// PendingGames lists the games with undelivered outbox entries, of
	// the shard, by id, at most limit (all if <= 0), after the game after:
	// an index range over the pending entries only.
	PendingGames(ctx context.Context, shard ShardFilter, after int64, limit int) ([]int64, error)
	// Maintenance lists the jobs a migration asked for (see migration
	// 0007; JobBackfillResults, JobRebuildRatings), and JobRebuildRatings
	// when the ratings table is missing; MaintenanceDone deletes one once
	// done.
	Maintenance(ctx context.Context) ([]string, error)
	MaintenanceDone(ctx context.Context, job string) error
}

func validDue(d Due, needAt bool) error {
	switch {
	case d.Kind == "":
		return fmt.Errorf("%w: due work without a kind", ErrInvalid)
	case d.GameID < 0 || d.ShardKey < 0:
		return fmt.Errorf("%w: due work %s: negative game or shard key", ErrInvalid, d.key())
	case needAt && d.At.IsZero():
		return fmt.Errorf("%w: due work %s without a time", ErrInvalid, d.key())
	}
	return nil
}

// setGameDue replaces a game's schedule with items (each made the game's,
// with its shard key: key, or read from the game's row if key < 0),
// timed from now where At is zero.
func setGameDue(ctx context.Context, tx conn, gameID, key int64, now time.Time, items []Due) error {
	if _, err := tx.ExecContext(ctx, `DELETE FROM schedule WHERE game_id = ?`, gameID); err != nil {
		return fmt.Errorf("storage: game %d: clearing its schedule: %w", gameID, err)
	}
	if len(items) == 0 {
		return nil
	}
	if key < 0 {
		if err := tx.QueryRowContext(ctx, `SELECT shard_key FROM games WHERE id = ?`, gameID).Scan(&key); err != nil {
			return fmt.Errorf("storage: game %d: its shard key: %w", gameID, err)
		}
	}
	for _, d := range items {
		d.GameID, d.ShardKey = gameID, key
		if d.At.IsZero() {
			d.At = now.Add(d.In)
		}
		if err := upsertDue(ctx, tx, d); err != nil {
			return err
		}
	}
	return nil
}

// clearGameDue deletes an ended game's schedule.
func clearGameDue(ctx context.Context, tx conn, gameID int64) error {
	if _, err := tx.ExecContext(ctx, `DELETE FROM schedule WHERE game_id = ?`, gameID); err != nil {
		return fmt.Errorf("storage: game %d: clearing its schedule: %w", gameID, err)
	}
	return nil
}

func upsertDue(ctx context.Context, tx conn, d Due) error {
	_, err := tx.ExecContext(ctx, `INSERT INTO schedule (kind, game_id, subject, shard_key, due_at) VALUES (?, ?, ?, ?, ?)
		ON CONFLICT (kind, game_id, subject) DO UPDATE SET shard_key = excluded.shard_key, due_at = excluded.due_at`,
		d.Kind, d.GameID, d.Subject, d.ShardKey, formatTime(d.At))
	if err != nil {
		return fmt.Errorf("storage: scheduling %s: %w", d.key(), err)
	}
	return nil
}

func validDueItems(items []Due) error {
	for _, d := range items {
		if err := validDue(d, false); err != nil {
			return err
		}
	}
	return nil
}

// DueWork lists due items of one kind, oldest first.
func (s *sqlStore) DueWork(ctx context.Context, q DueQuery) ([]Due, error) {
	if q.Kind == "" {
		return nil, fmt.Errorf("%w: due work of no kind", ErrInvalid)
	}
	query, args := dueWorkSQL(q)
	rows, err := s.readDB().QueryContext(ctx, query, args...)
	if err != nil {
		return nil, fmt.Errorf("storage: due work %s: %w", q.Kind, err)
	}
	defer rows.Close()
	var out []Due
	for rows.Next() {
		d := Due{Kind: q.Kind}
		var at string
		if err := rows.Scan(&d.GameID, &d.Subject, &d.ShardKey, &at); err != nil {
			return nil, fmt.Errorf("storage: due work %s: %w", q.Kind, err)
		}
		if d.At, err = parseTime(at); err != nil {
			return nil, err
		}
		out = append(out, d)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("storage: due work %s: %w", q.Kind, err)
	}
	return out, nil
}

// dueWorkSQL is DueWork's query: one range of the index schedule_due
// (kind, due_at, game_id, subject, shard_key), which covers it.
func dueWorkSQL(q DueQuery) (string, []any) {
	limit := q.Limit
	if limit <= 0 {
		limit = DueBatch
	}
	shard, sargs := q.Shard.sql("shard_key")
	query := `SELECT game_id, subject, shard_key, due_at FROM schedule WHERE kind = ? AND due_at <= ?`
	args := []any{q.Kind, formatTime(q.Now)}
	if q.After != nil {
		// A row value: the range continues after the last item read.
		query += ` AND (due_at, game_id, subject) > (?, ?, ?)`
		args = append(args, formatTime(q.After.At), q.After.GameID, q.After.Subject)
	}
	query += ` AND ` + shard + ` ORDER BY due_at, game_id, subject LIMIT ?`
	return query, append(append(args, sargs...), limit)
}

// GameSchedule lists a game's items.
func (s *sqlStore) GameSchedule(ctx context.Context, gameID int64) ([]Due, error) {
	rows, err := s.readDB().QueryContext(ctx, `SELECT kind, subject, shard_key, due_at FROM schedule
		WHERE game_id = ? ORDER BY kind, subject`, gameID)
	if err != nil {
		return nil, fmt.Errorf("storage: schedule of game %d: %w", gameID, err)
	}
	defer rows.Close()
	out := []Due{}
	for rows.Next() {
		d := Due{GameID: gameID}
		var at string
		if err := rows.Scan(&d.Kind, &d.Subject, &d.ShardKey, &at); err != nil {
			return nil, fmt.Errorf("storage: schedule of game %d: %w", gameID, err)
		}
		if d.At, err = parseTime(at); err != nil {
			return nil, err
		}
		out = append(out, d)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("storage: schedule of game %d: %w", gameID, err)
	}
	return out, nil
}

// ScheduleDue stores items, replacing those of the same key.
func (s *sqlStore) ScheduleDue(ctx context.Context, items ...Due) error {
	for _, d := range items {
		if err := validDue(d, true); err != nil {
			return err
		}
	}
	if len(items) == 0 {
		return nil
	}
	return s.write(ctx, func(tx conn) error {
		for _, d := range items {
			if err := upsertDue(ctx, tx, d); err != nil {
				return err
			}
		}
		return nil
	})
}

// ClaimDue moves (or deletes) an item if it is still due at d.At.
func (s *sqlStore) ClaimDue(ctx context.Context, d Due, next time.Time) (bool, error) {
	if err := validDue(d, true); err != nil {
		return false, err
	}
	claimed := false
	err := s.write(ctx, func(tx conn) error {
		var ok bool
		var err error
		ok, err = claimDue(ctx, tx, d, next)
		claimed = ok
		return err
	})
	return claimed, err
}

func claimDue(ctx context.Context, tx conn, d Due, next time.Time) (bool, error) {
	var (
		res sql.Result
		err error
	)
	if next.IsZero() {
		res, err = tx.ExecContext(ctx, `DELETE FROM schedule WHERE kind = ? AND game_id = ? AND subject = ? AND due_at = ?`,
			d.Kind, d.GameID, d.Subject, formatTime(d.At))
	} else {
		res, err = tx.ExecContext(ctx, `UPDATE schedule SET due_at = ? WHERE kind = ? AND game_id = ? AND subject = ? AND due_at = ?`,
			formatTime(next), d.Kind, d.GameID, d.Subject, formatTime(d.At))
	}
	if err != nil {
		return false, fmt.Errorf("storage: claiming %s: %w", d.key(), err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return false, fmt.Errorf("storage: claiming %s: %w", d.key(), err)
	}
	return n == 1, nil
}

// PendingGames lists the shard's games with undelivered outbox entries.
func (s *sqlStore) PendingGames(ctx context.Context, shard ShardFilter, after int64, limit int) ([]int64, error) {
	query, args := pendingGamesSQL(shard, after, limit)
	rows, err := s.readDB().QueryContext(ctx, query, args...)
	if err != nil {
		return nil, fmt.Errorf("storage: games with pending publications: %w", err)
	}
	defer rows.Close()
	var out []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return nil, fmt.Errorf("storage: games with pending publications: %w", err)
		}
		out = append(out, id)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("storage: games with pending publications: %w", err)
	}
	return out, nil
}

// pendingGamesSQL is PendingGames' query: the range done_at = ” of the
// index outbox_pending (done_at, game_id, id), each game's shard key read
// by its primary key.
func pendingGamesSQL(shard ShardFilter, after int64, limit int) (string, []any) {
	cond, args := shard.sql("g.shard_key")
	query := `SELECT DISTINCT o.game_id FROM outbox o JOIN games g ON g.id = o.game_id
		WHERE o.done_at = '' AND o.game_id > ? AND ` + cond + ` ORDER BY o.game_id`
	args = append([]any{after}, args...)
	if limit > 0 {
		query += ` LIMIT ?`
		args = append(args, limit)
	}
	return query, args
}

// Maintenance jobs (the maintenance table's rows).
const (
	// JobBackfillResults: record the results of the finished games that
	// have none (finished before results were kept).
	JobBackfillResults = "backfill-results"
	// JobRebuildRatings: rebuild every guild's ratings from the results
	// (a migration changed their formula, or the ratings table is
	// missing: Maintenance then lists it without a row).
	JobRebuildRatings = "rebuild-ratings"
)

// Maintenance lists the jobs migrations asked for, and JobRebuildRatings
// if the ratings table is missing.
func (s *sqlStore) Maintenance(ctx context.Context) ([]string, error) {
	rows, err := s.readDB().QueryContext(ctx, `SELECT job FROM maintenance ORDER BY requested_at, job`)
	if err != nil {
		return nil, fmt.Errorf("storage: maintenance jobs: %w", err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var j string
		if err := rows.Scan(&j); err != nil {
			return nil, fmt.Errorf("storage: maintenance jobs: %w", err)
		}
		out = append(out, j)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("storage: maintenance jobs: %w", err)
	}
	var n int
	if err := s.readDB().QueryRowContext(ctx, s.d.tableExists, "ratings").Scan(&n); err != nil {
		return nil, fmt.Errorf("storage: maintenance jobs: %w", err)
	}
	if n == 0 && !slices.Contains(out, JobRebuildRatings) {
		out = append(out, JobRebuildRatings)
	}
	return out, nil
}

// MaintenanceDone deletes a job once done (nothing if it is not pending).
func (s *sqlStore) MaintenanceDone(ctx context.Context, job string) error {
	return s.write(ctx, func(tx conn) error {
		if _, err := tx.ExecContext(ctx, `DELETE FROM maintenance WHERE job = ?`, job); err != nil {
			return fmt.Errorf("storage: maintenance job %s done: %w", job, err)
		}
		return nil
	})
}
