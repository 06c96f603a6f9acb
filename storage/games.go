package storage

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"
)

const gameCols = `id, guild_id, channel_id, status, variant, mode, bot_side, seed,
	state, state_version, result, created_by, invitee_id,
	created_at, updated_at, last_action_at, reminded_at, ended_at, reminders, clock`

// gameColsNoState is gameCols with an empty state: what ApplyMove reads
// back, since the state is the one it just wrote (not sending ~20 KB back
// over the wire for every move), and what listings read (Game.State nil).
var gameColsNoState = strings.Replace(gameCols, "state, state_version", "'', state_version", 1)

type scanner interface{ Scan(dest ...any) error }

type queryer interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

func scanGame(sc scanner) (Game, error) {
	var (
		g                                                    Game
		status, mode, botSide, state, result                 string
		createdAt, updatedAt, lastActionAt, remindedAt, ends string
		clock                                                string
	)
	err := sc.Scan(&g.ID, &g.GuildID, &g.ChannelID, &status, &g.Variant, &mode, &botSide, &g.Seed,
		&state, &g.StateVersion, &result, &g.CreatedBy, &g.InviteeID,
		&createdAt, &updatedAt, &lastActionAt, &remindedAt, &ends, &g.Reminders, &clock)
	if err != nil {
		return Game{}, err
	}
	if clock != "" {
		g.Clock = []byte(clock)
	}
	g.Status, g.Mode, g.BotSide = Status(status), Mode(mode), Side(botSide)
	if state != "" {
		g.State = []byte(state)
	}
	if result != "" {
		g.Result = []byte(result)
	}
	for _, t := range []struct {
		dst *time.Time
		src string
	}{{&g.CreatedAt, createdAt}, {&g.UpdatedAt, updatedAt}, {&g.LastActionAt, lastActionAt},
		{&g.RemindedAt, remindedAt}, {&g.EndedAt, ends}} {
		if *t.dst, err = parseTime(t.src); err != nil {
			return Game{}, fmt.Errorf("game %d: %w", g.ID, err)
		}
	}
	return g, nil
}

// playersSQL reads a game's players, in side order.
const playersSQL = `SELECT side, user_id, is_bot FROM players WHERE game_id = ? ORDER BY side`

// loadPlayers fills g.Players.
func loadPlayers(ctx context.Context, q queryer, g *Game) error {
	rows, err := q.QueryContext(ctx, playersSQL, g.ID)
	if err != nil {
		return fmt.Errorf("storage: players of game %d: %w", g.ID, err)
	}
	defer rows.Close()
	if err := scanPlayers(rows, g); err != nil {
		return err
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("storage: players of game %d: %w", g.ID, err)
	}
	return nil
}

// scanPlayers fills g.Players from playersSQL's rows (not checking their
// Err).
func scanPlayers(rows rowReader, g *Game) error {
	g.Players = g.Players[:0]
	for rows.Next() {
		var p Player
		var side string
		var bot int64 // is_bot is 0 or 1 (pgx does not scan a smallint into a bool)
		if err := rows.Scan(&side, &p.UserID, &bot); err != nil {
			return fmt.Errorf("storage: players of game %d: %w", g.ID, err)
		}
		p.Side, p.IsBot = Side(side), bot != 0
		g.Players = append(g.Players, p)
	}
	return nil
}

// loadGame reads one game (with its players) selected by where.
func loadGame(ctx context.Context, q queryer, what string, where string, args ...any) (Game, error) {
	g, err := scanGame(q.QueryRowContext(ctx, `SELECT `+gameCols+` FROM games WHERE `+where, args...))
	if errors.Is(err, sql.ErrNoRows) {
		return Game{}, fmt.Errorf("%w: %s", ErrNotFound, what)
	}
	if err != nil {
		return Game{}, fmt.Errorf("storage: loading %s: %w", what, err)
	}
	if err := loadPlayers(ctx, q, &g); err != nil {
		return Game{}, err
	}
	return g, nil
}

