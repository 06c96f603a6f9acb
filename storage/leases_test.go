package storage_test

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rfop/rfop/storage"
)

// One publisher per game across processes: a lease is taken when free,
// expired or already the caller's, and refused while another holder's is
// valid.
func TestClaimOutboxLease(t *testing.T) {
	t.Parallel()
	eachBackend(t, testClaimOutboxLease)
}

func testClaimOutboxLease(t *testing.T, b backend) {
	ctx := context.Background()
	s := openStore(t, b.newDB(t))
	g := newActive(t, s, "g", "c1")
	t0 := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	lease := time.Minute
	for _, step := range []struct {
		name   string
		holder string
		at     time.Time
		want   bool
	}{
		{"a free lease is taken", "a", t0, true},
		{"the holder renews its own lease", "a", t0.Add(10 * time.Second), true},
		{"another process is refused while it is valid", "b", t0.Add(30 * time.Second), false},
		{"refused up to the last millisecond", "b", t0.Add(10*time.Second + lease - time.Millisecond), false},
		{"an expired lease (a killed holder) is taken", "b", t0.Add(10*time.Second + lease), true},
		{"the previous holder is refused now", "a", t0.Add(10*time.Second + lease + time.Second), false},
	} {
		ok, err := s.ClaimOutbox(ctx, g.ID, named(step.holder), step.at, step.at.Add(lease))
		require.NoError(t, err, step.name)
		assert.Equal(t, step.want, ok, step.name)
	}
	// Released: free for anyone at once; releasing another's lease does nothing.
	require.NoError(t, s.ReleaseOutbox(ctx, g.ID, "a"))
	ok, err := s.ClaimOutbox(ctx, g.ID, named("a"), t0.Add(2*lease), t0.Add(3*lease))
	require.NoError(t, err)
	assert.False(t, ok, "b's lease survives a's release")
	require.NoError(t, s.ReleaseOutbox(ctx, g.ID, "b"))
	ok, err = s.ClaimOutbox(ctx, g.ID, named("a"), t0.Add(2*lease), t0.Add(3*lease))
	require.NoError(t, err)
	assert.True(t, ok, "released by b")

	_, err = s.ClaimOutbox(ctx, 999, named("a"), t0, t0.Add(lease))
	assert.ErrorIs(t, err, storage.ErrNotFound)
	_, err = s.ClaimOutbox(ctx, g.ID, named(""), t0, t0.Add(lease))
	assert.ErrorIs(t, err, storage.ErrInvalid)
}

// named is a holder without a shard: its lease is taken over only at expiry.
func named(name string) storage.LeaseHolder { return storage.LeaseHolder{Name: name, Shard: -1} }

// Issue 24 item 6, "crash recovery without waiting": a process restarting
// with the same shard id takes over that shard's leases at once; an
// older incarnation, another shard and a holder without a shard still
// wait for the expiry.
func TestClaimOutboxTakeOverByANewerIncarnation(t *testing.T) {
	eachBackend(t, testClaimOutboxTakeOverByANewerIncarnation)
}

