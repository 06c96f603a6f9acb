package loadtest_test

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	_ "github.com/mattn/go-sqlite3" // reads the bot's database after the run
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rfop/rfop/internal/botproc"
	"github.com/rfop/rfop/internal/fakediscord"
	"github.com/rfop/rfop/internal/testctx"
)

const (
	guildID = "500"
	admin   = "400"
	// stallAfter: a game whose players made no move for this long is
	// counted as stalled (they had nothing new to act on).
	stallAfter = time.Minute
)

func envInt(t *testing.T, name string, def int) int {
	t.Helper()
	v := os.Getenv(name)
	if v == "" {
		return def
	}
	n, err := strconv.Atoi(v)
	require.NoError(t, err, "%s", name)
	return n
}

// TestBurst: see the package comment.
func TestBurst(t *testing.T) {
	if os.Getenv("RFOP_LOADTEST") == "" {
		t.Skip("the burst load test runs for minutes: RFOP_LOADTEST=1 go test -run TestBurst -v -timeout 60m ./internal/loadtest/")
	}
	ctx := testctx.Context(t)
	nGames := envInt(t, "RFOP_LOADTEST_GAMES", 200)
	limit := int64(envInt(t, "RFOP_LOADTEST_MOVES", 60))
	bin := os.Getenv("RFOP_LOADTEST_BIN")
	if bin == "" {
		bin = botproc.BuildFor(t)
	}
	profiles := os.Getenv("RFOP_LOADTEST_PROFILES")

	guild := fakediscord.Guild{ID: guildID, Name: "burst", OwnerID: admin, Members: []fakediscord.Member{{UserID: admin,
		Permissions: discordgo.PermissionManageChannels | discordgo.PermissionSendMessages | discordgo.PermissionViewChannel}}}
	games := make([]*game, nGames)
	for k := range games {
		g := &game{ch: strconv.Itoa(1000 + k), a: strconv.Itoa(100000 + 2*k), b: strconv.Itoa(100001 + 2*k)}
		guild.Channels = append(guild.Channels, fakediscord.Channel{ID: g.ch, Name: "game-" + strconv.Itoa(k)})
		guild.Members = append(guild.Members, fakediscord.Member{UserID: g.a}, fakediscord.Member{UserID: g.b})
		games[k] = g
	}
	srv := fakediscord.New(t, fakediscord.WithGuild(guild), fakediscord.WithoutFileData(), fakediscord.WithAPIVersion(10),
		fakediscord.WithChannelRateLimits(5, 5*time.Second))

	dir := t.TempDir()
	dbPath := filepath.Join(dir, "rfop.db")
	debugAddr := freeAddr(t)
	env := []string{"DISCORD_TOKEN=test-token", "DISCORD_API_BASE=" + srv.URL(), "RFOP_DB=" + dbPath, "RFOP_DEBUG_ADDR=" + debugAddr}
	for _, kv := range os.Environ() {
		if name, _, _ := strings.Cut(kv, "="); !strings.HasPrefix(name, "RFOP_") && name != "GOMEMLIMIT" && name != "DISCORD_TOKEN" && name != "DISCORD_API_BASE" {
			env = append(env, kv) // the binary's own defaults otherwise
		}
	}
	bot := botproc.Start(t, ctx, "the bot", bin, env, filepath.Join(dir, "bot.log"))
	require.NoError(t, srv.WaitGuildReady(ctx, guildID))

	// The bot's memory, sampled; heap profiles at its peaks if asked.
	var peakRSS atomic.Int64
	sampling, stopSampling := context.WithCancel(ctx)
	sampled := make(chan struct{})
	go func() {
		defer close(sampled)
		profiled := int64(0)
		tick := time.NewTicker(time.Second)
		defer tick.Stop()
		for {
			if rss, _ := botproc.Status(bot.Pid(), "VmRSS:"); rss > 0 {
				if rss > peakRSS.Load() {
					peakRSS.Store(rss)
				}
				if profiles != "" && rss > profiled+16<<20 {
					profiled = rss
					if err := saveProfile(debugAddr, "heap", filepath.Join(profiles, fmt.Sprintf("heap-%03dMiB.pb.gz", rss>>20))); err != nil {
						t.Logf("heap profile: %v", err)
					}
				}
			}
			select {
			case <-sampling.Done():
				return
			case <-tick.C:
			}
		}
	}()

	w := &world{t: t, srv: srv, limit: limit}
	started := time.Now()
	var wg, atGate sync.WaitGroup
	gate := make(chan struct{})
	errs := make(chan error, 3*nGames)
	for k, g := range games {
		wg.Add(1)
		atGate.Add(1)
		go func() {
			defer wg.Done()
			atGate.Done()
			<-gate
			if err := w.start(ctx, g); err != nil {
				errs <- err
				return
			}
			var pw sync.WaitGroup
			for j, u := range []string{g.a, g.b} {
				pw.Add(1)
				go func() {
					defer pw.Done()
					if err := w.player(ctx, g, u, rand.New(rand.NewPCG(uint64(k), uint64(j)))); err != nil {
						errs <- fmt.Errorf("game in %s, player %s: %w", g.ch, u, err)
					}
				}()
			}
			pw.Wait()
		}()
	}
	atGate.Wait()
	close(gate)
	if profiles != "" {
		// Where the CPU goes while 200 games start: a profile of the
		// burst's first seconds.
		go func() {
			secs := strconv.Itoa(envInt(t, "RFOP_LOADTEST_CPU_SECONDS", 8))
			if err := saveProfile(debugAddr, "profile?seconds="+secs, filepath.Join(profiles, "cpu-first-"+secs+"s.pb.gz")); err != nil {
				t.Logf("CPU profile: %v", err)
			}
		}()
		// Where every goroutine waits: a dump every 2.5 s of the first
		// 30 s (each stops the bot for a moment). A publisher stuck
		// behind another's drawing showed up this way.
		go func() {
			tick := time.NewTicker(2500 * time.Millisecond)
			defer tick.Stop()
			for k := 1; k <= 12; k++ {
				select {
				case <-ctx.Done():
					return
				case <-tick.C:
				}
				path := filepath.Join(profiles, fmt.Sprintf("goroutines-%04.1fs.txt", float64(k)*2.5))
				if err := saveProfile(debugAddr, "goroutine?debug=2", path); err != nil {
					t.Logf("goroutine dump: %v", err)
				}
			}
		}()
	}
	stalled := w.watchStalls(ctx, games)
	wg.Wait()
	played := time.Since(started)
	close(errs)
	for err := range errs {
		t.Error(err)
	}

	// Every game completes: its result is in its channel.
	resultsIn := time.Now()
	complete := srv.WaitFor(ctx, func() bool {
		for _, g := range games {
			if !g.resulted(srv) {
				return false
			}
		}
		return true
	})
	missing := 0
	for _, g := range games {
		if !g.resulted(srv) {
			missing++
		}
	}
	assert.True(t, complete, "%d games have no result in their channel", missing)
	lastResult := time.Since(resultsIn)
	db, err := sql.Open("sqlite3", "file:"+dbPath+"?mode=ro&_busy_timeout=10000")
	require.NoError(t, err)
	defer db.Close()
	require.True(t, srv.WaitFor(ctx, func() bool {
		var n int
		return db.QueryRowContext(ctx, `SELECT count(*) FROM outbox WHERE done_at = ''`).Scan(&n) == nil && n == 0
	}), "publications left undelivered")
	hwm, err := botproc.Status(bot.Pid(), "VmHWM:")
	require.NoError(t, err)
	stopSampling()
	<-sampled
	bot.Stop(testctx.Detached(t))
	if keep := os.Getenv("RFOP_LOADTEST_KEEP"); keep != "" {
		for _, suffix := range []string{"", "-wal"} { // the bot stopped: nothing writes them
			raw, err := os.ReadFile(dbPath + suffix)
			if suffix != "" && os.IsNotExist(err) {
				continue
			}
			require.NoError(t, err)
			require.NoError(t, os.WriteFile(keep+suffix, raw, 0o644))
		}
		// And the bot's log beside it (its warnings say what failed).
		raw, err := os.ReadFile(filepath.Join(dir, "bot.log"))
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(keep+".log", raw, 0o644))
	}

	acks := srv.ResponseLatencies()
	commits, backlog, entries, err := analyse(ctx, db)
	require.NoError(t, err)
	t.Logf("%d games, %d moves, %d interactions in %v (%.0f per second); results all posted %v after the last click",
		nGames, len(commits.lat)+commits.missing, len(acks), played.Round(time.Millisecond), float64(len(acks))/played.Seconds(), lastResult.Round(time.Millisecond))
	t.Logf("acknowledgement: p50 %v, p99 %v, max %v", pct(acks, 0.5), pct(acks, 0.99), pct(acks, 1))
	t.Logf("commit to board in the channel: p50 %v, p99 %v, max %v (%d moves without a board)",
		pct(commits.lat, 0.5), pct(commits.lat, 0.99), pct(commits.lat, 1), commits.missing)
	t.Logf("largest outbox backlog: %d publications (%.2f per game) at %v: %v", backlog.max, float64(backlog.max)/float64(nGames),
		backlog.at.Sub(started).Round(time.Second), backlog.kinds)
	t.Logf("largest backlog of entries: %d (%.2f per game) at %v: %v", entries.max, float64(entries.max)/float64(nGames),
		entries.at.Sub(started).Round(time.Second), entries.kinds)
	t.Logf("largest backlog in each 10 s: publications %v, entries %v", backlog.windows, entries.windows)
	t.Logf("bot process: peak RSS (VmHWM) %d MiB; %d REST calls refused by the channel limits", hwm>>20, srv.RateLimited())
	t.Logf("stalled games (no move for %v): %d", stallAfter, stalled.Load())
	fmt.Printf("BURST games=%d moves=%d interactions=%d ack_p50_ms=%.1f ack_p99_ms=%.1f board_p50_s=%.2f board_p99_s=%.2f board_max_s=%.2f backlog_max=%d entries_max=%d vmhwm_mib=%d stalled=%d missing_results=%d\n",
		nGames, len(commits.lat), len(acks), ms(pct(acks, 0.5)), ms(pct(acks, 0.99)), pct(commits.lat, 0.5).Seconds(),
		pct(commits.lat, 0.99).Seconds(), pct(commits.lat, 1).Seconds(), backlog.max, entries.max, hwm>>20, stalled.Load(), missing)
	assert.Zero(t, commits.missing, "every move's board reached the channel")
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

