package storage_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rfop/rfop/storage"
)

// guildOfShard returns a snowflake-like guild id whose shard key is key.
func guildOfShard(key int64) string { return strconv.FormatInt(key<<22|12345, 10) }

func TestShardKeyIsDiscordsFormula(t *testing.T) {
	for _, tc := range []struct {
		guild string
		want  int64
	}{
		{"", 0},                               // DMs: shard 0's
		{"100", 0},                            // below 2^22
		{strconv.FormatInt(1<<22|100, 10), 1}, // the sharding tests' second server
		{"197038439483310086", 197038439483310086 >> 22},
		{"9223372036854775807", 9223372036854775807 >> 22},
		{"9223372036854775808", 0}, // not below 2^63: shard 0's
		{"guild", 0},               // not a snowflake
		{"-5", 0},
		{"+5", 0},
	} {
		assert.Equal(t, tc.want, storage.ShardKey(tc.guild), "guild %q", tc.guild)
	}
}

// A game's due work is written with the game, replaced by each move and
// cleared when the game ends, in the same transactions; relative times
// count from the write's own time.
func TestScheduleFollowsTheGame(t *testing.T) {
	eachBackend(t, func(t *testing.T, b backend) {
		ctx := context.Background()
		s, clock := openClocked(t, b)
		guild := guildOfShard(3)
		day := 24 * time.Hour

		w, err := s.CreateGame(ctx, storage.NewGame{GuildID: guild, ChannelID: "c1", Status: storage.StatusWaiting,
			Mode: storage.ModeTwoPlayer, Seed: 1, CreatedBy: "alice",
			Due: []storage.Due{{Kind: "expire", In: day}}})
		require.NoError(t, err)
		created := clock.t
		assert.Equal(t, []storage.Due{{Kind: "expire", GameID: w.ID, ShardKey: 3, At: created.Add(day)}}, schedule(t, s, w.ID))

		clock.advance(time.Hour)
		g, err := s.Activate(ctx, w.ID, stateJSON(0, 10), []storage.Due{{Kind: "remind", In: day}, {Kind: "resume"}}, players("bob", "alice")...)
		require.NoError(t, err)
		assert.Equal(t, []storage.Due{
			{Kind: "remind", GameID: g.ID, ShardKey: 3, At: g.LastActionAt.Add(day)},
			{Kind: "resume", GameID: g.ID, ShardKey: 3, At: g.LastActionAt},
		}, schedule(t, s, g.ID), "the challenge's expiry replaced")

		clock.advance(time.Hour)
		m := move(g, 10)
		m.Due = []storage.Due{{Kind: "remind", In: day}, {Kind: "clock", Subject: "commune", At: created.Add(100 * day)}}
		g, err = s.ApplyMove(ctx, m)
		require.NoError(t, err)
		assert.Equal(t, []storage.Due{
			{Kind: "clock", GameID: g.ID, Subject: "commune", ShardKey: 3, At: created.Add(100 * day)},
			{Kind: "remind", GameID: g.ID, ShardKey: 3, At: g.LastActionAt.Add(day)},
		}, schedule(t, s, g.ID), "replaced by the move, timed from the move")

		// Another game's rows, and a user's, are left alone by this one's writes.
		other := newActive(t, s, guild, "c2")
		require.NoError(t, s.ScheduleDue(ctx, storage.Due{Kind: "remind", GameID: other.ID, ShardKey: 3, At: clock.t},
			storage.Due{Kind: "digest", Subject: "alice", At: clock.t}))

		// A move without Due leaves none; a finishing move clears them
		// whatever it says.
		g, err = s.ApplyMove(ctx, move(g, 10))
		require.NoError(t, err)
		assert.Empty(t, schedule(t, s, g.ID))
		m = move(g, 10)
		m.Due = []storage.Due{{Kind: "remind", In: day}}
		g, err = s.ApplyMove(ctx, m)
		require.NoError(t, err)
		require.Len(t, schedule(t, s, g.ID), 1)
		m = move(g, 10)
		m.Due, m.Status, m.Result = []storage.Due{{Kind: "remind", In: day}}, storage.StatusFinished, []byte(`{"winner":"commune"}`)
		_, err = s.ApplyMove(ctx, m)
		require.NoError(t, err)
		assert.Empty(t, schedule(t, s, g.ID), "a finished game has no due work")

		// Abandon and Finish clear them too.
		require.Len(t, schedule(t, s, other.ID), 1)
		_, err = s.Abandon(ctx, other.ID)
		require.NoError(t, err)
		assert.Empty(t, schedule(t, s, other.ID))
		third := newActive(t, s, guild, "c3")
		require.NoError(t, s.ScheduleDue(ctx, storage.Due{Kind: "remind", GameID: third.ID, At: clock.t}))
		_, err = s.Finish(ctx, third.ID, []byte(`{"winner":"commune"}`))
		require.NoError(t, err)
		assert.Empty(t, schedule(t, s, third.ID))

		digest, err := s.DueWork(ctx, storage.DueQuery{Kind: "digest", Now: clock.t})
		require.NoError(t, err)
		assert.Equal(t, []storage.Due{{Kind: "digest", Subject: "alice", At: clock.t}}, digest, "a user's item stays")

		_, err = s.CreateGame(ctx, storage.NewGame{ChannelID: "c4", Status: storage.StatusWaiting, Mode: storage.ModeTwoPlayer,
			Due: []storage.Due{{In: day}}})
		require.ErrorIs(t, err, storage.ErrInvalid, "due work needs a kind")
		require.ErrorIs(t, s.ScheduleDue(ctx, storage.Due{Kind: "remind", GameID: 1}), storage.ErrInvalid, "and a time")
	})
}

