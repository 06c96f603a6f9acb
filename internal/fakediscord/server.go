package fakediscord

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/rfop/rfop/internal/testctx"
)

// User is a Discord user known to the fake (a player, or the bot itself).
type User struct {
	ID         string
	Username   string
	GlobalName string
	Bot        bool
	// Locale is sent as the interaction's "locale"; "" means "en-US".
	Locale string
}

// Guild configures a guild (server) the bot is a member of.
type Guild struct {
	ID      string
	Name    string
	OwnerID string
	// Channels of the guild; Type 0 (text) unless set.
	Channels []Channel
	// Roles of the guild. An @everyone role (ID == guild ID) with ordinary
	// member permissions is added unless one is given.
	Roles []Role
	// Members of the guild. The bot is added as a member, unless WithoutBot.
	Members []Member
	// WithoutBot: the bot is not a member of the guild (the app is not
	// installed there), as when a member uses a user install of the app
	// in a server that never invited it. The gateway never announces the
	// guild nor sends its events (but for the interactions of the user
	// install, routed to the shard of the guild as Discord does); the REST
	// API refuses the bot the guild, its channels and its commands (403
	// Missing Access, 50001); /users/@me/guilds does not list it. Its
	// interactions need Where.UserInstall: authorizing_integration_owners
	// then names only the user's install, and app_permissions are those of
	// @everyone.
	WithoutBot bool
	// BotPermissions is sent as app_permissions on interactions;
	// 0 means discordgo.PermissionAll.
	BotPermissions int64
	// PreferredLocale is the guild's preferred_locale (GUILD_CREATE, the
	// guild endpoint) and its interactions' guild_locale; "" means "en-US".
	PreferredLocale string
}

// Channel configures a guild channel.
type Channel struct {
	ID       string
	Name     string
	Type     discordgo.ChannelType
	ParentID string
	Topic    string
	// Overwrites are the channel's permission overwrites (@everyone's has
	// the guild's id), sent with the channel and applied, in Discord's
	// order, to the permissions of members in interactions there.
	Overwrites []*discordgo.PermissionOverwrite
}

// Role configures a guild role.
type Role struct {
	ID          string
	Name        string
	Permissions int64
	Position    int
	Color       int
}

// Member configures a guild member. The user is created if unknown, named
// Username (or "user-<id>").
type Member struct {
	UserID   string
	Username string
	Nick     string
	Roles    []string
	// Permissions, if non-zero, is sent verbatim as the member's computed
	// permissions in interactions. Otherwise they are computed from the
	// @everyone role and the member's roles (the owner and administrators
	// get discordgo.PermissionAll), then the interaction channel's
	// overwrites.
	Permissions int64
}

// Option configures a Server.
type Option func(*config)

type config struct {
	botUser           User
	appID             string
	token             string
	guilds            []Guild
	users             []User
	heartbeat         time.Duration
	deadline          time.Duration
	dispatchWait      time.Duration
	messageEvents     bool
	allowUnknown      bool
	noValidation      bool
	strictCommands    bool
	noFileData        bool
	maxResumeBuffered int
	shards            int
	apiVersion        int
	requestCheck      func(*Request) error
	rateN             int
	ratePer           time.Duration
}

// WithBotUser sets the bot's user id and name (default: a fresh snowflake
// named "rfop-bot").
func WithBotUser(id, username string) Option {
	return func(c *config) { c.botUser.ID, c.botUser.Username = id, username }
}

// WithAppID sets the application id (default: the bot user's id, as for
// every modern Discord application).
func WithAppID(id string) Option { return func(c *config) { c.appID = id } }

// WithToken makes the fake require this bot token: REST calls (other than
// interaction callbacks and webhooks) must send "Authorization: Bot <token>"
// (or the bare token), else 401; IDENTIFY/RESUME with another token is
// closed with 4004. By default any token is accepted.
func WithToken(token string) Option { return func(c *config) { c.token = token } }

// WithGuild adds a guild.
func WithGuild(g Guild) Option { return func(c *config) { c.guilds = append(c.guilds, g) } }

// WithUser adds a user (for example a player who is not in any guild and
// only talks to the bot in DMs).
func WithUser(u User) Option { return func(c *config) { c.users = append(c.users, u) } }

// WithShards sets the shard count GET /gateway/bot recommends (default 1).
// Sessions choose their shard in IDENTIFY ("shard": [id, count]) whatever
// this says; each receives the events of the guilds it owns (ShardOf).
func WithShards(n int) Option { return func(c *config) { c.shards = n } }

// WithHeartbeatInterval sets the heartbeat_interval sent in HELLO
// (default 41.25s, as Discord).
func WithHeartbeatInterval(d time.Duration) Option {
	return func(c *config) { c.heartbeat = d }
}

