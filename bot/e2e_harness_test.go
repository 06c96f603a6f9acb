// End-to-end tests: how to write one.
//
// Every E2E test runs the real bot, with the real discordgo client, against
// its own fake Discord (internal/fakediscord) on loopback and its own
// database (a SQLite file in t.TempDir, or a storagetest PostgreSQL
// database): nothing is shared between tests but the pictures renderer,
// which remembers each picture by its whole input (e2e_pictures_test.go),
// so they all run at once, four per core (main_test.go).
//
//   - Start with t.Parallel(), then h := newHarness(t) (or newHarnessWith,
//     for options). Subtests of a table do the same, each with its own
//     harness. TestE2ETestsRunInParallel fails a test that makes a harness
//     without t.Parallel.
//   - Wait for the event you expect, never for a fixed time, with the
//     test's one bound h.ctx (internal/testctx: the test's context, ending
//     a little before go test's -timeout): i.WaitResponse(h.ctx),
//     h.srv.WaitMessage(h.ctx, match), h.srv.WaitFor(h.ctx, cond),
//     h.b.WaitPublished(h.ctx). The helpers (command, settled, choose,
//     takeTurn, startChallenge...) already do. A busy machine then makes
//     the test slower, never red; there is no waitLong to tune.
//   - To assert that something does not happen, wait for a later event
//     that could only come after it, then look: for example the answer to
//     a refused click, then the state version unchanged; the next board,
//     then no message in between. Never sleep and then look: time.Sleep
//     in a test is a defect.
//   - Do not change process-wide state (environment variables, the
//     standard logger, discordgo's package variables): the other tests run
//     beside yours. The harness points discordgo at the fake through its
//     session's HTTP client (fakediscord.Server.HTTPClient).
//   - A condition for WaitFor is evaluated whenever the fake records
//     something and every 20 ms; it may read the store (h.gameByID), but
//     must not block.
package bot_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/rfop/rfop/ai"
	"github.com/rfop/rfop/analysis"
	"github.com/rfop/rfop/bot"
	"github.com/rfop/rfop/engine"
	"github.com/rfop/rfop/internal/discordspec"
	"github.com/rfop/rfop/internal/fakediscord"
	"github.com/rfop/rfop/internal/testctx"
	"github.com/rfop/rfop/storage"
	"github.com/stretchr/testify/require"
)

// The cast of the end-to-end tests.
const (
	guildID  = "100"
	chanID   = "200"
	chan2ID  = "201"
	alice    = "301" // plays
	bob      = "302" // plays
	carol    = "303" // a member who does not play
	admin    = "309" // Manage Channels (the "mods" role)
	manager  = "310" // Manage Server (the "managers" role): changes the settings
	chanMod  = "311" // Manage Channels in chanID only (a channel overwrite)
	owner    = "399" // owns the server
	staffID  = "202" // a channel only mods and managers see
	modsRole = "401"
	mgrRole  = "402"
)

// harness runs the real bot, with the real discordgo client, against the
// fake Discord on loopback and a real SQLite file (or, with dbPath a
// postgres URL, a PostgreSQL database).
type harness struct {
	t testing.TB
	// ctx bounds every wait of the test (testctx.Context); stopCtx bounds
	// the bot's shutdown, which may run in the test's cleanup.
	ctx, stopCtx context.Context
	srv          *fakediscord.Server
	dbPath       string
	store        storage.Store
	dg           *discordgo.Session
	b            *bot.Bot
	seed         int64
	// pictures: nil for the real renderer.
	pictures bot.Pictures
	clock    *offsetClock
	// deck: the deck new games start with (nil: the embedded deck).
	deck *engine.Deck
	// ai: nil for the real AI opponent (package ai).
	ai bot.AIOpponent
	// analyst: nil for the real analysis with a small budget.
	analyst bot.Analyst
	// shard: the gateway shard the session opens and the bot's games
	// (zero: the only process).
	shard bot.Shard
	// wrap, if set, wraps the store the bot is given (h.store stays the
	// store itself).
	wrap func(storage.Store) storage.Store
	// log, if set, is the bot's logger (nil: slog's default).
	log *slog.Logger
}

// offsetClock is the real time moved forward by a settable offset.
type offsetClock struct {
	mu     sync.Mutex
	offset time.Duration
}

func (c *offsetClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return time.Now().Add(c.offset)
}

func (c *offsetClock) Advance(d time.Duration) {
	c.mu.Lock()
	c.offset += d
	c.mu.Unlock()
}

