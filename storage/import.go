package storage

import (
	"context"
	"fmt"
	"strings"
)

// Import: many games written at once, for the load generator (rfop
// loadgen) that fills a database to measure the bot with as many games
// stored as a large deployment: a game's record, players, log, schedule
// and result rows of a whole batch in a few multi-row statements, a
// batch in one transaction.

// ImportGame is one game to import as it stands: Game gives its record
// (ID ignored; Status active or finished, with State, Players and its
// timestamps; StateVersion is len(Actions)), Actions its log (Seq 1..N),
// Due its schedule, Result its result (finished games).
type ImportGame struct {
	Game    Game
	Actions []Action
	Due     []Due
	Result  *GameResult
}

// importer is what Import needs of a store.
type importer interface {
	importGames(ctx context.Context, games []ImportGame) ([]int64, error)
}

// Import writes games in one transaction and returns their ids. The
// store must be one of this package's (OpenURL), and no bot may be
// writing to the database meanwhile (the ids follow the highest stored).
func Import(ctx context.Context, s Store, games []ImportGame) ([]int64, error) {
	im, ok := s.(importer)
	if !ok {
		return nil, fmt.Errorf("%w: %T cannot import games", ErrInvalid, s)
	}
	for _, ig := range games {
		g := ig.Game
		switch {
		case g.Status != StatusActive && g.Status != StatusFinished:
			return nil, fmt.Errorf("%w: an imported game is active or finished, not %q", ErrInvalid, g.Status)
		case g.ChannelID == "" || len(g.State) == 0:
			return nil, fmt.Errorf("%w: an imported game needs a channel and a state", ErrInvalid)
		case g.StateVersion != int64(len(ig.Actions)):
			return nil, fmt.Errorf("%w: state version %d with %d actions", ErrInvalid, g.StateVersion, len(ig.Actions))
		}
		if err := checkPlayers(g.Players, g.Mode, g.BotSide, true); err != nil {
			return nil, err
		}
		for i, a := range ig.Actions {
			if a.Seq != int64(i+1) {
				return nil, fmt.Errorf("%w: action %d has seq %d", ErrInvalid, i+1, a.Seq)
			}
		}
		if err := validDueItems(ig.Due); err != nil {
			return nil, err
		}
	}
	return im.importGames(ctx, games)
}

// importParams bounds the parameters of one multi-row INSERT (below
// both databases' limits: SQLite 32766, PostgreSQL 65535).
const importParams = 30000

// insertRows inserts rows (each len(cols) values) into table, as few
// statements as the parameter limit allows.
func insertRows(ctx context.Context, tx conn, table, cols string, rows [][]any) error {
	if len(rows) == 0 {
		return nil
	}
	width := len(rows[0])
	per := max(1, importParams/width)
	one := "(" + strings.TrimSuffix(strings.Repeat("?, ", width), ", ") + ")"
	for from := 0; from < len(rows); from += per {
		part := rows[from:min(from+per, len(rows))]
		args := make([]any, 0, width*len(part))
		for _, r := range part {
			args = append(args, r...)
		}
		values := strings.TrimSuffix(strings.Repeat(one+", ", len(part)), ", ")
		if _, err := tx.ExecContext(ctx, `INSERT INTO `+table+` (`+cols+`) VALUES `+values, args...); err != nil {
			return fmt.Errorf("storage: importing %s: %w", table, err)
		}
	}
	return nil
}