// WithInteractionDeadline makes interaction callbacks that arrive later
// than d after the INTERACTION_CREATE was sent fail with 404 / 10062
// "Unknown interaction", as Discord does after 3 seconds. Disabled (0) by
// default so that slow CI machines do not make tests flaky; the latency is
// always recorded (InteractionResponse.Latency).
func WithInteractionDeadline(d time.Duration) Option {
	return func(c *config) { c.deadline = d }
}

// WithDispatchWait bounds how long simulated user actions (SlashCommand,
// Click, ...) and Dispatch wait for a gateway session that has received
// READY before giving up. By default they wait as long as the test may
// (internal/testctx): a session that is slow to connect on a busy machine
// makes the test slower, not red.
func WithDispatchWait(d time.Duration) Option {
	return func(c *config) { c.dispatchWait = d }
}

// WithMessageEvents makes the fake dispatch MESSAGE_CREATE, MESSAGE_UPDATE
// and MESSAGE_DELETE for the bot's own (non-ephemeral) messages, as Discord
// does. Off by default to keep gateway traffic low.
func WithMessageEvents() Option { return func(c *config) { c.messageEvents = true } }

// AllowUnknownRoutes stops the fake from failing the test (at cleanup) when
// the client called a route the fake does not implement. The calls are
// still answered 404 and listed by Unknown.
func AllowUnknownRoutes() Option { return func(c *config) { c.allowUnknown = true } }

// WithoutValidation turns off the checks of Discord's limits on messages,
// components and commands (content length, five buttons per row, unique
// custom ids, command names, ...). They are on by default because Discord
// rejects such requests with 400 / 50035.
func WithoutValidation() Option { return func(c *config) { c.noValidation = true } }

// WithoutFileData makes the fake keep only the size, type and image
// dimensions of uploaded files, not their bytes (Attachment.Data is nil,
// Image fails, the attachment URL serves nothing). For load tests whose
// process memory must be the bot's, not the fake's recording.
func WithoutFileData() Option { return func(c *config) { c.noFileData = true } }

// WithAPIVersion makes the fake serve only API version v (REST paths
// /api/v{v}/..., the gateway's ?v={v}), as a test that pins the client's
// version wants: a REST call under another version is answered 400 with
// code 50041 (Invalid API version provided) and fails the test at cleanup;
// a gateway connection asking for another version is closed with 4012
// (Invalid API version). Without it every version is served, and
// requests are checked by the rules of the version they name (Request's
// APIVersion).
func WithAPIVersion(v int) Option { return func(c *config) { c.apiVersion = v } }

// WithRequestCheck checks every API request (its Payload and Header
// included) with check before serving it, as a stricter Discord would: a
// request check refuses is answered 400 with code 50035 and the reason,
// and fails the test at cleanup. The bot's end-to-end tests check each
// request against Discord's own API description (internal/discordspec);
// nil checks nothing (the default).
func WithRequestCheck(check func(*Request) error) Option {
	return func(c *config) { c.requestCheck = check }
}

// WithChannelRateLimits limits the bot's writes in each channel as
// Discord does: at most n message creates per period, and n edits or
// deletes, per channel, with Discord's X-RateLimit-* headers on every
// answer of those routes (discordgo waits by them) and 429 past the limit
// (counted by RateLimited). Discord allows about 5 per 5 seconds. Off by
// default; load tests turn it on so that a publication backlog shows.
func WithChannelRateLimits(n int, per time.Duration) Option {
	return func(c *config) { c.rateN, c.ratePer = n, per }
}

// WithStrictCommands makes SlashCommand and Autocomplete fail the test when
// the command was not registered by the bot (bulk overwrite or create).
// Otherwise unregistered commands are dispatched anyway, and only registered
// ones have their arguments checked against the declared options.
func WithStrictCommands() Option { return func(c *config) { c.strictCommands = true } }

// Server is a fake Discord: REST API under /api/v10 (or any /api/vN), the gateway websocket
// under /gateway, and a recorder of everything the bot did. Create it with
// New; it is closed by the test's cleanup. All methods are safe for
// concurrent use.
type Server struct {
	t   testing.TB
	cfg config
	// ctx is the test's (testctx.Context): it bounds the dispatch wait.
	ctx context.Context
	hs  *httptest.Server
	u   *url.URL

	bot   *discordgo.User
	appID string

	idCounter atomic.Int64

	mu      sync.Mutex
	changed chan struct{}

	users      map[string]*User
	guilds     map[string]*guildState
	guildOrder []string
	channels   map[string]*channelState
	dmByUser   map[string]string
	closedDMs  map[string]bool
	noMutual   map[string]bool // NoMutualGuilds

	msgs      map[string]*msgState
	chanMsgs  map[string][]string
	msgEvents []MessageEvent
	created   []*msgState // every message, in creation order
	files     []*Attachment

	ixByID    map[string]*ixState
	ixByToken map[string]*ixState
	ixOrder   []*ixState
	responses []*InteractionResponse

	commands map[string][]*discordgo.ApplicationCommand // "" = global

	faults      []*Fault
	rateLimited int
	rates       map[string]*rateWindow // WithChannelRateLimits: each bucket's window
	requests    []*Request
	unknown     []string
	badVersions []string // calls under a version WithAPIVersion does not serve
	refused     []string // calls WithRequestCheck refused, with why

	gw gateway

	logMu  sync.RWMutex
	closed bool

	transport *http.Transport
}

