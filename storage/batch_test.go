package storage_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rfop/rfop/storage"
)

// A reminder pass reads its batch's games, guilds and members in one
// query each: the same as one at a time.
func TestBatchReads(t *testing.T) {
	t.Parallel()
	eachBackend(t, testBatchReads)
}

func testBatchReads(t *testing.T, b backend) {
	ctx := context.Background()
	s := openStore(t, b.newDB(t))
	g1 := newActive(t, s, "g1", "c1")
	g2 := newActive(t, s, "g2", "c2")

	games, err := s.GamesByIDs(ctx, g2.ID, 999, g1.ID)
	require.NoError(t, err)
	require.Len(t, games, 2, "an id that names no game is left out")
	assert.Equal(t, []int64{g1.ID, g2.ID}, []int64{games[0].ID, games[1].ID}, "in id order")
	for _, g := range games {
		one, err := s.GameByID(ctx, g.ID)
		require.NoError(t, err)
		assert.Nil(t, g.State, "a listing carries no state")
		assert.Equal(t, one.Players, g.Players)
		assert.Equal(t, one.GuildID, g.GuildID)
	}
	none, err := s.GamesByIDs(ctx)
	require.NoError(t, err)
	assert.Empty(t, none)

	set := storage.DefaultSettings("g1")
	set.ReminderInterval = 3 * time.Hour
	set.Language = "fr"
	_, err = s.SetGuildSettings(ctx, set)
	require.NoError(t, err)
	sets, err := s.GuildSettingsOf(ctx, "g1", "g2")
	require.NoError(t, err)
	for _, id := range []string{"g1", "g2"} {
		one, err := s.GuildSettings(ctx, id)
		require.NoError(t, err)
		assert.Equal(t, one, sets[id], id)
	}
	assert.Equal(t, 3*time.Hour, sets["g1"].ReminderInterval)
	assert.Equal(t, storage.DefaultReminderInterval, sets["g2"].ReminderInterval, "a guild without settings has the defaults")

	_, err = s.SetMemberPrefs(ctx, storage.MemberPrefs{UserID: "alice", Notify: storage.NotifyDM})
	require.NoError(t, err)
	prefs, err := s.MemberPrefsOf(ctx, "alice", "bob")
	require.NoError(t, err)
	for _, id := range []string{"alice", "bob"} {
		one, err := s.MemberPrefs(ctx, id)
		require.NoError(t, err)
		assert.Equal(t, one, prefs[id], id)
	}
	assert.Equal(t, storage.NotifyDM, prefs["alice"].Notify)
	assert.Equal(t, storage.NotifyMention, prefs["bob"].Notify, "a member who never chose is mentioned")
}

// ClaimReminderOutbox takes the outbox lease and claims the reminder
// together, or neither: a reminder another process claimed leaves no lease
// behind, and a lease another process holds claims no reminder.
func TestClaimReminderOutboxBothOrNeither(t *testing.T) {
	t.Parallel()
	eachBackend(t, testClaimReminderOutboxBothOrNeither)
}

