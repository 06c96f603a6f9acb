package bot_test

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rfop/rfop/bot"
	"github.com/rfop/rfop/engine"
	"github.com/rfop/rfop/internal/fakediscord"
	"github.com/rfop/rfop/internal/testctx"
	"github.com/rfop/rfop/storage"
	"github.com/rfop/rfop/storage/storagetest"
)

// touchStore records every game a bot reads, claims or is handed by the
// store (the due work and the pending publications it lists).
type touchStore struct {
	storage.Store
	mu      sync.Mutex
	touched map[int64]bool
}

func newTouchStore(s storage.Store) *touchStore {
	return &touchStore{Store: s, touched: map[int64]bool{}}
}

func (s *touchStore) touch(ids ...int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, id := range ids {
		s.touched[id] = true
	}
}

func (s *touchStore) games() []int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []int64
	for id := range s.touched {
		out = append(out, id)
	}
	slices.Sort(out)
	return out
}

func (s *touchStore) GameByID(ctx context.Context, id int64) (storage.Game, error) {
	s.touch(id)
	return s.Store.GameByID(ctx, id)
}

func (s *touchStore) Actions(ctx context.Context, id int64) ([]storage.Action, error) {
	s.touch(id)
	return s.Store.Actions(ctx, id)
}

func (s *touchStore) LoadVerified(ctx context.Context, id int64, verify storage.VerifyFunc) (storage.Game, []storage.Action, error) {
	s.touch(id)
	return s.Store.LoadVerified(ctx, id, verify)
}

func (s *touchStore) VerifyGame(ctx context.Context, id int64, verify storage.VerifyFunc) error {
	s.touch(id)
	return s.Store.VerifyGame(ctx, id, verify)
}

func (s *touchStore) PendingOutbox(ctx context.Context, id int64) ([]storage.OutboxEntry, error) {
	s.touch(id)
	return s.Store.PendingOutbox(ctx, id)
}

func (s *touchStore) ClaimOutbox(ctx context.Context, id int64, holder storage.LeaseHolder, now, until time.Time) (bool, error) {
	s.touch(id)
	return s.Store.ClaimOutbox(ctx, id, holder, now, until)
}

func (s *touchStore) ClaimReminderOutbox(ctx context.Context, id int64, holder storage.LeaseHolder, now, until, seen, at time.Time, next storage.Due) (bool, storage.Message, error) {
	s.touch(id)
	return s.Store.ClaimReminderOutbox(ctx, id, holder, now, until, seen, at, next)
}

func (s *touchStore) RecordMessageRelease(ctx context.Context, m storage.Message, holder string) (storage.Message, bool, error) {
	s.touch(m.GameID)
	return s.Store.RecordMessageRelease(ctx, m, holder)
}

func (s *touchStore) GamesByIDs(ctx context.Context, ids ...int64) ([]storage.Game, error) {
	s.touch(ids...)
	return s.Store.GamesByIDs(ctx, ids...)
}

func (s *touchStore) ClaimDue(ctx context.Context, d storage.Due, next time.Time) (bool, error) {
	s.touch(d.GameID)
	return s.Store.ClaimDue(ctx, d, next)
}

func (s *touchStore) DueWork(ctx context.Context, q storage.DueQuery) ([]storage.Due, error) {
	items, err := s.Store.DueWork(ctx, q)
	for _, d := range items {
		s.touch(d.GameID)
	}
	return items, err
}

func (s *touchStore) ActiveGameIDs(ctx context.Context, f storage.ShardFilter, after int64, limit int) ([]int64, error) {
	ids, err := s.Store.ActiveGameIDs(ctx, f, after, limit)
	s.touch(ids...)
	return ids, err
}

func (s *touchStore) PendingGames(ctx context.Context, f storage.ShardFilter, after int64, limit int) ([]int64, error) {
	ids, err := s.Store.PendingGames(ctx, f, after, limit)
	s.touch(ids...)
	return ids, err
}

