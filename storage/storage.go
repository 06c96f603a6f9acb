package storage

import (
	"context"
	"errors"
	"strings"
	"time"
)

// Sentinel errors. Every error returned by this package wraps one of these
// when it applies, together with context (which game, which channel), so
// callers test with errors.Is.
var (
	// ErrNotFound: no such game (or no open game in that channel, or no
	// such message).
	ErrNotFound = errors.New("storage: not found")
	// ErrConflict: the optimistic version check failed; the game moved on
	// since the caller loaded it. Reload and retry (or tell the user).
	ErrConflict = errors.New("storage: conflict: game state changed since it was loaded")
	// ErrChannelBusy: the channel already has a waiting or active game
	// (the database's one-open-game-per-channel index refused the insert).
	ErrChannelBusy = errors.New("storage: channel already has an open game")
	// ErrWrongStatus: the game is not in a status that allows the call
	// (a move on a finished game, accepting an already accepted
	// challenge). Usually a race lost to another user: reload.
	ErrWrongStatus = errors.New("storage: game is not in the required status")
	// ErrSchemaTooNew: the database was written by a newer rfop whose
	// schema this binary does not know. Nothing was changed.
	ErrSchemaTooNew = errors.New("storage: database schema is newer than this binary supports")
	// ErrIntegrity: the stored game and its action log disagree (the
	// verify callback failed, or the log itself is malformed).
	ErrIntegrity = errors.New("storage: integrity check failed")
	// ErrInvalid: the caller passed an argument the store refuses
	// (unknown side, empty channel, malformed JSON...).
	ErrInvalid = errors.New("storage: invalid argument")
	// ErrLeaseLost: a write made under a game's outbox lease found it
	// held by another process (WriteOutbox); nothing was written.
	ErrLeaseLost = errors.New("storage: outbox lease lost")
)

// Status is a game's lifecycle state.
type Status string

const (
	StatusWaiting   Status = "waiting"   // a challenge awaiting acceptance
	StatusActive    Status = "active"    // being played
	StatusFinished  Status = "finished"  // over, with a result
	StatusAbandoned Status = "abandoned" // cancelled, declined or timed out
)

// Open reports whether the game occupies its channel (waiting or active).
func (s Status) Open() bool { return s == StatusWaiting || s == StatusActive }

func (s Status) valid() bool {
	switch s {
	case StatusWaiting, StatusActive, StatusFinished, StatusAbandoned:
		return true
	}
	return false
}

// Mode is how a game is played.
type Mode string

const (
	ModeTwoPlayer Mode = "two-player"
	ModeSolo      Mode = "solo" // one human against the bot
)

// Side is one of the game's two sides. The store keeps its own type (it
// must not import the engine); the bot converts.
type Side string

const (
	NoSide         Side = ""
	SideCommune    Side = "commune"
	SideVersailles Side = "versailles"
)

func (s Side) valid() bool { return s == SideCommune || s == SideVersailles }

// MessageKind says what a recorded Discord message is for.
type MessageKind string

const (
	KindBoard  MessageKind = "board"  // the board picture, edited after each move
	KindPing   MessageKind = "ping"   // "your turn" / reminder pings
	KindPrompt MessageKind = "prompt" // a message with buttons to disable once stale
)

// Player is who plays a side. The bot's side in a solo game has IsBot set
// and an empty UserID. The AI opponent's side of a two-player game has
// IsBot set and UserID "ai:LEVEL" (AIUserPrefix), which names the AI and
// its level: no schema change was needed for it.
type Player struct {
	Side   Side
	UserID string
	IsBot  bool
}

// AIUserPrefix begins the UserID of the AI opponent's player.
const AIUserPrefix = "ai:"

// IsAI reports whether the player is the AI opponent of a two-player game.
func (p Player) IsAI() bool { return p.IsBot && strings.HasPrefix(p.UserID, AIUserPrefix) }