func testClaimReminderOutboxBothOrNeither(t *testing.T, b backend) {
	ctx := context.Background()
	s := openStore(t, b.newDB(t))
	g := newActive(t, s, "g", "c1")
	t0 := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	lease := time.Minute
	next := storage.Due{Kind: "remind", At: t0.Add(time.Hour)}

	// Another process delivers the game's publications: no claim.
	ok, err := s.ClaimOutbox(ctx, g.ID, named("b"), t0, t0.Add(lease))
	require.NoError(t, err)
	require.True(t, ok)
	ok, _, err = s.ClaimReminderOutbox(ctx, g.ID, named("a"), t0, t0.Add(lease), g.RemindedAt, t0, next)
	require.NoError(t, err)
	assert.False(t, ok, "the outbox is leased elsewhere")
	got, err := s.GameByID(ctx, g.ID)
	require.NoError(t, err)
	assert.True(t, got.RemindedAt.IsZero(), "no reminder claimed without the lease")
	require.NoError(t, s.ReleaseOutbox(ctx, g.ID, "b"))

	// Both.
	ok, live, err := s.ClaimReminderOutbox(ctx, g.ID, named("a"), t0, t0.Add(lease), g.RemindedAt, t0, next)
	require.NoError(t, err)
	assert.True(t, ok)
	assert.Zero(t, live.ID, "no board yet")
	held, err := s.HoldsOutbox(ctx, g.ID, "a")
	require.NoError(t, err)
	assert.True(t, held, "the lease is taken")
	got, err = s.GameByID(ctx, g.ID)
	require.NoError(t, err)
	assert.True(t, got.RemindedAt.Equal(t0))
	assert.Equal(t, 1, got.Reminders)
	sched, err := s.GameSchedule(ctx, g.ID)
	require.NoError(t, err)
	found := false
	for _, d := range sched {
		if d.Kind == "remind" {
			found = true
			assert.True(t, d.At.Equal(next.At), "the next reminder is scheduled")
		}
	}
	assert.True(t, found, "the next reminder is scheduled")
	require.NoError(t, s.ReleaseOutbox(ctx, g.ID, "a"))

	// The reminder was claimed already (by a process that read the same
	// game): no lease is left behind.
	ok, _, err = s.ClaimReminderOutbox(ctx, g.ID, named("c"), t0, t0.Add(lease), g.RemindedAt, t0.Add(time.Second), next)
	require.NoError(t, err)
	assert.False(t, ok, "claimed by another process")
	held, err = s.HoldsOutbox(ctx, g.ID, "c")
	require.NoError(t, err)
	assert.False(t, held, "no lease without the reminder")
	ok, err = s.ClaimOutbox(ctx, g.ID, named("d"), t0, t0.Add(lease))
	require.NoError(t, err)
	assert.True(t, ok, "the outbox is free")

	_, _, err = s.ClaimReminderOutbox(ctx, g.ID, named(""), t0, t0.Add(lease), g.RemindedAt, t0, next)
	assert.ErrorIs(t, err, storage.ErrInvalid)

	// The board recorded and the lease ended together; another's lease
	// is not ended.
	m, pending, err := s.RecordMessageRelease(ctx, storage.Message{GameID: g.ID, Kind: storage.KindBoard, ChannelID: "c1", MessageID: "m1"}, "d")
	require.NoError(t, err)
	assert.False(t, pending, "nothing to deliver")
	latest, err := s.LatestMessage(ctx, g.ID, storage.KindBoard)
	require.NoError(t, err)
	assert.Equal(t, m.ID, latest.ID)
	assert.Equal(t, "m1", latest.MessageID)
	held, err = s.HoldsOutbox(ctx, g.ID, "d")
	require.NoError(t, err)
	assert.False(t, held, "the lease ended with the recording")
	ok, err = s.ClaimOutbox(ctx, g.ID, named("e"), t0, t0.Add(lease))
	require.NoError(t, err)
	require.True(t, ok)
	// A publication committed while the lease was held is reported.
	require.NoError(t, s.Enqueue(ctx, storage.OutboxEntry{GameID: g.ID, Kind: "board"}))
	_, pending, err = s.RecordMessageRelease(ctx, storage.Message{GameID: g.ID, Kind: storage.KindBoard, ChannelID: "c1", MessageID: "m2"}, "d")
	require.NoError(t, err)
	assert.True(t, pending, "an entry waits for delivery")
	held, err = s.HoldsOutbox(ctx, g.ID, "e")
	require.NoError(t, err)
	assert.True(t, held, "another holder's lease stays")
	_, _, err = s.RecordMessageRelease(ctx, storage.Message{GameID: 999, Kind: storage.KindBoard, ChannelID: "c1", MessageID: "m3"}, "d")
	assert.ErrorIs(t, err, storage.ErrNotFound)

	// A claim reads the live board under its lease: the latest recorded.
	require.NoError(t, s.ReleaseOutbox(ctx, g.ID, "e"))
	got, err = s.GameByID(ctx, g.ID)
	require.NoError(t, err)
	ok, live, err = s.ClaimReminderOutbox(ctx, g.ID, named("f"), t0, t0.Add(lease), got.RemindedAt, t0.Add(time.Hour), next)
	require.NoError(t, err)
	require.True(t, ok)
	want, err := s.LatestMessage(ctx, g.ID, storage.KindBoard)
	require.NoError(t, err)
	assert.Equal(t, "m2", live.MessageID)
	assert.Equal(t, want, live)
}

// Of processes racing to send the same reminder (each with the game it
// read), exactly one claims it and holds the lease; the others leave
// nothing behind. The claim is pipelined on PostgreSQL: its statements'
// own conditions, not Go between them, make it both or neither.
func TestClaimReminderOutboxHasOneWinner(t *testing.T) {
	t.Parallel()
	eachBackend(t, testClaimReminderOutboxHasOneWinner)
}

