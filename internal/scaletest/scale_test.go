package scaletest

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	_ "github.com/jackc/pgx/v5/stdlib" // raw access to a PostgreSQL copy
	_ "github.com/mattn/go-sqlite3"    // raw access to a SQLite copy
	"github.com/rfop/rfop/bot"
	"github.com/rfop/rfop/internal/botproc"
	"github.com/rfop/rfop/internal/fakediscord"
	"github.com/rfop/rfop/internal/testctx"
	"github.com/rfop/rfop/storage"
	"github.com/stretchr/testify/require"
)

// scaleDB is the database rfop loadgen filled (RFOP_SCALE_DB), or the
// benchmark is skipped.
func scaleDB(b *testing.B) string {
	db := os.Getenv("RFOP_SCALE_DB")
	if db == "" {
		b.Skip("RFOP_SCALE_DB names no database made by rfop loadgen")
	}
	return db
}

func isPostgres(db string) bool {
	return strings.HasPrefix(db, "postgres://") || strings.HasPrefix(db, "postgresql://")
}

// copyDB returns a copy of a SQLite database (with its write-ahead log),
// or a PostgreSQL URL as it is.
func copyDB(b *testing.B, db string) string {
	b.Helper()
	if isPostgres(db) {
		return db
	}
	dst := filepath.Join(b.TempDir(), "scale.db")
	for _, suffix := range []string{"", "-wal"} {
		in, err := os.Open(db + suffix)
		if os.IsNotExist(err) && suffix != "" {
			continue
		}
		require.NoError(b, err)
		out, err := os.Create(dst + suffix)
		require.NoError(b, err)
		_, err = io.Copy(out, in)
		require.NoError(b, err)
		require.NoError(b, out.Close())
		_ = in.Close()
	}
	return dst
}

// binary is RFOP_SCALE_BIN, or rfop built from this tree.
func binary(b *testing.B) string {
	b.Helper()
	if bin := os.Getenv("RFOP_SCALE_BIN"); bin != "" {
		return bin
	}
	return botproc.BuildFor(b)
}

func envDuration(b *testing.B, key string, def time.Duration) time.Duration {
	v := os.Getenv(key)
	if v == "" {
		return def
	}
	d, err := time.ParseDuration(v)
	require.NoError(b, err, key)
	return d
}

// procStatus reads a size field of /proc/PID/status ("VmHWM:"), in kB.
func procStatus(b *testing.B, pid int, field string) float64 {
	v, err := botproc.Status(pid, field)
	require.NoError(b, err)
	return float64(v >> 10)
}

// cpuTime is a process's user and system CPU time so far.
func cpuTime(b *testing.B, pid int) time.Duration {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	require.NoError(b, err)
	// The fields after the command name (in parentheses, may hold spaces).
	f := strings.Fields(string(data[bytes.LastIndexByte(data, ')')+2:]))
	utime, err := strconv.ParseInt(f[11], 10, 64)
	require.NoError(b, err)
	stime, err := strconv.ParseInt(f[12], 10, 64)
	require.NoError(b, err)
	const hz = 100 // USER_HZ on Linux
	return time.Duration(utime+stime) * time.Second / hz
}

// BenchmarkStartToReady: the rfop binary's start on the database, to its
// "ready" line; its peak memory; its CPU while idle.
func BenchmarkStartToReady(b *testing.B) {
	src := scaleDB(b)
	bin := binary(b)
	idle := envDuration(b, "RFOP_SCALE_IDLE", 30*time.Second)
	// The idle window opens a while after ready, once the start's
	// background work is done (an older build, RFOP_SCALE_BIN, still
	// prepares its card palettes after ready: a fixed cost, whatever the
	// games).
	settle := envDuration(b, "RFOP_SCALE_SETTLE", 15*time.Second)
	budget := os.Getenv("RFOP_VERIFY_BUDGET")
	if budget == "" {
		budget = "0"
	}
	for range b.N {
		b.StopTimer()
		db := copyDB(b, src)
		srv := fakediscord.New(b, fakediscord.WithoutFileData(), fakediscord.WithAPIVersion(10))
		env := append(os.Environ(), "DISCORD_TOKEN=test-token", "DISCORD_API_BASE="+srv.URL(), "RFOP_DB="+db,
			"RFOP_REMINDER_EVERY=1s", "RFOP_LOG_LEVEL=info", "RFOP_TEST_GUILD=", "RFOP_DECK=", "RFOP_SHARD_COUNT=", "RFOP_SHARD_ID=",
			"RFOP_VERIFY_BUDGET="+budget)
		b.StartTimer()
		start := time.Now()
		// Waits for the "ready" line, bounded by go test's -timeout.
		p := botproc.Start(b, testctx.Context(b), "rfop", bin, env, filepath.Join(b.TempDir(), "rfop.log"))
		took := time.Since(start)
		b.StopTimer()
		hwmReady := procStatus(b, p.Pid(), "VmHWM:")
		// Measurement windows, not waits for an event: the idle CPU is
		// the CPU used over a stretch of time.
		time.Sleep(settle)
		cpu0 := cpuTime(b, p.Pid())
		time.Sleep(idle)
		cpu1 := cpuTime(b, p.Pid())
		hwm, rss := procStatus(b, p.Pid(), "VmHWM:"), procStatus(b, p.Pid(), "VmRSS:")
		p.Stop(testctx.Detached(b))
		srv.Close()
		b.ReportMetric(took.Seconds(), "ready_s")
		b.ReportMetric(hwmReady/1024, "peak_rss_at_ready_MiB")
		b.ReportMetric(hwm/1024, "peak_rss_MiB")
		b.ReportMetric(rss/1024, "idle_rss_MiB")
		b.ReportMetric(float64(cpu1-cpu0)/float64(time.Millisecond)/idle.Seconds(), "idle_cpu_ms/s")
	}
}