// shardWorld is a fake Discord with servers on two shards (keys 0..3,
// by Discord's formula), n channels each.
func shardWorld(n int) (guilds []string, opts []fakediscord.Option) {
	for key := range int64(4) {
		id := strconv.FormatInt(key<<22|100, 10)
		g := fakediscord.Guild{ID: id, Name: "server " + id, OwnerID: owner,
			Members: []fakediscord.Member{{UserID: alice, Username: "alice"}, {UserID: bob, Username: "bob"}, {UserID: owner, Username: "owner"}}}
		for c := range n {
			g.Channels = append(g.Channels, fakediscord.Channel{ID: fmt.Sprintf("%d%02d", 9000+key, c), Name: "games"})
		}
		guilds = append(guilds, id)
		opts = append(opts, fakediscord.WithGuild(g))
	}
	return guilds, opts
}

// Two shards on one PostgreSQL database: at start-up, and in each
// periodic pass (reminders and challenge expiry, publication retries, the
// background integrity sweep), each shard reads, claims and is handed only
// its own servers' games; and between them they do all the work.
func TestE2EShardsPassesTouchOnlyTheirGames(t *testing.T) {
	t.Parallel()
	url := storagetest.PostgresURL(t)
	guilds, opts := shardWorld(4)
	h := &harness{t: t, srv: fakediscord.New(t, opts...), dbPath: url, seed: 7, pictures: newStubPictures(), clock: &offsetClock{}}
	ctx := testctx.Context(t)

	// The games, written as the bot would (due work with them): in each
	// server two active games with a reminder due in a day, one with a
	// start to publish (its resume item and its first board pending in
	// the outbox), and a challenge expiring in a day.
	store, err := storage.OpenURL(ctx, url)
	require.NoError(t, err)
	shardOf := map[int64]int{}
	var active []storage.Game
	for k, guild := range guilds {
		for c := range 4 {
			channel := fmt.Sprintf("%d%02d", 9000+k, c)
			ng := storage.NewGame{GuildID: guild, ChannelID: channel, Status: storage.StatusActive, Mode: storage.ModeTwoPlayer, Variant: string(engine.Standard),
				Seed: int64(100*k + c), CreatedBy: alice, Players: []storage.Player{{Side: storage.SideVersailles, UserID: alice}, {Side: storage.SideCommune, UserID: bob}}}
			switch c {
			case 3:
				ng.Status, ng.Players = storage.StatusWaiting, nil
				ng.Due = []storage.Due{{Kind: "expire", In: 24 * time.Hour}}
			default:
				g, err := engine.New(engine.Options{Seed: ng.Seed, Variant: engine.Standard, BotSide: engine.NoSide})
				require.NoError(t, err)
				ng.State, err = g.Save()
				require.NoError(t, err)
				ng.Due = []storage.Due{{Kind: "remind", In: 24 * time.Hour}}
				if c == 2 {
					ng.Due = append(ng.Due, storage.Due{Kind: "resume"})
				}
			}
			rec, err := store.CreateGame(ctx, ng)
			require.NoError(t, err)
			shardOf[rec.ID] = k % 2
			if c == 1 {
				require.NoError(t, store.Enqueue(ctx, storage.OutboxEntry{GameID: rec.ID, Kind: "board", Payload: []byte(`{"fresh":true}`)}))
			}
			if rec.Status == storage.StatusActive {
				active = append(active, rec)
			}
		}
	}
	require.NoError(t, store.Close())

	touch := map[int]*touchStore{}
	bots := map[int]*harness{}
	for shard := range 2 {
		o := &harness{t: t, srv: h.srv, dbPath: url, seed: 1000 * int64(shard+1), pictures: h.pictures, clock: h.clock,
			shard: bot.Shard{ID: shard, Count: 2}}
		o.wrap = func(s storage.Store) storage.Store { touch[shard] = newTouchStore(s); return touch[shard] }
		o.start() // CheckGames and Resume: start-up
		t.Cleanup(o.stop)
		bots[shard] = o
	}
	for _, o := range bots {
		require.NoError(t, o.b.WaitPublished(ctx))
	}
	h.clock.Advance(25 * time.Hour)
	for _, o := range bots {
		o.b.Remind(ctx)
		o.b.Redeliver(ctx)
		require.NoError(t, o.b.WaitPublished(ctx))
		o.b.Sweep(ctx, 1)
	}
	for _, rec := range active {
		for shard, o := range bots {
			assert.Equal(t, shard == shardOf[rec.ID], o.b.Checked(rec.ID), "game %d of shard %d checked by shard %d", rec.ID, shardOf[rec.ID], shard)
		}
	}

	for shard, ts := range touch {
		games := ts.games()
		require.NotEmpty(t, games)
		for _, id := range games {
			assert.Equal(t, shard, shardOf[id], "shard %d touched game %d of shard %d", shard, id, shardOf[id])
		}
	}
	check, err := storage.OpenURL(ctx, url)
	require.NoError(t, err)
	defer check.Close()
	for id, shard := range shardOf {
		rec, err := check.GameByID(ctx, id)
		require.NoError(t, err)
		if rec.State == nil {
			assert.Equal(t, storage.StatusAbandoned, rec.Status, "game %d (shard %d): the challenge expired", id, shard)
			continue
		}
		assert.False(t, rec.RemindedAt.IsZero(), "game %d (shard %d) was reminded", id, shard)
		assert.Equal(t, 1, reminders(h.srv, rec.ChannelID), "game %d: one reminder", id)
		pending, err := check.PendingOutbox(ctx, id)
		require.NoError(t, err)
		assert.Empty(t, pending, "game %d: its publications delivered", id)
		due, err := check.GameSchedule(ctx, id)
		require.NoError(t, err)
		require.Len(t, due, 1, "game %d: the next reminder only (the resume item done)", id)
		assert.Equal(t, "remind", due[0].Kind)
	}
	assert.Len(t, active, 12)
}

