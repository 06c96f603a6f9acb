// Package bot hosts Red Flag Over Paris games on Discord: slash commands
// and message components mapped to engine prompts, the board picture after
// every play, hands and objectives by DM, reminders, and the solo opponent.
//
// Layering: bot depends on the engine (rules), storage (persistence,
// through storage.Store), a Pictures renderer and a SoloPolicy, each
// behind a small interface so handlers are testable without the next
// layer; Discord is reached only through Session. Every interaction is
// acknowledged within Discord's 3-second window (deferred first when a
// picture must be drawn), and a game's moves are applied one at a time
// (a per-game lock plus the storage's optimistic version check).
//
// Publication (publish.go): each time a player must be called, a new board
// message (picture, summary, mention, Take my turn / My hand) is posted and
// the previous one keeps only its text, so the live board is always the
// newest message; otherwise the live board is edited in place. What a
// move publishes is stored with the move and delivered afterwards by the
// game's publisher (outbox.go), so a crash never loses it; a new round is
// published at once, so both players choose their objectives together.
//
// Rendering (render.go): pictures are drawn on all cores but one (one at
// a time on two cores), never on the path of an acknowledgement.
//
// Hidden information: channel messages, their attachments and summaries
// are built only from the engine's public view and public log lines;
// hands and objectives go by DM or in ephemeral replies.
//
// Who may do what is decided in one place (perms.go, the README's table),
// and who sees which games in another (visibility.go: its players, and in
// a server the members who can view its channel), which every answer that
// names a game applies. A click is authorised before anything changes; a
// refusal is a private answer, and a message others see changes only by an
// allowed click on the message its button was made for (components.go).
// Each game plays with its own deck, kept in the database (decks.go).
// The bot speaks Discord's API v10 (apiversion.go).
package bot

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/rfop/rfop/engine"
	"github.com/rfop/rfop/glossary"
	"github.com/rfop/rfop/locale"
	"github.com/rfop/rfop/storage"
)

// Pictures draws the board and cards (package render implements it). deck
// is the game's own deck (a game keeps the deck it started with), which
// names the cards and gives their texts.
type Pictures interface {
	// Board draws the public board, its labels in the game terms of lang;
	// prev (may be nil) is the previous picture's view, to highlight what
	// changed.
	Board(lang glossary.Lang, deck *engine.Deck, v engine.View, prev *engine.View, caption string) ([]byte, error)
	// Hand draws everything the viewer of v (a player's own view) holds:
	// hand, set-aside cards, Final Crisis card, objectives, in labelled
	// sections; nil, nil when it holds no card.
	Hand(lang glossary.Lang, deck *engine.Deck, v engine.View) ([]byte, error)
	// Card draws one card.
	Card(lang glossary.Lang, deck *engine.Deck, num int) ([]byte, error)
}

// SoloPolicy decides for the solo opponent (package solo implements it).
// It returns the choice and its explanation, a sentence in the players'
// languages ending with the table rows (nil: none), logged with the move.
type SoloPolicy interface {
	Decide(g *engine.Game, p engine.Prompt) (engine.Choice, *engine.Msg, error)
}

// Clock is the bot's time source (tests move it by hand).
type Clock interface{ Now() time.Time }

type systemClock struct{}

func (systemClock) Now() time.Time { return time.Now() }

// Deps are the bot's collaborators.
type Deps struct {
	Session  Session
	Store    storage.Store
	Pictures Pictures // nil: text-only boards
	Solo     SoloPolicy
	AI       AIOpponent // nil: no games against the AI (ai.go)
	Analyst  Analyst    // nil: no post-game analysis (analysis.go)
	Clock    Clock
	// Deck is the deck new games start with (the deck file, else the
	// embedded deck). A game keeps the deck it started with: it is stored
	// by id in the database (decks.go).
	Deck  *engine.Deck
	Log   *slog.Logger
	AppID string
	// Directory reads guild roles and channel overwrites (perms.go);
	// nil: only what interactions carry is known.
	Directory Directory
	// Seed returns a new game's seed; default: crypto/rand.
	Seed func() int64
	// Shard is this process's gateway shard: it runs the background work
	// of the games it owns (shard.go). Zero: one process owns everything.
	Shard Shard
}

