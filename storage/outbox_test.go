package storage_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rfop/rfop/storage"
)

// A move's publications are stored in the move's own transaction: they
// exist exactly when the move does.
func TestOutboxIsWrittenWithTheMove(t *testing.T) {
	t.Parallel()
	eachBackend(t, func(t *testing.T, b backend) {
		ctx := context.Background()
		s := openStore(t, b.newDB(t))
		g := newActive(t, s, "g", "c1")
		other := newActive(t, s, "g", "c2")

		m := move(g, 10)
		m.Outbox = []storage.OutboxEntry{
			{Kind: "dm", Payload: []byte(`{"side":"commune"}`)},
			{Kind: "board", Payload: []byte(`{"fresh":true}`)},
			{Kind: "result"},
		}
		g2, err := s.ApplyMove(ctx, m)
		require.NoError(t, err)

		pending, err := s.PendingOutbox(ctx, g.ID)
		require.NoError(t, err)
		require.Len(t, pending, 3)
		for k, want := range []string{"dm", "board", "result"} {
			assert.Equal(t, want, pending[k].Kind, "in order")
			assert.Equal(t, g.ID, pending[k].GameID)
			assert.Equal(t, g2.StateVersion, pending[k].Version, "the batch is the move's new version")
			assert.True(t, pending[k].DoneAt.IsZero())
		}
		assert.JSONEq(t, `{"fresh":true}`, string(pending[1].Payload))
		assert.Nil(t, pending[2].Payload)

		// A move that loses the version race stores none of its publications.
		stale := move(g, 10)
		stale.Outbox = []storage.OutboxEntry{{Kind: "board"}}
		_, err = s.ApplyMove(ctx, stale)
		require.ErrorIs(t, err, storage.ErrConflict)
		pending, err = s.PendingOutbox(ctx, g.ID)
		require.NoError(t, err)
		assert.Len(t, pending, 3)

		// Invalid entries refuse the whole move.
		bad := move(g2, 10)
		bad.Outbox = []storage.OutboxEntry{{Kind: "board", Payload: []byte(`{`)}}
		_, err = s.ApplyMove(ctx, bad)
		require.ErrorIs(t, err, storage.ErrInvalid)
		bad.Outbox = []storage.OutboxEntry{{Kind: ""}}
		_, err = s.ApplyMove(ctx, bad)
		require.ErrorIs(t, err, storage.ErrInvalid)
		assert.Equal(t, g2.StateVersion, checkLog(t, s, g.ID).StateVersion)

		// Outside a move (a game's start).
		require.NoError(t, s.Enqueue(ctx, storage.OutboxEntry{GameID: other.ID, Version: 0, Kind: "board"}))
		require.ErrorIs(t, s.Enqueue(ctx, storage.OutboxEntry{GameID: 999, Kind: "board"}), storage.ErrNotFound)
		all, err := s.PendingOutbox(ctx, 0)
		require.NoError(t, err)
		require.Len(t, all, 4, "every game's pending entries")
		assert.Equal(t, other.ID, all[3].GameID)
	})
}

// Delivery records its outcome (the message it created) before it is done,
// and done entries leave the pending list but stay in their batch.
func TestOutboxDelivery(t *testing.T) {
	t.Parallel()
	eachBackend(t, func(t *testing.T, b backend) {
		ctx := context.Background()
		s := openStore(t, b.newDB(t))
		g := newActive(t, s, "g", "c1")
		m := move(g, 10)
		m.Outbox = []storage.OutboxEntry{{Kind: "board"}, {Kind: "panel"}}
		g2, err := s.ApplyMove(ctx, m)
		require.NoError(t, err)
		pending, err := s.PendingOutbox(ctx, g.ID)
		require.NoError(t, err)
		board := pending[0]

		require.NoError(t, s.UpdateOutbox(ctx, board.ID, []byte(`{"message":"42"}`), false))
		pending, err = s.PendingOutbox(ctx, g.ID)
		require.NoError(t, err)
		require.Len(t, pending, 2, "an outcome alone does not deliver it")
		assert.JSONEq(t, `{"message":"42"}`, string(pending[0].Outcome))

		require.NoError(t, s.UpdateOutbox(ctx, board.ID, nil, true), "nil outcome keeps the stored one")
		pending, err = s.PendingOutbox(ctx, g.ID)
		require.NoError(t, err)
		require.Len(t, pending, 1)
		assert.Equal(t, "panel", pending[0].Kind)

		batch, err := s.OutboxBatch(ctx, g.ID, g2.StateVersion)
		require.NoError(t, err)
		require.Len(t, batch, 2)
		assert.False(t, batch[0].DoneAt.IsZero())
		assert.JSONEq(t, `{"message":"42"}`, string(batch[0].Outcome))
		assert.True(t, batch[1].DoneAt.IsZero())

		require.ErrorIs(t, s.UpdateOutbox(ctx, 999, nil, true), storage.ErrNotFound)
		require.ErrorIs(t, s.UpdateOutbox(ctx, board.ID, []byte(`nope`), true), storage.ErrInvalid)
	})
}