// A challenge nobody accepts expires a day after it was issued, from the
// schedule: not before, and once.
func TestE2EChallengeExpiresAfterADay(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	_, resp := h.command(alice, guildID, chanID, fakediscord.SubCmd("new", fakediscord.UserArg("opponent", bob)))
	require.NotNil(t, resp.Message)
	rec := h.game(chanID)
	require.Equal(t, storage.StatusWaiting, rec.Status)
	due, err := h.store.GameSchedule(t.Context(), rec.ID)
	require.NoError(t, err)
	require.Len(t, due, 1)
	assert.Equal(t, "expire", due[0].Kind)
	assert.Equal(t, rec.CreatedAt.Add(24*time.Hour), due[0].At)

	expired := func() int {
		n := 0
		for _, m := range h.srv.Messages(chanID) {
			if m.Content == fmt.Sprintf("Challenge #%d expired after 24 hours.", rec.ID) {
				n++
			}
		}
		return n
	}
	h.clock.Advance(23 * time.Hour)
	h.b.Remind(t.Context())
	assert.Equal(t, storage.StatusWaiting, h.gameByID(rec.ID).Status, "not yet")
	h.clock.Advance(2 * time.Hour)
	h.b.Remind(t.Context())
	h.b.Remind(t.Context())
	assert.Equal(t, storage.StatusAbandoned, h.gameByID(rec.ID).Status)
	assert.Equal(t, 1, expired(), "announced once")
	due, err = h.store.GameSchedule(t.Context(), rec.ID)
	require.NoError(t, err)
	assert.Empty(t, due)
}

// A shorter reminder interval takes effect for the games already waiting:
// their reminders are rescheduled when the setting changes.
func TestE2EShorterReminderIntervalReschedules(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	rec := h.startChallenge(chanID, "versailles")
	_, resp := h.command(manager, guildID, chanID, fakediscord.SubCmd("settings", fakediscord.IntArg("reminder_hours", 2)))
	require.Contains(t, resp.Content, "2")
	due, err := h.store.GameSchedule(t.Context(), rec.ID)
	require.NoError(t, err)
	require.NotEmpty(t, due)
	assert.Equal(t, "remind", due[0].Kind)
	assert.Equal(t, h.gameByID(rec.ID).LastActionAt.Add(2*time.Hour), due[0].At)
	h.clock.Advance(3 * time.Hour)
	h.b.Remind(t.Context())
	assert.Equal(t, 1, reminders(h.srv, chanID))

	// Longer again: rescheduled too, nothing is posted at the old time.
	_, _ = h.command(manager, guildID, chanID, fakediscord.SubCmd("settings", fakediscord.IntArg("reminder_hours", 48)))
	h.clock.Advance(3 * time.Hour)
	h.b.Remind(t.Context())
	assert.Equal(t, 1, reminders(h.srv, chanID))
	due, err = h.store.GameSchedule(t.Context(), rec.ID)
	require.NoError(t, err)
	assert.Equal(t, h.gameByID(rec.ID).RemindedAt.Add(48*time.Hour), due[0].At)
}
