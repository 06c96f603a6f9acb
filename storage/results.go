package storage

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"
)

// GameResult is a finished game as /rfop history and /rfop stats see it.
type GameResult struct {
	GameID    int64
	GuildID   string
	ChannelID string
	Mode      Mode
	Variant   string
	// Versailles and Commune are the players' user ids, "" for the bot.
	Versailles, Commune string
	Winner              Side
	// Reason is how it was decided: victory (a VP condition), tiebreaker,
	// resigned, solo-tie (the engine's Result.Reason).
	Reason string
	// VP is [Political, Military], positive for Versailles.
	VP [2]int
	// Tiebreak is [Versailles, Commune] tiebreakers met, when used.
	Tiebreak [2]int
	Plays    int // plays (package replay), not clicks
	Moves    int // actions in the log
	// Rated: two different human players (solo and AI games are listed,
	// not rated).
	Rated     bool
	StartedAt time.Time
	EndedAt   time.Time
}

// Player returns who played side ("" for the bot).
func (r GameResult) Player(side Side) string {
	if side == SideVersailles {
		return r.Versailles
	}
	return r.Commune
}

// PlayerRating is a player's rating in one guild.
type PlayerRating struct {
	GuildID    string
	UserID     string
	Rating     float64
	Deviation  float64
	Volatility float64
	Games      int // rated games
	Wins       int
}

// RateFunc computes a guild's ratings from its rated results, in the
// order they ended. The store calls it inside its write transaction, so
// results and ratings always agree.
type RateFunc func(rated []GameResult) ([]PlayerRating, error)

// Rate calls f (a RateFunc is a Rater that always rebuilds).
func (f RateFunc) Rate(rated []GameResult) ([]PlayerRating, error) { return f(rated) }

// Rater rates a guild's results: Rate from all of them (a rebuild).
type Rater interface {
	Rate(rated []GameResult) ([]PlayerRating, error)
}

// StepRater is a Rater that also rates one more game from the ratings
// before it, so that recording a result costs one step, not a rebuild of
// the guild: Step(prior, r) must equal what Rate gives for all the rated
// results up to r (package rating's Table.Apply is such a step).
type StepRater interface {
	Rater
	Step(prior RatingPrior, r GameResult) ([]PlayerRating, error)
}

// RatingPrior is a guild's ratings just before a rated game: its two
// players' ratings (those who have one; a newcomer is missing) and the
// guild's rated games so far, and the Commune's wins among them (the
// evidence of the side term).
type RatingPrior struct {
	Players     []PlayerRating
	Games       int
	CommuneWins int
}

// PlayerRecord is one player's record in a guild.
type PlayerRecord struct {
	UserID string
	Games  int
	Wins   int
	// By side: [Versailles, Commune].
	Played [2]int
	Won    [2]int
	Rated  int // games against another human
}

// GuildStats summarises a guild's finished games.
type GuildStats struct {
	Games int
	Rated int
	// Wins by side: [Versailles, Commune].
	Wins [2]int
	// RatedCommuneWins: the Commune's wins among the rated games (the
	// evidence of the ratings' side term).
	RatedCommuneWins int
	Players          []PlayerRecord // most games first
}

// Within limits what Stats counts to the results one member may see: the
// games in Channels, and the games Player played wherever they were.
type Within struct {
	Channels []string
	Player   string
}