// New starts a fake Discord on 127.0.0.1 and registers its shutdown with
// t.Cleanup. Unless AllowUnknownRoutes is given, the cleanup fails the test
// if the client called a route the fake does not implement.
func New(t testing.TB, opts ...Option) *Server {
	t.Helper()
	cfg := config{
		heartbeat:         41250 * time.Millisecond,
		maxResumeBuffered: 2000,
	}
	for _, o := range opts {
		o(&cfg)
	}
	s := &Server{
		t:         t,
		cfg:       cfg,
		ctx:       testctx.Context(t),
		changed:   make(chan struct{}),
		users:     map[string]*User{},
		guilds:    map[string]*guildState{},
		channels:  map[string]*channelState{},
		dmByUser:  map[string]string{},
		closedDMs: map[string]bool{},
		noMutual:  map[string]bool{},
		msgs:      map[string]*msgState{},
		chanMsgs:  map[string][]string{},
		ixByID:    map[string]*ixState{},
		ixByToken: map[string]*ixState{},
		commands:  map[string][]*discordgo.ApplicationCommand{},
	}
	s.gw.init(cfg.maxResumeBuffered)

	if cfg.botUser.ID == "" {
		cfg.botUser.ID = s.newID()
	}
	if cfg.botUser.Username == "" {
		cfg.botUser.Username = "rfop-bot"
	}
	s.bot = &discordgo.User{ID: cfg.botUser.ID, Username: cfg.botUser.Username, Discriminator: "0", Bot: true}
	s.appID = cfg.appID
	if s.appID == "" {
		s.appID = s.bot.ID
	}
	bu := cfg.botUser
	bu.Bot = true
	s.users[bu.ID] = &bu
	for _, u := range cfg.users {
		uc := u
		s.users[u.ID] = &uc
	}
	for _, g := range cfg.guilds {
		s.addGuildLocked(g)
	}

	s.hs = httptest.NewServer(http.HandlerFunc(s.serveHTTP))
	s.u, _ = url.Parse(s.hs.URL)
	s.transport = &http.Transport{
		Proxy:               nil,
		MaxIdleConns:        512,
		MaxIdleConnsPerHost: 512,
		IdleConnTimeout:     30 * time.Second,
	}
	t.Cleanup(s.Close)
	return s
}

// Close shuts the fake down: gateway connections are dropped and the HTTP
// server stops. It is called by the test cleanup; calling it twice is fine.
func (s *Server) Close() {
	s.logMu.Lock()
	already := s.closed
	s.closed = true
	s.logMu.Unlock()
	if already {
		return
	}
	s.gw.closeAll()
	s.hs.CloseClientConnections()
	s.hs.Close()
	s.gw.wg.Wait()
	s.transport.CloseIdleConnections()
	s.mu.Lock()
	bad := s.badVersions
	s.mu.Unlock()
	if len(bad) > 0 {
		s.t.Errorf("fakediscord: the client used an API version other than v%d:\n  %s", s.cfg.apiVersion, strings.Join(bad, "\n  "))
	}
	s.mu.Lock()
	refused := s.refused
	s.mu.Unlock()
	if len(refused) > 0 {
		s.t.Errorf("fakediscord: %d request(s) failed the request check:\n  %s", len(refused), strings.Join(refused, "\n  "))
	}
	if !s.cfg.allowUnknown {
		if u := s.Unknown(); len(u) > 0 {
			s.t.Errorf("fakediscord: the client called %d route(s) the fake does not implement:\n  %s",
				len(u), strings.Join(u, "\n  "))
		}
	}
}

// logf logs through the test unless the server is closed (logging after a
// test has finished panics).
func (s *Server) logf(format string, args ...any) {
	s.logMu.RLock()
	defer s.logMu.RUnlock()
	if !s.closed {
		s.t.Logf("fakediscord: "+format, args...)
	}
}

// errorf reports a test failure (safe from any goroutine).
func (s *Server) errorf(format string, args ...any) {
	s.logMu.RLock()
	defer s.logMu.RUnlock()
	if !s.closed {
		s.t.Errorf("fakediscord: "+format, args...)
	}
}

