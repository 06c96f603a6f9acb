package storage_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/rfop/rfop/storage"
)

// generatedDB makes a database of the backend with n finished games in one
// guild between 40 players (a tenth of them solo), each with its result,
// written with plain SQL in one transaction, then rates them through the
// store.
func generatedDB(b *testing.B, bk backend, n int) storage.Store {
	b.Helper()
	path := bk.newDB(b)
	s := openStore(b, path)
	db := rawDB(b, path)
	tx, err := db.Begin()
	require.NoError(b, err)
	r := rand.New(rand.NewPCG(1, 2))
	t0 := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	stamp := func(t time.Time) string { return t.Format("2006-01-02T15:04:05.000Z") }
	for k := 1; k <= n; k++ {
		v, c := fmt.Sprintf("u%d", r.IntN(40)), fmt.Sprintf("u%d", r.IntN(40))
		mode, bot := "two-player", ""
		if c == v || k%10 == 0 {
			mode, bot, v = "solo", "versailles", ""
		}
		end := t0.Add(time.Duration(k) * time.Hour)
		_, err := tx.Exec(db.q(`INSERT INTO games (id, guild_id, channel_id, status, variant, mode, bot_side, seed, state,
			state_version, result, created_at, updated_at, last_action_at, ended_at)
			VALUES (?, 'guild', ?, 'finished', 'standard', ?, ?, 1, '{}', 0, '{}', ?, ?, ?, ?)`),
			k, fmt.Sprintf("ch%d", k%100), mode, bot, stamp(end.Add(-48*time.Hour)), stamp(end), stamp(end), stamp(end))
		require.NoError(b, err)
		winner := "versailles"
		if r.IntN(2) == 0 {
			winner = "commune"
		}
		rated := 0
		if mode == "two-player" {
			rated = 1
		}
		_, err = tx.Exec(db.q(`INSERT INTO results (game_id, guild_id, channel_id, mode, variant, versailles_id, commune_id, winner, reason,
			vp_political, vp_military, plays, moves, rated, started_at, ended_at)
			VALUES (?, 'guild', ?, ?, 'standard', ?, ?, ?, 'victory', 1, 2, 35, 110, ?, ?, ?)`),
			k, fmt.Sprintf("ch%d", k%100), mode, v, c, winner, rated, stamp(end.Add(-48*time.Hour)), stamp(end))
		require.NoError(b, err)
	}
	require.NoError(b, tx.Commit())
	if bk.postgres() {
		// Fresh statistics, as autovacuum keeps them on a live server.
		_, err := db.Exec(`ANALYZE`)
		require.NoError(b, err)
	}
	require.NoError(b, s.RebuildRatings(context.Background(), winsRate))
	return s
}

// BenchmarkHistory10000: /rfop history's query (the 15 newest) with
// 10,000 finished games stored.
func BenchmarkHistory10000(b *testing.B) {
	eachBackendB(b, func(b *testing.B, bk backend) {
		s := generatedDB(b, bk, 10000)
		ctx := context.Background()
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			h, err := s.History(ctx, "guild", "", 15)
			if err != nil || len(h) != 15 {
				b.Fatal(err, len(h))
			}
			if _, err := s.History(ctx, "guild", "u7", 15); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkStats10000: /rfop stats' queries (server totals, every
// player's record, the top 10 with at least 3 rated games) with 10,000
// finished games stored.
func BenchmarkStats10000(b *testing.B) {
	eachBackendB(b, func(b *testing.B, bk backend) {
		s := generatedDB(b, bk, 10000)
		ctx := context.Background()
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			st, err := s.Stats(ctx, "guild", "", nil)
			if err != nil || st.Games != 10000 {
				b.Fatal(err, st.Games)
			}
			top, err := s.Leaderboard(ctx, "guild", 3, 10)
			if err != nil || len(top) != 10 {
				b.Fatal(err, len(top))
			}
		}
	})
}