// Game is one stored game. State and Result are opaque JSON owned by the
// engine; State is nil while a challenge is waiting, Result nil until the
// game ends with one. Timestamps are UTC; a zero time means "never".
type Game struct {
	ID           int64
	GuildID      string // "" for a DM
	ChannelID    string
	Status       Status
	Variant      string
	Mode         Mode
	BotSide      Side // NoSide unless Mode is ModeSolo
	Seed         int64
	State        []byte
	StateVersion int64 // number of moves applied == number of actions
	Result       []byte
	CreatedBy    string // user who started the game or issued the challenge
	InviteeID    string // user who may accept a waiting challenge; "" for anyone
	Players      []Player
	CreatedAt    time.Time
	UpdatedAt    time.Time
	LastActionAt time.Time // creation, activation or the last move
	RemindedAt   time.Time // last reminder sent, zero if none
	Reminders    int       // reminders sent since the last move (ClaimReminder counts them)
	EndedAt      time.Time // when it finished or was abandoned
	// Clock is the game's pace and clock, opaque JSON owned by the bot
	// (nil: no clock). Written with each move (Move.Clock) and by SetClock.
	Clock []byte
}

// Player returns who plays side.
func (g Game) Player(side Side) (Player, bool) {
	for _, p := range g.Players {
		if p.Side == side {
			return p, true
		}
	}
	return Player{}, false
}

// SidesOf returns the sides userID plays (usually zero or one; both in a
// game someone plays against themselves).
func (g Game) SidesOf(userID string) []Side {
	var out []Side
	for _, p := range g.Players {
		if !p.IsBot && p.UserID == userID {
			out = append(out, p.Side)
		}
	}
	return out
}

// ReminderDue reports whether an active game has been idle for at least
// interval since its last move and no reminder was sent since that move.
// interval <= 0 means reminders are off.
func (g Game) ReminderDue(interval time.Duration, now time.Time) bool {
	if g.Status != StatusActive || interval <= 0 {
		return false
	}
	if !g.RemindedAt.IsZero() && !g.RemindedAt.Before(g.LastActionAt) {
		return false
	}
	return !now.Before(g.LastActionAt.Add(interval))
}

// NewGame describes a game to create.
type NewGame struct {
	GuildID   string
	ChannelID string
	// Status is StatusActive (State and both Players required) or
	// StatusWaiting (a challenge; State and Players optional, supplied by
	// Activate).
	Status    Status
	Variant   string
	Mode      Mode
	BotSide   Side // required for ModeSolo, NoSide otherwise
	Seed      int64
	State     []byte
	CreatedBy string
	InviteeID string
	Players   []Player
	// Due is the game's due work (a challenge's expiry...), stored with it.
	Due []Due
	// Clock is the game's pace and clock (JSON, nil: none).
	Clock []byte
}

// Move is one accepted move to persist: the choice for the log and the
// engine state after it. ExpectedVersion is the StateVersion the engine
// state was loaded at; the move is stored as action ExpectedVersion+1.
type Move struct {
	GameID          int64
	ExpectedVersion int64
	Side            Side
	UserID          string // "" for the bot
	Choice          []byte // JSON
	NewState        []byte // JSON
	// Status, if set, ends the game with this move: StatusFinished (with
	// Result) or StatusAbandoned. Empty or StatusActive keeps it active.
	Status Status
	Result []byte // JSON, only with Status
	// AllowedBy, if set, makes the move the answer to the game's pending
	// undo request: the user who allowed it. The request must be pending,
	// by Side, at ExpectedVersion (else ErrConflict); the action records
	// both who asked (UserID) and who allowed.
	AllowedBy string
	// Outbox: what this move must publish, stored in the same
	// transaction (GameID and Version are set to the move's game and new
	// version).
	Outbox []OutboxEntry
	// Due is the game's due work after this move (the bot computes it:
	// bot/due.go). It replaces the game's schedule in the move's
	// transaction; a move that ends the game clears it whatever Due says.
	Due []Due
	// Clock, if not nil, replaces the game's clock (JSON) in the move's
	// transaction.
	Clock []byte
}