// GameByID returns the game with that id, or ErrNotFound.
func (s *sqlStore) GameByID(ctx context.Context, id int64) (Game, error) {
	var g Game
	err := s.read(ctx, func(tx conn) (err error) {
		g, err = loadGame(ctx, tx, fmt.Sprintf("game %d", id), `id = ?`, id)
		return err
	})
	return g, err
}

// GameByChannel returns the channel's waiting or active game, or
// ErrNotFound if it has none.
func (s *sqlStore) GameByChannel(ctx context.Context, channelID string) (Game, error) {
	var g Game
	err := s.read(ctx, func(tx conn) (err error) {
		g, err = loadGame(ctx, tx, fmt.Sprintf("open game in channel %s", channelID),
			`channel_id = ? AND status IN ('waiting', 'active')`, channelID)
		return err
	})
	return g, err
}

// ActiveGames returns every active game, least recently moved first (the
// order a reminder loop wants).
func (s *sqlStore) ActiveGames(ctx context.Context) ([]Game, error) {
	return s.GamesByStatus(ctx, StatusActive)
}

// GamesByStatus returns the games in any of statuses (all games if none
// given), least recently moved first.
func (s *sqlStore) GamesByStatus(ctx context.Context, statuses ...Status) ([]Game, error) {
	where, args, err := statusFilter("1 = 1", nil, statuses)
	if err != nil {
		return nil, err
	}
	return s.listGames(ctx, where, "last_action_at, id", args)
}

// GamesInGuild returns the guild's games, newest first, only those in
// statuses if any are given.
func (s *sqlStore) GamesInGuild(ctx context.Context, guildID string, statuses ...Status) ([]Game, error) {
	where, args, err := statusFilter("guild_id = ?", []any{guildID}, statuses)
	if err != nil {
		return nil, err
	}
	return s.listGames(ctx, where, "id DESC", args)
}

func statusFilter(where string, args []any, statuses []Status) (string, []any, error) {
	if len(statuses) == 0 {
		return where, args, nil
	}
	ph := make([]string, len(statuses))
	for i, st := range statuses {
		if !st.valid() {
			return "", nil, fmt.Errorf("%w: unknown game status %q", ErrInvalid, st)
		}
		ph[i] = "?"
		args = append(args, string(st))
	}
	return where + " AND status IN (" + strings.Join(ph, ", ") + ")", args, nil
}

