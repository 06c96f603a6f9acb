package main

// rfop loadgen fills a database with realistic games, to measure the bot
// with as many games stored as a large deployment (docs/scaling.md):
// active two-player games of 20–60 random legal moves, finished games
// played to their end with their results (and the ratings rebuilt from
// them), spread over servers of both shards' keys, with their reminders
// scheduled as the bot schedules them and some of them due now. A few
// games of random play are made with the engine (templates, on every
// core) and each is stored many times over with its own server, channel,
// players and times: every stored game replays to its stored state, as
// the bot checks. Games are written through storage.Import, a batch per
// transaction.

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"runtime"
	"strconv"
	"sync"
	"time"

	"github.com/rfop/rfop/bot"
	"github.com/rfop/rfop/engine"
	"github.com/rfop/rfop/replay"
	"github.com/rfop/rfop/storage"
)

func init() {
	register(&command{
		name:    "loadgen",
		summary: "fill a database with many realistic active and finished games (--db, --games), to measure the bot at scale",
		run:     runLoadgen,
	})
}

// template is one game of random legal moves, stored many times over.
type template struct {
	seed   int64
	moves  []engine.Move
	choice [][]byte // each move's JSON, as the bot logs it
	state  []byte
	result []byte // finished: the engine's result, JSON
	res    *engine.Result
	plays  int
}

type loadgenConfig struct {
	active, finished, due int
	guilds, users         int
	templates             int
	batch                 int
	seed                  uint64
	now                   time.Time
}

func runLoadgen(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fl := flag.NewFlagSet("loadgen", flag.ContinueOnError)
	fl.SetOutput(stderr)
	dbPath := fl.String("db", "", "the database to fill: a SQLite file (created if missing) or a postgres:// URL")
	games := fl.Int("games", 1000, "active games to store")
	finished := fl.Int("finished", -1, "finished games to store (default: as many as --games)")
	due := fl.Int("due", 0, "active games whose reminder is due now (the others' come later)")
	guilds := fl.Int("guilds", 0, "servers the games are spread over (default: one per 20 active games)")
	users := fl.Int("users", 12, "members playing in each server")
	templates := fl.Int("templates", 64, "distinct games of random play, each stored many times over (per kind: active, finished)")
	batch := fl.Int("batch", 500, "games written per transaction")
	seed := fl.Uint64("seed", 1, "random seed")
	fl.Usage = func() {
		fmt.Fprintln(stderr, "Usage: rfop loadgen --db FILE|URL --games N [--finished M] [--due D]")
		fl.PrintDefaults()
	}
	if err := fl.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fl.NArg() > 0 || *dbPath == "" || *games < 0 || *due > *games || *templates < 1 || *batch < 1 || *users < 2 {
		fmt.Fprintln(stderr, "rfop loadgen: give --db, --games N >= 0, --due at most N, at least 1 template, a batch of at least 1 and 2 users")
		fl.Usage()
		return 2
	}
	cfg := loadgenConfig{active: *games, finished: *finished, due: *due, guilds: *guilds, users: *users,
		templates: *templates, batch: *batch, seed: *seed, now: time.Now().UTC()}
	if cfg.finished < 0 {
		cfg.finished = cfg.active
	}
	if cfg.guilds <= 0 {
		cfg.guilds = max(1, (cfg.active+cfg.finished)/40)
	}
	ctx := context.Background()
	store, err := storage.OpenURL(ctx, *dbPath)
	if err != nil {
		fmt.Fprintln(stderr, "rfop loadgen:", err)
		return 1
	}
	defer store.Close()
	start := time.Now()
	if err := loadgen(ctx, store, cfg, stdout); err != nil {
		fmt.Fprintln(stderr, "rfop loadgen:", err)
		return 1
	}
	fmt.Fprintf(stdout, "stored %d active games (%d reminders due) and %d finished games in %s\n",
		cfg.active, cfg.due, cfg.finished, time.Since(start).Round(time.Millisecond))
	return 0
}