// Bot handles Discord interactions for many games at once.
type Bot struct {
	Deps
	mu       sync.Mutex
	locks    map[int64]*sync.Mutex
	inflight sync.WaitGroup
	closing  bool // under mu, so that no interaction starts after Shutdown began waiting

	// paused: games whose stored state failed their integrity check
	// (integrity.go), with the reason; nothing is played on them.
	paused map[int64]error // under mu
	// writable: a board could be posted to the channel now without
	// waiting for its rate limits (channelWritable); nil: always.
	writable func(channel string) bool
	// dmRefused: games in DMs whose board Discord refused to post
	// (cannotDM), game id → the error code (install.go).
	dmRefused sync.Map
	langs     map[string]string                 // guild → its language setting, "" unchosen (lang.go), under mu
	terms     map[glossary.Lang]*glossary.Terms // under mu
	decks     map[string]*engine.Deck           // deck id → deck (decks.go), under mu
	saved     bool                              // Deck is stored in the database, under mu
	recent    map[string]time.Time              // cool-downs (perms.go), under mu

	// Discord locales last seen, by user and by guild (lang.go), under mu.
	userLocales, guildLocales map[string]string

	replaySlots chan struct{} // replays drawn at once (history.go)

	// Publishers (outbox.go): one per game with pending publications;
	// the flag asks it for another pass. Under mu.
	pubs map[int64]*bool
	// renderWaits: per game, the wake-up of its board or hand DM waiting
	// for a render slot (drawingUnless), rung by kick; handSince: per
	// game, when each of its hand DMs (by entry id) first waited for one
	// (cleared once the game has nothing pending).
	renderWaits map[int64]chan struct{}
	handSince   map[int64]map[int64]time.Time
	pubLocks    map[int64]*sync.Mutex
	// panelLocks: a mover's panel is edited, and its entry checked and
	// marked, by one of showPanelNow and the publisher at a time.
	panelLocks map[int64]*sync.Mutex
	// pubsIdle is closed when the last publisher leaves (under mu; nil
	// while none runs): publishersDone. Not a WaitGroup: publishers start
	// at any time, and a WaitGroup's Add from zero must not overlap a Wait
	// (the race detector's build panicked on it in WaitPublished).
	pubsIdle chan struct{}
	// dead: a test hook simulated a crash; nothing more is published.
	dead bool
	hook func(gameID int64, step string) bool

	// admit: the interactions working after their acknowledgement, a few
	// at a time (admission.go).
	admit *admission
	// renders bounds the pictures drawn at once (render.go).
	renders  *slots
	boards   boardCache
	states   stateCache    // games decoded from their stored state (states.go)
	dms      dmChannels    // users' DM channels (dmchannels.go)
	stopping chan struct{} // closed when Shutdown begins

	aiq aiQueue // the AI opponent's worker (ai.go)
	// progressEvery: the least time between two progress edits of an
	// analysis (analysis.go).
	progressEvery time.Duration

	// lease names this process in the database's outbox leases
	// (shard.go): its Incarnation is taken once, under mu.
	lease storage.LeaseHolder
	// checked: the games verified in this process (integrity.go), under
	// mu.
	checked idSet
	// started: when this process began (the system's clock). An outbox
	// entry made before may have been sent by an earlier process, perhaps
	// a version that marked no attempt (outbox.go, mustLook).
	started time.Time
}

// New returns a bot with defaults filled in.
func New(d Deps) *Bot {
	if d.Clock == nil {
		d.Clock = systemClock{}
	}
	if d.Deck == nil {
		d.Deck = engine.DefaultDeck()
	}
	if d.Log == nil {
		d.Log = slog.Default()
	}
	if st, ok := d.Directory.(*discordgo.State); ok && st != nil {
		d.Directory = stateDirectory{st} // read under the cache's lock (perms.go)
	}
	if d.Seed == nil {
		d.Seed = func() int64 {
			var b [8]byte
			_, _ = rand.Read(b[:])
			return int64(binary.LittleEndian.Uint64(b[:]) >> 1)
		}
	}
	var hb [8]byte
	_, _ = rand.Read(hb[:])
	return &Bot{Deps: d, locks: map[int64]*sync.Mutex{}, paused: map[int64]error{},
		lease: storage.LeaseHolder{Name: fmt.Sprintf("shard-%d-%x", d.Shard.ID, hb), Shard: d.Shard.ID}, started: time.Now(),
		langs: map[string]string{}, userLocales: map[string]string{}, guildLocales: map[string]string{}, terms: map[glossary.Lang]*glossary.Terms{}, decks: map[string]*engine.Deck{}, recent: map[string]time.Time{},
		replaySlots:   make(chan struct{}, maxReplays),
		progressEvery: defaultProgressEvery,
		pubs:          map[int64]*bool{}, renderWaits: map[int64]chan struct{}{}, handSince: map[int64]map[int64]time.Time{}, pubLocks: map[int64]*sync.Mutex{}, panelLocks: map[int64]*sync.Mutex{}, renders: newSlots(renderSlots()), admit: newAdmission(admitTurns(), admitPatience), stopping: make(chan struct{})}
}