func testClaimOutboxTakeOverByANewerIncarnation(t *testing.T, b backend) {
	ctx := context.Background()
	s := openStore(t, b.newDB(t))
	g := newActive(t, s, "g", "c1")
	first, err := s.NextIncarnation(ctx, 1)
	require.NoError(t, err)
	second, err := s.NextIncarnation(ctx, 1)
	require.NoError(t, err)
	other, err := s.NextIncarnation(ctx, 0)
	require.NoError(t, err)
	assert.EqualValues(t, 1, first, "a shard's first start")
	assert.Equal(t, first+1, second, "each start of the shard is one more")
	assert.EqualValues(t, 1, other, "counted per shard")
	_, err = s.NextIncarnation(ctx, -1)
	assert.ErrorIs(t, err, storage.ErrInvalid)

	old := storage.LeaseHolder{Name: "shard1-old", Shard: 1, Incarnation: first}
	restarted := storage.LeaseHolder{Name: "shard1-new", Shard: 1, Incarnation: second}
	shard0 := storage.LeaseHolder{Name: "shard0", Shard: 0, Incarnation: other}
	t0 := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	lease := time.Minute
	for _, step := range []struct {
		name string
		h    storage.LeaseHolder
		want bool
	}{
		{"the old incarnation takes the free lease", old, true},
		{"another shard waits for the expiry", shard0, false},
		{"a holder without a shard waits for the expiry", named("x"), false},
		{"the restarted shard takes it over at once", restarted, true},
		{"the old incarnation cannot take it back", old, false},
		{"nor renew it", old, false},
		{"the new holder renews it", restarted, true},
		{"another shard still waits", shard0, false},
	} {
		ok, err := s.ClaimOutbox(ctx, g.ID, step.h, t0, t0.Add(lease))
		require.NoError(t, err, step.name)
		assert.Equal(t, step.want, ok, step.name)
	}
	holds, err := s.HoldsOutbox(ctx, g.ID, old.Name)
	require.NoError(t, err)
	assert.False(t, holds, "the old incarnation sees it lost the lease")
	holds, err = s.HoldsOutbox(ctx, g.ID, restarted.Name)
	require.NoError(t, err)
	assert.True(t, holds)

	// At expiry anyone takes it, as before.
	ok, err := s.ClaimOutbox(ctx, g.ID, shard0, t0.Add(lease), t0.Add(2*lease))
	require.NoError(t, err)
	assert.True(t, ok, "another shard at expiry")
	require.NoError(t, s.ReleaseOutbox(ctx, g.ID, shard0.Name))
	holds, err = s.HoldsOutbox(ctx, g.ID, shard0.Name)
	require.NoError(t, err)
	assert.False(t, holds, "released")
}

// Many claimants at once (the goroutines stand for processes): exactly
// one holds the lease.
func TestClaimOutboxHasOneWinner(t *testing.T) {
	t.Parallel()
	eachBackend(t, testClaimOutboxHasOneWinner)
}

func testClaimOutboxHasOneWinner(t *testing.T, b backend) {
	ctx := context.Background()
	s := openStore(t, b.newDB(t))
	g := newActive(t, s, "g", "c1")
	now := time.Now()
	var wins atomic.Int32
	var wg sync.WaitGroup
	for k := range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ok, err := s.ClaimOutbox(ctx, g.ID, named(string(rune('a'+k))), now, now.Add(time.Minute))
			assert.NoError(t, err)
			if ok {
				wins.Add(1)
			}
		}()
	}
	wg.Wait()
	assert.EqualValues(t, 1, wins.Load())
}

// A reminder is claimed from the reminded_at the caller read: of two
// processes that read the same game, one sends it.
func TestClaimReminderOnce(t *testing.T) {
	t.Parallel()
	eachBackend(t, testClaimReminderOnce)
}

func testClaimReminderOnce(t *testing.T, b backend) {
	ctx := context.Background()
	s := openStore(t, b.newDB(t))
	g := newActive(t, s, "g", "c1")
	seen := g.RemindedAt
	require.True(t, seen.IsZero())
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

	ok, err := s.ClaimReminder(ctx, g.ID, seen, at, storage.Due{})
	require.NoError(t, err)
	assert.True(t, ok, "first claim")
	ok, err = s.ClaimReminder(ctx, g.ID, seen, at.Add(time.Second), storage.Due{})
	require.NoError(t, err)
	assert.False(t, ok, "a second process that read the same game")
	got, err := s.GameByID(ctx, g.ID)
	require.NoError(t, err)
	assert.True(t, got.RemindedAt.Equal(at), "the winner's time is kept")

	// The next interval's reminder is claimed from the stored time.
	ok, err = s.ClaimReminder(ctx, g.ID, got.RemindedAt, at.Add(time.Hour), storage.Due{})
	require.NoError(t, err)
	assert.True(t, ok)

	// Not on a game that ended.
	_, err = s.Abandon(ctx, g.ID)
	require.NoError(t, err)
	got, err = s.GameByID(ctx, g.ID)
	require.NoError(t, err)
	ok, err = s.ClaimReminder(ctx, g.ID, got.RemindedAt, at.Add(2*time.Hour), storage.Due{})
	require.NoError(t, err)
	assert.False(t, ok)
}