func loadgen(ctx context.Context, store storage.Store, cfg loadgenConfig, out io.Writer) error {
	t0 := time.Now()
	act, fin := makeTemplates(cfg, false), makeTemplates(cfg, true)
	for _, ts := range [][]*template{act, fin} {
		for _, t := range ts {
			if t.state == nil {
				return fmt.Errorf("a game of random play failed (seed %d)", t.seed)
			}
		}
	}
	fmt.Fprintf(out, "%d games of random play made in %s\n", len(act)+len(fin), time.Since(t0).Round(time.Millisecond))
	r := rand.New(rand.NewPCG(cfg.seed, 99))
	total := cfg.active + cfg.finished
	batch := make([]storage.ImportGame, 0, cfg.batch)
	written := 0
	flush := func() error {
		if len(batch) == 0 {
			return nil
		}
		if _, err := storage.Import(ctx, store, batch); err != nil {
			return err
		}
		written += len(batch)
		batch = batch[:0]
		if written%(cfg.batch*20) == 0 || written == total {
			fmt.Fprintf(out, "%d/%d games stored (%s)\n", written, total, time.Since(t0).Round(time.Second))
		}
		return nil
	}
	// Active and finished games interleaved, as they accumulate.
	na, nf := 0, 0
	for k := 0; k < total; k++ {
		var ig storage.ImportGame
		if nf < cfg.finished && (na >= cfg.active || k%2 == 1) {
			ig = cfg.finishedGame(r, k, fin[r.IntN(len(fin))])
			nf++
		} else {
			ig = cfg.activeGame(r, k, act[r.IntN(len(act))], na < cfg.due)
			na++
		}
		batch = append(batch, ig)
		if len(batch) == cfg.batch {
			if err := flush(); err != nil {
				return err
			}
		}
	}
	if err := flush(); err != nil {
		return err
	}
	// Every finished game has its result: the migration's request to
	// record the missing ones (a deployment that has run since has done
	// it) is done.
	if err := store.MaintenanceDone(ctx, storage.JobBackfillResults); err != nil {
		return err
	}
	if cfg.finished > 0 {
		t1 := time.Now()
		if err := store.RebuildRatings(ctx, bot.Rater().Rate); err != nil {
			return err
		}
		fmt.Fprintf(out, "ratings rebuilt in %s\n", time.Since(t1).Round(time.Millisecond))
	}
	return nil
}

// makeTemplates plays cfg.templates games of random legal moves on every
// core: 20–60 moves into a game, or to its end.
func makeTemplates(cfg loadgenConfig, finished bool) []*template {
	n := cfg.templates
	if finished && cfg.finished == 0 || !finished && cfg.active == 0 {
		n = 0
	}
	out := make([]*template, n)
	var wg sync.WaitGroup
	work := make(chan int)
	for range runtime.NumCPU() {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				out[i] = loadgenGame(int64(cfg.seed)*1000+int64(i)+boolInt(finished)*500, finished)
			}
		}()
	}
	for i := range n {
		work <- i
	}
	close(work)
	wg.Wait()
	return out
}