// lockGame serialises a game's moves in this process.
func (b *Bot) lockGame(id int64) func() {
	b.mu.Lock()
	l, ok := b.locks[id]
	if !ok {
		l = &sync.Mutex{}
		b.locks[id] = l
	}
	b.mu.Unlock()
	l.Lock()
	return l.Unlock
}

// Shutdown refuses new interactions and waits for in-flight moves; the
// publishers finish the entry they are delivering and leave the rest to
// the next start (Resume).
func (b *Bot) Shutdown(ctx context.Context) error {
	b.mu.Lock()
	if !b.closing {
		close(b.stopping)
	}
	b.closing = true
	b.mu.Unlock()
	done := make(chan struct{})
	go func() { b.inflight.Wait(); <-b.publishersDone(); close(done) }()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("shutdown: in-flight moves did not finish: %w", ctx.Err())
	}
}

// OnInteraction is the discordgo handler for INTERACTION_CREATE.
func (b *Bot) OnInteraction(_ *discordgo.Session, ic *discordgo.InteractionCreate) {
	b.HandleInteraction(context.Background(), ic.Interaction)
}

// HandleInteraction routes one interaction.
func (b *Bot) HandleInteraction(ctx context.Context, i *discordgo.Interaction) {
	b.mu.Lock()
	closing := b.closing
	if !closing {
		b.inflight.Add(1)
	}
	b.mu.Unlock()
	if closing {
		b.replyEphemeral(i, b.privatePrinterOf(i).T("bot.reply.restarting", nil))
		return
	}
	defer b.inflight.Done()
	b.admit.begin(i)
	defer b.admit.end(i)
	defer func() {
		if r := recover(); r != nil {
			b.Log.Error("interaction handler panicked", "panic", r, "interaction", i.ID)
			b.replyEphemeral(i, b.privatePrinterOf(i).T("bot.reply.panic", nil))
		}
	}()
	defer b.observe(i)(ctx)
	switch i.Type {
	case discordgo.InteractionApplicationCommand:
		b.onCommand(ctx, i)
	case discordgo.InteractionApplicationCommandAutocomplete:
		b.onAutocomplete(i)
	case discordgo.InteractionMessageComponent:
		b.onComponent(ctx, i)
	}
}

// OnChannelDelete archives the game of a deleted channel.
func (b *Bot) OnChannelDelete(_ *discordgo.Session, c *discordgo.ChannelDelete) {
	b.HandleChannelDelete(context.Background(), c.ID)
}

// HandleChannelDelete abandons the open game of a deleted channel.
func (b *Bot) HandleChannelDelete(ctx context.Context, channelID string) {
	rec, err := b.Store.GameByChannel(ctx, channelID)
	if err != nil {
		return
	}
	if _, err := b.Store.Abandon(ctx, rec.ID); err != nil {
		b.Log.Warn("archive game of deleted channel", "game", rec.ID, "err", err)
		return
	}
	b.Log.Info("channel deleted: game archived", "game", rec.ID, "channel", channelID)
}

// RegisterCommands installs the slash commands (guildID "" = global).
func (b *Bot) RegisterCommands(guildID string) error {
	_, err := b.Session.ApplicationCommandBulkOverwrite(b.AppID, guildID, Commands())
	if err != nil {
		return fmt.Errorf("register commands: %w", err)
	}
	return nil
}

// ---- helpers about who clicked ----

func userOf(i *discordgo.Interaction) *discordgo.User {
	if i.Member != nil && i.Member.User != nil {
		return i.Member.User
	}
	return i.User
}

func userID(i *discordgo.Interaction) string {
	if u := userOf(i); u != nil {
		return u.ID
	}
	return ""
}

func mention(id string) string { return "<@" + id + ">" }

func sideKey(s engine.Side) storage.Side {
	if s == engine.Versailles {
		return storage.SideVersailles
	}
	return storage.SideCommune
}

func engineSide(s storage.Side) engine.Side {
	if s == storage.SideVersailles {
		return engine.Versailles
	}
	if s == storage.SideCommune {
		return engine.Commune
	}
	return engine.NoSide
}

// loadGame reads a game and its engine state.
func (b *Bot) loadGame(ctx context.Context, id int64) (storage.Game, *engine.Game, error) {
	rec, err := b.Store.GameByID(ctx, id)
	if err != nil {
		return rec, nil, err
	}
	b.checkOnce(ctx, rec) // the first load in this process (integrity.go)
	g, err := b.gameState(ctx, rec)
	return rec, g, err
}