// Issue 30: a publisher's write is one transaction (all or none) under
// its lease: the entries a newer one supersedes are marked done together
// with what the newer one carries, a board's outcome is stored with its
// message, and the lease is renewed, or released, by the same write;
// LastOutbox finds the last delivered entry of a kind before another.
func TestWriteOutboxIsOneTransactionUnderTheLease(t *testing.T) {
	eachBackend(t, func(t *testing.T, b backend) {
		ctx := context.Background()
		s := openStore(t, b.newDB(t))
		g := newActive(t, s, "g", "c1")
		var boards []storage.OutboxEntry
		for range 3 {
			m := move(g, 10)
			m.Outbox = []storage.OutboxEntry{{Kind: "board"}, {Kind: "dm"}}
			var err error
			g, err = s.ApplyMove(ctx, m)
			require.NoError(t, err)
			batch, err := s.OutboxBatch(ctx, g.ID, g.StateVersion)
			require.NoError(t, err)
			boards = append(boards, batch[0])
		}
		_, err := s.LastOutbox(ctx, g.ID, "board", boards[2].ID)
		require.ErrorIs(t, err, storage.ErrNotFound, "nothing delivered yet")
		t0 := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
		me := storage.LeaseHolder{Name: "me", Shard: -1}
		ok, err := s.ClaimOutbox(ctx, g.ID, me, t0, t0.Add(time.Minute))
		require.NoError(t, err)
		require.True(t, ok)
		pendingCount := func() int {
			pending, err := s.PendingOutbox(ctx, g.ID)
			require.NoError(t, err)
			return len(pending)
		}

		// One update naming no entry: nothing changes.
		err = s.WriteOutbox(ctx, storage.OutboxWrite{GameID: g.ID, Holder: me.Name, Updates: []storage.OutboxUpdate{
			{ID: boards[0].ID, Outcome: []byte(`{"superseded":9}`), Done: true}, {ID: 999999, Done: true}}})
		require.ErrorIs(t, err, storage.ErrNotFound)
		require.Equal(t, 6, pendingCount(), "all or none")
		require.ErrorIs(t, s.WriteOutbox(ctx, storage.OutboxWrite{Updates: []storage.OutboxUpdate{{ID: boards[0].ID, Outcome: []byte(`{`)}}}), storage.ErrInvalid)
		require.ErrorIs(t, s.WriteOutbox(ctx, storage.OutboxWrite{Updates: []storage.OutboxUpdate{{ID: boards[0].ID, Record: &storage.Message{GameID: g.ID}}}}), storage.ErrInvalid)
		// Not under another's lease.
		err = s.WriteOutbox(ctx, storage.OutboxWrite{GameID: g.ID, Holder: "another", Updates: []storage.OutboxUpdate{{ID: boards[0].ID, Done: true}}})
		require.ErrorIs(t, err, storage.ErrLeaseLost)
		require.Equal(t, 6, pendingCount(), "nothing written without the lease")

		// The first two boards superseded by the third, which carries
		// them; the lease renewed by the same write.
		require.NoError(t, s.WriteOutbox(ctx, storage.OutboxWrite{GameID: g.ID, Holder: me.Name, Until: t0.Add(time.Hour), Updates: []storage.OutboxUpdate{
			{ID: boards[0].ID, Outcome: []byte(`{"superseded":3}`), Done: true},
			{ID: boards[1].ID, Outcome: []byte(`{"superseded":3}`), Done: true},
			{ID: boards[2].ID, Outcome: []byte(`{"since":1}`)}}}))
		pending, err := s.PendingOutbox(ctx, g.ID)
		require.NoError(t, err)
		require.Len(t, pending, 4)
		assert.Equal(t, boards[2].ID, pending[2].ID)
		assert.JSONEq(t, `{"since":1}`, string(pending[2].Outcome))
		ok, err = s.ClaimOutbox(ctx, g.ID, named("another"), t0.Add(30*time.Minute), t0.Add(time.Hour))
		require.NoError(t, err)
		assert.False(t, ok, "the write renewed the lease")
		last, err := s.LastOutbox(ctx, g.ID, "board", boards[2].ID)
		require.NoError(t, err)
		assert.Equal(t, boards[1].ID, last.ID, "the newest delivered board before it")
		_, err = s.LastOutbox(ctx, g.ID, "board", boards[0].ID)
		require.ErrorIs(t, err, storage.ErrNotFound)

		// Posted: its outcome and its message in one write, which ends
		// the lease.
		msg := storage.Message{GameID: g.ID, Kind: storage.KindBoard, ChannelID: "c1", MessageID: "m3"}
		require.NoError(t, s.WriteOutbox(ctx, storage.OutboxWrite{GameID: g.ID, Holder: me.Name, Release: true, Updates: []storage.OutboxUpdate{
			{ID: boards[2].ID, Outcome: []byte(`{"message":"m3"}`), Record: &msg, Done: true}}}))
		live, err := s.LatestMessage(ctx, g.ID, storage.KindBoard)
		require.NoError(t, err)
		assert.Equal(t, "m3", live.MessageID)
		assert.Equal(t, 3, pendingCount(), "the DMs")
		holds, err := s.HoldsOutbox(ctx, g.ID, me.Name)
		require.NoError(t, err)
		assert.False(t, holds, "released")
	})
}