// URL is the base URL of the fake, "http://127.0.0.1:PORT".
func (s *Server) URL() string { return s.hs.URL }

// APIURL is the REST root of discordgo's version, "http://127.0.0.1:PORT/api/v10/".
func (s *Server) APIURL() string { return s.hs.URL + "/api/v" + discordgo.APIVersion + "/" }

// GatewayURL is the websocket URL returned by GET /gateway,
// "ws://127.0.0.1:PORT/gateway".
func (s *Server) GatewayURL() string { return "ws://" + s.u.Host + "/gateway" }

// BotUser returns (a copy of) the bot's user.
func (s *Server) BotUser() *discordgo.User {
	u := *s.bot
	return &u
}

// AppID is the application id (the bot user's id unless WithAppID).
func (s *Server) AppID() string { return s.appID }

// Transport returns an http.RoundTripper that sends every request to the
// fake, whatever its scheme and host ("https://discord.com/api/v9/..."
// becomes "http://127.0.0.1:PORT/api/v9/..."), keeping path and query. Use
// it as the transport of the discordgo session's HTTP client:
//
//	dg.Client = &http.Client{Transport: srv.Transport()}
func (s *Server) Transport() http.RoundTripper {
	return &rewriteTransport{target: s.u, next: s.transport}
}

// HTTPClient returns an *http.Client using Transport, with a 20s timeout
// like discordgo's default client.
func (s *Server) HTTPClient() *http.Client {
	return &http.Client{Transport: s.Transport(), Timeout: 20 * time.Second}
}

type rewriteTransport struct {
	target *url.URL
	next   http.RoundTripper
}

func (rt *rewriteTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r2 := r.Clone(r.Context())
	r2.URL.Scheme = rt.target.Scheme
	r2.URL.Host = rt.target.Host
	r2.Host = rt.target.Host
	return rt.next.RoundTrip(r2)
}

// discordEpoch is 2015-01-01T00:00:00Z in milliseconds.
const discordEpoch = 1420070400000

// newID returns a fresh, strictly increasing snowflake.
func (s *Server) newID() string {
	for {
		last := s.idCounter.Load()
		cand := (time.Now().UnixMilli() - discordEpoch) << 22
		if cand <= last {
			cand = last + 1
		}
		if s.idCounter.CompareAndSwap(last, cand) {
			return strconv.FormatInt(cand, 10)
		}
	}
}

func randHex(nbytes int) string {
	b := make([]byte, nbytes)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// newToken returns a fresh interaction token.
func newToken() string { return "aW50ZXJhY3Rpb246" + randHex(24) }

// notifyLocked wakes every WaitFor. Must be called with s.mu held.
func (s *Server) notifyLocked() {
	close(s.changed)
	s.changed = make(chan struct{})
}

func (s *Server) notify() {
	s.mu.Lock()
	s.notifyLocked()
	s.mu.Unlock()
}

// Changed returns a channel that is closed at the next thing the fake
// records (a request, a message, an interaction, a gateway event): a test
// that drives the bot from another goroutine acts on each change instead
// of polling.
func (s *Server) Changed() <-chan struct{} { return s.changeCh() }

func (s *Server) changeCh() <-chan struct{} {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.changed
}

// WaitFor waits until cond returns true or ctx ends, and reports whether
// cond became true. cond is re-evaluated whenever the fake records
// something (and at least every 20ms), so it may read any of the fake's
// recorders or the test's own state. It must not block. Tests pass their
// one bound for every wait, testctx.Context(t), rather than a duration.
func (s *Server) WaitFor(ctx context.Context, cond func() bool) bool {
	timer := time.NewTimer(pollEvery)
	defer timer.Stop()
	for {
		ch := s.changeCh()
		if cond() {
			return true
		}
		if ctx.Err() != nil {
			return false
		}
		timer.Reset(pollEvery)
		select {
		case <-ch:
		case <-timer.C:
		case <-ctx.Done():
		}
	}
}

// stopped says why a wait on ctx ended without its event: the context's
// cause, or the fake's closing.
func stopped(ctx context.Context) error {
	if err := context.Cause(ctx); err != nil {
		return err
	}
	return errors.New("the fake Discord is closed")
}

// pollEvery is how often WaitFor looks again when the fake records
// nothing (its condition may read the test's own state, a database).
const pollEvery = 20 * time.Millisecond

// dispatchContext bounds the wait of a simulated user action for a
// gateway session (WithDispatchWait, else the test's context).
func (s *Server) dispatchContext() (context.Context, context.CancelFunc) {
	if s.cfg.dispatchWait > 0 {
		return context.WithTimeout(s.ctx, s.cfg.dispatchWait)
	}
	return s.ctx, func() {}
}