// loadGameLog is loadGame for a caller that also needs the game's moves
// (a reminder's board): the game and its action log are read together
// from one snapshot, and a game this process has not checked yet is
// checked on that log (integrity.go) before anything uses it, so that
// the check and the board share one read (on PostgreSQL, one round trip
// instead of three). logged is the log (nil if it could not be decoded:
// the board then reads it again), with what the check's replay noted of
// it if the check ran here.
func (b *Bot) loadGameLog(ctx context.Context, id int64) (rec storage.Game, g *engine.Game, logged *replayNotes, err error) {
	rec, acts, err := b.Store.LoadVerified(ctx, id, nil) // the log's own checks (seq 1..N, N = the state's version) only
	if errors.Is(err, storage.ErrIntegrity) {
		// A broken log: as any other load (checked and paused if this
		// process had not checked the game yet).
		rec, g, err = b.loadGame(ctx, id)
		return rec, g, nil, err
	}
	if err != nil {
		return rec, nil, nil, err
	}
	if acts == nil {
		acts = []storage.Action{} // read: empty, not missing
	}
	logged = &replayNotes{}
	if rec.Status == storage.StatusActive && !b.Checked(id) {
		// The first load in this process: checked on the log just read;
		// the replay that passed is the game (its save is the state),
		// and what it noted serves the board.
		g = b.checkGameLog(ctx, rec, acts, logged)
	}
	if g == nil {
		g, err = b.gameState(ctx, rec)
	}
	if err != nil || g == nil {
		return rec, g, nil, err
	}
	if logged.moves == nil {
		if logged.moves, err = decodeMoves(acts); err != nil {
			return rec, g, nil, nil // the board reads the log again (and says why it cannot)
		}
		logged.kinds, logged.rounds = nil, nil
	}
	return rec, g, logged, nil
}

// gameState is the engine game of a record read with its state (nil if
// it has none), or errPaused if the game failed its integrity check.
func (b *Bot) gameState(ctx context.Context, rec storage.Game) (*engine.Game, error) {
	b.mu.Lock()
	why := b.paused[rec.ID]
	b.mu.Unlock()
	if why != nil && rec.Status == storage.StatusActive {
		return nil, fmt.Errorf("game %d: %w: %w", rec.ID, errPaused, why)
	}
	if rec.State == nil {
		return nil, nil
	}
	deck, err := b.deckOf(ctx, rec)
	if err != nil {
		return nil, err
	}
	g, err := b.states.load(rec.ID, rec.State, deck)
	if err != nil {
		return nil, fmt.Errorf("game %d: %w", rec.ID, err)
	}
	return g, nil
}

// errPaused: the game failed its integrity check (its stored state and a
// replay of its action log disagree). Playing on could build on a wrong
// state, and silently taking either one could change what the players
// saw, so the game waits for a person: /rfop abandon ends it.
var errPaused = errors.New("paused: its saved state does not match its action log")

// CheckGames prepares a start without replaying anything: a game is
// checked against its action log when it is first loaded in this process,
// and by the background Sweep (integrity.go). Shard 0 runs the
// maintenance jobs a migration asked for (storage.Maintenance): it
// records the results of games finished before results were kept, and
// rebuilds the ratings when asked or when their table is missing (they
// are otherwise kept up to date one result at a time). It returns how
// many jobs it ran. Run calls it before serving.
func (b *Bot) CheckGames(ctx context.Context) (int, error) {
	if b.Shard.ID != 0 {
		return 0, nil
	}
	jobs, err := b.Store.Maintenance(ctx)
	if err != nil {
		return 0, fmt.Errorf("read the maintenance jobs: %w", err)
	}
	ran := 0
	rebuild := false
	for _, job := range jobs {
		switch job {
		case storage.JobBackfillResults:
			// Recorded without rating them: a rebuild follows.
			if n := b.backfillResults(ctx); n > 0 {
				rebuild = true
			}
		case storage.JobRebuildRatings:
			rebuild = true
		default:
			b.Log.Warn("unknown maintenance job left for a newer version", "job", job)
			continue
		}
		ran++
	}
	if rebuild {
		if err := b.Store.RebuildRatings(ctx, rateResults); err != nil {
			b.Log.Error("rebuild ratings", "err", err)
			return ran, nil // asked again at the next start
		}
	}
	for _, job := range jobs {
		if job == storage.JobBackfillResults || job == storage.JobRebuildRatings {
			if err := b.Store.MaintenanceDone(ctx, job); err != nil {
				b.Log.Warn("maintenance job done", "job", job, "err", err)
			}
		}
	}
	return ran, nil
}