// A database written before the outbox existed (schema version 3) is
// migrated and its games keep loading.
func TestMigrationToOutboxKeepsGames(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := dbPath(t)
	s := openSQLite(t, path)
	g := newActive(t, s, "g", "c1")
	g, err := s.ApplyMove(ctx, move(g, 10))
	require.NoError(t, err)
	require.NoError(t, s.Close())

	// Back to schema version 3, as an older rfop left it.
	raw := rawDB(t, path)
	_, err = raw.Exec(`DROP TABLE away; ALTER TABLE games DROP COLUMN clock; ALTER TABLE guild_settings DROP COLUMN pace;
		DROP TABLE member_prefs; ALTER TABLE games DROP COLUMN reminders;
		DROP TABLE analyses; DROP TABLE maintenance; DROP TABLE schedule; ALTER TABLE games DROP COLUMN shard_key;
		DROP TABLE user_locales; DROP TABLE guild_locales;
		ALTER TABLE guild_settings DROP COLUMN language_chosen;
		DROP TABLE shard_incarnations; DROP TABLE outbox_leases; DROP TABLE outbox; PRAGMA user_version = 3`)
	require.NoError(t, err)
	require.NoError(t, raw.Close())

	s = openSQLite(t, path)
	assert.Equal(t, storage.SchemaVersion(), userVersion(t, path))
	got := checkLog(t, s, g.ID)
	assert.Equal(t, g.StateVersion, got.StateVersion)
	pending, err := s.PendingOutbox(ctx, 0)
	require.NoError(t, err)
	assert.Empty(t, pending)
	_, err = s.ApplyMove(ctx, move(got, 10))
	require.NoError(t, err, "the migrated game plays on")
	ok, err := s.ClaimOutbox(ctx, g.ID, storage.LeaseHolder{Name: "p1"}, time.Now(), time.Now().Add(time.Minute))
	require.NoError(t, err)
	assert.True(t, ok, "and its outbox can be leased (migration 6)")
}

