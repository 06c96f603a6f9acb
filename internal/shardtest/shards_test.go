package shardtest_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
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
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rfop/rfop/internal/botproc"
	"github.com/rfop/rfop/internal/discordspec"
	"github.com/rfop/rfop/internal/fakediscord"
	"github.com/rfop/rfop/internal/testctx"
	"github.com/rfop/rfop/storage"
)

// The shape of the test.
const (
	nGuilds       = 20
	gamesPerGuild = 5 // 100 games in servers
	nDMGames      = 4 // solo games in DMs (shard 0's)
	nFullGames    = 2 // played to the end by the rules (one per shard)
	shardCount    = 2
	// reminderGuilds of the servers remind every reminderInterval; one
	// game in each of them waits for two intervals once.
	reminderGuilds   = 4
	reminderInterval = 6 * time.Second
)

// snowflake returns a server id on shard n % shardCount.
func snowflake(n int) string { return strconv.FormatInt(int64(1000+n)<<22|7, 10) }

func userID(n int) string { return strconv.Itoa(500000 + n) }

// gameSpec is one game the test plays.
type gameSpec struct {
	guild, channel string // guild "" for a solo game in a's DMs
	a, b           string // a plays the Commune (the challenger), b Versailles
	full           bool   // to the end by the rules, else resign after limit plays
	limit          int64
	handDM         bool // the objectives are chosen from the hand DMs
	idle           bool // waits once for two reminder intervals
	id             int64
	// stage is what the player was last waiting for (said if the game
	// does not finish).
	stage string
}

func (g *gameSpec) at(format string, args ...any) { g.stage = fmt.Sprintf(format, args...) }

func (g *gameSpec) String() string {
	if g.guild == "" {
		return "solo game of " + g.a + " in DMs"
	}
	return fmt.Sprintf("game in channel %s (server %s)", g.channel, g.guild)
}

// click is a decision a player sent: a choice or a resignation.
type click struct {
	game, version int64
	side, verb    string
	confirmed     bool // the bot showed the decision taken
	matched       bool
	answer        string // what the bot showed
}

type world struct {
	t     *testing.T
	srv   *fakediscord.Server
	store storage.Store
	mu    sync.Mutex
	// clicks: every decision sent, by game.
	clicks map[int64][]*click

	// ctx bounds the whole test (testctx); live is cancelled when a bot
	// process is killed, ending the waits for answers it will never give
	// (a player then looks again, as one would at "This interaction
	// failed"). Take it (answers) before sending the interaction.
	ctx      context.Context
	liveMu   sync.Mutex
	live     context.Context
	liveStop context.CancelFunc
}

// answers is the context of a wait for the bot's answer to what the
// player is about to send.
func (w *world) answers() context.Context {
	w.liveMu.Lock()
	defer w.liveMu.Unlock()
	return w.live
}

// killed ends the waits for answers from the processes running so far.
func (w *world) killed() {
	w.liveMu.Lock()
	defer w.liveMu.Unlock()
	if w.liveStop != nil {
		w.liveStop()
	}
	w.live, w.liveStop = context.WithCancel(w.ctx)
}

func (w *world) record(c *click) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.clicks[c.game] = append(w.clicks[c.game], c)
}

func (w *world) confirm(c *click, answer string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	c.confirmed, c.answer = true, answer
}

func (w *world) confirmedCount() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	n := 0
	for _, cs := range w.clicks {
		for _, c := range cs {
			if c.confirmed {
				n++
			}
		}
	}
	return n
}