func newHarness(t testing.TB, opts ...fakediscord.Option) *harness {
	t.Helper()
	return newHarnessWith(t, nil, append([]fakediscord.Option{defaultGuild()}, opts...)...)
}

func defaultGuild() fakediscord.Option {
	return fakediscord.WithGuild(defaultGuildConfig())
}

// defaultGuildConfig is the cast's server (its preferred locale en-US).
func defaultGuildConfig() fakediscord.Guild {
	hidden := int64(discordgo.PermissionViewChannel)
	return fakediscord.Guild{
		ID: guildID, Name: "Paris 1871", OwnerID: owner,
		Roles: []fakediscord.Role{
			{ID: modsRole, Name: "mods", Permissions: discordgo.PermissionManageChannels},
			{ID: mgrRole, Name: "managers", Permissions: discordgo.PermissionManageServer},
		},
		Channels: []fakediscord.Channel{
			{ID: chanID, Name: "commune", Overwrites: []*discordgo.PermissionOverwrite{
				{ID: chanMod, Type: discordgo.PermissionOverwriteTypeMember, Allow: discordgo.PermissionManageChannels}}},
			{ID: chan2ID, Name: "versailles"},
			{ID: staffID, Name: "staff", Overwrites: []*discordgo.PermissionOverwrite{
				{ID: guildID, Type: discordgo.PermissionOverwriteTypeRole, Deny: hidden},
				{ID: modsRole, Type: discordgo.PermissionOverwriteTypeRole, Allow: hidden},
				{ID: mgrRole, Type: discordgo.PermissionOverwriteTypeRole, Allow: hidden}}},
		},
		Members: []fakediscord.Member{
			{UserID: alice, Username: "alice"}, {UserID: bob, Username: "bob"}, {UserID: carol, Username: "carol"},
			{UserID: admin, Username: "admin", Roles: []string{modsRole}},
			{UserID: manager, Username: "manager", Roles: []string{mgrRole}},
			{UserID: chanMod, Username: "chanmod"}, {UserID: owner, Username: "owner"},
		},
	}
}

// newHarnessWith: pictures nil means the real renderer. opts come after
// the harness's own options (the API version, the check against Discord's
// description), so a test may replace them.
func newHarnessWith(t testing.TB, pictures bot.Pictures, opts ...fakediscord.Option) *harness {
	t.Helper()
	h := &harness{t: t, srv: fakediscord.New(t, append([]fakediscord.Option{botAPIVersion(), discordSpec(t)}, opts...)...), dbPath: filepath.Join(t.TempDir(), "rfop.db"), seed: 7, pictures: pictures, clock: &offsetClock{}}
	h.start()
	t.Cleanup(h.stop)
	return h
}

// botAPIVersion makes the fake serve only the API version the bot speaks,
// so that every end-to-end test fails on a request or gateway connection
// under another version.
func botAPIVersion() fakediscord.Option {
	v, err := strconv.Atoi(bot.APIVersion)
	if err != nil {
		panic("bot.APIVersion is not a number: " + bot.APIVersion)
	}
	return fakediscord.WithAPIVersion(v)
}

// discordSpec checks every request the bot sends against Discord's own
// description of API v10 (internal/discordspec): one the real Discord
// would refuse fails the test.
func discordSpec(t testing.TB) fakediscord.Option {
	ck, err := discordspec.Load()
	require.NoError(t, err)
	return fakediscord.WithRequestCheck(func(r *fakediscord.Request) error {
		return ck.Check(r.Method, r.Path, strings.HasPrefix(r.Header.Get("Content-Type"), "multipart/"), r.Payload)
	})
}

