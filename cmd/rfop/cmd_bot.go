package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/pprof"
	"os"
	"os/signal"
	"runtime/debug"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/rfop/rfop/bot"
	"github.com/rfop/rfop/engine"
	"github.com/rfop/rfop/storage"
)

// Optional collaborators, set by files that wire the renderer and the solo
// opponent in (kept separate so the bot builds without them).
var (
	botPictures func() (bot.Pictures, error)
	botSolo     func() bot.SoloPolicy
	botAI       func() bot.AIOpponent
	botAnalyst  func() bot.Analyst
)

func init() {
	register(&command{name: "bot", summary: "run the Discord bot (the default; needs DISCORD_TOKEN)", run: runBot})
}

func env(key, def string) string {
	if v := os.Getenv(key); v != "" {
		return v
	}
	return def
}

// noTokenMessage is the two lines printed when DISCORD_TOKEN is missing:
// what is missing and where to get it, then how to play without Discord.
// self is how rfop was invoked ("go run ./cmd/rfop" or "rfop").
func noTokenMessage(self string) string {
	return "rfop: DISCORD_TOKEN is not set (the bot's token: discord.com/developers/applications).\n" +
		"No Discord? Play in this terminal: " + self + " play [--solo --side versailles | --ai --side commune]\n"
}

// envInt is env for an integer setting; a malformed value is kept as -1,
// which the caller refuses.
func envInt(key string, def int) int {
	v := os.Getenv(key)
	if v == "" {
		return def
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		return -1
	}
	return n
}

// envDuration is env for a duration setting; a malformed value is kept
// as 0, which the caller refuses.
func envDuration(key string, def time.Duration) time.Duration {
	v := os.Getenv(key)
	if v == "" {
		return def
	}
	d, err := time.ParseDuration(v)
	if err != nil {
		return 0
	}
	return d
}

