// Package storage keeps rfop's games in one SQLite file so that every
// accepted move survives restarts, crashes and redeploys.
//
// The package knows nothing of the rules: it does not import the engine.
// A game's state and a move ("choice") are opaque JSON owned by the
// engine; the store only checks that they are valid JSON.
//
// # Schema
//
//   - games: one row per game; status is waiting (a challenge), active,
//     finished or abandoned; state is the engine's current state and
//     state_version the number of moves applied to it; result is the
//     engine's result JSON once finished; last_action_at and reminded_at
//     drive reminders. A unique partial index on channel_id WHERE status
//     IN ('waiting','active') makes "one open game per channel" a rule of
//     the database, true under any concurrency: CreateGame reports it as
//     ErrChannelBusy. Triggers forbid illegal status transitions
//     (finished and abandoned are final) and any change of state_version
//     other than +1.
//   - players: who plays each side (the bot's side of a solo game has
//     is_bot = 1; so has the AI opponent's side of a two-player game,
//     with user_id "ai:LEVEL").
//   - actions: the move log, (game_id, seq) with seq 1, 2, 3, ... per
//     game. It is append-only: the Go API has no way to change or delete
//     an action, and triggers abort any UPDATE or DELETE and any INSERT
//     whose seq does not follow the game's last one. With state_version
//     moving by exactly one per move, in the same transaction, the
//     invariant state_version == number of actions == last seq holds.
//     allowed_by names the opponent who allowed an undo.
//   - messages: Discord messages posted for a game (board, pings, prompts)
//     so the bot can edit the board and disable stale buttons after a
//     restart.
//   - outbox: what each committed game version must publish (board,
//     hand DMs, result, the mover's panel), written by ApplyMove in the
//     move's transaction (Move.Outbox) or by Enqueue; the bot delivers
//     the pending entries (PendingOutbox), records what each delivery
//     produced (UpdateOutbox: the Discord message it created, so a retry
//     finds it instead of posting twice) and marks them done. payload and
//     outcome are the bot's JSON.
//   - guild_settings: per-guild reminder interval, admin role, language
//     (language_chosen 0: never chosen, reported as ""); GuildSettings
//     returns DefaultSettings for a guild with no row.
//   - user_locales, guild_locales: the Discord locale last seen for a
//     user (for DMs sent outside an interaction) and a guild's preferred
//     locale (the language of a guild that chose none).
//   - decks: decks by id (the engine's hash of the deck's canonical
//     form), so a game plays with the deck it started with whatever the
//     deck file or the release does (SaveDeck, Deck).
//   - undo_requests: at most one pending undo request per game, at the
//     version it was asked; ApplyMove deletes it (any move answers or
//     supersedes it) and refuses a Move.AllowedBy that answers no pending
//     request of that side at that version.
//   - results: one row per finished game (winner, how it was decided, VP,
//     plays, players, whether it is rated), written when it finishes;
//     History and Stats read it. ratings: each guild's ratings, derived
//     from its rated results by the caller's RateFunc inside the same
//     transaction as each RecordResult (the store knows no rating
//     formula); RebuildRatings recreates the table, from the results
//     migration's own statements, if it was dropped.
//
// Tables are STRICT, timestamps are UTC text (2006-01-02T15:04:05.000Z),
// JSON columns are CHECKed with json_valid.
//
// # Migrations
//
// The schema is a list of SQL files embedded in the binary
// (migrations/NNNN_name.sql, numbered 1, 2, 3, ...). The database's
// schema version is SQLite's own PRAGMA user_version, a number in the file
// header: no extra dependency (no migration library, no bookkeeping
// table), and, because it is written inside the same transaction as the
// migration's DDL (SQLite's DDL is transactional), a migration and its
// version number commit or roll back together; a crash mid-migration
// leaves the previous version intact. Open applies the pending migrations,
// one BEGIN IMMEDIATE transaction each, reading user_version under the
// write lock so that two processes opening the file at once cannot both
// apply one. An up-to-date database is left untouched. A database whose
// user_version is above what this binary knows was written by a newer
// rfop: Open refuses it with ErrSchemaTooNew and changes nothing.
//
// # Concurrency and durability
//
// The file is opened in WAL mode with synchronous=NORMAL, foreign keys on,
// a 5 s busy timeout and BEGIN IMMEDIATE transactions
// (_journal_mode=WAL&_busy_timeout=5000&_foreign_keys=on&_txlock=immediate&_synchronous=NORMAL
// in go-sqlite3's DSN). The store holds two database/sql pools:
//
//   - a writer pool of exactly one connection. SQLite allows one writer at
//     a time anyway; queueing writers in Go (database/sql hands the single
//     connection to one caller at a time, honouring contexts) rather than
//     inside SQLite means that in one process writers never meet
//     SQLITE_BUSY, so "database is locked" cannot happen however many
//     goroutines write. BEGIN IMMEDIATE takes the write lock when the
//     transaction starts, not at its first write, so if another process
//     (a second store, an admin tool) writes the same file the wait goes
//     through the busy timeout at BEGIN and never fails halfway through a
//     transaction with a lock upgrade that cannot wait (SQLITE_BUSY_SNAPSHOT).
//   - a reader pool of a few query_only connections with deferred
//     transactions. In WAL mode readers never block the writer nor are
//     blocked by it; multi-statement reads (a game and its players, a game
//     and its action log) run in one read transaction, i.e. one snapshot.
//
// ApplyMove is one write transaction: UPDATE games SET state,
// state_version = state_version + 1 ... WHERE id = ? AND state_version =
// ExpectedVersion AND status = 'active', then INSERT the action with seq =
// the new version. If the UPDATE matched no row nothing is written and the
// caller gets ErrConflict (another move got there first), ErrWrongStatus
// or ErrNotFound. So when many goroutines race moves at one version,
// exactly one wins and every other gets ErrConflict.
//
// Durability: in WAL mode with synchronous=NORMAL a committed transaction
// survives a crash or SIGKILL of the process (it is in the WAL file, which
// the OS holds) and the database is never corrupted; only a power cut or
// kernel crash can lose the last commits before the next checkpoint.
// WithFullSync selects synchronous=FULL (an fsync per commit) for those
// too, at the price of an fsync per move.
//
// Open creates the parent directory if needed and checks up front that
// the file and its directory (where SQLite keeps the -wal and -shm files)
// are writable, so a bad path fails at start-up with a clear message.
package storage