// Issue 30: a version's entries are one row (its publication), so the
// undelivered rows count the versions a channel is behind; each entry
// keeps its own outcome and delivery, the row is done once every entry
// is, and rows stored before entries were grouped (one entry a row) are
// read and delivered as before.
func TestAVersionsEntriesAreOneRow(t *testing.T) {
	eachBackend(t, func(t *testing.T, b backend) {
		ctx := context.Background()
		where := b.newDB(t)
		s := openStore(t, where)
		raw := rawDB(t, where)
		rows := func(q string, args ...any) int {
			var n int
			require.NoError(t, raw.QueryRow(`SELECT count(*) FROM outbox WHERE `+q, args...).Scan(&n))
			return n
		}
		g := newActive(t, s, "g", "c1")
		// A row as an older bot stored it, at the game's start.
		_, err := raw.Exec(`INSERT INTO outbox (game_id, version, kind, payload, outcome, created_at) VALUES (?, 0, 'board', '', '', '2026-01-01T00:00:00.000Z')`, g.ID)
		require.NoError(t, err)
		m := move(g, 10)
		m.Outbox = []storage.OutboxEntry{
			{Kind: "board", Payload: []byte(`{"fresh":true}`)},
			{Kind: "dm", Payload: []byte(`{"side":"commune"}`)},
			{Kind: "dm", Payload: []byte(`{"side":"versailles"}`), Outcome: []byte(`{"posting":true}`)},
			{Kind: "panel"},
		}
		g2, err := s.ApplyMove(ctx, m)
		require.NoError(t, err)
		assert.Equal(t, 2, rows(`game_id = ? AND done_at = ''`, g.ID), "the old row and the move's one publication")

		pending, err := s.PendingOutbox(ctx, g.ID)
		require.NoError(t, err)
		require.Len(t, pending, 5)
		assert.Equal(t, []string{"board", "board", "dm", "dm", "panel"}, kinds(pending))
		for k := 1; k < len(pending); k++ {
			assert.Less(t, pending[k-1].ID, pending[k].ID, "IDs keep the entries' order")
		}
		assert.Equal(t, g2.StateVersion, pending[4].Version)
		assert.JSONEq(t, `{"side":"versailles"}`, string(pending[3].Payload))
		assert.JSONEq(t, `{"posting":true}`, string(pending[3].Outcome))
		assert.Nil(t, pending[4].Payload)

		// The old row is delivered alone.
		require.NoError(t, s.UpdateOutbox(ctx, pending[0].ID, nil, true))
		// Entries of the publication: outcome, then delivered, one by one.
		require.NoError(t, s.UpdateOutbox(ctx, pending[1].ID, []byte(`{"message":"42"}`), false))
		require.NoError(t, s.WriteOutbox(ctx, storage.OutboxWrite{GameID: g.ID, Updates: []storage.OutboxUpdate{
			{ID: pending[1].ID, Done: true}, {ID: pending[4].ID, Done: true}}}))
		left, err := s.PendingOutbox(ctx, g.ID)
		require.NoError(t, err)
		assert.Equal(t, []string{"dm", "dm"}, kinds(left))
		assert.Equal(t, 1, rows(`game_id = ? AND done_at = ''`, g.ID), "the publication is pending while an entry is")
		last, err := s.LastOutbox(ctx, g.ID, "board", pending[3].ID)
		require.NoError(t, err)
		assert.Equal(t, pending[1].ID, last.ID, "a delivered entry of a pending publication")
		assert.JSONEq(t, `{"message":"42"}`, string(last.Outcome))
		last, err = s.LastOutbox(ctx, g.ID, "board", pending[1].ID)
		require.NoError(t, err)
		assert.Equal(t, pending[0].ID, last.ID, "the older row's")
		_, err = s.LastOutbox(ctx, g.ID, "board", pending[0].ID)
		require.ErrorIs(t, err, storage.ErrNotFound)

		require.NoError(t, s.UpdateOutbox(ctx, left[0].ID, nil, true))
		require.NoError(t, s.UpdateOutbox(ctx, left[1].ID, []byte(`{"message":"7"}`), true))
		assert.Equal(t, 0, rows(`game_id = ? AND done_at = ''`, g.ID), "done once every entry is")
		batch, err := s.OutboxBatch(ctx, g.ID, g2.StateVersion)
		require.NoError(t, err)
		require.Len(t, batch, 4)
		for _, e := range batch {
			assert.False(t, e.DoneAt.IsZero(), "%s delivered", e.Kind)
		}
		assert.JSONEq(t, `{"message":"7"}`, string(batch[2].Outcome))

		// No entry beyond the publication's, nor of the reserved kind.
		require.ErrorIs(t, s.UpdateOutbox(ctx, pending[4].ID+1, nil, true), storage.ErrNotFound)
		require.ErrorIs(t, s.UpdateOutbox(ctx, pending[0].ID+1, nil, true), storage.ErrNotFound)
		require.ErrorIs(t, s.Enqueue(ctx, storage.OutboxEntry{GameID: g.ID, Kind: "parts"}), storage.ErrInvalid)
	})
}

func kinds(entries []storage.OutboxEntry) []string {
	out := make([]string, len(entries))
	for k, e := range entries {
		out[k] = e.Kind
	}
	return out
}