func testClaimReminderOutboxHasOneWinner(t *testing.T, b backend) {
	ctx := context.Background()
	db := b.newDB(t)
	stores := []storage.Store{openStore(t, db), openStore(t, db)} // two processes
	g := newActive(t, stores[0], "g", "c1")
	t0 := time.Now().UTC().Truncate(time.Millisecond)
	next := storage.Due{Kind: "remind", At: t0.Add(time.Hour)}
	var (
		wg     sync.WaitGroup
		mu     sync.Mutex
		winner []string
	)
	for k := range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			name := fmt.Sprintf("p%d", k)
			at := t0.Add(time.Duration(k) * time.Millisecond)
			ok, _, err := stores[k%2].ClaimReminderOutbox(ctx, g.ID, named(name), t0, t0.Add(time.Minute), g.RemindedAt, at, next)
			assert.NoError(t, err)
			if ok {
				mu.Lock()
				winner = append(winner, name)
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	require.Len(t, winner, 1, "one claim")
	got, err := stores[1].GameByID(ctx, g.ID)
	require.NoError(t, err)
	assert.Equal(t, 1, got.Reminders, "one reminder counted")
	for k := range 16 {
		name := fmt.Sprintf("p%d", k)
		held, err := stores[0].HoldsOutbox(ctx, g.ID, name)
		require.NoError(t, err)
		assert.Equal(t, name == winner[0], held, "only the winner holds the lease (%s)", name)
	}

	// An ended game: neither.
	require.NoError(t, stores[0].ReleaseOutbox(ctx, g.ID, winner[0]))
	_, err = stores[0].Abandon(ctx, g.ID)
	require.NoError(t, err)
	ok, _, err := stores[0].ClaimReminderOutbox(ctx, g.ID, named("late"), t0, t0.Add(time.Minute), got.RemindedAt, t0.Add(time.Hour), next)
	require.NoError(t, err)
	assert.False(t, ok)
	held, err := stores[0].HoldsOutbox(ctx, g.ID, "late")
	require.NoError(t, err)
	assert.False(t, held, "no lease without the reminder")
	sched, err := stores[0].GameSchedule(ctx, g.ID)
	require.NoError(t, err)
	assert.Empty(t, sched, "nothing scheduled for an ended game")
}

// A pipelined transaction that fails (a statement refused, a row not
// found, a claim not made) leaves its connection without a transaction:
// the pool's connections all serve the next writes and reads as usual,
// and what those write is committed.
func TestPipelineFailuresLeaveConnectionsClean(t *testing.T) {
	t.Parallel()
	eachBackend(t, testPipelineFailuresLeaveConnectionsClean)
}

func testPipelineFailuresLeaveConnectionsClean(t *testing.T, b backend) {
	ctx := context.Background()
	db := b.newDB(t)
	s := openStore(t, db)
	g := newActive(t, s, "g", "c1")
	t0 := time.Now().UTC().Truncate(time.Millisecond)
	ok, err := s.ClaimOutbox(ctx, g.ID, named("other"), t0, t0.Add(time.Hour))
	require.NoError(t, err)
	require.True(t, ok)
	for range 3 * storage.PostgresConns {
		_, _, err := s.RecordMessageRelease(ctx, storage.Message{GameID: 999, Kind: storage.KindBoard, ChannelID: "c9", MessageID: "m"}, "x")
		require.ErrorIs(t, err, storage.ErrNotFound, "a refused insert")
		_, _, err = s.LoadVerified(ctx, 999, nil)
		require.ErrorIs(t, err, storage.ErrNotFound)
		ok, _, err := s.ClaimReminderOutbox(ctx, g.ID, named("me"), t0, t0.Add(time.Minute), g.RemindedAt, t0, storage.Due{})
		require.NoError(t, err)
		require.False(t, ok, "the outbox is leased elsewhere")
	}
	var wg sync.WaitGroup
	for k := range 2 * storage.PostgresConns {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := s.RecordMessage(ctx, storage.Message{GameID: g.ID, Kind: storage.KindBoard, ChannelID: "c1", MessageID: fmt.Sprintf("m%d", k)})
			assert.NoError(t, err)
			got, acts, err := s.LoadVerified(ctx, g.ID, nil)
			if assert.NoError(t, err) {
				assert.Equal(t, g.ID, got.ID)
				assert.Len(t, acts, int(got.StateVersion))
			}
		}()
	}
	wg.Wait()
	// Seen by another process: committed.
	msgs, err := openStore(t, db).Messages(ctx, g.ID, storage.KindBoard)
	require.NoError(t, err)
	assert.Len(t, msgs, 2*storage.PostgresConns)
	held, err := s.HoldsOutbox(ctx, g.ID, "me")
	require.NoError(t, err)
	assert.False(t, held)
}