func schedule(t *testing.T, s storage.Store, gameID int64) []storage.Due {
	t.Helper()
	got, err := s.GameSchedule(context.Background(), gameID)
	require.NoError(t, err)
	return got
}

// DueWork reads one kind's due items, oldest first, for one shard, in
// batches: the shard filter is in the query.
func TestDueWorkByShardInBatches(t *testing.T) {
	eachBackend(t, func(t *testing.T, b backend) {
		ctx := context.Background()
		s, clock := openClocked(t, b)
		base := clock.t
		var items []storage.Due
		for i := range 40 {
			key := int64(i % 4)
			items = append(items, storage.Due{Kind: "remind", GameID: int64(1000 + i), ShardKey: key,
				At: base.Add(time.Duration(i%10) * time.Minute)})
		}
		items = append(items,
			storage.Due{Kind: "remind", GameID: 5000, ShardKey: 1, At: base.Add(time.Hour)}, // not due yet
			storage.Due{Kind: "expire", GameID: 6000, ShardKey: 1, At: base})                // another kind
		require.NoError(t, s.ScheduleDue(ctx, items...))
		now := base.Add(30 * time.Minute)

		// Shard 1 of 2 owns the odd keys.
		var want []storage.Due
		for _, d := range items[:40] {
			if d.ShardKey%2 == 1 {
				want = append(want, d)
			}
		}
		sort.Slice(want, func(i, j int) bool {
			if !want[i].At.Equal(want[j].At) {
				return want[i].At.Before(want[j].At)
			}
			return want[i].GameID < want[j].GameID
		})
		var got []storage.Due
		q := storage.DueQuery{Kind: "remind", Now: now, Shard: storage.ShardFilter{Shard: 1, Shards: 2}, Limit: 7}
		for batches := 0; ; batches++ {
			require.Less(t, batches, 10)
			page, err := s.DueWork(ctx, q)
			require.NoError(t, err)
			got = append(got, page...)
			if len(page) < q.Limit {
				break
			}
			q.After = &page[len(page)-1]
		}
		assert.Equal(t, want, got)

		all, err := s.DueWork(ctx, storage.DueQuery{Kind: "remind", Now: now})
		require.NoError(t, err)
		assert.Len(t, all, 40, "one shard: everything due")
		none, err := s.DueWork(ctx, storage.DueQuery{Kind: "remind", Now: base.Add(-time.Second)})
		require.NoError(t, err)
		assert.Empty(t, none)
		_, err = s.DueWork(ctx, storage.DueQuery{Now: now})
		require.ErrorIs(t, err, storage.ErrInvalid)
	})
}