func runBot(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("bot", flag.ContinueOnError)
	fs.SetOutput(stderr)
	db := fs.String("db", env("RFOP_DB", storage.DefaultPath), "SQLite database file, or a postgres:// URL (env RFOP_DB)")
	// -h shows the default from RFOP_DB: never a password.
	fs.Lookup("db").DefValue = storage.Redact(*db)
	guild := fs.String("test-guild", env("RFOP_TEST_GUILD", ""), "register commands in this guild only, instantly (env RFOP_TEST_GUILD)")
	apiBase := fs.String("api-base", env("DISCORD_API_BASE", ""), "Discord REST base URL, e.g. a rate-limit proxy (env DISCORD_API_BASE)")
	deck := fs.String("deck", env("RFOP_DECK", ""), "deck file replacing the provisional card effects (env RFOP_DECK)")
	level := fs.String("log-level", env("RFOP_LOG_LEVEL", "info"), "debug, info, warn or error (env RFOP_LOG_LEVEL)")
	shardID := fs.Int("shard-id", envInt("RFOP_SHARD_ID", 0), "this process's gateway shard, 0 to shard-count-1 (env RFOP_SHARD_ID)")
	shardCount := fs.Int("shard-count", envInt("RFOP_SHARD_COUNT", 1), "gateway shards, one bot process each, sharing the database (env RFOP_SHARD_COUNT)")
	remindEvery := fs.Duration("reminder-every", envDuration("RFOP_REMINDER_EVERY", time.Minute), "how often reminders are checked (env RFOP_REMINDER_EVERY)")
	verifyBudget := fs.Int("verify-budget", envInt("RFOP_VERIFY_BUDGET", int(bot.DefaultSweepBudget*100)), "percent of one core the background integrity check of stored games may use, 0 for none (env RFOP_VERIFY_BUDGET)")
	debugAddr := fs.String("debug-addr", env("RFOP_DEBUG_ADDR", ""), "serve Go's profiles (/debug/pprof/) on this address, e.g. 127.0.0.1:6060 (env RFOP_DEBUG_ADDR)")
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "Usage: rfop [bot] [flags]   (DISCORD_TOKEN must be set in the environment)")
		fs.PrintDefaults()
	}
	if code, done := parseFlags(fs, args, stdout, stderr); done {
		return code
	}
	token := os.Getenv("DISCORD_TOKEN")
	if token == "" {
		fmt.Fprint(stderr, noTokenMessage(self))
		return 2
	}
	if *shardCount < 1 || *shardID < 0 || *shardID >= *shardCount {
		fmt.Fprintf(stderr, "bad shard %d of %d: -shard-count must be at least 1 and -shard-id from 0 to shard-count-1\n", *shardID, *shardCount)
		return 2
	}
	if *remindEvery <= 0 {
		fmt.Fprintf(stderr, "bad -reminder-every %v: it must be positive\n", *remindEvery)
		return 2
	}
	if *verifyBudget < 0 || *verifyBudget > 100 {
		fmt.Fprintf(stderr, "bad -verify-budget %d: a percentage of one core, from 0 to 100\n", *verifyBudget)
		return 2
	}
	var lvl slog.Level
	if err := lvl.UnmarshalText([]byte(strings.ToLower(*level))); err != nil {
		fmt.Fprintf(stderr, "bad -log-level %s\n", engine.Quote(*level))
		return 2
	}
	log := slog.New(slog.NewJSONHandler(stdout, &slog.HandlerOptions{Level: lvl}))
	cfg := bot.Config{Token: token, DBPath: *db, TestGuildID: *guild, APIBase: *apiBase, DeckPath: *deck, Log: log,
		Shard: bot.Shard{ID: *shardID, Count: *shardCount}, ReminderEvery: *remindEvery,
		SweepBudget: float64(*verifyBudget) / 100}
	if botPictures != nil {
		p, err := botPictures()
		if err != nil {
			log.Error("renderer unavailable", "err", err)
			return 1
		}
		cfg.Pictures = p
	}
	if botSolo != nil {
		cfg.Solo = botSolo()
	}
	if botAI != nil {
		cfg.AI = botAI()
	}
	if botAnalyst != nil {
		cfg.Analyst = botAnalyst()
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	limit := softMemoryLimit(os.Getenv)
	if *debugAddr != "" {
		if err := serveProfiles(*debugAddr, log); err != nil {
			log.Error("debug address", "addr", *debugAddr, "err", err)
			return 1
		}
	}
	log.Info("starting", "db", storage.Redact(*db), "test_guild", *guild, "api_base", *apiBase, "memory_limit_mib", limit>>20,
		"shard", *shardID, "shards", *shardCount)
	if err := bot.Run(ctx, cfg); err != nil {
		log.Error("bot stopped", "err", err)
		return 1
	}
	log.Info("stopped cleanly")
	return 0
}

// defaultMemoryLimit is the Go runtime's soft memory limit when GOMEMLIMIT
// is not set. Without one the collector lets the heap grow to twice what
// is live, and the bot's long-lived part (the board art, card pictures and
// fonts of each language in use, about 60 MiB for one) counts in that; a
// burst of games (every game's first board and hand DMs at once) then
// doubled the peak. The limit makes the collector run earlier instead; it
// is soft, so a bot that needs more gets more (the runtime caps the
// collector's share of CPU rather than fail).
const defaultMemoryLimit = 200 << 20

// softMemoryLimit sets defaultMemoryLimit unless GOMEMLIMIT (read by the
// runtime itself, "off" included) chose a limit, and returns the limit in
// force.
func softMemoryLimit(getenv func(string) string) int64 {
	if getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(defaultMemoryLimit)
	}
	return debug.SetMemoryLimit(-1)
}

// serveProfiles serves the runtime's profiles (net/http/pprof: heap,
// goroutines, CPU...) on addr, for an operator who wants to see what the
// bot holds or spends (docs/scaling.md). Nothing else is served there;
// bind it to a private address.
func serveProfiles(addr string, log *slog.Logger) error {
	l, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/cmdline", pprof.Cmdline)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	log.Info("serving profiles", "addr", l.Addr().String())
	go func() {
		srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
		if err := srv.Serve(l); err != nil {
			log.Warn("profiles server stopped", "err", err)
		}
	}()
	return nil
}
