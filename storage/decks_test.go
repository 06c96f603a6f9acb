package storage_test

import (
	"context"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rfop/rfop/storage"
)

// A game's deck is kept in the database by its id (issue 18: a game keeps
// its deck after the file or a release changes).
func TestDecksAreKeptByID(t *testing.T) {
	t.Parallel()
	eachBackend(t, func(t *testing.T, b backend) {
		ctx := context.Background()
		path := b.newDB(t)
		s := openStore(t, path)
		_, err := s.Deck(ctx, "abc")
		require.ErrorIs(t, err, storage.ErrNotFound)

		require.NoError(t, s.SaveDeck(ctx, "abc", []byte(`{"cards":[]}`)))
		require.NoError(t, s.SaveDeck(ctx, "abc", []byte(`{"cards":[1]}`)), "saving again is not an error")
		got, err := s.Deck(ctx, "abc")
		require.NoError(t, err)
		assert.JSONEq(t, `{"cards":[]}`, string(got), "an id keeps its first content")

		require.ErrorIs(t, s.SaveDeck(ctx, "", []byte(`{}`)), storage.ErrInvalid)
		require.ErrorIs(t, s.SaveDeck(ctx, "x", []byte(`not json`)), storage.ErrInvalid)

		require.NoError(t, s.Close())
		s = openStore(t, path)
		got, err = s.Deck(ctx, "abc")
		require.NoError(t, err)
		assert.JSONEq(t, `{"cards":[]}`, string(got), "decks survive a restart")
	})
}

// Undo consent answers only a pending, stored request by the other side
// at the game's current version; the log names who asked and who allowed
// (issue 18).
func TestUndoRequests(t *testing.T) {
	t.Parallel()
	eachBackend(t, func(t *testing.T, b backend) {
		ctx := context.Background()
		s := openStore(t, b.newDB(t))
		g := newActive(t, s, "guild", "chan")
		g, err := s.ApplyMove(ctx, move(g, 10)) // version 1, by the Commune
		require.NoError(t, err)

		_, err = s.PendingUndo(ctx, g.ID)
		require.ErrorIs(t, err, storage.ErrNotFound, "no request yet")

		undo := func(g storage.Game, side storage.Side, asker, allower string) storage.Move {
			m := move(g, 10)
			m.Side, m.UserID, m.AllowedBy = side, asker, allower
			return m
		}
		// A consent with no request changes nothing.
		_, err = s.ApplyMove(ctx, undo(g, storage.SideCommune, "alice", "bob"))
		require.ErrorIs(t, err, storage.ErrConflict)
		again, err := s.GameByID(ctx, g.ID)
		require.NoError(t, err)
		assert.Equal(t, g.StateVersion, again.StateVersion)

		// A request at an old version is refused.
		require.ErrorIs(t, s.RequestUndo(ctx, storage.UndoRequest{GameID: g.ID, Side: storage.SideCommune, UserID: "alice", Version: 0}), storage.ErrConflict)
		require.ErrorIs(t, s.RequestUndo(ctx, storage.UndoRequest{GameID: g.ID, Side: "nobody", UserID: "alice", Version: 1}), storage.ErrInvalid)

		require.NoError(t, s.RequestUndo(ctx, storage.UndoRequest{GameID: g.ID, Side: storage.SideCommune, UserID: "alice", Version: 1}))
		r, err := s.PendingUndo(ctx, g.ID)
		require.NoError(t, err)
		assert.Equal(t, storage.SideCommune, r.Side)
		assert.Equal(t, "alice", r.UserID)
		assert.Equal(t, int64(1), r.Version)
		assert.False(t, r.CreatedAt.IsZero())

		// The request is the Commune's: a consent for Versailles' undo is refused.
		_, err = s.ApplyMove(ctx, undo(g, storage.SideVersailles, "bob", "alice"))
		require.ErrorIs(t, err, storage.ErrConflict)

		// Refused: forgotten.
		require.NoError(t, s.DropUndoRequest(ctx, g.ID))
		_, err = s.PendingUndo(ctx, g.ID)
		require.ErrorIs(t, err, storage.ErrNotFound)
		require.NoError(t, s.DropUndoRequest(ctx, g.ID), "dropping nothing is fine")

		// Asked again and allowed: the action names both.
		require.NoError(t, s.RequestUndo(ctx, storage.UndoRequest{GameID: g.ID, Side: storage.SideCommune, UserID: "alice", Version: 1}))
		g, err = s.ApplyMove(ctx, undo(g, storage.SideCommune, "alice", "bob"))
		require.NoError(t, err)
		acts, err := s.Actions(ctx, g.ID)
		require.NoError(t, err)
		last := acts[len(acts)-1]
		assert.Equal(t, "alice", last.UserID)
		assert.Equal(t, "bob", last.AllowedBy)
		assert.Empty(t, acts[0].AllowedBy)
		_, err = s.PendingUndo(ctx, g.ID)
		require.ErrorIs(t, err, storage.ErrNotFound, "an answered request is gone")

		// Any other move supersedes a request.
		require.NoError(t, s.RequestUndo(ctx, storage.UndoRequest{GameID: g.ID, Side: storage.SideVersailles, UserID: "bob", Version: g.StateVersion}))
		g, err = s.ApplyMove(ctx, move(g, 10))
		require.NoError(t, err)
		_, err = s.PendingUndo(ctx, g.ID)
		require.ErrorIs(t, err, storage.ErrNotFound)
		checkLogShape(t, s, g.ID)
	})
}

