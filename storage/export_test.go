package storage

import "strings"

// SetTestHookMidMove installs f to run inside every ApplyMove transaction
// between the state update and the action insert (nil removes it). For the
// crash test's child process only.
func SetTestHookMidMove(f func(gameID, seq int64)) { testHookMidMove = f }

// ExplainDueWork and ExplainPendingGames return SQLite's query plan of
// DueWork's and PendingGames' queries (EXPLAIN QUERY PLAN, one line per
// step).
func ExplainDueWork(s *SQLiteStore, q DueQuery) (string, error) {
	query, args := dueWorkSQL(q)
	return s.explain(query, args)
}

func ExplainPendingGames(s *SQLiteStore, shard ShardFilter) (string, error) {
	query, args := pendingGamesSQL(shard, 0, 10)
	return s.explain(query, args)
}

func ExplainActiveGameIDs(s *SQLiteStore, shard ShardFilter) (string, error) {
	query, args := activeGameIDsSQL(s.d, shard, 10, 10)
	return s.explain(query, args)
}

func (s *SQLiteStore) explain(query string, args []any) (string, error) {
	rows, err := s.reader.Query(`EXPLAIN QUERY PLAN `+query, args...)
	if err != nil {
		return "", err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var id, parent, unused int
		var detail string
		if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
			return "", err
		}
		out = append(out, detail)
	}
	return strings.Join(out, "\n"), rows.Err()
}