// OutboxEntry is one thing a committed game version must publish on
// Discord (a board, a hand DM, the result...). Kind, Payload and Outcome
// belong to the bot; the store keeps them and their delivery state.
type OutboxEntry struct {
	ID      int64
	GameID  int64
	Version int64 // the game's state_version that produced it (its batch)
	Kind    string
	Payload []byte // JSON or empty: what to publish
	// Outcome is JSON or empty: what delivering it produced so far (the
	// Discord message it created...), so that a retry does not repeat it.
	Outcome   []byte
	CreatedAt time.Time
	DoneAt    time.Time // zero while undelivered
}

// OutboxUpdate is one change to an outbox entry: its outcome (nil keeps
// it), if Done its delivery, and if Record is set the message the
// delivery created (as RecordMessage).
type OutboxUpdate struct {
	ID      int64
	Outcome []byte
	Done    bool
	Record  *Message
}

// OutboxWrite is one write of a game's publisher, in one transaction (all
// or none): its entries' updates, under its lease when Holder is set (a
// LeaseHolder's Name: ErrLeaseLost and nothing written if another holds
// it), which the write extends to Until (if set) or ends (Release).
type OutboxWrite struct {
	GameID  int64
	Updates []OutboxUpdate
	Holder  string
	Until   time.Time
	Release bool
}

// Action is one entry of a game's append-only move log.
type Action struct {
	GameID    int64
	Seq       int64 // 1, 2, 3, ... per game
	Side      Side
	UserID    string
	Choice    []byte
	AllowedBy string // an undo the opponent allowed: who; "" otherwise
	CreatedAt time.Time
}

// UndoRequest is a player's pending request to take back a choice the
// opponent could have seen. It waits for the opponent's answer and lapses
// with the game's next move.
type UndoRequest struct {
	GameID    int64
	Side      Side   // the side whose choice would be taken back
	UserID    string // who asked
	Version   int64  // the game's StateVersion when asked
	CreatedAt time.Time
}

// Message is a Discord message the bot posted for a game.
type Message struct {
	ID        int64 // the store's row id
	GameID    int64
	Kind      MessageKind
	ChannelID string
	MessageID string
	CreatedAt time.Time
}

// Settings are per-guild preferences. GuildSettings returns
// DefaultSettings for a guild that never set any.
type Settings struct {
	GuildID          string
	ReminderInterval time.Duration // whole seconds; 0 turns reminders off
	AdminRoleID      string        // "" for none
	// Language is the language the guild chose (en, fr, ru); "" if it
	// never chose one: the bot then follows the server's preferred locale.
	Language string
	// Pace is the pace new games take when none is named (the bot's name
	// for it); "" for none.
	Pace string
}

// Default settings values.
const (
	DefaultReminderInterval = 24 * time.Hour
	// DefaultLanguage is what the language column holds for a guild that
	// never chose a language (GuildSettings reports it as "").
	DefaultLanguage = "en"
)

// DefaultSettings returns the settings of a guild that set none.
func DefaultSettings(guildID string) Settings {
	return Settings{GuildID: guildID, ReminderInterval: DefaultReminderInterval}
}

// VerifyFunc checks a stored game against its full action log, typically
// by replaying the log with the engine and comparing with g.State.
type VerifyFunc func(g Game, actions []Action) error