// importGames writes a batch with ids it allots itself (after the
// highest stored: Import is for a database no bot is writing to), each
// table's rows in as few statements as possible.
func (s *sqlStore) importGames(ctx context.Context, games []ImportGame) ([]int64, error) {
	ids := make([]int64, 0, len(games))
	err := s.write(ctx, func(tx conn) error {
		ids = ids[:0]
		if tx.d.name == "postgres" {
			// A loader's transaction need not wait for its WAL flush.
			if _, err := tx.ExecContext(ctx, `SET LOCAL synchronous_commit = off`); err != nil {
				return fmt.Errorf("storage: importing games: %w", err)
			}
			if _, err := tx.ExecContext(ctx, `LOCK TABLE games IN EXCLUSIVE MODE`); err != nil {
				return fmt.Errorf("storage: importing games: %w", err)
			}
			// The log's triggers (each action's seq follows the last:
			// a lookup per row) and the foreign keys are checked above
			// and by construction; a superuser skips them for the
			// transaction (several times faster), anyone else keeps
			// them. A savepoint keeps a refusal from ending the
			// transaction.
			if _, err := tx.ExecContext(ctx, `SAVEPOINT import_triggers`); err != nil {
				return fmt.Errorf("storage: importing games: %w", err)
			}
			if _, err := tx.ExecContext(ctx, `SET LOCAL session_replication_role = replica`); err != nil {
				if _, err := tx.ExecContext(ctx, `ROLLBACK TO SAVEPOINT import_triggers`); err != nil {
					return fmt.Errorf("storage: importing games: %w", err)
				}
			}
		}
		var last int64
		if err := tx.QueryRowContext(ctx, `SELECT COALESCE(MAX(id), 0) FROM games`).Scan(&last); err != nil {
			return fmt.Errorf("storage: importing games: %w", err)
		}
		var gameRows, playerRows, actionRows, dueRows, resultRows [][]any
		for k, ig := range games {
			g := ig.Game
			id := last + int64(k) + 1
			ids = append(ids, id)
			gameRows = append(gameRows, []any{id, g.GuildID, g.ChannelID, string(g.Status), g.Variant, string(g.Mode), string(g.BotSide), g.Seed,
				string(g.State), g.StateVersion, string(g.Result), g.CreatedBy, g.InviteeID, formatTime(g.CreatedAt),
				formatTime(g.UpdatedAt), formatTime(g.LastActionAt), formatTime(g.RemindedAt), formatTime(g.EndedAt),
				ShardKey(g.GuildID)})
			for _, p := range g.Players {
				playerRows = append(playerRows, []any{id, string(p.Side), p.UserID, b2i(p.IsBot)})
			}
			for _, a := range ig.Actions {
				actionRows = append(actionRows, []any{id, a.Seq, string(a.Side), a.UserID, string(a.Choice), a.AllowedBy, formatTime(a.CreatedAt)})
			}
			for _, d := range ig.Due {
				if d.At.IsZero() {
					d.At = g.LastActionAt.Add(d.In)
				}
				dueRows = append(dueRows, []any{d.Kind, id, d.Subject, ShardKey(g.GuildID), formatTime(d.At)})
			}
			if r := ig.Result; r != nil {
				resultRows = append(resultRows, []any{id, r.GuildID, r.ChannelID, string(r.Mode), r.Variant, r.Versailles, r.Commune,
					string(r.Winner), r.Reason, r.VP[0], r.VP[1], r.Tiebreak[0], r.Tiebreak[1], r.Plays, r.Moves, b2i(r.Rated),
					formatTime(r.StartedAt), formatTime(r.EndedAt)})
			}
		}
		for _, t := range []struct {
			table, cols string
			rows        [][]any
		}{
			{"games", `id, guild_id, channel_id, status, variant, mode, bot_side, seed, state, state_version, result, created_by,
				invitee_id, created_at, updated_at, last_action_at, reminded_at, ended_at, shard_key`, gameRows},
			{"players", "game_id, side, user_id, is_bot", playerRows},
			{"actions", "game_id, seq, side, user_id, choice, allowed_by, created_at", actionRows},
			{"schedule", "kind, game_id, subject, shard_key, due_at", dueRows},
			{"results", resultCols, resultRows},
		} {
			if err := insertRows(ctx, tx, t.table, t.cols, t.rows); err != nil {
				return err
			}
		}
		if tx.d.name == "postgres" {
			if _, err := tx.ExecContext(ctx, `SELECT setval(pg_get_serial_sequence('games', 'id'), (SELECT MAX(id) FROM games))`); err != nil {
				return fmt.Errorf("storage: importing games: %w", err)
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return ids, nil
}