// Of several processes that read the same due item, exactly one claims it.
func TestClaimDueOnce(t *testing.T) {
	eachBackend(t, func(t *testing.T, b backend) {
		ctx := context.Background()
		s, clock := openClocked(t, b)
		d := storage.Due{Kind: "expire", GameID: 7, At: clock.t}
		require.NoError(t, s.ScheduleDue(ctx, d))
		next := clock.t.Add(time.Hour)
		var wg sync.WaitGroup
		wins := make([]bool, 8)
		for i := range wins {
			wg.Add(1)
			go func() {
				defer wg.Done()
				ok, err := s.ClaimDue(ctx, d, next)
				assert.NoError(t, err)
				wins[i] = ok
			}()
		}
		wg.Wait()
		n := 0
		for _, w := range wins {
			if w {
				n++
			}
		}
		assert.Equal(t, 1, n, "one claim wins")
		got, err := s.DueWork(ctx, storage.DueQuery{Kind: "expire", Now: next})
		require.NoError(t, err)
		require.Len(t, got, 1)
		assert.Equal(t, next, got[0].At)

		ok, err := s.ClaimDue(ctx, got[0], time.Time{})
		require.NoError(t, err)
		assert.True(t, ok, "a zero next deletes it")
		got, err = s.DueWork(ctx, storage.DueQuery{Kind: "expire", Now: next})
		require.NoError(t, err)
		assert.Empty(t, got)
		ok, err = s.ClaimDue(ctx, d, next)
		require.NoError(t, err)
		assert.False(t, ok, "gone")
	})
}

// A claimed reminder stores the game's next one in the same transaction;
// a lost claim stores nothing.
func TestClaimReminderSchedulesTheNext(t *testing.T) {
	eachBackend(t, func(t *testing.T, b backend) {
		ctx := context.Background()
		s, clock := openClocked(t, b)
		g := newActive(t, s, guildOfShard(5), "c")
		next := storage.Due{Kind: "remind", At: clock.t.Add(24 * time.Hour)}
		ok, err := s.ClaimReminder(ctx, g.ID, time.Time{}, clock.t, next)
		require.NoError(t, err)
		require.True(t, ok)
		assert.Equal(t, []storage.Due{{Kind: "remind", GameID: g.ID, ShardKey: 5, At: next.At}}, schedule(t, s, g.ID))
		ok, err = s.ClaimReminder(ctx, g.ID, time.Time{}, clock.t, storage.Due{Kind: "remind", At: clock.t.Add(time.Minute)})
		require.NoError(t, err)
		assert.False(t, ok)
		assert.Equal(t, next.At, schedule(t, s, g.ID)[0].At, "unchanged by the lost claim")
	})
}

// Publication retries read the shard's games with undelivered entries
// only.
func TestPendingGamesByShard(t *testing.T) {
	eachBackend(t, func(t *testing.T, b backend) {
		ctx := context.Background()
		s := openStore(t, b.newDB(t))
		var mine []int64
		for i := range 6 {
			g := newActive(t, s, guildOfShard(int64(i%3)), fmt.Sprint("c", i))
			require.NoError(t, s.Enqueue(ctx, storage.OutboxEntry{GameID: g.ID, Kind: "board"}, storage.OutboxEntry{GameID: g.ID, Kind: "dm"}))
			if i%3 == 1 {
				mine = append(mine, g.ID)
			}
		}
		delivered := newActive(t, s, guildOfShard(1), "done")
		require.NoError(t, s.Enqueue(ctx, storage.OutboxEntry{GameID: delivered.ID, Kind: "board"}))
		pending, err := s.PendingOutbox(ctx, delivered.ID)
		require.NoError(t, err)
		require.NoError(t, s.UpdateOutbox(ctx, pending[0].ID, nil, true))

		got, err := s.PendingGames(ctx, storage.ShardFilter{Shard: 1, Shards: 3}, 0, 0)
		require.NoError(t, err)
		assert.Equal(t, mine, got)
		got, err = s.PendingGames(ctx, storage.ShardFilter{Shard: 1, Shards: 3}, mine[0], 1)
		require.NoError(t, err)
		assert.Equal(t, mine[1:], got, "after a game, limited")
		all, err := s.PendingGames(ctx, storage.ShardFilter{}, 0, 0)
		require.NoError(t, err)
		assert.Len(t, all, 6)
	})
}