// Store is what the bot needs from persistence. *SQLiteStore and
// *PostgresStore implement it (OpenURL chooses).
type Store interface {
	// CreateGame inserts a waiting or active game. ErrChannelBusy if the
	// channel already has an open game.
	CreateGame(ctx context.Context, ng NewGame) (Game, error)
	// Activate starts a waiting game with its initial state and its due
	// work (replacing the challenge's). The given players replace any
	// recorded at creation (none given: keep them); the game must end up
	// with both sides. ErrWrongStatus if it is not waiting.
	Activate(ctx context.Context, id int64, state []byte, due []Due, players ...Player) (Game, error)

	GameByID(ctx context.Context, id int64) (Game, error)
	// GameByChannel returns the channel's waiting or active game, or
	// ErrNotFound.
	GameByChannel(ctx context.Context, channelID string) (Game, error)
	// Listings (ActiveGames, GamesByStatus, GamesInGuild,
	// FinishedWithoutResult) carry each game's record and players but
	// not its state (State is nil): GameByID reads the state of the game
	// being played or checked.
	//
	// ActiveGames returns every active game, least recently moved first.
	// (Its cost grows with the games stored: the bot's passes read the
	// schedule instead.)
	ActiveGames(ctx context.Context) ([]Game, error)
	// GamesByStatus returns the games in any of the statuses, least
	// recently moved first.
	GamesByStatus(ctx context.Context, statuses ...Status) ([]Game, error)
	// GamesInGuild returns the guild's games, newest first, optionally
	// only those in the given statuses.
	GamesInGuild(ctx context.Context, guildID string, statuses ...Status) ([]Game, error)
	// ActiveGameIDs lists the ids of the shard's active games after the
	// id after, in order, at most limit (the background integrity sweep
	// reads them in batches).
	ActiveGameIDs(ctx context.Context, shard ShardFilter, after int64, limit int) ([]int64, error)

	// ApplyMove appends the action and stores the new state in one
	// transaction, if the game is still at m.ExpectedVersion (else
	// ErrConflict) and active (else ErrWrongStatus).
	ApplyMove(ctx context.Context, m Move) (Game, error)
	// Actions returns the game's whole move log in order.
	Actions(ctx context.Context, gameID int64) ([]Action, error)
	// VerifyGame loads the game and its log from one snapshot and runs
	// verify on them; any disagreement is an ErrIntegrity.
	VerifyGame(ctx context.Context, id int64, verify VerifyFunc) error
	// LoadVerified is VerifyGame that also returns what it checked.
	LoadVerified(ctx context.Context, id int64, verify VerifyFunc) (Game, []Action, error)

	// Finish ends an active game with a result (JSON). Ending a game
	// (Finish, Abandon, a move that ends it) deletes its schedule.
	Finish(ctx context.Context, id int64, result []byte) (Game, error)
	// Abandon ends a waiting or active game without a result.
	Abandon(ctx context.Context, id int64) (Game, error)
	// MarkReminded records that a reminder was sent for an active game.
	MarkReminded(ctx context.Context, id int64, at time.Time) error
	// ClaimReminder records a reminder at at if the game is active and its
	// RemindedAt is still seen (what the caller read) and counts it in
	// Reminders (a move sets them back to 0): of several bot
	// processes, exactly one wins; false if another did. The claim also
	// stores next, the game's next reminder (its Kind set; none if Kind is
	// ""), in its schedule.
	ClaimReminder(ctx context.Context, id int64, seen, at time.Time, next Due) (bool, error)

	RecordMessage(ctx context.Context, m Message) (Message, error)
	// Messages lists the game's recorded messages of a kind (all kinds if
	// kind is ""), oldest first.
	Messages(ctx context.Context, gameID int64, kind MessageKind) ([]Message, error)
	// LatestMessage returns the newest recorded message of a kind, or
	// ErrNotFound.
	LatestMessage(ctx context.Context, gameID int64, kind MessageKind) (Message, error)
	// DeleteMessage forgets a message (deleted on Discord, or its buttons
	// disabled for good). ErrNotFound if it was not recorded.
	DeleteMessage(ctx context.Context, channelID, messageID string) error

	// Enqueue stores publications outside a move (a game's start).
	Enqueue(ctx context.Context, entries ...OutboxEntry) error
	// PendingOutbox lists the undelivered entries of a game (of every
	// game if gameID is 0), oldest first.
	PendingOutbox(ctx context.Context, gameID int64) ([]OutboxEntry, error)
	// OutboxBatch lists every entry a game version produced, delivered or
	// not, oldest first.
	OutboxBatch(ctx context.Context, gameID, version int64) ([]OutboxEntry, error)
	// UpdateOutbox records an entry's outcome (nil keeps it) and, if done,
	// marks it delivered. ErrNotFound if there is no such entry.
	UpdateOutbox(ctx context.Context, id int64, outcome []byte, done bool) error
	// WriteOutbox makes a publisher's changes in one transaction (all or
	// none), under its lease (OutboxWrite): a board's outcome with its
	// message, the entries a newer one superseded with what the newer one
	// carries for them, and the lease's renewal or release.
	WriteOutbox(ctx context.Context, w OutboxWrite) error
	// LastOutbox returns the game's newest delivered entry of a kind
	// before the entry beforeID, or ErrNotFound.
	LastOutbox(ctx context.Context, gameID int64, kind string, beforeID int64) (OutboxEntry, error)
	// ClaimOutbox takes or renews h's lease on delivering the game's
	// outbox until until: one publisher per game across bot processes.
	// False if another holder's lease is still valid at now, unless that
	// holder is an older incarnation of h's shard (LeaseHolder).
	// HoldsOutbox reports whether holder (a LeaseHolder's Name) holds it.
	// ReleaseOutbox ends holder's lease.
	ClaimOutbox(ctx context.Context, gameID int64, h LeaseHolder, now, until time.Time) (bool, error)
	HoldsOutbox(ctx context.Context, gameID int64, holder string) (bool, error)
	ReleaseOutbox(ctx context.Context, gameID int64, holder string) error
	// NextIncarnation records a new start of a shard's process and
	// returns its incarnation (1, 2, 3, ...), for its LeaseHolder.
	NextIncarnation(ctx context.Context, shard int) (int64, error)

	GuildSettings(ctx context.Context, guildID string) (Settings, error)
	SetGuildSettings(ctx context.Context, s Settings) (Settings, error)
	// SetUserLocale and UserLocale remember the Discord locale last seen
	// for a user; SetGuildLocale and GuildLocale a guild's preferred
	// locale. "" when none was seen.
	SetUserLocale(ctx context.Context, userID, locale string) error
	UserLocale(ctx context.Context, userID string) (string, error)
	SetGuildLocale(ctx context.Context, guildID, locale string) error
	GuildLocale(ctx context.Context, guildID string) (string, error)

	// SaveDeck records a deck (JSON) under its id; an id already stored
	// keeps its content. Deck returns it, or ErrNotFound.
	SaveDeck(ctx context.Context, id string, content []byte) error
	Deck(ctx context.Context, id string) ([]byte, error)

	// RequestUndo records the game's pending undo request (replacing any
	// other); ErrConflict if the game is no longer at r.Version.
	// PendingUndo returns it while the game is still at that version, else
	// ErrNotFound. DropUndoRequest forgets it (refused). ApplyMove drops
	// it too: any move answers or supersedes it.
	RequestUndo(ctx context.Context, r UndoRequest) error
	PendingUndo(ctx context.Context, gameID int64) (UndoRequest, error)
	DropUndoRequest(ctx context.Context, gameID int64) error
	// Results keeps finished games' results and the ratings made from them.
	Results
	// Schedule keeps due work (reminders, expiries...) found by index.
	Schedule
	// Analyses keeps post-game analyses.
	Analyses
	// Members keeps members' preferences (notifications).
	Members
	// Clocks keeps games' clocks and members' time away.
	Clocks
	// Batches reads many games, guilds or members in one query (a pass
	// over due work).
	Batches

	Close() error
}

var _ Store = (*SQLiteStore)(nil)