func pct(d []time.Duration, p float64) time.Duration {
	if len(d) == 0 {
		return 0
	}
	s := slices.Clone(d)
	slices.Sort(s)
	return s[min(len(s)-1, int(float64(len(s))*p))]
}

// game is one game of the burst and what its players saw.
type game struct {
	ch, a, b string
	over     atomic.Bool  // a player was told it is over
	moved    atomic.Int64 // the last accepted choice (unix nanoseconds)
	stalled  bool
}

var resultRE = regexp.MustCompile(`Game #\d+ is over`)

// resulted: the game's result message is in its channel.
func (g *game) resulted(srv *fakediscord.Server) bool {
	msgs := srv.Messages(g.ch)
	for k := len(msgs) - 1; k >= 0; k-- {
		if resultRE.MatchString(msgs[k].Content) {
			return true
		}
	}
	return false
}

type world struct {
	t     *testing.T
	srv   *fakediscord.Server
	limit int64
}

// start names both players of the game (a moderator's /rfop new).
func (w *world) start(ctx context.Context, g *game) error {
	i := w.srv.SlashCommand(admin, guildID, g.ch, "rfop", fakediscord.SubCmd("new",
		fakediscord.UserArg("opponent", g.b), fakediscord.UserArg("player", g.a), fakediscord.StrArg("side", "versailles")))
	if _, err := i.WaitResponse(ctx); err != nil {
		return fmt.Errorf("game in %s: /rfop new: %w", g.ch, err)
	}
	g.moved.Store(time.Now().UnixNano())
	return nil
}