// inProcess is a bot on a copy of the database, talking to a fake
// Discord that knows the servers and channels of games (none if nil).
func inProcess(b *testing.B, db string, games []storage.Game) (*bot.Bot, storage.Store, *fakediscord.Server) {
	b.Helper()
	ctx := context.Background()
	store, err := storage.OpenURL(ctx, db)
	require.NoError(b, err)
	b.Cleanup(func() { _ = store.Close() })
	byGuild := map[string][]fakediscord.Channel{}
	for _, g := range games {
		byGuild[g.GuildID] = append(byGuild[g.GuildID], fakediscord.Channel{ID: g.ChannelID, Name: "game"})
	}
	opts := []fakediscord.Option{fakediscord.WithoutFileData(), fakediscord.WithAPIVersion(10)}
	for id, chans := range byGuild {
		opts = append(opts, fakediscord.WithGuild(fakediscord.Guild{ID: id, Name: "server", Channels: chans}))
	}
	srv := fakediscord.New(b, opts...)
	dg, err := discordgo.New("Bot test-token")
	require.NoError(b, err)
	dg.Client = srv.HTTPClient()
	dg.LogLevel = discordgo.LogError
	bt := bot.New(bot.Deps{Session: dg, Store: store, Solo: bot.DefaultSolo(), AppID: srv.AppID(),
		Log: slog.New(slog.NewTextHandler(io.Discard, nil))})
	return bt, store, srv
}

// cpuNow is this process's CPU time (all its threads: the garbage
// collector's work counts).
func cpuNow() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkRemindPassIdle: a reminder pass with nothing due.
func BenchmarkRemindPassIdle(b *testing.B) {
	db := copyDB(b, scaleDB(b))
	bt, _, _ := inProcess(b, db, nil)
	ctx := context.Background()
	bt.Remind(ctx) // whatever was due (none in a loadgen database without --due)
	b.ReportAllocs()
	b.ResetTimer()
	cpu := cpuNow()
	for range b.N {
		bt.Remind(ctx)
	}
	b.ReportMetric(float64(cpuNow()-cpu)/float64(b.N), "cpu-ns/op")
}

// BenchmarkRemindPass1000Due: one pass that sends 1,000 reminders.
func BenchmarkRemindPass1000Due(b *testing.B) {
	const due = 1000
	src := scaleDB(b)
	ctx := context.Background()
	for range b.N {
		b.StopTimer()
		db := copyDB(b, src)
		games := makeDue(b, db, due)
		bt, store, _ := inProcess(b, db, games)
		b.StartTimer()
		cpu := cpuNow()
		start := time.Now()
		bt.Remind(ctx)
		took, used := time.Since(start), cpuNow()-cpu
		b.StopTimer()
		left, err := store.DueWork(ctx, storage.DueQuery{Kind: "remind", Now: time.Now()})
		require.NoError(b, err)
		require.Empty(b, left, "every due reminder was sent")
		sent := 0
		for _, g := range games {
			rec, err := store.GameByID(ctx, g.ID)
			require.NoError(b, err)
			if !rec.RemindedAt.IsZero() {
				sent++
			}
		}
		require.Equal(b, due, sent, "every due game was reminded")
		b.ReportMetric(took.Seconds(), "pass_s")
		b.ReportMetric(used.Seconds(), "pass_cpu_s")
	}
}

// makeDue makes the reminders of n active games due now in the copy db
// (their last move two days ago, never reminded), and returns them.
func makeDue(b *testing.B, db string, n int) []storage.Game {
	b.Helper()
	ctx := context.Background()
	driver, dsn := "sqlite3", db+"?_busy_timeout=5000"
	if isPostgres(db) {
		driver, dsn = "pgx", db
	}
	raw, err := sql.Open(driver, dsn)
	require.NoError(b, err)
	defer raw.Close()
	// Read raw, so that the benchmark also runs on older trees (to compare).
	rows, err := raw.Query(`SELECT id FROM games WHERE status = 'active' ORDER BY id LIMIT ` + strconv.Itoa(n))
	require.NoError(b, err)
	var ids []int64
	for rows.Next() {
		var id int64
		require.NoError(b, rows.Scan(&id))
		ids = append(ids, id)
	}
	require.NoError(b, rows.Err())
	require.Len(b, ids, n, "the database has %d active games", n)
	const layout = "2006-01-02T15:04:05.000Z"
	last := time.Now().UTC().Add(-48 * time.Hour).Format(layout)
	at := time.Now().UTC().Add(-24 * time.Hour).Format(layout)
	ph := "?"
	if isPostgres(db) {
		ph = "$"
	}
	arg := func(k int) string {
		if ph == "$" {
			return "$" + strconv.Itoa(k)
		}
		return "?"
	}
	tx, err := raw.Begin()
	require.NoError(b, err)
	for _, id := range ids {
		_, err := tx.Exec(`UPDATE games SET last_action_at = `+arg(1)+`, reminded_at = '' WHERE id = `+arg(2), last, id)
		require.NoError(b, err)
		_, err = tx.Exec(`UPDATE schedule SET due_at = `+arg(1)+` WHERE kind = 'remind' AND game_id = `+arg(2), at, id)
		require.NoError(b, err)
	}
	require.NoError(b, tx.Commit())
	store, err := storage.OpenURL(ctx, db)
	require.NoError(b, err)
	defer store.Close()
	games := make([]storage.Game, 0, n)
	for _, id := range ids {
		g, err := store.GameByID(ctx, id)
		require.NoError(b, err)
		games = append(games, g)
	}
	return games
}