// pause marks a game that failed its integrity check.
func (b *Bot) pause(id int64, why error) {
	b.mu.Lock()
	b.paused[id] = why
	b.mu.Unlock()
}

// playerName is a mention of the human playing side, or "the solo opponent".
func playerName(rec storage.Game, side engine.Side) string {
	return playerNameIn(locale.For(locale.English), rec, side)
}

// playerNameIn is playerName in p's language: "<@id> (Versailles)", "the
// solo opponent (Commune)", "the AI opponent (hard, Commune)".
func playerNameIn(p *locale.Printer, rec storage.Game, side engine.Side) string {
	pl, ok := rec.Player(sideKey(side))
	if ok && pl.IsAI() {
		return p.T("bot.player.ai", locale.Args{"Level": aiLevelName(p, strings.TrimPrefix(pl.UserID, storage.AIUserPrefix)), "Side": p.Side(side)})
	}
	if !ok || pl.IsBot {
		return p.T("bot.player.solo", locale.Args{"Side": p.Side(side)})
	}
	return p.T("bot.player", locale.Args{"User": mention(pl.UserID), "Side": p.Side(side)})
}

// aiLevelName is an AI level (easy, normal, hard) in p's language; an
// unknown level stays as it is.
func aiLevelName(p *locale.Printer, level string) string {
	switch level {
	case "easy":
		return p.T("common.level.easy", nil)
	case "normal":
		return p.T("common.level.normal", nil)
	case "hard":
		return p.T("common.level.hard", nil)
	}
	return level
}

// Verify is the storage.VerifyFunc: replay the action log from the seed
// with the game's own deck and compare with the stored state.
func (b *Bot) Verify(rec storage.Game, actions []storage.Action) error {
	_, err := b.verifyReplay(rec, actions, nil)
	return err
}

// verifyReplay is Verify returning the replayed game when its save is
// the stored state byte for byte (nil when they are equal only in
// substance): the same game engine.Load would give, without decoding
// the state.
//
// notes, if not nil, get what the replay noted of each version for the
// board (replayNotes).
func (b *Bot) verifyReplay(rec storage.Game, actions []storage.Action, notes *replayNotes) (*engine.Game, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	deck, err := b.deckOf(ctx, rec)
	if err != nil {
		return nil, err
	}
	return replayVerified(rec, actions, deck, notes)
}

// verifyWith replays the action log with deck and compares with the
// stored state.
func verifyWith(rec storage.Game, actions []storage.Action, deck *engine.Deck) error {
	_, err := replayVerified(rec, actions, deck, nil)
	return err
}

// replayVerified is verifyWith returning the replayed game when its save
// is identical to the stored state (see verifyReplay).
func replayVerified(rec storage.Game, actions []storage.Action, deck *engine.Deck, notes *replayNotes) (*engine.Game, error) {
	moves, err := decodeMoves(actions)
	if err != nil {
		return nil, err
	}
	opts, err := gameOptions(rec, deck)
	if err != nil {
		return nil, err
	}
	var g *engine.Game
	if notes != nil {
		g, err = replayNoting(opts, moves, notes)
	} else {
		g, err = engine.Replay(opts, moves)
	}
	if err != nil {
		return nil, err
	}
	got, err := g.Save()
	if err != nil {
		return nil, err
	}
	if bytes.Equal(got, rec.State) {
		// Saved by this engine from the same moves: identical, and the
		// comparison below (two decodes of ~20 KB) is not needed.
		return g, nil
	}
	stored, err := engine.Load(rec.State, deck)
	if err != nil {
		return nil, err
	}
	want, _ := stored.Save()
	// Compared by message, not wording: games saved before the log
	// carried messages keep passing (engine.SameState).
	if err := engine.SameState(want, got); err != nil {
		return nil, fmt.Errorf("the stored state differs from a replay of the action log: %w", err)
	}
	return nil, nil
}

func gameOptions(rec storage.Game, deck *engine.Deck) (engine.Options, error) {
	v, err := engine.ParseVariant(rec.Variant)
	if err != nil {
		return engine.Options{}, err
	}
	return engine.Options{Variant: v, Seed: rec.Seed, Deck: deck, BotSide: engineSide(rec.BotSide)}, nil
}

func truncate(s string, n int) string {
	if len([]rune(s)) <= n {
		return s
	}
	r := []rune(s)
	return strings.TrimSpace(string(r[:n-1])) + "…"
}