func choiceComponents(m *fakediscord.Message) (buttons, selects []*fakediscord.Component) {
	for _, c := range m.AllComponents() {
		switch {
		case c.Type == discordgo.ButtonComponent && strings.HasPrefix(c.CustomID, "rfop/c/"):
			buttons = append(buttons, c)
		case c.Type == discordgo.SelectMenuComponent && strings.HasPrefix(c.CustomID, "rfop/s/"):
			selects = append(selects, c)
		}
	}
	return buttons, selects
}

// versionOf reads the game version from a decision's custom id
// (rfop/<verb>/<game>/<version>/<side>[/<arg>]).
func versionOf(customID string) int64 {
	p := strings.Split(customID, "/")
	if len(p) < 5 {
		return -1
	}
	v, err := strconv.ParseInt(p[3], 10, 64)
	if err != nil {
		return -1
	}
	return v
}

func newestBoard(msgs []*fakediscord.Message) *fakediscord.Message {
	for k := len(msgs) - 1; k >= 0; k-- {
		if msgs[k].Button("Take my turn") != nil {
			return msgs[k]
		}
	}
	return nil
}

// player clicks whatever the bot offers user in game g as soon as it
// answers, until the game is over.
func (w *world) player(ctx context.Context, g *game, user string, r *rand.Rand) error {
	dm := w.srv.DMChannelID(user)
	for ctx.Err() == nil && !g.over.Load() {
		cursor := w.srv.Cursor()
		board := newestBoard(w.srv.Messages(g.ch))
		if board == nil && g.resulted(w.srv) {
			g.over.Store(true) // the final board has no Take my turn
			return nil
		}
		acted := false
		if board != nil {
			resp, err := w.srv.ClickLabel(user, board, "Take my turn").WaitResponse(ctx)
			if err != nil {
				return fmt.Errorf("Take my turn: %w", err)
			}
			panel := resp.Message
			if panel != nil && strings.Contains(panel.Content, "not running") {
				g.over.Store(true)
				return nil
			}
			for steps := 0; panel != nil && steps < 400; steps++ {
				buttons, selects := choiceComponents(panel)
				if len(buttons)+len(selects) == 0 {
					break
				}
				if w.limit > 0 && versionOf(append(buttons, selects...)[0].CustomID) >= w.limit {
					if err := w.resign(ctx, g, user); err != nil {
						return err
					}
					break
				}
				var i *fakediscord.Interaction
				if len(buttons) > 0 && (len(selects) == 0 || r.IntN(2) == 0) {
					i = w.srv.Click(user, panel, buttons[r.IntN(len(buttons))].CustomID)
				} else {
					s := selects[r.IntN(len(selects))]
					i = w.srv.Select(user, panel, s.CustomID, s.Options[r.IntN(len(s.Options))].Value)
				}
				if _, err := i.WaitResponse(ctx); err != nil {
					return fmt.Errorf("choice: %w", err)
				}
				prev := panel
				if panel, err = w.srv.WaitMessage(ctx, func(m *fakediscord.Message) bool { return m.ID == prev.ID && m.Version > prev.Version }); err != nil {
					return fmt.Errorf("panel update: %w", err)
				}
				acted = true
				g.moved.Store(time.Now().UnixNano())
			}
		}
		if !acted {
			// Nothing to do for now: look again at the next news of the
			// game, a board posted or edited or a DM, which every change
			// of whose turn it is brings (the cursor was taken before the
			// look: nothing since is missed). The test's context bounds it.
			_, _ = w.srv.WaitMessageAfter(ctx, cursor, func(m *fakediscord.Message) bool {
				return !m.Ephemeral() && (m.ChannelID == g.ch || m.ChannelID == dm)
			})
		}
	}
	return ctx.Err()
}