func (h *harness) start() {
	t := h.t
	if h.ctx == nil {
		h.ctx, h.stopCtx = testctx.Context(t), testctx.Detached(t)
	}
	store, err := storage.OpenURL(h.ctx, h.dbPath)
	require.NoError(t, err)
	dg, err := discordgo.New("Bot test-token")
	require.NoError(t, err)
	dg.Client = h.srv.HTTPClient()
	dg.LogLevel = discordgo.LogError
	if h.shard.Count > 1 {
		dg.ShardID, dg.ShardCount = h.shard.ID, h.shard.Count
	}
	seed := h.seed
	var mu sync.Mutex
	pics := h.pictures
	if pics == nil {
		pics = sharedPictures(t)
	}
	opp := h.ai
	if opp == nil {
		opp = bot.DefaultAI()
	}
	var given storage.Store = store
	if h.wrap != nil {
		given = h.wrap(store)
	}
	an := h.analyst
	if an == nil {
		an = bot.NewAnalyst(analysis.Config{Level: ai.Easy, Samples: 20})
	}
	b := bot.New(bot.Deps{Session: dg, Store: given, Pictures: pics, Solo: bot.DefaultSolo(), AI: opp, Analyst: an, AppID: h.srv.AppID(), Clock: h.clock,
		Deck: h.deck, Directory: dg.State, Seed: func() int64 { mu.Lock(); defer mu.Unlock(); seed++; return seed }, Shard: h.shard, Log: h.log})
	dg.AddHandler(b.OnInteraction)
	dg.AddHandler(b.OnChannelDelete)
	dg.AddHandler(b.OnGuildCreate)
	dg.AddHandler(b.OnGuildUpdate)
	require.NoError(t, dg.Open())
	require.NoError(t, b.RegisterCommands(""))
	_, err = b.CheckGames(h.ctx) // as Run does before serving
	require.NoError(t, err)
	require.NoError(t, b.Resume(h.ctx))
	h.store, h.dg, h.b = store, dg, b
}

func (h *harness) stop() {
	if h.b == nil {
		return
	}
	// A board drawn after a test's last check (under -race, on a busy
	// machine) may take seconds: the shutdown waits for it, as long as the
	// test may.
	require.NoError(h.t, h.b.Shutdown(h.stopCtx))
	_ = h.dg.Close()
	_ = h.store.Close()
	h.b = nil
}

// restartAs restarts the bot as another shard.
func (h *harness) restartAs(shard bot.Shard) {
	h.stop()
	h.shard = shard
	h.start()
}

// restart stops the bot and starts a new one on the same database.
func (h *harness) restart() {
	h.stop()
	h.start()
}

// command runs a slash command and waits for its initial response.
func (h *harness) command(user, guild, channel string, sub fakediscord.Arg) (*fakediscord.Interaction, *fakediscord.InteractionResponse) {
	h.t.Helper()
	i := h.srv.SlashCommand(user, guild, channel, "rfop", sub)
	r, err := i.WaitResponse(h.ctx)
	require.NoError(h.t, err, "no response to /rfop %s", sub.Name)
	return i, r
}

// settled waits for the interaction's @original to be filled in.
func (h *harness) settled(i *fakediscord.Interaction) *fakediscord.Message {
	h.t.Helper()
	m, err := i.WaitOriginal(h.ctx, nil)
	require.NoError(h.t, err)
	return m
}

// answer is the bot's answer to i, and whether only the clicker sees it:
// the reply itself, the deferred reply once filled in, or, for a click
// acknowledged as a message update, its follow-up, or else the clicked
// message as the interaction's own token edited it (an answer everyone
// who sees that message sees).
func (h *harness) answer(i *fakediscord.Interaction) (text string, private bool) {
	h.t.Helper()
	resp, err := i.WaitResponse(h.ctx)
	require.NoError(h.t, err, "%s", i)
	switch resp.Type {
	case discordgo.InteractionResponseChannelMessageWithSource:
		return resp.Content, resp.Ephemeral()
	case discordgo.InteractionResponseDeferredChannelMessageWithSource:
		m := h.settled(i)
		return m.Content, m.Ephemeral()
	case discordgo.InteractionResponseDeferredMessageUpdate:
		var got *fakediscord.Message
		require.True(h.t, h.srv.WaitFor(h.ctx, func() bool {
			if fs := i.Followups(); len(fs) > 0 {
				got = fs[0]
			} else {
				got = i.Edited()
			}
			return got != nil
		}), "%s: no answer", i)
		return got.Content, got.Ephemeral()
	}
	return fmt.Sprintf("response type %d", resp.Type), false
}

func (h *harness) game(channel string) storage.Game {
	h.t.Helper()
	rec, err := h.store.GameByChannel(h.ctx, channel)
	require.NoError(h.t, err)
	return rec
}

func (h *harness) gameByID(id int64) storage.Game {
	h.t.Helper()
	rec, err := h.store.GameByID(h.ctx, id)
	require.NoError(h.t, err)
	return rec
}

func (h *harness) engineGame(rec storage.Game) *engine.Game {
	h.t.Helper()
	g, err := engine.Load(rec.State, nil)
	require.NoError(h.t, err)
	return g
}

