package bot

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/rfop/rfop/engine"
	"github.com/rfop/rfop/storage"
)

// Config is the bot's configuration (environment and flags; see cmd/rfop).
type Config struct {
	Token       string
	DBPath      string // a SQLite file, or a postgres:// URL (storage.OpenURL)
	TestGuildID string // register commands in this guild only (instant), else globally
	APIBase     string // DISCORD_API_BASE: REST base URL (rate-limit proxy, or a fake Discord)
	DeckPath    string // optional replacement deck file
	Log         *slog.Logger
	Pictures    Pictures
	Solo        SoloPolicy
	AI          AIOpponent
	Analyst     Analyst // post-game analysis (nil: none)
	// ReminderEvery is how often reminders are checked (default 1 minute).
	ReminderEvery time.Duration
	// Shard is the gateway shard this process opens and whose games'
	// background work it runs (shard.go); zero: the only process.
	Shard Shard
	// SweepBudget is the share of one core the background integrity
	// sweep of the stored games uses (integrity.go); 0: no sweep (each
	// game is still checked when first loaded).
	SweepBudget float64
	// Ready, if set, is called once the bot is connected and serving.
	Ready func()
}

// redeliverEvery: how often publications a Discord error left undelivered
// are tried again.
const redeliverEvery = 15 * time.Second

// NewSession builds the discordgo session, pointed at APIBase if set.
func NewSession(cfg Config) (*discordgo.Session, error) {
	s, err := discordgo.New("Bot " + strings.TrimPrefix(cfg.Token, "Bot "))
	if err != nil {
		return nil, fmt.Errorf("discord session: %w", err)
	}
	s.Identify.Intents = discordgo.IntentsGuilds | discordgo.IntentsDirectMessages
	if cfg.Shard.Count > 1 {
		if cfg.Shard.ID < 0 || cfg.Shard.ID >= cfg.Shard.Count {
			return nil, fmt.Errorf("shard %d of %d: the shard id must be from 0 to %d", cfg.Shard.ID, cfg.Shard.Count, cfg.Shard.Count-1)
		}
		s.ShardID, s.ShardCount = cfg.Shard.ID, cfg.Shard.Count
	}
	if cfg.APIBase != "" {
		u, err := url.Parse(cfg.APIBase)
		if err != nil || u.Host == "" {
			return nil, fmt.Errorf("DISCORD_API_BASE %s is not a URL", engine.Quote(cfg.APIBase))
		}
		s.Client = &http.Client{Transport: &RewriteTransport{Base: u, Next: restTransport()}, Timeout: 20 * time.Second}
	} else {
		s.Client = &http.Client{Transport: restTransport(), Timeout: 20 * time.Second}
	}
	return s, nil
}

// restTransport is the bot's HTTP transport to Discord: net/http's
// default, keeping up to restIdleConns idle connections to the API
// instead of 2. Each game's publisher calls Discord on its own, so under
// a burst hundreds of calls are in flight at once; with 2 kept, nearly
// every call dialled a connection and closed it after (measured: 6 % of
// the bot's CPU in a burst's first seconds went to dialling, while the
// render slot starved). Over HTTP/2 (Discord's API over TLS) calls share
// one connection anyway.
func restTransport() *http.Transport {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.MaxIdleConns = restIdleConns
	t.MaxIdleConnsPerHost = restIdleConns
	return t
}

// restIdleConns: about the calls a burst has in flight at once.
const restIdleConns = 256

// Run connects, serves until ctx ends, and shuts down gracefully, finishing
// in-flight moves.
func Run(ctx context.Context, cfg Config) error {
	log := cfg.Log
	if log == nil {
		log = slog.Default()
	}
	deck := engine.DefaultDeck()
	if cfg.DeckPath != "" {
		d, err := engine.LoadDeckFile(cfg.DeckPath)
		if err != nil {
			return err
		}
		deck = d
		log.Info("using deck file", "path", cfg.DeckPath, "deck", d.ID)
	}
	s, err := NewSession(cfg)
	if err != nil {
		return err
	}
	store, err := storage.OpenURL(ctx, cfg.DBPath)
	if err != nil {
		return err
	}
	defer store.Close()
	b := New(Deps{Session: s, Store: store, Pictures: cfg.Pictures, Solo: cfg.Solo, AI: cfg.AI, Analyst: cfg.Analyst, Deck: deck, Log: log, Directory: s.State,
		Shard: cfg.Shard})
	b.writable = func(channel string) bool { return channelWritable(s.Ratelimiter, channel) }
	s.AddHandler(b.OnInteraction)
	s.AddHandler(b.OnChannelDelete)
	s.AddHandler(b.OnGuildCreate)
	s.AddHandler(b.OnGuildUpdate)
	s.AddHandler(func(_ *discordgo.Session, r *discordgo.Ready) {
		log.Info("connected to Discord", "user", r.User.Username, "guilds", len(r.Guilds), "shard", cfg.Shard.ID, "shards", max(cfg.Shard.Count, 1))
	})
	if err := s.Open(); err != nil {
		return fmt.Errorf("connect to Discord: %w", err)
	}
	defer s.Close()
	if s.State != nil && s.State.User != nil {
		b.AppID = s.State.User.ID
	}
	if s.State != nil && s.State.Application != nil && s.State.Application.ID != "" {
		b.AppID = s.State.Application.ID
	}
	if cfg.Shard.ID == 0 { // one process registers the commands
		if err := b.RegisterCommands(cfg.TestGuildID); err != nil {
			return err
		}
	}
	jobs, err := b.CheckGames(ctx)
	if err != nil {
		return err
	}
	// Deliver what a previous run committed but did not publish.
	if err := b.Resume(ctx); err != nil {
		return err
	}
	log.Info("ready", "maintenance_jobs", jobs)
	if cfg.Ready != nil {
		cfg.Ready()
	}
	if cfg.SweepBudget > 0 {
		go b.Sweep(ctx, cfg.SweepBudget)
	}
	every := cfg.ReminderEvery
	if every <= 0 {
		every = time.Minute
	}
	t := time.NewTicker(every)
	defer t.Stop()
	retry := time.NewTicker(redeliverEvery)
	defer retry.Stop()
	for {
		select {
		case <-ctx.Done():
			log.Info("shutting down: finishing in-flight moves")
			sctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			err := b.Shutdown(sctx)
			cancel()
			return err
		case <-t.C:
			b.Remind(ctx)
		case <-retry.C:
			b.Redeliver(ctx)
			if n := pruneRateLimits(s.Ratelimiter); n > 0 {
				log.Debug("forgot the rate-limit buckets of answered interactions", "buckets", n)
			}
		}
	}
}