func boolInt(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// loadgenOptions are a stored two-player game's options, as the bot
// replays it (no bot side).
func loadgenOptions(seed int64) engine.Options {
	return engine.Options{Variant: engine.Standard, Seed: seed, Deck: engine.DefaultDeck(), BotSide: engine.NoSide}
}

// loadgenGame plays a game of random legal moves from seed: to its end,
// or 20–60 moves into it (a game that ends sooner is played again from
// the next seed). nil state if the engine refused a legal move.
func loadgenGame(seed int64, finished bool) *template {
	for try := int64(0); ; try++ {
		s := seed*7919 + try
		r := rand.New(rand.NewPCG(uint64(s), 7))
		g, err := engine.New(loadgenOptions(s))
		if err != nil {
			return &template{seed: s}
		}
		want := 20 + r.IntN(41)
		t := &template{seed: s}
		for g.S.Result == nil && (finished || len(t.moves) < want) && len(t.moves) < 20000 {
			ps := g.Prompts()
			if len(ps) == 0 {
				break
			}
			p := ps[r.IntN(len(ps))]
			m := engine.Move{Side: p.Side, Choice: p.Choices[r.IntN(len(p.Choices))]}
			if err := g.Apply(m.Side, m.Choice); err != nil {
				return &template{seed: s}
			}
			t.moves = append(t.moves, m)
		}
		if finished != (g.S.Result != nil) {
			continue
		}
		for _, m := range t.moves {
			b, err := json.Marshal(m)
			if err != nil {
				return &template{seed: s}
			}
			t.choice = append(t.choice, b)
		}
		if t.state, err = g.Save(); err != nil {
			t.state = nil
			return t
		}
		if finished {
			t.res = g.S.Result
			if t.result, err = json.Marshal(g.S.Result); err != nil {
				t.state = nil
				return t
			}
			sum, err := replay.Count(loadgenOptions(s), t.moves)
			if err != nil {
				t.state = nil
				return t
			}
			t.plays = sum.Plays
		}
		return t
	}
}

// snowflake ids for servers (their shard keys, id >> 22, differ),
// members and channels.
func guildSnowflake(n int) string { return strconv.FormatInt(int64(4000+n)<<22|11, 10) }
func userSnowflake(guild, n int) string {
	return strconv.FormatInt(int64(900000+guild*100+n)<<22|13, 10)
}
func channelSnowflake(k int) string { return strconv.FormatInt(int64(50_000_000+k)<<22|17, 10) }

// game is the part of a stored copy common to both kinds.
func (cfg loadgenConfig) game(r *rand.Rand, k int, t *template, status storage.Status, created, last time.Time) storage.ImportGame {
	gi := r.IntN(cfg.guilds)
	a := r.IntN(cfg.users)
	b := (a + 1 + r.IntN(cfg.users-1)) % cfg.users
	v, c := userSnowflake(gi, a), userSnowflake(gi, b)
	rec := storage.Game{GuildID: guildSnowflake(gi), ChannelID: channelSnowflake(k), Status: status, Variant: string(engine.Standard),
		Mode: storage.ModeTwoPlayer, Seed: t.seed, State: t.state, StateVersion: int64(len(t.moves)), CreatedBy: v, InviteeID: c,
		Players:   []storage.Player{{Side: storage.SideCommune, UserID: c}, {Side: storage.SideVersailles, UserID: v}},
		CreatedAt: created, UpdatedAt: last, LastActionAt: last}
	acts := make([]storage.Action, len(t.moves))
	step := last.Sub(created) / time.Duration(max(1, len(t.moves)))
	for i, m := range t.moves {
		side, user := storage.SideVersailles, v
		if m.Side == engine.Commune {
			side, user = storage.SideCommune, c
		}
		acts[i] = storage.Action{Seq: int64(i + 1), Side: side, UserID: user, Choice: t.choice[i], CreatedAt: created.Add(step * time.Duration(i+1))}
	}
	return storage.ImportGame{Game: rec, Actions: acts}
}

// activeGame is an active copy of t, idle since its last move (up to a
// month), reminded as the bot does (a day after the last move, then
// daily): due, its reminder is due now; else not for at least four hours.
func (cfg loadgenConfig) activeGame(r *rand.Rand, k int, t *template, due bool) storage.ImportGame {
	day := 24 * time.Hour
	var last time.Time
	if due {
		last = cfg.now.Add(-day - time.Duration(r.Int64N(int64(9*day))))
	} else {
		last = cfg.now.Add(-time.Hour - time.Duration(r.Int64N(int64(29*day))))
	}
	created := last.Add(-time.Duration(r.Int64N(int64(3 * day))))
	ig := cfg.game(r, k, t, storage.StatusActive, created, last)
	next := last.Add(day)
	if !due && next.Before(cfg.now.Add(4*time.Hour)) {
		// Reminded since, less than 20 hours ago: not due for hours (a
		// measurement soon after does not meet reminders falling due).
		ig.Game.RemindedAt = cfg.now.Add(-time.Duration(r.Int64N(int64(20 * time.Hour))))
		if ig.Game.RemindedAt.Before(last) {
			ig.Game.RemindedAt = last
		}
		next = ig.Game.RemindedAt.Add(day)
	}
	ig.Due = []storage.Due{{Kind: "remind", At: next}}
	return ig
}

// finishedGame is a finished copy of t with its result.
func (cfg loadgenConfig) finishedGame(r *rand.Rand, k int, t *template) storage.ImportGame {
	day := 24 * time.Hour
	ended := cfg.now.Add(-time.Duration(r.Int64N(int64(365 * day))))
	created := ended.Add(-time.Hour - time.Duration(r.Int64N(int64(6*day))))
	ig := cfg.game(r, k, t, storage.StatusFinished, created, ended)
	ig.Game.Result, ig.Game.EndedAt = t.result, ended
	v, _ := ig.Game.Player(storage.SideVersailles)
	c, _ := ig.Game.Player(storage.SideCommune)
	winner := storage.SideVersailles
	if t.res.Winner == engine.Commune {
		winner = storage.SideCommune
	}
	ig.Result = &storage.GameResult{GuildID: ig.Game.GuildID, ChannelID: ig.Game.ChannelID, Mode: storage.ModeTwoPlayer,
		Variant: ig.Game.Variant, Versailles: v.UserID, Commune: c.UserID, Winner: winner, Reason: t.res.Reason,
		VP: [2]int{int(t.res.VP[0]), int(t.res.VP[1])}, Tiebreak: t.res.Tiebreak, Plays: t.plays, Moves: len(t.moves),
		Rated: true, StartedAt: created, EndedAt: ended}
	return ig
}