// Results is the part of the Store that keeps results and ratings.
type Results interface {
	// RecordResult stores a finished game's result (again: replaced) and
	// updates its guild's ratings with rate, in one transaction: one step
	// (StepRater) when it is a new result ending after all the guild's
	// others, else the guild's ratings rebuilt from its results.
	RecordResult(ctx context.Context, r GameResult, rate Rater) error
	// FinishedWithoutResult lists finished games that have no result row
	// (finished before results were kept), oldest first.
	FinishedWithoutResult(ctx context.Context) ([]Game, error)
	// History returns a guild's results, newest first, only userID's
	// games if userID is not "", at most limit (0: all).
	History(ctx context.Context, guildID, userID string, limit int) ([]GameResult, error)
	// Stats counts a guild's results, only those within if within is not
	// nil; with userID, only that player's record is listed.
	Stats(ctx context.Context, guildID, userID string, within *Within) (GuildStats, error)
	// ResultChannels lists the channels of a guild's results.
	ResultChannels(ctx context.Context, guildID string) ([]string, error)
	// Leaderboard returns a guild's ratings of players with at least
	// minGames rated games, best first, at most limit (0: all).
	Leaderboard(ctx context.Context, guildID string, minGames, limit int) ([]PlayerRating, error)
	// LatestResult returns the channel's most recently finished game's
	// result, or ErrNotFound.
	LatestResult(ctx context.Context, channelID string) (GameResult, error)
	// Rating returns a player's rating, or ErrNotFound if unrated.
	Rating(ctx context.Context, guildID, userID string) (PlayerRating, error)
	// RebuildRatings recreates the ratings table if it was dropped and
	// recomputes every guild's ratings from the results.
	RebuildRatings(ctx context.Context, rate RateFunc) error
}

const resultCols = `game_id, guild_id, channel_id, mode, variant, versailles_id, commune_id, winner, reason,
	vp_political, vp_military, tiebreak_versailles, tiebreak_commune, plays, moves, rated, started_at, ended_at`

// resultUpdate replaces every column of a result row by the new one's
// (an upsert both dialects accept).
var resultUpdate = func() string {
	var set []string
	for _, c := range strings.Split(resultCols, ",") {
		c = strings.TrimSpace(c)
		if c != "game_id" {
			set = append(set, c+" = excluded."+c)
		}
	}
	return strings.Join(set, ", ")
}()