// A pass with nothing due is one probe of the schedule's index: SQLite's
// plan for DueWork reads the covering index, never the games.
func TestDueWorkIsAnIndexRange(t *testing.T) {
	s := openSQLite(t, dbPath(t))
	for _, q := range []storage.DueQuery{
		{Kind: "remind", Now: time.Now()},
		{Kind: "remind", Now: time.Now(), Shard: storage.ShardFilter{Shard: 1, Shards: 4}, After: &storage.Due{Kind: "remind", GameID: 3, At: time.Now()}},
	} {
		plan, err := storage.ExplainDueWork(s, q)
		require.NoError(t, err)
		assert.Contains(t, plan, "USING COVERING INDEX schedule_due", plan)
		assert.NotContains(t, plan, "SCAN", plan)
	}
	plan, err := storage.ExplainPendingGames(s, storage.ShardFilter{Shard: 1, Shards: 2})
	require.NoError(t, err)
	assert.Contains(t, plan, "outbox_pending", plan)
	assert.NotContains(t, plan, "SCAN o", plan)
	plan, err = storage.ExplainActiveGameIDs(s, storage.ShardFilter{Shard: 1, Shards: 2})
	require.NoError(t, err)
	assert.Contains(t, plan, "INTEGER PRIMARY KEY", plan)
	assert.NotContains(t, plan, "SCAN", plan)
}

// The sweep's listing: ids only, in order, in batches, this shard's
// active games only (the filter in SQL).
func TestActiveGameIDsByShard(t *testing.T) {
	eachBackend(t, func(t *testing.T, b backend) {
		ctx := context.Background()
		s := openStore(t, b.newDB(t))
		var mine []int64
		for i := range 6 {
			g := newActive(t, s, guildOfShard(int64(i%3)), fmt.Sprint("c", i))
			if i%3 == 1 {
				mine = append(mine, g.ID)
			}
		}
		ended := newActive(t, s, guildOfShard(1), "ended")
		_, err := s.Abandon(ctx, ended.ID)
		require.NoError(t, err)
		got, err := s.ActiveGameIDs(ctx, storage.ShardFilter{Shard: 1, Shards: 3}, 0, 0)
		require.NoError(t, err)
		assert.Equal(t, mine, got)
		got, err = s.ActiveGameIDs(ctx, storage.ShardFilter{Shard: 1, Shards: 3}, mine[0], 1)
		require.NoError(t, err)
		assert.Equal(t, mine[1:], got)
		all, err := s.ActiveGameIDs(ctx, storage.ShardFilter{}, 0, 0)
		require.NoError(t, err)
		assert.Len(t, all, 6)
	})
}

// migrateTo builds a database at schema version v (applying the embedded
// migrations 1..v by hand, as an older rfop left it) and returns a raw
// handle on it.
func migrateTo(t *testing.T, b backend, where string, v int) rawSQL {
	t.Helper()
	dir := "migrations"
	if b.postgres() {
		dir = "migrations/postgres"
	}
	files, err := filepath.Glob(filepath.Join(dir, "*.sql"))
	require.NoError(t, err)
	sort.Strings(files)
	raw := rawDB(t, where)
	if b.postgres() {
		_, err := raw.Exec(`CREATE TABLE schema_version (version integer PRIMARY KEY, name text NOT NULL, applied_at text NOT NULL)`)
		require.NoError(t, err)
	}
	for i, f := range files[:v] {
		sqlText, err := os.ReadFile(f)
		require.NoError(t, err)
		_, err = raw.Exec(string(sqlText))
		require.NoError(t, err, f)
		if b.postgres() {
			_, err = raw.Exec(`INSERT INTO schema_version (version, name, applied_at) VALUES (?, ?, '')`, i+1, filepath.Base(f))
			require.NoError(t, err)
		}
	}
	if !b.postgres() {
		_, err = raw.Exec(fmt.Sprintf(`PRAGMA user_version = %d`, v))
		require.NoError(t, err)
	}
	return raw
}

