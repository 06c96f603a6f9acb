package storage

import (
	"context"
	"fmt"
	"strings"
)

// Import: many games written at once, for the load generator (rfop
// loadgen) that fills a database to measure the bot with as many games
// stored as a large deployment: a game's record, players, log, schedule
// and result in one statement each, a batch in one transaction.

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
// store must be one of this package's (OpenURL).
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

// actionsPerInsert bounds the rows of one INSERT of actions (7
// parameters each, far below both databases' limits).
const actionsPerInsert = 200

func (s *sqlStore) importGames(ctx context.Context, games []ImportGame) ([]int64, error) {
	ids := make([]int64, 0, len(games))
	err := s.write(ctx, func(tx conn) error {
		ids = ids[:0]
		for _, ig := range games {
			g := ig.Game
			var id int64
			err := tx.QueryRowContext(ctx, `INSERT INTO games (guild_id, channel_id, status, variant, mode, bot_side, seed,
				state, state_version, result, created_by, invitee_id, created_at, updated_at, last_action_at, reminded_at,
				ended_at, shard_key) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
				g.GuildID, g.ChannelID, string(g.Status), g.Variant, string(g.Mode), string(g.BotSide), g.Seed,
				string(g.State), g.StateVersion, string(g.Result), g.CreatedBy, g.InviteeID, formatTime(g.CreatedAt),
				formatTime(g.UpdatedAt), formatTime(g.LastActionAt), formatTime(g.RemindedAt), formatTime(g.EndedAt),
				ShardKey(g.GuildID)).Scan(&id)
			if err != nil {
				return fmt.Errorf("storage: importing a game in channel %s: %w", g.ChannelID, err)
			}
			ids = append(ids, id)
			if err := insertPlayers(ctx, tx, id, g.Players); err != nil {
				return err
			}
			for from := 0; from < len(ig.Actions); from += actionsPerInsert {
				part := ig.Actions[from:min(from+actionsPerInsert, len(ig.Actions))]
				args := make([]any, 0, 7*len(part))
				for _, a := range part {
					args = append(args, id, a.Seq, string(a.Side), a.UserID, string(a.Choice), a.AllowedBy, formatTime(a.CreatedAt))
				}
				rows := strings.TrimSuffix(strings.Repeat("(?, ?, ?, ?, ?, ?, ?), ", len(part)), ", ")
				if _, err := tx.ExecContext(ctx, `INSERT INTO actions (game_id, seq, side, user_id, choice, allowed_by, created_at)
					VALUES `+rows, args...); err != nil {
					return fmt.Errorf("storage: importing the actions of game %d: %w", id, err)
				}
			}
			for _, d := range ig.Due {
				d.GameID, d.ShardKey = id, ShardKey(g.GuildID)
				if err := upsertDue(ctx, tx, d); err != nil {
					return err
				}
			}
			if r := ig.Result; r != nil {
				r := *r
				r.GameID = id
				if _, err := tx.ExecContext(ctx, `INSERT INTO results (`+resultCols+`)
					VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
					r.GameID, r.GuildID, r.ChannelID, string(r.Mode), r.Variant, r.Versailles, r.Commune, string(r.Winner), r.Reason,
					r.VP[0], r.VP[1], r.Tiebreak[0], r.Tiebreak[1], r.Plays, r.Moves, b2i(r.Rated),
					formatTime(r.StartedAt), formatTime(r.EndedAt)); err != nil {
					return fmt.Errorf("storage: importing the result of game %d: %w", id, err)
				}
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return ids, nil
}