// turnMessage is the newest channel message with a "Take my turn" button.
func (h *harness) turnMessage(channel string) *fakediscord.Message {
	h.t.Helper()
	if m := h.findTurnMessage(channel); m != nil {
		return m
	}
	h.t.Fatalf("no message with a Take my turn button in channel %s", channel)
	return nil
}

func (h *harness) findTurnMessage(channel string) *fakediscord.Message {
	msgs := h.srv.Messages(channel)
	if len(msgs) == 0 {
		msgs = h.srv.DMs(alice) // a DM game
	}
	for k := len(msgs) - 1; k >= 0; k-- {
		if msgs[k].Button("Take my turn") != nil {
			return msgs[k]
		}
	}
	return nil
}

// boardMessages are the board messages of a channel (current versions),
// oldest first. Their title names the game in the server's edition ("Red
// Flag Over Paris", "La Commune ou la Mort", ...), then "— game #N".
var boardTitle = regexp.MustCompile(`^\*\*[^*\n]+ — game #\d+ · `)

func (h *harness) boardMessages(channel string) []*fakediscord.Message {
	var out []*fakediscord.Message
	for _, m := range h.srv.Messages(channel) {
		if boardTitle.MatchString(m.Content) {
			out = append(out, m)
		}
	}
	return out
}

// requireOneLiveBoard checks the publication model: the newest channel
// message with buttons is the newest board, with its picture; every
// older board has neither buttons nor attachments. It returns that board.
func (h *harness) requireOneLiveBoard(channel string) *fakediscord.Message {
	h.t.Helper()
	boards := h.boardMessages(channel)
	require.NotEmpty(h.t, boards, "no board in %s", channel)
	live := boards[len(boards)-1]
	require.NotNil(h.t, live.Button("Take my turn"), "the newest board has the live buttons")
	require.NotNil(h.t, live.Button("My hand"))
	require.NotNil(h.t, live.Attachment("board.png"), "the newest board has the picture")
	require.Len(h.t, live.Attachments, 1)
	msgs := h.srv.Messages(channel)
	for k := len(msgs) - 1; k >= 0; k-- {
		if len(msgs[k].AllComponents()) > 0 {
			require.Equal(h.t, live.ID, msgs[k].ID, "the newest message with buttons is the board")
			break
		}
	}
	for _, old := range boards[:len(boards)-1] {
		require.Empty(h.t, old.AllComponents(), "an old board (%s) has no buttons", old.ID)
		require.Empty(h.t, old.Attachments, "an old board (%s) has no picture", old.ID)
	}
	return live
}

func choiceComponents(m *fakediscord.Message) (buttons []*fakediscord.Component, selects []*fakediscord.Component) {
	for _, c := range m.AllComponents() {
		switch {
		case c.Type == discordgo.ButtonComponent && strings.HasPrefix(c.CustomID, "rfop/c/"):
			buttons = append(buttons, c)
		case c.Type == discordgo.SelectMenuComponent && strings.HasPrefix(c.CustomID, "rfop/s/"):
			selects = append(selects, c)
		}
	}
	return
}

// clickFirst makes the first choice of a panel as user (who may not be
// the panel's owner).
func (h *harness) clickFirst(user string, panel *fakediscord.Message) *fakediscord.Interaction {
	buttons, selects := choiceComponents(panel)
	if len(buttons) > 0 {
		return h.srv.Click(user, panel, buttons[0].CustomID)
	}
	require.NotEmpty(h.t, selects, "the panel offers no choice")
	return h.srv.Select(user, panel, selects[0].CustomID, selects[0].Options[0].Value)
}

// choose makes one random choice on a panel message and returns the panel
// as the bot updated it.
func (h *harness) choose(user string, panel *fakediscord.Message, r *rand.Rand) *fakediscord.Message {
	h.t.Helper()
	buttons, selects := choiceComponents(panel)
	var i *fakediscord.Interaction
	if n := len(buttons); n > 0 && (len(selects) == 0 || r.IntN(2) == 0) {
		i = h.srv.Click(user, panel, buttons[r.IntN(n)].CustomID)
	} else {
		s := selects[r.IntN(len(selects))]
		i = h.srv.Select(user, panel, s.CustomID, s.Options[r.IntN(len(s.Options))].Value)
	}
	resp, err := i.WaitResponse(h.ctx)
	require.NoError(h.t, err)
	require.Equal(h.t, discordgo.InteractionResponseDeferredMessageUpdate, resp.Type, "a choice is acknowledged at once")
	m, err := h.srv.WaitMessage(h.ctx, func(m *fakediscord.Message) bool { return m.ID == panel.ID && m.Version > panel.Version })
	require.NoError(h.t, err, "the panel was not updated after %s", i)
	// The panel does not wait for the board: wait for the publication.
	require.NoError(h.t, h.b.WaitPublished(h.ctx))
	return m
}

