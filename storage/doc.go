// Package storage keeps rfop's games so that every accepted move survives
// restarts, crashes and redeploys: in one SQLite file (the default: one
// command, one file) or in a PostgreSQL database (several bot processes
// sharing one database). OpenURL chooses: a postgres:// or postgresql://
// URL opens PostgreSQL (OpenPostgres), anything else is a SQLite file path
// (Open).
//
// The package knows nothing of the rules: it does not import the engine.
// A game's state and a move ("choice") are opaque JSON owned by the
// engine; the store only checks that they are valid JSON.
//
// # Two backends, one store
//
// Both backends are the same code: the Store's methods are written once
// on database/sql, in SQL both dialects accept (with ? placeholders,
// RETURNING, ON CONFLICT upserts), and a small dialect value holds what
// differs: placeholders ($1, $2, ... for PostgreSQL), how a unique,
// foreign-key or log violation is recognised, the read transactions'
// isolation, the row locks PostgreSQL needs where SQLite's single writer
// already serialises, and one catalog query. The schema is the same too,
// table for table and constraint for constraint, as two sets of numbered
// migrations (migrations/ and migrations/postgres/, the same numbers and
// names; a test fails when one lacks its twin). The contract tests run
// on both.
//
// PostgreSQL is reached through github.com/jackc/pgx/v5, the maintained
// Go driver, by its database/sql adapter (pgx/v5/stdlib): that is what
// lets both backends share every query, scan and transaction. Errors and
// logs name a PostgreSQL URL without its password (Redact).
//
// # Schema
//
//   - games: one row per game; status is waiting (a challenge), active,
//     finished or abandoned; state is the engine's current state and
//     state_version the number of moves applied to it; result is the
//     engine's result JSON once finished; last_action_at and reminded_at
//     drive reminders; shard_key is Discord's guild_id >> 22 (ShardKey; 0
//     for DMs), so that a shard's queries select its games in SQL
//     (shard_key % count = id, ShardFilter). A unique partial index on channel_id WHERE status
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
//     outcome are the bot's JSON. A version's entries are one row, its
//     publication (kind "parts": the entries' kinds and payloads in
//     payload, their outcomes and delivery times in outcome, the row done
//     once every entry is; a lone entry is a row of its own kind), so the
//     undelivered rows count the versions a channel is behind; callers
//     see entries, whose IDs are the row's id × PartsPerRow plus their
//     place in it (outbox.go).
//   - outbox_leases: which bot process (a random holder id, its shard
//     and incarnation) delivers a game's outbox, until when (Unix ms):
//     ClaimOutbox takes the lease only if it is free, expired, already
//     the caller's, or held by an older incarnation of the caller's
//     shard (a restart takes over at once), in one conditional upsert, so
//     of several processes sharing the database one publishes;
//     HoldsOutbox tells a holder whether it still holds it; ReleaseOutbox
//     deletes it. ClaimReminder is the same for reminders: a conditional
//     update of reminded_at from the value the caller read.
//     ClaimReminderOutbox does both in one transaction (both or neither),
//     RecordMessageRelease records a board and ends the lease in one
//     and says whether publications wait (a reminder's two transactions;
//     on PostgreSQL each is pipelined, pipe.go: its statements sent
//     together, in one round trip); GamesByIDs, GuildSettingsOf and
//     MemberPrefsOf read a pass's batch in one query each.
//   - shard_incarnations: each shard's count of process starts
//     (NextIncarnation), for the leases.
//   - guild_settings: per-guild reminder interval, admin role, language
//     (language_chosen 0: never chosen, reported as ""); GuildSettings
//     returns DefaultSettings for a guild with no row.
//   - games.reminders (migration 0010): reminders sent since the
//     game's last move; ClaimReminder adds one, a move sets it to 0.
//   - member_prefs: each member's notification preference (mention, dm,
//     digest, off), the time they chose the digest (its time of day) and
//     the last digest sent; MemberPrefs reports mention for a member
//     with no row. ActiveGamesOf lists a member's active games through
//     the players' user index (the digest's list).
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
//   - schedule: due work (Due), one row per (kind, game_id, subject):
//     what the bot must do at due_at (remind a game's players, expire a
//     challenge, resume a game at the next start...), for a game
//     (game_id) or for a user or server (game_id 0, subject the user),
//     with the shard_key of whoever runs it. See "Due work" below.
//   - maintenance: jobs a migration asks the bot to run once at its next
//     start (Maintenance, MaintenanceDone): the results back-fill, a
//     ratings rebuild.
//   - results: one row per finished game (winner, how it was decided, VP,
//     plays, players, whether it is rated), written when it finishes;
//     History and Stats read it. ratings: each guild's ratings, derived
//     from its rated results by the caller's Rater inside the same
//     transaction as each RecordResult (the store knows no rating
//     formula): one step (StepRater) from the two players' stored
//     ratings when the result is new and the guild's last, else the
//     guild's ratings from all its results; RebuildRatings recreates the
//     table, from the results migration's own statements, if it was
//     dropped (Maintenance then lists JobRebuildRatings).
//
// Listings (ActiveGames, GamesByStatus, GamesInGuild,
// FinishedWithoutResult) read records and players, never states;
// ActiveGameIDs pages through a shard's active games by id (the bot's
// background integrity sweep). Import writes many games in a few
// statements per batch (rfop loadgen).
//
// # Due work
//
// The bot's periodic passes and its start-up read due work from the
// schedule, never by listing games: DueWork is one range of the index
// schedule_due (kind, due_at, game_id, subject, shard_key), which covers
// the query, filtered by shard in SQL and read in batches (DueQuery.After
// continues after the last item), so a pass with nothing due is one index
// probe whatever the number of games stored, and a shard reads only its
// own rows. PendingGames is likewise the range of undelivered entries of
// outbox_pending, for publication retries.
//
// A game's rows are written with the write that makes them due, in its
// transaction: NewGame.Due, Activate's due, Move.Due (each replaces the
// game's rows; the bot computes them in one place, bot/due.go), and
// ClaimReminder's next. Ending a game deletes them. An item given with
// a write may be timed relative to it (Due.In: by the store's clock, so a
// reminder counts from the move's own last_action_at). Other rows (a
// user's: GameID 0) are written with ScheduleDue. The store gives kinds
// no meaning: a new kind of due work needs no schema change.
//
// Exactly-once across processes: an item is claimed by a conditional
// update from the due_at the caller read (ClaimDue: moved to its next
// time, or deleted), so of several processes that read it one wins.
//
// Tables are STRICT, timestamps are UTC text (2006-01-02T15:04:05.000Z),
// JSON columns are CHECKed with json_valid. In PostgreSQL the same columns
// are bigint, smallint 0/1 for booleans (so that queries are shared), text
// with the "C" collation (byte order, as SQLite sorts) for ids and
// timestamps, and text CHECKed by a cast to json (which, unlike jsonb,
// keeps the engine's bytes as they were written).
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
// PostgreSQL has no user_version: its schema version is the table
// schema_version, one row per applied migration (version, file name,
// when). OpenPostgres applies each pending migration in one transaction
// (PostgreSQL's DDL is transactional too) that first takes an advisory
// lock (pg_advisory_xact_lock), so that two bot processes starting at once
// against a new database apply each migration once; the second finds it
// done. ErrSchemaTooNew likewise refuses a database a newer rfop migrated.
//
// # Concurrency and durability (SQLite)
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
//     Writers take their turn in arrival order (a one-slot channel in front
//     of the pool): database/sql gives a freed connection to a random
//     waiter, and under a burst (200 games started at once) that left some
//     writes waiting seconds behind later ones.
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
//
// # Concurrency and durability (PostgreSQL)
//
// A PostgresStore holds one pool of at most PostgresConns connections,
// shared by reads and writes; several processes may hold one each. Write
// transactions run at READ COMMITTED, and every rule that SQLite gets
// from its single writer holds through the database itself:
//
//   - ApplyMove's conditional UPDATE ... WHERE state_version =
//     ExpectedVersion locks the game's row; a concurrent move at the same
//     version waits for that lock, then PostgreSQL re-checks its WHERE
//     against the committed row, matches nothing, and the caller gets
//     ErrConflict. So exactly one of many racing moves wins, whichever
//     process sent it, and the action log follows state_version (the
//     contiguity trigger reads the game's last seq under that row lock).
//   - one open game per channel is the same partial unique index;
//   - Activate and RequestUndo read the game's row FOR UPDATE before
//     changing it, so racing acceptances queue and the second finds the
//     game already active;
//   - transactions that rewrite ratings (RecordResult, RebuildRatings)
//     take a self-conflicting table lock on ratings first, so each rates
//     from every result committed before it;
//   - reads that take several statements (a game and its log) run in one
//     REPEATABLE READ read-only transaction: one snapshot.
//
// A committed move is as durable as the server makes commits
// (synchronous_commit, on by default: flushed to the server's WAL);
// WithFullSync concerns SQLite only.
package storage