// resign: /rfop resign and Yes, resign.
func (w *world) resign(ctx context.Context, g *game, user string) error {
	resp, err := w.srv.SlashCommand(user, guildID, g.ch, "rfop", fakediscord.SubCmd("resign")).WaitResponse(ctx)
	if err != nil {
		return fmt.Errorf("resign: %w", err)
	}
	if resp.Message == nil || resp.Message.Button("Yes, resign") == nil {
		return nil // over already
	}
	if _, err := w.srv.ClickLabel(user, resp.Message, "Yes, resign").WaitResponse(ctx); err != nil {
		return fmt.Errorf("Yes, resign: %w", err)
	}
	g.over.Store(true) // its end is committed (its result follows)
	return nil
}

// watchStalls counts the games in which nobody moved for stallAfter
// while they were not over (a player waiting that long for the board
// that calls them, or for an answer).
func (w *world) watchStalls(ctx context.Context, games []*game) *atomic.Int32 {
	var n atomic.Int32
	go func() {
		tick := time.NewTicker(5 * time.Second)
		defer tick.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
			}
			all := true
			for _, g := range games {
				if g.over.Load() {
					continue
				}
				all = false
				if !g.stalled && time.Since(time.Unix(0, g.moved.Load())) > stallAfter {
					g.stalled = true
					n.Add(1)
				}
			}
			if all {
				return
			}
		}
	}()
	return &n
}

// ---- what the database says ----

type commitFigures struct {
	lat     []time.Duration // per move: its commit to its board's delivery
	missing int             // moves whose board was never delivered
}

type backlogFigures struct {
	max   int
	at    time.Time
	kinds map[string]int
	// windows: the largest backlog in each 10 s from the first entry.
	windows []int
}

const timeLayout = "2006-01-02T15:04:05.000Z"