// Migration 7 gives the games stored before it their due work, as the
// bot computes it: challenges expire a day after they were issued,
// active games are reminded their server's interval after their last
// move or reminder (never with interval 0), games against the bot or not
// yet moved are looked at once at the next start; and asks for the
// results back-fill once.
func TestMigrationSchedulesStoredGames(t *testing.T) {
	eachBackend(t, func(t *testing.T, b backend) {
		ctx := context.Background()
		where := b.newDB(t)
		raw := migrateTo(t, b, where, 6)
		const (
			t0 = "2026-01-02T03:04:05.678Z"
			t1 = "2026-01-03T10:00:00.000Z"
		)
		g1, g2 := guildOfShard(2), guildOfShard(3)
		exec := func(q string, args ...any) {
			t.Helper()
			_, err := raw.Exec(q, args...)
			require.NoError(t, err, q)
		}
		game := func(id int64, guild, status, mode, botSide string, version int, reminded string) {
			state := `{"v":1}`
			if status == "waiting" {
				state = ""
			}
			exec(`INSERT INTO games (id, guild_id, channel_id, status, mode, bot_side, seed, state, state_version,
				created_at, updated_at, last_action_at, reminded_at) VALUES (?, ?, ?, ?, ?, ?, 1, ?, ?, ?, ?, ?, ?)`,
				id, guild, fmt.Sprint("c", id), status, mode, botSide, state, version, t0, t0, t0, reminded)
		}
		game(1, g1, "waiting", "two-player", "", 0, "")
		game(2, g1, "active", "two-player", "", 5, "")
		game(3, g2, "active", "two-player", "", 5, t1) // reminded after its last move
		game(4, "", "active", "solo", "commune", 5, "")
		game(5, "guild-of-old-tests", "active", "two-player", "", 0, "")
		game(6, g1, "finished", "two-player", "", 9, "")
		game(7, "quiet", "active", "two-player", "", 3, "")
		exec(`INSERT INTO players (game_id, side, user_id, is_bot) VALUES (4, 'versailles', 'u', 0), (4, 'commune', '', 1)`)
		exec(`INSERT INTO guild_settings (guild_id, reminder_interval_seconds, updated_at) VALUES (?, 3600, ?), ('quiet', 0, ?)`, g2, t0, t0)
		require.NoError(t, raw.Close())

		s := openStore(t, where)
		day := 24 * time.Hour
		at := func(v string, d time.Duration) time.Time {
			tm, err := time.Parse("2006-01-02T15:04:05.000Z", v)
			require.NoError(t, err)
			return tm.Add(d)
		}
		assert.Equal(t, []storage.Due{{Kind: "expire", GameID: 1, ShardKey: 2, At: at(t0, day)}}, schedule(t, s, 1))
		assert.Equal(t, []storage.Due{{Kind: "remind", GameID: 2, ShardKey: 2, At: at(t0, day)}}, schedule(t, s, 2))
		assert.Equal(t, []storage.Due{{Kind: "remind", GameID: 3, ShardKey: 3, At: at(t1, time.Hour)}}, schedule(t, s, 3),
			"the server's interval, after the last reminder")
		assert.Equal(t, []storage.Due{
			{Kind: "remind", GameID: 4, At: at(t0, day)},
			{Kind: "resume", GameID: 4, At: at(t0, 0)},
		}, schedule(t, s, 4), "a solo game in DMs: shard 0's, looked at once")
		assert.Equal(t, []storage.Due{
			{Kind: "remind", GameID: 5, At: at(t0, day)},
			{Kind: "resume", GameID: 5, At: at(t0, 0)},
		}, schedule(t, s, 5), "not yet moved: its start may be unpublished")
		assert.Empty(t, schedule(t, s, 6), "finished")
		assert.Empty(t, schedule(t, s, 7), "reminders off")

		jobs, err := s.Maintenance(ctx)
		require.NoError(t, err)
		assert.Equal(t, []string{"backfill-results"}, jobs)
		require.NoError(t, s.MaintenanceDone(ctx, "backfill-results"))
		jobs, err = s.Maintenance(ctx)
		require.NoError(t, err)
		assert.Empty(t, jobs)

		var key int64
		raw = rawDB(t, where)
		require.NoError(t, raw.QueryRow(`SELECT shard_key FROM games WHERE id = 3`).Scan(&key))
		assert.Equal(t, int64(3), key)
		require.NoError(t, raw.QueryRow(`SELECT shard_key FROM games WHERE id = 5`).Scan(&key))
		assert.Zero(t, key, "a guild id that is not a snowflake is shard 0's")
	})
}