func scanResult(sc scanner) (GameResult, error) {
	var (
		r              GameResult
		mode, winner   string
		rated          int
		started, ended string
	)
	err := sc.Scan(&r.GameID, &r.GuildID, &r.ChannelID, &mode, &r.Variant, &r.Versailles, &r.Commune, &winner, &r.Reason,
		&r.VP[0], &r.VP[1], &r.Tiebreak[0], &r.Tiebreak[1], &r.Plays, &r.Moves, &rated, &started, &ended)
	if err != nil {
		return GameResult{}, err
	}
	r.Mode, r.Winner, r.Rated = Mode(mode), Side(winner), rated == 1
	if r.StartedAt, err = parseTime(started); err != nil {
		return GameResult{}, err
	}
	if r.EndedAt, err = parseTime(ended); err != nil {
		return GameResult{}, err
	}
	return r, nil
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// RecordResult stores r and updates its guild's ratings.
func (s *sqlStore) RecordResult(ctx context.Context, r GameResult, rate Rater) error {
	switch {
	case !r.Winner.valid():
		return fmt.Errorf("%w: result of game %d: winner %q", ErrInvalid, r.GameID, r.Winner)
	case r.Mode == "" || r.Reason == "":
		return fmt.Errorf("%w: result of game %d needs a mode and a reason", ErrInvalid, r.GameID)
	case r.Rated && (r.Versailles == "" || r.Commune == "" || r.Versailles == r.Commune):
		return fmt.Errorf("%w: result of game %d: a rated game needs two different players", ErrInvalid, r.GameID)
	}
	return s.write(ctx, func(tx conn) error {
		var step StepRater
		if sr, ok := rate.(StepRater); ok && r.Rated {
			// Rated results are serialised (PostgreSQL) before the checks,
			// so that the result is still the guild's last when rated.
			if err := lockRatings(ctx, tx); err != nil {
				return err
			}
			last, err := lastInGuild(ctx, tx, r)
			if err != nil {
				return err
			}
			if last {
				step = sr
			}
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO results (`+resultCols+`)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
			ON CONFLICT (game_id) DO UPDATE SET `+resultUpdate,
			r.GameID, r.GuildID, r.ChannelID, string(r.Mode), r.Variant, r.Versailles, r.Commune, string(r.Winner), r.Reason,
			r.VP[0], r.VP[1], r.Tiebreak[0], r.Tiebreak[1], r.Plays, r.Moves, b2i(r.Rated),
			formatTime(r.StartedAt), formatTime(r.EndedAt))
		if tx.d.isForeignKey(err) {
			return fmt.Errorf("%w: game %d (recording its result)", ErrNotFound, r.GameID)
		}
		if err != nil {
			return fmt.Errorf("storage: recording the result of game %d: %w", r.GameID, err)
		}
		if !r.Rated || rate == nil {
			return nil
		}
		if step != nil {
			return rateStep(ctx, tx, r, step)
		}
		return rateGuild(ctx, tx, r.GuildID, rate.Rate)
	})
}

// lastInGuild reports whether r is a new result that ends after every
// other result of its guild (two index probes): then its ratings are one
// step from the stored ones.
func lastInGuild(ctx context.Context, tx conn, r GameResult) (bool, error) {
	var n int
	err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM results WHERE game_id = ?`, r.GameID).Scan(&n)
	if err != nil {
		return false, fmt.Errorf("storage: result of game %d: %w", r.GameID, err)
	}
	if n > 0 {
		return false, nil // a replaced result: the guild is rebuilt
	}
	err = tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM (SELECT 1 FROM results WHERE guild_id = ?
		AND (ended_at > ? OR (ended_at = ? AND game_id > ?)) LIMIT 1) AS later`,
		r.GuildID, formatTime(r.EndedAt), formatTime(r.EndedAt), r.GameID).Scan(&n)
	if err != nil {
		return false, fmt.Errorf("storage: result of game %d: %w", r.GameID, err)
	}
	return n == 0, nil
}

// rateStep updates the ratings of r's two players by one step from
// theirs and the guild's side evidence before r.
func rateStep(ctx context.Context, tx conn, r GameResult, step StepRater) error {
	var prior RatingPrior
	err := tx.QueryRowContext(ctx, `SELECT COUNT(*), COALESCE(SUM(CASE WHEN winner = 'commune' THEN 1 ELSE 0 END), 0)
		FROM results WHERE guild_id = ? AND rated = 1 AND game_id <> ?`, r.GuildID, r.GameID).Scan(&prior.Games, &prior.CommuneWins)
	if err != nil {
		return fmt.Errorf("storage: rating game %d: %w", r.GameID, err)
	}
	for _, u := range []string{r.Versailles, r.Commune} {
		p, err := scanRating(tx.QueryRowContext(ctx, `SELECT `+ratingCols+` FROM ratings WHERE guild_id = ? AND user_id = ?`, r.GuildID, u))
		if errors.Is(err, sql.ErrNoRows) {
			continue
		}
		if err != nil {
			return fmt.Errorf("storage: rating game %d: %w", r.GameID, err)
		}
		prior.Players = append(prior.Players, p)
	}
	after, err := step.Step(prior, r)
	if err != nil {
		return fmt.Errorf("storage: rating game %d: %w", r.GameID, err)
	}
	for _, p := range after {
		if _, err := tx.ExecContext(ctx, `INSERT INTO ratings (guild_id, user_id, rating, deviation, volatility, games, wins)
			VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (guild_id, user_id) DO UPDATE SET rating = excluded.rating,
			deviation = excluded.deviation, volatility = excluded.volatility, games = excluded.games, wins = excluded.wins`,
			r.GuildID, p.UserID, p.Rating, p.Deviation, p.Volatility, p.Games, p.Wins); err != nil {
			return fmt.Errorf("storage: rating game %d: %w", r.GameID, err)
		}
	}
	return nil
}

// rateGuild replaces a guild's ratings with rate's reading of its rated
// results, oldest first.
func rateGuild(ctx context.Context, tx conn, guildID string, rate RateFunc) error {
	if err := lockRatings(ctx, tx); err != nil {
		return err
	}
	rows, err := tx.QueryContext(ctx, `SELECT `+resultCols+` FROM results
		WHERE guild_id = ? AND rated = 1 ORDER BY ended_at, game_id`, guildID)
	if err != nil {
		return fmt.Errorf("storage: rating guild %s: %w", guildID, err)
	}
	var rated []GameResult
	for rows.Next() {
		r, err := scanResult(rows)
		if err != nil {
			rows.Close()
			return fmt.Errorf("storage: rating guild %s: %w", guildID, err)
		}
		rated = append(rated, r)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return fmt.Errorf("storage: rating guild %s: %w", guildID, err)
	}
	ratings, err := rate(rated)
	if err != nil {
		return fmt.Errorf("storage: rating guild %s: %w", guildID, err)
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM ratings WHERE guild_id = ?`, guildID); err != nil {
		return fmt.Errorf("storage: rating guild %s: %w", guildID, err)
	}
	for _, p := range ratings {
		if _, err := tx.ExecContext(ctx, `INSERT INTO ratings (guild_id, user_id, rating, deviation, volatility, games, wins)
			VALUES (?, ?, ?, ?, ?, ?, ?)`, guildID, p.UserID, p.Rating, p.Deviation, p.Volatility, p.Games, p.Wins); err != nil {
			return fmt.Errorf("storage: rating guild %s: %w", guildID, err)
		}
	}
	return nil
}

// lockRatings serialises the transactions that rewrite ratings where
// writers run concurrently (PostgreSQL): each then rates from every result
// committed before it, so results and ratings agree.
func lockRatings(ctx context.Context, tx conn) error {
	if tx.d.lockRatings == "" {
		return nil
	}
	if _, err := tx.ExecContext(ctx, tx.d.lockRatings); err != nil {
		return fmt.Errorf("storage: locking the ratings: %w", err)
	}
	return nil
}

// FinishedWithoutResult lists finished games without a result row.
func (s *sqlStore) FinishedWithoutResult(ctx context.Context) ([]Game, error) {
	return s.listGames(ctx, `status = 'finished' AND id NOT IN (SELECT game_id FROM results)`, "id", nil)
}

// History returns a guild's results, newest first.
func (s *sqlStore) History(ctx context.Context, guildID, userID string, limit int) ([]GameResult, error) {
	q := `SELECT ` + resultCols + ` FROM results WHERE guild_id = ?`
	args := []any{guildID}
	if userID != "" {
		q += ` AND (versailles_id = ? OR commune_id = ?)`
		args = append(args, userID, userID)
	}
	q += ` ORDER BY ended_at DESC, game_id DESC`
	if limit > 0 {
		q += ` LIMIT ?`
		args = append(args, limit)
	}
	rows, err := s.readDB().QueryContext(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("storage: history of guild %s: %w", guildID, err)
	}
	defer rows.Close()
	out := []GameResult{}
	for rows.Next() {
		r, err := scanResult(rows)
		if err != nil {
			return nil, fmt.Errorf("storage: history of guild %s: %w", guildID, err)
		}
		out = append(out, r)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("storage: history of guild %s: %w", guildID, err)
	}
	return out, nil
}

// LatestResult returns the result of the channel's last finished game.
func (s *sqlStore) LatestResult(ctx context.Context, channelID string) (GameResult, error) {
	r, err := scanResult(s.readDB().QueryRowContext(ctx, `SELECT `+resultCols+` FROM results
		WHERE channel_id = ? ORDER BY ended_at DESC, game_id DESC LIMIT 1`, channelID))
	if errors.Is(err, sql.ErrNoRows) {
		return GameResult{}, fmt.Errorf("%w: no finished game in channel %s", ErrNotFound, channelID)
	}
	if err != nil {
		return GameResult{}, fmt.Errorf("storage: last result in channel %s: %w", channelID, err)
	}
	return r, nil
}

// Stats counts a guild's results and its players' records, in SQL: the
// cost is the database's scan of the guild's results, not a row per
// result sent to the bot.
func (s *sqlStore) Stats(ctx context.Context, guildID, userID string, within *Within) (GuildStats, error) {
	where, args := `guild_id = ?`, []any{guildID}
	if within != nil {
		channels, err := json.Marshal(append([]string{}, within.Channels...))
		if err != nil {
			return GuildStats{}, fmt.Errorf("storage: stats of guild %s: %w", guildID, err)
		}
		where += ` AND (channel_id IN (` + s.d.textList + `) OR (? <> '' AND (versailles_id = ? OR commune_id = ?)))`
		args = append(args, string(channels), within.Player, within.Player, within.Player)
	}
	var st GuildStats
	err := s.read(ctx, func(tx conn) error {
		err := tx.QueryRowContext(ctx, `SELECT COUNT(*),
			COALESCE(SUM(rated), 0),
			COALESCE(SUM(CASE WHEN winner = 'versailles' THEN 1 ELSE 0 END), 0),
			COALESCE(SUM(CASE WHEN winner = 'commune' THEN 1 ELSE 0 END), 0),
			COALESCE(SUM(CASE WHEN winner = 'commune' AND rated = 1 THEN 1 ELSE 0 END), 0)
			FROM results WHERE `+where, args...).Scan(&st.Games, &st.Rated, &st.Wins[0], &st.Wins[1], &st.RatedCommuneWins)
		if err != nil {
			return fmt.Errorf("storage: stats of guild %s: %w", guildID, err)
		}
		q := `SELECT user_id, COUNT(*),
				SUM(CASE WHEN side = 'versailles' THEN 1 ELSE 0 END),
				SUM(CASE WHEN side = 'commune' THEN 1 ELSE 0 END),
				SUM(CASE WHEN side = 'versailles' AND winner = side THEN 1 ELSE 0 END),
				SUM(CASE WHEN side = 'commune' AND winner = side THEN 1 ELSE 0 END),
				SUM(rated)
			FROM (SELECT versailles_id AS user_id, 'versailles' AS side, winner, rated FROM results
					WHERE ` + where + ` AND versailles_id <> ''
				UNION ALL
				SELECT commune_id AS user_id, 'commune' AS side, winner, rated FROM results
					WHERE ` + where + ` AND commune_id <> '') AS played`
		recArgs := append(append([]any{}, args...), args...)
		if userID != "" {
			q += ` WHERE user_id = ?`
			recArgs = append(recArgs, userID)
		}
		q += ` GROUP BY user_id ORDER BY COUNT(*) DESC, user_id`
		rows, err := tx.QueryContext(ctx, q, recArgs...)
		if err != nil {
			return fmt.Errorf("storage: records in guild %s: %w", guildID, err)
		}
		defer rows.Close()
		for rows.Next() {
			var p PlayerRecord
			if err := rows.Scan(&p.UserID, &p.Games, &p.Played[0], &p.Played[1], &p.Won[0], &p.Won[1], &p.Rated); err != nil {
				return fmt.Errorf("storage: records in guild %s: %w", guildID, err)
			}
			p.Wins = p.Won[0] + p.Won[1]
			st.Players = append(st.Players, p)
		}
		return rows.Err()
	})
	return st, err
}

// ResultChannels lists the channels of a guild's results.
func (s *sqlStore) ResultChannels(ctx context.Context, guildID string) ([]string, error) {
	rows, err := s.readDB().QueryContext(ctx, `SELECT DISTINCT channel_id FROM results WHERE guild_id = ? ORDER BY channel_id`, guildID)
	if err != nil {
		return nil, fmt.Errorf("storage: channels of guild %s's results: %w", guildID, err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var c string
		if err := rows.Scan(&c); err != nil {
			return nil, fmt.Errorf("storage: channels of guild %s's results: %w", guildID, err)
		}
		out = append(out, c)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("storage: channels of guild %s's results: %w", guildID, err)
	}
	return out, nil
}

const ratingCols = `guild_id, user_id, rating, deviation, volatility, games, wins`

func scanRating(sc scanner) (PlayerRating, error) {
	var p PlayerRating
	err := sc.Scan(&p.GuildID, &p.UserID, &p.Rating, &p.Deviation, &p.Volatility, &p.Games, &p.Wins)
	return p, err
}

// Leaderboard returns the guild's best rated players.
func (s *sqlStore) Leaderboard(ctx context.Context, guildID string, minGames, limit int) ([]PlayerRating, error) {
	q := `SELECT ` + ratingCols + ` FROM ratings WHERE guild_id = ? AND games >= ? ORDER BY rating DESC, user_id`
	args := []any{guildID, minGames}
	if limit > 0 {
		q += ` LIMIT ?`
		args = append(args, limit)
	}
	rows, err := s.readDB().QueryContext(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("storage: leaderboard of guild %s: %w", guildID, err)
	}
	defer rows.Close()
	out := []PlayerRating{}
	for rows.Next() {
		p, err := scanRating(rows)
		if err != nil {
			return nil, fmt.Errorf("storage: leaderboard of guild %s: %w", guildID, err)
		}
		out = append(out, p)
	}
	return out, rows.Err()
}

// Rating returns one player's rating in a guild.
func (s *sqlStore) Rating(ctx context.Context, guildID, userID string) (PlayerRating, error) {
	p, err := scanRating(s.readDB().QueryRowContext(ctx, `SELECT `+ratingCols+` FROM ratings
		WHERE guild_id = ? AND user_id = ?`, guildID, userID))
	if errors.Is(err, sql.ErrNoRows) {
		return PlayerRating{}, fmt.Errorf("%w: no rating for %s in guild %s", ErrNotFound, userID, guildID)
	}
	if err != nil {
		return PlayerRating{}, fmt.Errorf("storage: rating of %s: %w", userID, err)
	}
	return p, nil
}

// RebuildRatings recreates the ratings table (from the results
// migration's own statements) if it is missing, and recomputes every
// guild's ratings from the results.
func (s *sqlStore) RebuildRatings(ctx context.Context, rate RateFunc) error {
	ddl, err := ratingsDDL(s.d)
	if err != nil {
		return err
	}
	return s.write(ctx, func(tx conn) error {
		var n int
		if err := tx.QueryRowContext(ctx, tx.d.tableExists, "ratings").Scan(&n); err != nil {
			return fmt.Errorf("storage: rebuilding ratings: %w", err)
		}
		if n == 0 {
			for _, stmt := range ddl {
				if _, err := tx.ExecContext(ctx, stmt); err != nil {
					return fmt.Errorf("storage: recreating the ratings table: %w", err)
				}
			}
		}
		if err := lockRatings(ctx, tx); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM ratings`); err != nil {
			return fmt.Errorf("storage: rebuilding ratings: %w", err)
		}
		rows, err := tx.QueryContext(ctx, `SELECT DISTINCT guild_id FROM results WHERE rated = 1`)
		if err != nil {
			return fmt.Errorf("storage: rebuilding ratings: %w", err)
		}
		var guilds []string
		for rows.Next() {
			var g string
			if err := rows.Scan(&g); err != nil {
				rows.Close()
				return fmt.Errorf("storage: rebuilding ratings: %w", err)
			}
			guilds = append(guilds, g)
		}
		rows.Close()
		for _, g := range guilds {
			if err := rateGuild(ctx, tx, g, rate); err != nil {
				return err
			}
		}
		return nil
	})
}

// ratingsDDL extracts the statements creating the ratings table and its
// index from the embedded results migration, so that a dropped table is
// recreated exactly as the migration made it.
func ratingsDDL(d *dialect) ([]string, error) {
	ms, err := d.migrations()
	if err != nil {
		return nil, err
	}
	for _, m := range ms {
		if !strings.HasSuffix(m.name, "_results.sql") {
			continue
		}
		var out []string
		for _, stmt := range strings.Split(m.sql, ";") {
			body := stripSQLComments(stmt)
			if strings.HasPrefix(body, "CREATE TABLE ratings") || strings.HasPrefix(body, "CREATE INDEX ratings_") {
				out = append(out, body)
			}
		}
		if len(out) > 0 {
			return out, nil
		}
	}
	return nil, fmt.Errorf("storage: the results migration does not create the ratings table")
}

func stripSQLComments(stmt string) string {
	var lines []string
	for _, l := range strings.Split(stmt, "\n") {
		if i := strings.Index(l, "--"); i >= 0 {
			l = l[:i]
		}
		if strings.TrimSpace(l) != "" {
			lines = append(lines, l)
		}
	}
	return strings.TrimSpace(strings.Join(lines, "\n"))
}