// analyse reads the move log and the outbox: each move's commit to the
// delivery of the first board at or after its version that was posted or
// edited (not one superseded by a newer board, which is marked done
// without a call), and the largest number of undelivered publications
// (rows: a version's entries are one row) and of undelivered entries
// (what each publication does: a board, a hand DM...) at any moment.
func analyse(ctx context.Context, db *sql.DB) (commitFigures, backlogFigures, backlogFigures, error) {
	type board struct {
		version int64
		done    time.Time
	}
	boards := map[int64][]board{}
	type event struct {
		at   time.Time
		d    int
		kind string
	}
	var rowEvents, entryEvents []event
	rows, err := db.QueryContext(ctx, `SELECT game_id, version, kind, payload, outcome, created_at, done_at FROM outbox ORDER BY game_id, version, id`)
	if err != nil {
		return commitFigures{}, backlogFigures{}, backlogFigures{}, err
	}
	type part struct {
		Kind    string          `json:"kind"`
		Outcome json.RawMessage `json:"outcome"`
		DoneAt  string          `json:"done_at"`
	}
	for rows.Next() {
		var game, version int64
		var kind, payload, outcome, created, done string
		if err := rows.Scan(&game, &version, &kind, &payload, &outcome, &created, &done); err != nil {
			rows.Close()
			return commitFigures{}, backlogFigures{}, backlogFigures{}, err
		}
		parts := []part{{Kind: kind, Outcome: json.RawMessage(outcome), DoneAt: done}}
		if kind == "parts" {
			var heads, states []part
			err1 := json.Unmarshal([]byte(payload), &heads)
			err2 := json.Unmarshal([]byte(outcome), &states)
			if err := errors.Join(err1, err2); err != nil || len(heads) != len(states) {
				rows.Close()
				return commitFigures{}, backlogFigures{}, backlogFigures{}, fmt.Errorf("a publication of game %d: %v", game, err)
			}
			for k := range heads {
				states[k].Kind = heads[k].Kind
			}
			parts = states
		}
		c, err1 := time.Parse(timeLayout, created)
		d, err2 := time.Parse(timeLayout, done)
		if err := errors.Join(err1, err2); err != nil {
			rows.Close()
			return commitFigures{}, backlogFigures{}, backlogFigures{}, err
		}
		rowEvents = append(rowEvents, event{c, 1, kind}, event{d, -1, kind})
		for _, p := range parts {
			pd, err := time.Parse(timeLayout, p.DoneAt)
			if err != nil {
				rows.Close()
				return commitFigures{}, backlogFigures{}, backlogFigures{}, err
			}
			entryEvents = append(entryEvents, event{c, 1, p.Kind}, event{pd, -1, p.Kind})
			if p.Kind == "board" && !strings.Contains(string(p.Outcome), "superseded") {
				boards[game] = append(boards[game], board{version, pd})
			}
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return commitFigures{}, backlogFigures{}, backlogFigures{}, err
	}
	peak := func(events []event) backlogFigures {
		slices.SortStableFunc(events, func(a, b event) int {
			if c := a.at.Compare(b.at); c != 0 {
				return c
			}
			return b.d - a.d // created before done at the same millisecond
		})
		var bl backlogFigures
		cur, kinds := 0, map[string]int{}
		for _, e := range events {
			cur += e.d
			kinds[e.kind] += e.d
			if cur > bl.max {
				bl.max, bl.at, bl.kinds = cur, e.at, maps(kinds)
			}
			w := int(e.at.Sub(events[0].at) / (10 * time.Second))
			for len(bl.windows) <= w {
				bl.windows = append(bl.windows, 0)
			}
			bl.windows[w] = max(bl.windows[w], cur)
		}
		return bl
	}
	pubs, entries := peak(rowEvents), peak(entryEvents)

	var cf commitFigures
	rows, err = db.QueryContext(ctx, `SELECT game_id, seq, created_at FROM actions`)
	if err != nil {
		return cf, pubs, entries, err
	}
	defer rows.Close()
	for rows.Next() {
		var game, seq int64
		var created string
		if err := rows.Scan(&game, &seq, &created); err != nil {
			return cf, pubs, entries, err
		}
		c, err := time.Parse(timeLayout, created)
		if err != nil {
			return cf, pubs, entries, err
		}
		k := slices.IndexFunc(boards[game], func(b board) bool { return b.version >= seq })
		if k < 0 {
			cf.missing++
			continue
		}
		cf.lat = append(cf.lat, boards[game][k].done.Sub(c))
	}
	return cf, pubs, entries, rows.Err()
}

func maps(m map[string]int) map[string]int {
	out := map[string]int{}
	for k, v := range m {
		if v != 0 {
			out[k] = v
		}
	}
	return out
}

// ---- the bot process ----

// saveProfile saves the bot's profile (net/http/pprof's path under
// /debug/pprof/) to path.
func saveProfile(addr, profile, path string) error {
	resp, err := http.Get("http://" + addr + "/debug/pprof/" + profile)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if _, err := io.Copy(f, resp.Body); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// freeAddr is a loopback address with a free port (for the bot's profiles).
func freeAddr(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := l.Addr().String()
	require.NoError(t, l.Close())
	return addr
}