// takeTurn opens user's panel from the board and makes decisions until
// the chain ends. It reports whether the user had anything to decide.
func (h *harness) takeTurn(user, channel string, r *rand.Rand) bool {
	h.t.Helper()
	board := h.findTurnMessage(channel)
	if board == nil {
		// The final board has no buttons: nothing to do once the game is over.
		_, err := h.store.GameByChannel(context.Background(), channel)
		require.ErrorIs(h.t, err, storage.ErrNotFound, "no message with a Take my turn button in channel %s", channel)
		return false
	}
	i := h.srv.ClickLabel(user, board, "Take my turn")
	resp, err := i.WaitResponse(h.ctx)
	require.NoError(h.t, err)
	require.True(h.t, resp.Ephemeral(), "the turn panel is private")
	panel := resp.Message
	acted := false
	for steps := 0; steps < 200; steps++ {
		if b, s := choiceComponents(panel); len(b)+len(s) == 0 {
			return acted
		}
		panel = h.choose(user, panel, r)
		acted = true
	}
	h.t.Fatalf("%s's decision chain did not end", user)
	return acted
}

// playUntil plays random legal choices by clicking until stop says so.
func (h *harness) playUntil(gameID int64, channel string, users []string, r *rand.Rand, stop func(storage.Game) bool) storage.Game {
	h.t.Helper()
	for round := 0; round < 2000; round++ {
		rec := h.gameByID(gameID)
		if rec.Status != storage.StatusActive || stop(rec) {
			return rec
		}
		any := false
		for _, u := range users {
			if h.takeTurn(u, channel, r) {
				any = true
			}
		}
		require.True(h.t, any, "nobody could act in game %d", gameID)
	}
	h.t.Fatalf("game %d did not end", gameID)
	return storage.Game{}
}

func resultOf(t testing.TB, rec storage.Game) engine.Result {
	var r engine.Result
	require.NoError(t, json.Unmarshal(rec.Result, &r))
	return r
}

// startChallenge: alice challenges bob in channel, bob accepts.
func (h *harness) startChallenge(channel string, aliceSide string) storage.Game {
	h.t.Helper()
	return h.startChallengeIn(guildID, channel, aliceSide)
}

// startChallengeIn is startChallenge in another guild.
func (h *harness) startChallengeIn(guild, channel string, aliceSide string) storage.Game {
	h.t.Helper()
	_, resp := h.command(alice, guild, channel, fakediscord.SubCmd("new",
		fakediscord.UserArg("opponent", bob), fakediscord.StrArg("side", aliceSide)))
	// The challenge speaks the server's language: find its Accept button
	// by what it does, not by its label.
	i := h.srv.Click(bob, resp.Message, h.verbButton(resp.Message, "accept").CustomID)
	_, err := i.WaitResponse(h.ctx)
	require.NoError(h.t, err)
	_, err = h.srv.WaitMessage(h.ctx, func(m *fakediscord.Message) bool {
		return m.ID == resp.Message.ID && m.Version > resp.Message.Version
	})
	require.NoError(h.t, err)
	rec := h.game(channel)
	require.Equal(h.t, storage.StatusActive, rec.Status)
	_, err = h.srv.WaitMessage(h.ctx, func(m *fakediscord.Message) bool {
		return m.ChannelID == channel && m.Button("Take my turn") != nil
	})
	require.NoError(h.t, err, "the board is posted when the game starts")
	require.NoError(h.t, h.b.WaitPublished(h.ctx), "and the hand DMs")
	return rec
}

// verbButton is the button of m whose custom id has verb ("accept",
// "decline", "turn"...), whatever its label's language.
func (h *harness) verbButton(m *fakediscord.Message, verb string) *fakediscord.Component {
	h.t.Helper()
	for _, c := range m.AllComponents() {
		if c.Type == discordgo.ButtonComponent && strings.HasPrefix(c.CustomID, "rfop/"+verb+"/") {
			return c
		}
	}
	h.t.Fatalf("no %s button on message %s", verb, m.ID)
	return nil
}