// checkLogShape: seq 1..N and N == state_version (the undo moves above
// break checkLog's seq-in-choice convention on purpose).
func checkLogShape(t *testing.T, s storage.Store, id int64) {
	t.Helper()
	_, _, err := s.LoadVerified(context.Background(), id, nil)
	require.NoError(t, err)
}

// A database of schema 1 (before decks and undo requests) migrates with
// its games and log intact; its actions name nobody as allowing.
func TestMigrationKeepsVersionOneGames(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := dbPath(t)
	init, err := os.ReadFile("migrations/0001_init.sql")
	require.NoError(t, err)
	raw := rawDB(t, path)
	_, err = raw.Exec(string(init))
	require.NoError(t, err)
	_, err = raw.Exec(`PRAGMA user_version = 1`)
	require.NoError(t, err)
	const ts = "2026-01-02T03:04:05.000Z"
	_, err = raw.Exec(`INSERT INTO games (id, channel_id, status, mode, seed, state, state_version, created_at, updated_at, last_action_at)
		VALUES (1, 'c', 'active', 'two-player', 1, '{"version":1}', 1, ?, ?, ?)`, ts, ts, ts)
	require.NoError(t, err)
	_, err = raw.Exec(`INSERT INTO players (game_id, side, user_id) VALUES (1, 'commune', 'a'), (1, 'versailles', 'b')`)
	require.NoError(t, err)
	_, err = raw.Exec(`INSERT INTO actions (game_id, seq, side, user_id, choice, created_at) VALUES (1, 1, 'commune', 'a', '{"seq":1}', ?)`, ts)
	require.NoError(t, err)
	require.NoError(t, raw.Close())

	s := openSQLite(t, path)
	assert.Equal(t, storage.SchemaVersion(), userVersion(t, path))
	acts, err := s.Actions(ctx, 1)
	require.NoError(t, err)
	require.Len(t, acts, 1)
	assert.Equal(t, "a", acts[0].UserID)
	assert.Empty(t, acts[0].AllowedBy)
	g, err := s.GameByID(ctx, 1)
	require.NoError(t, err)
	g, err = s.ApplyMove(ctx, move(g, 10))
	require.NoError(t, err)
	assert.Equal(t, int64(2), g.StateVersion)
}