// listGames reads the games matching where, and their players, from one
// snapshot, without their states: a listing's cost grows with the games
// it lists, not with their states (about 20 KB each); the state is read
// only for the game being played or checked (GameByID, LoadVerified).
func (s *sqlStore) listGames(ctx context.Context, where, order string, args []any) ([]Game, error) {
	var games []Game
	err := s.read(ctx, func(tx conn) error {
		rows, err := tx.QueryContext(ctx, `SELECT `+gameColsNoState+` FROM games WHERE `+where+` ORDER BY `+order, args...)
		if err != nil {
			return fmt.Errorf("storage: listing games: %w", err)
		}
		defer rows.Close()
		byID := map[int64]int{}
		for rows.Next() {
			g, err := scanGame(rows)
			if err != nil {
				return fmt.Errorf("storage: listing games: %w", err)
			}
			byID[g.ID] = len(games)
			games = append(games, g)
		}
		if err := rows.Err(); err != nil {
			return fmt.Errorf("storage: listing games: %w", err)
		}
		rows.Close()
		if len(games) == 0 {
			return nil
		}
		prows, err := tx.QueryContext(ctx, `SELECT game_id, side, user_id, is_bot FROM players
			WHERE game_id IN (SELECT id FROM games WHERE `+where+`) ORDER BY game_id, side`, args...)
		if err != nil {
			return fmt.Errorf("storage: listing players: %w", err)
		}
		defer prows.Close()
		for prows.Next() {
			var id int64
			var p Player
			var side string
			if err := prows.Scan(&id, &side, &p.UserID, &p.IsBot); err != nil {
				return fmt.Errorf("storage: listing players: %w", err)
			}
			p.Side = Side(side)
			if i, ok := byID[id]; ok {
				games[i].Players = append(games[i].Players, p)
			}
		}
		if err := prows.Err(); err != nil {
			return fmt.Errorf("storage: listing players: %w", err)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return games, nil
}

// validJSON checks an opaque JSON argument.
func validJSON(what string, b []byte, required bool) error {
	if len(b) == 0 {
		if required {
			return fmt.Errorf("%w: %s is required", ErrInvalid, what)
		}
		return nil
	}
	if !json.Valid(b) {
		return fmt.Errorf("%w: %s is not valid JSON", ErrInvalid, what)
	}
	return nil
}

// checkPlayers validates a player list for a game of mode/botSide;
// complete requires both sides.
func checkPlayers(players []Player, mode Mode, botSide Side, complete bool) error {
	seen := map[Side]bool{}
	for _, p := range players {
		if !p.Side.valid() {
			return fmt.Errorf("%w: player side %q", ErrInvalid, p.Side)
		}
		if seen[p.Side] {
			return fmt.Errorf("%w: two players for side %s", ErrInvalid, p.Side)
		}
		seen[p.Side] = true
		switch {
		case p.IsAI() && mode == ModeTwoPlayer:
			// The AI opponent plays one side of a two-player game.
		case p.IsBot && (mode != ModeSolo || p.Side != botSide):
			return fmt.Errorf("%w: the bot can only play the bot side (%q) of a solo game", ErrInvalid, botSide)
		case !p.IsBot && mode == ModeSolo && p.Side == botSide:
			return fmt.Errorf("%w: side %s is the bot's in this solo game", ErrInvalid, p.Side)
		case !p.IsBot && p.UserID == "":
			return fmt.Errorf("%w: player for side %s has no user id", ErrInvalid, p.Side)
		}
	}
	if complete && len(seen) != 2 {
		return fmt.Errorf("%w: a started game needs a player for both sides", ErrInvalid)
	}
	return nil
}

// withBot adds the bot's player to a solo game's list if it is missing.
func withBot(players []Player, mode Mode, botSide Side) []Player {
	if mode != ModeSolo {
		return players
	}
	for _, p := range players {
		if p.Side == botSide {
			return players
		}
	}
	return append(append([]Player(nil), players...), Player{Side: botSide, IsBot: true})
}

func insertPlayers(ctx context.Context, tx conn, id int64, players []Player) error {
	for _, p := range players {
		if _, err := tx.ExecContext(ctx,
			`INSERT INTO players (game_id, side, user_id, is_bot) VALUES (?, ?, ?, ?)`,
			id, string(p.Side), p.UserID, b2i(p.IsBot)); err != nil {
			return fmt.Errorf("storage: game %d: adding player for %s: %w", id, p.Side, err)
		}
	}
	return nil
}

// CreateGame inserts a new game, waiting (a challenge) or active. A solo
// game's bot player is added if Players lacks it. It fails with
// ErrChannelBusy if the channel already has a waiting or active game; that
// rule is the database's unique index, so it holds under any concurrency.
func (s *sqlStore) CreateGame(ctx context.Context, ng NewGame) (Game, error) {
	switch {
	case ng.ChannelID == "":
		return Game{}, fmt.Errorf("%w: new game without a channel", ErrInvalid)
	case ng.Status != StatusWaiting && ng.Status != StatusActive:
		return Game{}, fmt.Errorf("%w: a new game is waiting or active, not %q", ErrInvalid, ng.Status)
	case ng.Mode != ModeTwoPlayer && ng.Mode != ModeSolo:
		return Game{}, fmt.Errorf("%w: game mode %q", ErrInvalid, ng.Mode)
	case ng.Mode == ModeSolo && !ng.BotSide.valid():
		return Game{}, fmt.Errorf("%w: a solo game needs the bot's side, not %q", ErrInvalid, ng.BotSide)
	case ng.Mode == ModeTwoPlayer && ng.BotSide != NoSide:
		return Game{}, fmt.Errorf("%w: a two-player game has no bot side", ErrInvalid)
	}
	active := ng.Status == StatusActive
	if err := validJSON("state", ng.State, active); err != nil {
		return Game{}, err
	}
	players := ng.Players
	if active || len(players) > 0 {
		players = withBot(players, ng.Mode, ng.BotSide)
	}
	if err := checkPlayers(players, ng.Mode, ng.BotSide, active); err != nil {
		return Game{}, err
	}
	if err := validDueItems(ng.Due); err != nil {
		return Game{}, err
	}
	if err := validJSON("clock", ng.Clock, false); err != nil {
		return Game{}, err
	}

	var g Game
	err := s.write(ctx, func(tx conn) error {
		at := s.now()
		now := formatTime(at)
		var id int64
		err := tx.QueryRowContext(ctx, `INSERT INTO games (guild_id, channel_id, status, variant, mode,
			bot_side, seed, state, created_by, invitee_id, created_at, updated_at, last_action_at, shard_key, clock)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
			ng.GuildID, ng.ChannelID, string(ng.Status), ng.Variant, string(ng.Mode),
			string(ng.BotSide), ng.Seed, string(ng.State), ng.CreatedBy, ng.InviteeID, now, now, now, ShardKey(ng.GuildID), string(ng.Clock)).Scan(&id)
		if tx.d.isUniqueChannel(err) {
			return fmt.Errorf("%w: channel %s", ErrChannelBusy, ng.ChannelID)
		}
		if err != nil {
			return fmt.Errorf("storage: creating game in channel %s: %w", ng.ChannelID, err)
		}
		if err := insertPlayers(ctx, tx, id, players); err != nil {
			return err
		}
		if err := setGameDue(ctx, tx, id, ShardKey(ng.GuildID), at, ng.Due); err != nil {
			return err
		}
		g, err = loadGame(ctx, tx, fmt.Sprintf("game %d", id), `id = ?`, id)
		return err
	})
	if errors.Is(err, ErrChannelBusy) {
		// Name the game holding the channel. A refused statement ends a
		// PostgreSQL transaction, so this is read after it, on its own.
		if other, e := s.GameByChannel(ctx, ng.ChannelID); e == nil {
			return Game{}, fmt.Errorf("%w: channel %s has game %d (%s)", ErrChannelBusy, ng.ChannelID, other.ID, other.Status)
		}
	}
	return g, err
}

// Activate starts a waiting game with its initial state. Players, if
// given, replace those recorded at creation; a solo game's bot player is
// added if missing; the game must then have both sides. ErrWrongStatus if
// the game is no longer waiting (someone else accepted, or it was
// abandoned).
func (s *sqlStore) Activate(ctx context.Context, id int64, state []byte, due []Due, players ...Player) (Game, error) {
	if err := validJSON("state", state, true); err != nil {
		return Game{}, err
	}
	if err := validDueItems(due); err != nil {
		return Game{}, err
	}
	var g Game
	err := s.write(ctx, func(tx conn) error {
		var status, mode, botSide string
		// Locked (PostgreSQL) so that two acceptances racing queue here
		// and the second finds the game active.
		err := tx.QueryRowContext(ctx, `SELECT status, mode, bot_side FROM games WHERE id = ?`+tx.d.forUpdate, id).
			Scan(&status, &mode, &botSide)
		if errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("%w: game %d", ErrNotFound, id)
		}
		if err != nil {
			return fmt.Errorf("storage: activating game %d: %w", id, err)
		}
		if Status(status) != StatusWaiting {
			return fmt.Errorf("%w: cannot activate game %d: it is %s", ErrWrongStatus, id, status)
		}
		if len(players) > 0 {
			if err := checkPlayers(players, Mode(mode), Side(botSide), false); err != nil {
				return err
			}
			if _, err := tx.ExecContext(ctx, `DELETE FROM players WHERE game_id = ?`, id); err != nil {
				return fmt.Errorf("storage: activating game %d: %w", id, err)
			}
			if err := insertPlayers(ctx, tx, id, players); err != nil {
				return err
			}
		}
		cur := Game{ID: id}
		if err := loadPlayers(ctx, tx, &cur); err != nil {
			return err
		}
		if missing := withBot(cur.Players, Mode(mode), Side(botSide)); len(missing) > len(cur.Players) {
			if err := insertPlayers(ctx, tx, id, missing[len(cur.Players):]); err != nil {
				return err
			}
			cur.Players = missing
		}
		if err := checkPlayers(cur.Players, Mode(mode), Side(botSide), true); err != nil {
			return fmt.Errorf("activating game %d: %w", id, err)
		}
		at := s.now()
		now := formatTime(at)
		if _, err := tx.ExecContext(ctx, `UPDATE games SET status = 'active', state = ?,
			updated_at = ?, last_action_at = ? WHERE id = ? AND status = 'waiting'`,
			string(state), now, now, id); err != nil {
			return fmt.Errorf("storage: activating game %d: %w", id, err)
		}
		if err := setGameDue(ctx, tx, id, -1, at, due); err != nil {
			return err
		}
		g, err = loadGame(ctx, tx, fmt.Sprintf("game %d", id), `id = ?`, id)
		return err
	})
	return g, err
}

// ApplyMove stores one accepted move: it appends the action with seq
// ExpectedVersion+1 and writes the new state with state_version+1 in a
// single transaction. The state update carries the optimistic check
// (WHERE state_version = ExpectedVersion): if another move got there first
// nothing is written and the error is ErrConflict. ErrWrongStatus if the
// game is not active, ErrNotFound if it does not exist.
func (s *sqlStore) ApplyMove(ctx context.Context, m Move) (Game, error) {
	switch {
	case m.ExpectedVersion < 0:
		return Game{}, fmt.Errorf("%w: negative expected version", ErrInvalid)
	case !m.Side.valid():
		return Game{}, fmt.Errorf("%w: move by side %q", ErrInvalid, m.Side)
	case m.Status != "" && m.Status != StatusActive && m.Status != StatusFinished && m.Status != StatusAbandoned:
		return Game{}, fmt.Errorf("%w: a move cannot leave the game %q", ErrInvalid, m.Status)
	case len(m.Result) > 0 && m.Status != StatusFinished:
		return Game{}, fmt.Errorf("%w: a result needs Status finished", ErrInvalid)
	}
	if err := validJSON("choice", m.Choice, true); err != nil {
		return Game{}, err
	}
	if err := validJSON("new state", m.NewState, true); err != nil {
		return Game{}, err
	}
	if err := validJSON("result", m.Result, false); err != nil {
		return Game{}, err
	}
	for _, e := range m.Outbox {
		if err := validOutbox(e); err != nil {
			return Game{}, err
		}
	}
	if err := validDueItems(m.Due); err != nil {
		return Game{}, err
	}
	if err := validJSON("clock", m.Clock, false); err != nil {
		return Game{}, err
	}

	var g Game
	err := s.write(ctx, func(tx conn) error {
		at := s.now()
		now := formatTime(at)
		// One UPDATE for the state, the status and the clock (a statement
		// per move saved: a move is the bot's most frequent write).
		set, args := `state = ?, state_version = state_version + 1, updated_at = ?, last_action_at = ?, reminders = 0`,
			[]any{string(m.NewState), now, now}
		if m.Status == StatusFinished || m.Status == StatusAbandoned {
			set, args = set+`, status = ?, result = ?, ended_at = ?`, append(args, string(m.Status), string(m.Result), now)
		}
		if m.Clock != nil {
			set, args = set+`, clock = ?`, append(args, string(m.Clock))
		}
		row := tx.QueryRowContext(ctx, `UPDATE games SET `+set+`
			WHERE id = ? AND state_version = ? AND status = 'active' RETURNING `+gameColsNoState,
			append(args, m.GameID, m.ExpectedVersion)...)
		var err error
		g, err = scanGame(row)
		if errors.Is(err, sql.ErrNoRows) {
			return whyNot(ctx, tx, m.GameID, &m.ExpectedVersion, StatusActive)
		}
		if err != nil {
			return fmt.Errorf("storage: game %d: storing move %d: %w", m.GameID, m.ExpectedVersion+1, err)
		}
		g.State = bytes.Clone(m.NewState) // the caller keeps its slice
		if testHookMidMove != nil {
			testHookMidMove(m.GameID, g.StateVersion)
		}
		if m.AllowedBy != "" {
			// An allowed undo answers the request pending at this version
			// (the update above proved the game was at it).
			var side string
			var version int64
			err := tx.QueryRowContext(ctx, `SELECT side, version FROM undo_requests WHERE game_id = ?`, m.GameID).Scan(&side, &version)
			if err != nil || Side(side) != m.Side || version != m.ExpectedVersion {
				return fmt.Errorf("%w: game %d: no undo request by %s pending at version %d", ErrConflict, m.GameID, m.Side, m.ExpectedVersion)
			}
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM undo_requests WHERE game_id = ?`, m.GameID); err != nil {
			return fmt.Errorf("storage: game %d: dropping the undo request: %w", m.GameID, err)
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO actions (game_id, seq, side, user_id, choice, allowed_by, created_at)
			VALUES (?, ?, ?, ?, ?, ?, ?)`,
			m.GameID, g.StateVersion, string(m.Side), m.UserID, string(m.Choice), m.AllowedBy, now); err != nil {
			if tx.d.isLogViolation(err) {
				return fmt.Errorf("%w: game %d: action %d does not follow the log: %w", ErrIntegrity, m.GameID, g.StateVersion, err)
			}
			return fmt.Errorf("storage: game %d: appending action %d: %w", m.GameID, g.StateVersion, err)
		}
		entries := slices.Clone(m.Outbox)
		for k := range entries {
			entries[k].GameID, entries[k].Version = m.GameID, g.StateVersion
		}
		if err := insertOutbox(ctx, tx, entries, now); err != nil {
			return err
		}
		due := m.Due
		if g.Status != StatusActive {
			due = nil // an ended game has no due work
		}
		if err := setGameDue(ctx, tx, m.GameID, ShardKey(g.GuildID), at, due); err != nil { // the key CreateGame stored
			return err
		}
		return loadPlayers(ctx, tx, &g)
	})
	if err != nil {
		return Game{}, err
	}
	return g, nil
}

// testHookMidMove is nil except in tests (export_test.go): it runs inside
// ApplyMove's transaction, after the state update and before the action
// insert, so the crash test can kill the process in the middle of a write.
var testHookMidMove func(gameID, seq int64)

// whyNot explains why a conditional UPDATE of game id matched no row:
// ErrNotFound, ErrConflict (version moved on) or ErrWrongStatus.
func whyNot(ctx context.Context, q queryer, id int64, expected *int64, allowed ...Status) error {
	var status string
	var version int64
	err := q.QueryRowContext(ctx, `SELECT status, state_version FROM games WHERE id = ?`, id).Scan(&status, &version)
	if errors.Is(err, sql.ErrNoRows) {
		return fmt.Errorf("%w: game %d", ErrNotFound, id)
	}
	if err != nil {
		return fmt.Errorf("storage: game %d: %w", id, err)
	}
	if expected != nil && version != *expected {
		return fmt.Errorf("%w: game %d is at version %d, the move was made at version %d", ErrConflict, id, version, *expected)
	}
	for _, a := range allowed {
		if Status(status) == a {
			// Matched after all: only possible if the row changed in
			// between, which the write lock rules out.
			return fmt.Errorf("%w: game %d changed during the update", ErrConflict, id)
		}
	}
	return fmt.Errorf("%w: game %d is %s", ErrWrongStatus, id, status)
}

// Finish ends an active game with its result (JSON, required).
func (s *sqlStore) Finish(ctx context.Context, id int64, result []byte) (Game, error) {
	if err := validJSON("result", result, true); err != nil {
		return Game{}, err
	}
	return s.end(ctx, id, `status = 'finished', result = ?`, []any{string(result)}, StatusActive)
}

// Abandon ends a waiting or active game without a result (a declined or
// expired challenge, a game given up by an admin). It frees the channel.
func (s *sqlStore) Abandon(ctx context.Context, id int64) (Game, error) {
	return s.end(ctx, id, `status = 'abandoned'`, nil, StatusWaiting, StatusActive)
}

func (s *sqlStore) end(ctx context.Context, id int64, set string, args []any, from ...Status) (Game, error) {
	var g Game
	err := s.write(ctx, func(tx conn) error {
		now := s.stamp()
		where, wargs, err := statusFilter("id = ?", []any{id}, from)
		if err != nil {
			return err
		}
		a := append(append(args, now, now), wargs...)
		g, err = scanGame(tx.QueryRowContext(ctx, `UPDATE games SET `+set+`, updated_at = ?, ended_at = ?
			WHERE `+where+` RETURNING `+gameCols, a...))
		if errors.Is(err, sql.ErrNoRows) {
			return whyNot(ctx, tx, id, nil, from...)
		}
		if err != nil {
			return fmt.Errorf("storage: ending game %d: %w", id, err)
		}
		if err := clearGameDue(ctx, tx, id); err != nil {
			return err
		}
		return loadPlayers(ctx, tx, &g)
	})
	if err != nil {
		return Game{}, err
	}
	return g, nil
}

// MarkReminded records that a reminder for an active game was sent at at.
func (s *sqlStore) MarkReminded(ctx context.Context, id int64, at time.Time) error {
	return s.write(ctx, func(tx conn) error {
		res, err := tx.ExecContext(ctx, `UPDATE games SET reminded_at = ? WHERE id = ? AND status = 'active'`,
			formatTime(at), id)
		if err != nil {
			return fmt.Errorf("storage: marking game %d reminded: %w", id, err)
		}
		if n, err := res.RowsAffected(); err != nil {
			return fmt.Errorf("storage: marking game %d reminded: %w", id, err)
		} else if n == 0 {
			return whyNot(ctx, tx, id, nil, StatusActive)
		}
		return nil
	})
}

// Actions returns the game's whole move log, seq 1, 2, 3, ...
func (s *sqlStore) Actions(ctx context.Context, gameID int64) ([]Action, error) {
	var acts []Action
	err := s.read(ctx, func(tx conn) (err error) {
		acts, err = loadActions(ctx, tx, gameID)
		return err
	})
	return acts, err
}

func loadActions(ctx context.Context, q queryer, gameID int64) ([]Action, error) {
	var one int
	err := q.QueryRowContext(ctx, `SELECT 1 FROM games WHERE id = ?`, gameID).Scan(&one)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("%w: game %d", ErrNotFound, gameID)
	}
	if err != nil {
		return nil, fmt.Errorf("storage: actions of game %d: %w", gameID, err)
	}
	return loadActionsOf(ctx, q, gameID)
}

// actionsSQL reads a game's log, in seq order.
const actionsSQL = `SELECT seq, side, user_id, choice, allowed_by, created_at
		FROM actions WHERE game_id = ? ORDER BY seq`

// loadActionsOf is loadActions for a game the transaction q has already
// read.
func loadActionsOf(ctx context.Context, q queryer, gameID int64) ([]Action, error) {
	rows, err := q.QueryContext(ctx, actionsSQL, gameID)
	if err != nil {
		return nil, fmt.Errorf("storage: actions of game %d: %w", gameID, err)
	}
	defer rows.Close()
	acts, err := scanActions(rows, gameID)
	if err != nil {
		return nil, err
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("storage: actions of game %d: %w", gameID, err)
	}
	return acts, nil
}

// scanActions reads actionsSQL's rows (not checking their Err).
func scanActions(rows rowReader, gameID int64) ([]Action, error) {
	acts := []Action{}
	for rows.Next() {
		a := Action{GameID: gameID}
		var side, choice, created string
		if err := rows.Scan(&a.Seq, &side, &a.UserID, &choice, &a.AllowedBy, &created); err != nil {
			return nil, fmt.Errorf("storage: actions of game %d: %w", gameID, err)
		}
		a.Side, a.Choice = Side(side), []byte(choice)
		var err error
		if a.CreatedAt, err = parseTime(created); err != nil {
			return nil, fmt.Errorf("storage: action %d of game %d: %w", a.Seq, gameID, err)
		}
		acts = append(acts, a)
	}
	return acts, nil
}

// VerifyGame checks the stored game against its action log: the log must
// be seq 1..N with N == StateVersion, and verify (the engine's replay) must
// accept it. Any failure is reported as ErrIntegrity wrapping the cause.
func (s *sqlStore) VerifyGame(ctx context.Context, id int64, verify VerifyFunc) error {
	_, _, err := s.LoadVerified(ctx, id, verify)
	return err
}

// LoadVerified is VerifyGame returning the game and log it checked, read
// from one snapshot (a move committed meanwhile cannot make them
// disagree). verify runs outside any transaction; nil verify does only the
// log checks.
func (s *sqlStore) LoadVerified(ctx context.Context, id int64, verify VerifyFunc) (Game, []Action, error) {
	var (
		g    Game
		acts []Action
	)
	// The game, its players and its log: one pipelined read (on
	// PostgreSQL one round trip, not five).
	what := func(err error) error { return fmt.Errorf("storage: loading game %d: %w", id, err) }
	err := s.pipe(ctx, true, []step{
		{query: `SELECT ` + gameCols + ` FROM games WHERE id = ?`, args: []any{id}, fail: what,
			rows: func(r rowReader) (err error) {
				if !r.Next() {
					return fmt.Errorf("%w: game %d", ErrNotFound, id)
				}
				if g, err = scanGame(r); err != nil {
					return what(err)
				}
				return nil
			}},
		{query: playersSQL, args: []any{id}, fail: what,
			rows: func(r rowReader) error { return scanPlayers(r, &g) }},
		{query: actionsSQL, args: []any{id}, fail: what,
			rows: func(r rowReader) (err error) {
				acts, err = scanActions(r, id)
				return err
			}},
	})
	if err != nil {
		return Game{}, nil, err
	}
	for i, a := range acts {
		if a.Seq != int64(i+1) {
			return Game{}, nil, fmt.Errorf("%w: game %d: action %d has seq %d", ErrIntegrity, id, i+1, a.Seq)
		}
	}
	if int64(len(acts)) != g.StateVersion {
		return Game{}, nil, fmt.Errorf("%w: game %d: state_version %d but %d actions", ErrIntegrity, id, g.StateVersion, len(acts))
	}
	if verify != nil {
		if err := verify(g, acts); err != nil {
			return Game{}, nil, fmt.Errorf("%w: game %d (version %d): %w", ErrIntegrity, id, g.StateVersion, err)
		}
	}
	return g, acts, nil
}

// ActiveGameIDs lists the shard's active games' ids after after, in order.
func (s *sqlStore) ActiveGameIDs(ctx context.Context, shard ShardFilter, after int64, limit int) ([]int64, error) {
	query, args := activeGameIDsSQL(s.d, shard, after, limit)
	rows, err := s.readDB().QueryContext(ctx, query, args...)
	if err != nil {
		return nil, fmt.Errorf("storage: listing active games: %w", err)
	}
	defer rows.Close()
	var out []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return nil, fmt.Errorf("storage: listing active games: %w", err)
		}
		out = append(out, id)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("storage: listing active games: %w", err)
	}
	return out, nil
}

// activeGameIDsSQL is ActiveGameIDs' query: a range of the primary key
// from after, the shard's filter in SQL.
func activeGameIDsSQL(d *dialect, shard ShardFilter, after int64, limit int) (string, []any) {
	if limit <= 0 {
		limit = DueBatch
	}
	cond, sargs := shard.sql("shard_key")
	return `SELECT id FROM games` + d.byRowID + ` WHERE id > ? AND status = 'active' AND ` + cond + ` ORDER BY id LIMIT ?`,
		append(append([]any{after}, sargs...), limit)
}