// parseDecision reads game, version and side from a decision's custom id
// (rfop/<verb>/<game>/<version>/<side>[/<arg>]).
func parseDecision(customID string) (*click, error) {
	p := strings.Split(customID, "/")
	if len(p) < 5 || p[0] != "rfop" {
		return nil, fmt.Errorf("not a decision: %q", customID)
	}
	game, err1 := strconv.ParseInt(p[2], 10, 64)
	version, err2 := strconv.ParseInt(p[3], 10, 64)
	if err := errors.Join(err1, err2); err != nil {
		return nil, fmt.Errorf("custom id %q: %w", customID, err)
	}
	return &click{game: game, version: version, side: p[4], verb: p[1]}, nil
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

// rejected: the bot's answer to a decision it did not take.
func rejected(content string) bool {
	for _, s := range []string{"out of date", "not your decision", "failed", "cannot", "Something went wrong", "restarting",
		"moved at the same time", "did not work", "does not exist", "not running"} {
		if strings.Contains(content, s) {
			return true
		}
	}
	return false
}

// stale: the panel shows decisions of the version clicked or older (an
// earlier update of the same panel arriving late), so it does not show
// this decision taken.
func stale(m *fakediscord.Message, clicked int64) bool {
	buttons, selects := choiceComponents(m)
	newer := false
	for _, c := range append(buttons, selects...) {
		if d, err := parseDecision(c.CustomID); err == nil && d.version > clicked {
			newer = true
		}
	}
	return len(buttons)+len(selects) > 0 && !newer
}

// decide makes one random decision on a panel (or hand DM) message and
// returns the message as the bot updated it, nil if it did not answer.
// Only a decision made on a current panel (the game's version, or the one
// before for a choice both sides make at once) counts as acknowledged
// when the panel moves on: an out-of-date panel's update may be another
// one's arriving late.
func (w *world) decide(g *gameSpec, user string, panel *fakediscord.Message, r *rand.Rand) (*fakediscord.Message, error) {
	buttons, selects := choiceComponents(panel)
	current := int64(-1)
	if d, err := parseDecision(append(buttons, selects...)[0].CustomID); err == nil {
		if rec, err := w.store.GameByID(context.Background(), d.game); err == nil {
			current = rec.StateVersion
		}
	}
	var i *fakediscord.Interaction
	var c *click
	var err error
	ctx := w.answers()
	if n := len(buttons); n > 0 && (len(selects) == 0 || r.IntN(2) == 0) {
		b := buttons[r.IntN(n)]
		if c, err = parseDecision(b.CustomID); err != nil {
			return nil, err
		}
		w.record(c)
		i = w.srv.Click(user, panel, b.CustomID)
	} else {
		s := selects[r.IntN(len(selects))]
		if c, err = parseDecision(s.CustomID); err != nil {
			return nil, err
		}
		w.record(c)
		i = w.srv.Select(user, panel, s.CustomID, s.Options[r.IntN(len(s.Options))].Value)
	}
	g.at("the response to %s's %s", user, i)
	if _, err := i.WaitResponse(ctx); err != nil {
		return nil, nil // the process died with it: look again
	}
	g.at("the update of panel %s (version %d) after %s's %s", panel.ID, panel.Version, user, i)
	m, err := w.srv.WaitMessage(ctx, func(m *fakediscord.Message) bool { return m.ID == panel.ID && m.Version > panel.Version })
	if err != nil {
		return nil, nil
	}
	if c.version >= current-1 && !rejected(m.Content) && !stale(m, c.version) {
		w.confirm(c, m.Content)
	}
	return m, nil
}

// newest returns the newest message of msgs that has a button labelled label.
func newest(msgs []*fakediscord.Message, label string) *fakediscord.Message {
	for k := len(msgs) - 1; k >= 0; k-- {
		if msgs[k].Button(label) != nil {
			return msgs[k]
		}
	}
	return nil
}

// boardChannel is where the game's boards are posted.
func (w *world) boardChannel(g *gameSpec) string {
	if g.guild == "" {
		return w.srv.DMChannelID(g.a)
	}
	return g.channel
}

// turn lets user take their decisions, from the hand DM or the board's
// Take my turn panel; it reports whether they had any.
func (w *world) turn(g *gameSpec, rec storage.Game, user string, r *rand.Rand) (bool, error) {
	var panel *fakediscord.Message
	if g.handDM && rec.StateVersion < 2 {
		tag := fmt.Sprintf("Game #%d in ", g.id)
		for _, m := range w.srv.DMs(user) {
			if b, s := choiceComponents(m); len(b)+len(s) > 0 && strings.Contains(m.Content, tag) {
				panel = m
			}
		}
	}
	if panel == nil {
		board := newest(w.srv.Messages(w.boardChannel(g)), "Take my turn")
		if board == nil {
			return false, nil
		}
		g.at("the response to %s's Take my turn on board %s", user, board.ID)
		resp, err := w.srv.ClickLabel(user, board, "Take my turn").WaitResponse(w.answers())
		if err != nil || resp.Message == nil {
			return false, nil
		}
		panel = resp.Message
	}
	acted := false
	for range 400 {
		b, s := choiceComponents(panel)
		if len(b)+len(s) == 0 {
			return acted, nil
		}
		if d, err := parseDecision(append(b, s...)[0].CustomID); err == nil && !g.full && d.version >= g.limit {
			return acted, nil // time to resign (a solo chain goes on with the opponent's replies)
		}
		m, err := w.decide(g, user, panel, r)
		if err != nil || m == nil {
			return acted, err
		}
		acted, panel = true, m
	}
	return acted, fmt.Errorf("%s: %s's decision chain did not end", g, user)
}

// resign makes a resign and confirm.
func (w *world) resign(g *gameSpec) error {
	ctx := w.answers()
	g.at("the response to /rfop resign")
	resp, err := w.srv.SlashCommand(g.a, g.guild, g.channel, "rfop", fakediscord.SubCmd("resign")).WaitResponse(ctx)
	if err != nil || resp.Message == nil {
		return nil // look again
	}
	yes := resp.Message.Button("Yes, resign")
	if yes == nil {
		return nil
	}
	c, err := parseDecision(yes.CustomID)
	if err != nil {
		return err
	}
	w.record(c)
	i := w.srv.Click(g.a, resp.Message, yes.CustomID)
	g.at("the response to Yes, resign")
	if _, err := i.WaitResponse(ctx); err != nil {
		return nil
	}
	g.at("the answer to Yes, resign")
	if m, err := i.WaitOriginal(ctx, func(m *fakediscord.Message) bool { return strings.Contains(m.Content, "resign") }); err == nil &&
		strings.Contains(m.Content, "You resigned") {
		w.confirm(c, m.Content)
	}
	return nil
}

// play drives one game from its start to its end.
func (w *world) play(ctx context.Context, g *gameSpec, seed uint64) error {
	r := rand.New(rand.NewPCG(seed, 17))
	idled := false
	for ctx.Err() == nil {
		// What the bot does from here on is news: taken before looking.
		cursor, answers := w.srv.Cursor(), w.answers()
		var rec storage.Game
		var err error
		switch {
		case g.id != 0:
			rec, err = w.store.GameByID(ctx, g.id)
		case w.boardChannel(g) == "":
			err = storage.ErrNotFound
		default:
			rec, err = w.store.GameByChannel(ctx, w.boardChannel(g))
		}
		if errors.Is(err, storage.ErrNotFound) {
			var sub fakediscord.Arg
			if g.guild == "" {
				sub = fakediscord.SubCmd("solo", fakediscord.StrArg("side", "commune"))
			} else {
				sub = fakediscord.SubCmd("new", fakediscord.UserArg("opponent", g.b), fakediscord.StrArg("side", "commune"))
			}
			// If its process died, look again.
			g.at("the response to /rfop %s", sub.Name)
			_, _ = w.srv.SlashCommand(g.a, g.guild, g.channel, "rfop", sub).WaitResponse(answers)
			continue
		}
		if err != nil {
			return fmt.Errorf("%s: %w", g, err)
		}
		g.id = rec.ID
		switch rec.Status {
		case storage.StatusFinished:
			return nil
		case storage.StatusAbandoned:
			return fmt.Errorf("%s: game #%d was abandoned", g, rec.ID)
		case storage.StatusWaiting:
			if ch := newest(w.srv.Messages(g.channel), "Accept"); g.guild != "" && ch != nil {
				g.at("the response to Accept")
				_, _ = w.srv.ClickLabel(g.b, ch, "Accept").WaitResponse(answers)
			} else {
				// Accepted, or a solo game: its first board is on its way.
				g.at("the start of game #%d", rec.ID)
				w.waitNews(answers, cursor, g)
			}
			continue
		}
		if g.idle && !idled && rec.StateVersion >= 2 {
			// The players leave the game waiting until it has been
			// reminded twice (an interval apart: checkReminders).
			idled = true
			g.at("two reminders")
			if !w.srv.WaitFor(ctx, func() bool { return w.reminders(g) >= 2 }) {
				return fmt.Errorf("%s: not reminded twice while idle: %w", g, ctx.Err())
			}
			continue
		}
		if !g.full && rec.StateVersion >= g.limit {
			if err := w.resign(g); err != nil {
				return err
			}
			continue
		}
		acted := false
		for _, u := range []string{g.a, g.b} {
			if g.guild == "" && u == g.b {
				continue // the solo opponent plays by itself
			}
			ok, err := w.turn(g, rec, u, r)
			if err != nil {
				return err
			}
			acted = acted || ok
		}
		if !acted {
			// The publication or the solo opponent is on its way.
			g.at("news of game #%d at version %d (nobody could act)", rec.ID, rec.StateVersion)
			w.waitNews(answers, cursor, g)
		}
	}
	return fmt.Errorf("%s: not finished (%v) while waiting for %s", g, ctx.Err(), g.stage)
}

// waitNews waits until the bot posts or edits a message of the game (in
// its channel or its players' DMs) after cursor, or ctx ends.
func (w *world) waitNews(ctx context.Context, cursor int, g *gameSpec) {
	dms := []string{w.srv.DMChannelID(g.a), w.srv.DMChannelID(g.b)}
	_, _ = w.srv.WaitMessageAfter(ctx, cursor, func(m *fakediscord.Message) bool {
		return !m.Ephemeral() && (m.ChannelID == w.boardChannel(g) || slices.Contains(dms, m.ChannelID))
	})
}

// reminders counts the reminders posted for a game.
func (w *world) reminders(g *gameSpec) int {
	n := 0
	note := fmt.Sprintf("Reminder: game #%d ", g.id)
	for _, m := range w.srv.Messages(w.boardChannel(g)) {
		if strings.Contains(firstVersion(w.srv, m), note) {
			n++
		}
	}
	return n
}

// proc is one bot process (package botproc), one shard of the two.
type proc struct {
	*botproc.Proc
	shard int
}

func startProc(t *testing.T, ctx context.Context, bin string, env []string, shard, n int) *proc {
	t.Helper()
	log := filepath.Join(t.TempDir(), fmt.Sprintf("shard%d-run%d.log", shard, n))
	env = append(append(os.Environ(), env...), "RFOP_SHARD_ID="+strconv.Itoa(shard))
	return &proc{Proc: botproc.Start(t, ctx, fmt.Sprintf("shard %d", shard), bin, env, log), shard: shard}
}

// binDir holds the rfop binary, built once for the package's tests
// (buildRFOP) and removed by TestMain.
var (
	binDir   string
	binOnce  sync.Once
	binPath  string
	binError error
)

func TestMain(m *testing.M) {
	code := m.Run()
	if binDir != "" {
		_ = os.RemoveAll(binDir)
	}
	os.Exit(code)
}

// buildRFOP builds the rfop binary, once for all the package's tests.
func buildRFOP(t *testing.T) string {
	t.Helper()
	binOnce.Do(func() {
		if binDir, binError = os.MkdirTemp("", "rfop-shardtest-"); binError != nil {
			return
		}
		binPath, binError = botproc.Build(binDir)
	})
	if errors.Is(binError, botproc.ErrNoGo) {
		t.Skip(binError)
	}
	require.NoError(t, binError)
	return binPath
}

// firstVersion is a message's content as it was posted.
func firstVersion(srv *fakediscord.Server, m *fakediscord.Message) string {
	if h := srv.MessageHistory(m.ID); len(h) > 0 {
		return h[0].Content
	}
	return m.Content
}

var boardTitle = regexp.MustCompile(`^\*\*[^*\n]+ — game #(\d+) · `)

// TestTwoShardProcessesOneDatabase: two bot processes, shards 0 and 1 of
// 2, share one database; 100 games in 20 servers and solo games in DMs
// are played by clicking; shard 1 is killed (SIGKILL) in the middle and
// started again. Every game finishes, the action log holds exactly the
// decisions the players made, every publication is posted once, and no
// reminder is sent twice.
func TestTwoShardProcessesOneDatabase(t *testing.T) {
	if testing.Short() {
		t.Skip("builds rfop and runs two bot processes for minutes")
	}
	t.Parallel()
	ctx := testctx.Context(t)
	dsn, store := openDatabase(t)
	bin := buildRFOP(t)

	var opts []fakediscord.Option
	var games []*gameSpec
	n := 0
	for k := range nGuilds {
		gid := snowflake(k)
		guild := fakediscord.Guild{ID: gid, Name: "server " + strconv.Itoa(k), OwnerID: userID(k*100 + 99)}
		guild.Members = append(guild.Members, fakediscord.Member{UserID: guild.OwnerID})
		for j := range gamesPerGuild {
			ch := strconv.Itoa(700000 + k*10 + j)
			guild.Channels = append(guild.Channels, fakediscord.Channel{ID: ch, Name: "game-" + strconv.Itoa(j)})
			a, b := userID(k*100+2*j), userID(k*100+2*j+1)
			guild.Members = append(guild.Members, fakediscord.Member{UserID: a}, fakediscord.Member{UserID: b})
			g := &gameSpec{guild: gid, channel: ch, a: a, b: b, limit: 3 + int64(n%6), handDM: n%2 == 1,
				full: j == 0 && k < nFullGames, idle: j == 1 && k < reminderGuilds}
			games = append(games, g)
			n++
		}
		opts = append(opts, fakediscord.WithGuild(guild))
	}
	for d := range nDMGames {
		u := userID(90000 + d)
		opts = append(opts, fakediscord.WithUser(fakediscord.User{ID: u}))
		games = append(games, &gameSpec{a: u, limit: 4 + int64(d)})
	}
	for k := range reminderGuilds {
		set := storage.DefaultSettings(snowflake(k))
		set.ReminderInterval = reminderInterval
		_, err := store.SetGuildSettings(ctx, set)
		require.NoError(t, err)
	}
	spec, err := discordspec.Load()
	require.NoError(t, err)
	srv := fakediscord.New(t, append(opts, fakediscord.WithShards(shardCount), fakediscord.WithoutFileData(),
		fakediscord.WithAPIVersion(10), // the binary speaks API v10 (bot.APIVersion)
		fakediscord.WithRequestCheck(func(r *fakediscord.Request) error { // and Discord's description accepts each request
			return spec.Check(r.Method, r.Path, strings.HasPrefix(r.Header.Get("Content-Type"), "multipart/"), r.Payload)
		}))...)
	w := &world{t: t, srv: srv, store: store, clicks: map[int64][]*click{}, ctx: ctx}
	w.killed() // none yet: the first processes' answers

	env := []string{"DISCORD_TOKEN=test-token", "DISCORD_API_BASE=" + srv.URL(), "RFOP_DB=" + dsn,
		"RFOP_SHARD_COUNT=" + strconv.Itoa(shardCount), "RFOP_REMINDER_EVERY=500ms", "RFOP_LOG_LEVEL=info",
		"RFOP_TEST_GUILD=", "RFOP_DECK=", "GOMEMLIMIT="}
	procs := []*proc{startProc(t, ctx, bin, env, 0, 0), startProc(t, ctx, bin, env, 1, 0)}
	var logs []*proc // every process that ran, for its log
	require.True(t, srv.WaitFor(ctx, func() bool {
		st := srv.GatewayStats()
		return st.ReadyShards[0] == 1 && st.ReadyShards[1] == 1
	}), "both shards connect: %+v", srv.GatewayStats())

	started := time.Now()
	var finished atomic.Int32
	errs := make(chan error, len(games))
	var wg sync.WaitGroup
	slots := make(chan struct{}, 24) // players at once
	for k, g := range games {
		wg.Add(1)
		go func() {
			defer wg.Done()
			slots <- struct{}{}
			defer func() { <-slots }()
			if err := w.play(ctx, g, uint64(k)); err != nil {
				errs <- err
			}
			finished.Add(1)
		}()
	}

	// In the middle: kill shard 1 (kill -9) and start it again, once 40%
	// of the games are over (and two dozen are being played).
	require.True(t, srv.WaitFor(ctx, func() bool { return finished.Load() >= int32(len(games)*2/5) }),
		"the games did not get halfway: %d of %d over", finished.Load(), len(games))
	t.Logf("%d decisions in %v; killing shard 1", w.confirmedCount(), time.Since(started).Round(time.Millisecond))
	procs[1].Kill()
	logs = append(logs, procs[1])
	// Once the fake has seen it go, what was sent to it will not be
	// answered; what is sent from now on waits for the next shard 1.
	require.True(t, srv.WaitFor(ctx, func() bool { return srv.GatewayStats().ReadyShards[1] == 0 }), "shard 1's connection closes")
	w.killed()
	procs[1] = startProc(t, ctx, bin, env, 1, 1)
	t.Logf("shard 1 back after %v", time.Since(started).Round(time.Millisecond))

	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	require.False(t, t.Failed(), "logs of shard 0:\n%s\nlogs of shard 1:\n%s", procs[0].Tail(), procs[1].Tail())
	t.Logf("%d games played in %v, %d decisions", len(games), time.Since(started).Round(time.Millisecond), w.confirmedCount())

	// Everything is published in the end.
	require.True(t, srv.WaitFor(ctx, func() bool {
		p, err := store.PendingOutbox(ctx, 0)
		return err == nil && len(p) == 0
	}), "publications left undelivered")
	for _, p := range procs {
		p.Stop(testctx.Detached(t))
	}
	logs = append(logs, procs...)

	// What the bot spent of Discord's global REST limit (everything but
	// interaction callbacks and webhooks), per move stored.
	rest, plays := 0, int64(0)
	for _, rq := range srv.Requests() {
		if !strings.HasPrefix(rq.Path, "/interactions/") && !strings.HasPrefix(rq.Path, "/webhooks/") {
			rest++
		}
	}
	for _, g := range games {
		if rec, err := store.GameByID(ctx, g.id); err == nil {
			plays += rec.StateVersion
		}
	}
	t.Logf("%d REST calls under the global limit for %d moves: %.2f per move", rest, plays, float64(rest)/float64(max(plays, 1)))

	claims := reminderClaims(t, logs)
	reminders := 0
	for _, g := range games {
		rec, err := store.GameByID(ctx, g.id)
		require.NoError(t, err)
		require.Equal(t, storage.StatusFinished, rec.Status, "%s", g)
		var res struct {
			Reason string `json:"reason"`
		}
		require.NoError(t, json.Unmarshal(rec.Result, &res))
		if g.full {
			assert.NotEqual(t, "resigned", res.Reason, "%s ends by the rules", g)
		}
		actions, err := store.Actions(ctx, g.id)
		require.NoError(t, err)
		checkMoves(t, w, g, rec, actions)
		checkPublications(t, w, g, rec)
		reminders += checkReminders(t, w, g, actions, claims[g.id])
	}
	assert.Positive(t, reminders, "the idle games were reminded")
}

// checkMoves: every human action of the log is a decision a player sent
// (none applied twice: a decision makes at most one action), and every
// decision the bot showed as taken is in the log (none lost).
func checkMoves(t *testing.T, w *world, g *gameSpec, rec storage.Game, actions []storage.Action) {
	t.Helper()
	require.EqualValues(t, len(actions), rec.StateVersion, "%s: one action per version", g)
	w.mu.Lock()
	defer w.mu.Unlock()
	clicks := w.clicks[g.id]
	for _, a := range actions {
		if a.UserID == "" {
			continue // the solo opponent
		}
		// The decision that made it: of this side, made at a version
		// before it (a simultaneous choice may follow the other side's);
		// a confirmed one first, then the latest.
		var best *click
		for _, c := range clicks {
			if c.matched || c.side != string(a.Side) || c.version > a.Seq-1 || c.version < a.Seq-3 {
				continue
			}
			if best == nil || c.confirmed && !best.confirmed || c.confirmed == best.confirmed && c.version > best.version {
				best = c
			}
		}
		if !assert.NotNil(t, best, "%s: action %d (%s) matches no decision a player sent", g, a.Seq, a.Side) {
			continue
		}
		best.matched = true
	}
	lost := false
	for _, c := range clicks {
		lost = lost || c.confirmed && !c.matched
	}
	if lost {
		for _, a := range actions {
			t.Logf("%s: action %d %s %q %s", g, a.Seq, a.Side, a.UserID, a.Choice)
		}
		for _, c := range clicks {
			t.Logf("%s: click %s %s v%d confirmed=%v matched=%v %q", g, c.side, c.verb, c.version, c.confirmed, c.matched, c.answer)
		}
	}
	for _, c := range clicks {
		assert.False(t, c.confirmed && !c.matched, "%s: %s's %s at version %d was shown as taken but is not in the log (%d actions); the bot showed %q",
			g, c.side, c.verb, c.version, len(actions), c.answer)
	}
}

// checkPublications: the boards posted are exactly those the outbox
// recorded (none missing, none twice), one result message, and no DM or
// message posted twice.
func checkPublications(t *testing.T, w *world, g *gameSpec, rec storage.Game) {
	t.Helper()
	ctx := context.Background()
	want := map[string]bool{}
	dms := map[string]bool{}
	for v := int64(0); v <= rec.StateVersion; v++ {
		batch, err := w.store.OutboxBatch(ctx, g.id, v)
		require.NoError(t, err)
		for _, e := range batch {
			require.False(t, e.DoneAt.IsZero(), "%s: %s of version %d undelivered", g, e.Kind, v)
			var out struct {
				Message string `json:"message"`
			}
			if len(e.Outcome) > 0 {
				require.NoError(t, json.Unmarshal(e.Outcome, &out))
			}
			switch {
			case e.Kind == "board" && out.Message != "":
				want[out.Message] = true
			case e.Kind == "dm" && out.Message != "":
				dms[out.Message] = true
			}
		}
	}
	tag := "game #" + strconv.FormatInt(g.id, 10) + " "
	got := map[string]bool{}
	results := 0
	for _, m := range w.srv.Messages(w.boardChannel(g)) {
		// As posted: a later board of the same chain edits it in place.
		first := firstVersion(w.srv, m)
		if mm := boardTitle.FindStringSubmatch(first); mm != nil && mm[1] == strconv.FormatInt(g.id, 10) && !strings.Contains(first, "Reminder:") {
			assert.False(t, got[m.ID], "%s: board %s twice", g, m.ID)
			got[m.ID] = true
		}
		if strings.Contains(m.Content, "Game #"+strconv.FormatInt(g.id, 10)+" is over") {
			results++
		}
	}
	if !assert.Equal(t, want, got, "%s: the boards posted are the outbox's boards (%s)", g, tag) {
		for id := range got {
			if !want[id] {
				for _, v := range w.srv.MessageHistory(id) {
					t.Logf("posted, not in the outbox: %s v%d at %v: %q", id, v.Version, v.CreatedAt, v.Content)
				}
			}
		}
		for v := int64(0); v <= rec.StateVersion; v++ {
			batch, _ := w.store.OutboxBatch(ctx, g.id, v)
			for _, e := range batch {
				t.Logf("outbox v%d %s %s -> %s", v, e.Kind, e.Payload, e.Outcome)
			}
		}
	}
	assert.Equal(t, 1, results, "%s: one result message", g)
	for id := range dms {
		m := w.srv.Message(id)
		assert.True(t, m != nil && !m.Deleted, "%s: hand DM %s missing", g, id)
	}
	for _, u := range []string{g.a, g.b} {
		contents := map[string]bool{}
		for _, m := range w.srv.DMs(u) {
			if strings.Contains(m.Content, "Game #"+strconv.FormatInt(g.id, 10)+" in ") {
				assert.False(t, contents[m.Content], "%s: DM to %s twice: %q", g, u, m.Content)
				contents[m.Content] = true
			}
		}
	}
}

// reminderClaims reads the reminders the processes claimed (their
// "reminder" log lines, written once the database gave them the claim and
// before posting), by game.
func reminderClaims(t *testing.T, procs []*proc) map[int64][]time.Time {
	t.Helper()
	out := map[int64][]time.Time{}
	for _, p := range procs {
		b, err := os.ReadFile(p.Log)
		require.NoError(t, err)
		for _, line := range bytes.Split(b, []byte("\n")) {
			var l struct {
				Msg     string `json:"msg"`
				Game    int64  `json:"game"`
				Claimed string `json:"claimed_at"`
			}
			if json.Unmarshal(line, &l) != nil || l.Msg != "reminder" {
				continue
			}
			at, err := time.Parse(time.RFC3339Nano, l.Claimed)
			require.NoError(t, err)
			out[l.Game] = append(out[l.Game], at)
		}
	}
	return out
}

// checkReminders: each reminder posted is a claim of its own (none sent
// twice), and the claims of a game with no move between them are at least
// an interval apart. It returns how many reminders were posted.
func checkReminders(t *testing.T, w *world, g *gameSpec, actions []storage.Action, claims []time.Time) int {
	t.Helper()
	posted := w.reminders(g)
	assert.LessOrEqual(t, posted, len(claims), "%s: %d reminders posted for %d claimed", g, posted, len(claims))
	slices.SortFunc(claims, func(a, b time.Time) int { return a.Compare(b) })
	for k := 1; k < len(claims); k++ {
		moved := slices.ContainsFunc(actions, func(a storage.Action) bool {
			return a.CreatedAt.After(claims[k-1]) && a.CreatedAt.Before(claims[k])
		})
		if !moved {
			assert.GreaterOrEqual(t, claims[k].Sub(claims[k-1]), reminderInterval-time.Millisecond, "%s: two reminders claimed %v apart", g, claims[k].Sub(claims[k-1]))
		}
	}
	return posted
}
