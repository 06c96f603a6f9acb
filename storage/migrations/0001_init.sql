-- 0001_init: the first schema of the rfop database.
--
-- Conventions: every table is STRICT (a value of the wrong type is an
-- error, not silently coerced); timestamps are UTC text in the form
-- 2006-01-02T15:04:05.000Z (sortable, readable in the sqlite3 shell, and
-- understood by SQLite's date functions), '' when unset; JSON columns hold
-- UTF-8 JSON text checked by json_valid, '' when absent.

CREATE TABLE games (
    id             INTEGER PRIMARY KEY,
    guild_id       TEXT    NOT NULL DEFAULT '',              -- '' for a DM
    channel_id     TEXT    NOT NULL CHECK (channel_id <> ''),
    status         TEXT    NOT NULL
                   CHECK (status IN ('waiting', 'active', 'finished', 'abandoned')),
    variant        TEXT    NOT NULL DEFAULT '',
    mode           TEXT    NOT NULL CHECK (mode IN ('two-player', 'solo')),
    bot_side       TEXT    NOT NULL DEFAULT ''
                   CHECK (bot_side IN ('', 'commune', 'versailles')),
    seed           INTEGER NOT NULL,
    state          TEXT    NOT NULL DEFAULT '' CHECK (state = '' OR json_valid(state)),
    state_version  INTEGER NOT NULL DEFAULT 0 CHECK (state_version >= 0),
    result         TEXT    NOT NULL DEFAULT '' CHECK (result = '' OR json_valid(result)),
    created_by     TEXT    NOT NULL DEFAULT '',              -- who started it / issued the challenge
    invitee_id     TEXT    NOT NULL DEFAULT '',              -- who may accept a waiting challenge; '' = anyone
    created_at     TEXT    NOT NULL,
    updated_at     TEXT    NOT NULL,
    last_action_at TEXT    NOT NULL,                         -- creation, activation or last move: reminders count from here
    reminded_at    TEXT    NOT NULL DEFAULT '',
    ended_at       TEXT    NOT NULL DEFAULT '',
    CHECK ((mode = 'solo') = (bot_side <> '')),
    CHECK (status IN ('waiting', 'abandoned') OR state <> '') -- a started game always has a state
) STRICT;

-- Exactly one open (waiting or active) game per channel, enforced here and
-- not by a read-then-insert in Go, so that it holds under any concurrency
-- and for any writer of the file.
CREATE UNIQUE INDEX games_one_open_per_channel
    ON games (channel_id) WHERE status IN ('waiting', 'active');
CREATE INDEX games_guild ON games (guild_id, id);
CREATE INDEX games_status ON games (status, last_action_at);

-- A finished or abandoned game stays so; a waiting game is activated or
-- abandoned; an active game finishes or is abandoned.
CREATE TRIGGER games_status_transition
BEFORE UPDATE OF status ON games
WHEN OLD.status <> NEW.status AND NOT (
       (OLD.status = 'waiting' AND NEW.status IN ('active', 'abandoned'))
    OR (OLD.status = 'active'  AND NEW.status IN ('finished', 'abandoned')))
BEGIN
    SELECT RAISE(ABORT, 'rfop: illegal game status transition');
END;

-- state_version counts accepted moves: it only ever goes up by one.
CREATE TRIGGER games_version_step
BEFORE UPDATE OF state_version ON games
WHEN NEW.state_version <> OLD.state_version
 AND NEW.state_version <> OLD.state_version + 1
BEGIN
    SELECT RAISE(ABORT, 'rfop: state_version may only increase by one');
END;

CREATE TABLE players (
    game_id INTEGER NOT NULL REFERENCES games (id),
    side    TEXT    NOT NULL CHECK (side IN ('commune', 'versailles')),
    user_id TEXT    NOT NULL,                                -- '' for the bot
    is_bot  INTEGER NOT NULL DEFAULT 0 CHECK (is_bot IN (0, 1)),
    PRIMARY KEY (game_id, side),
    CHECK (is_bot = 1 OR user_id <> '')
) STRICT, WITHOUT ROWID;

CREATE INDEX players_user ON players (user_id, game_id);

-- The move log: append-only, seq 1, 2, 3, ... per game with no gap.
CREATE TABLE actions (
    game_id    INTEGER NOT NULL REFERENCES games (id),
    seq        INTEGER NOT NULL CHECK (seq >= 1),
    side       TEXT    NOT NULL CHECK (side IN ('commune', 'versailles')),
    user_id    TEXT    NOT NULL,                             -- '' for the bot
    choice     TEXT    NOT NULL CHECK (json_valid(choice)),
    created_at TEXT    NOT NULL,
    PRIMARY KEY (game_id, seq)
) STRICT, WITHOUT ROWID;

CREATE TRIGGER actions_seq_contiguous
BEFORE INSERT ON actions
WHEN NEW.seq <> (SELECT coalesce(max(seq), 0) + 1 FROM actions WHERE game_id = NEW.game_id)
BEGIN
    SELECT RAISE(ABORT, 'rfop: actions.seq must follow the last seq of the game');
END;

CREATE TRIGGER actions_no_update
BEFORE UPDATE ON actions
BEGIN
    SELECT RAISE(ABORT, 'rfop: actions are append-only');
END;

CREATE TRIGGER actions_no_delete
BEFORE DELETE ON actions
BEGIN
    SELECT RAISE(ABORT, 'rfop: actions are append-only');
END;

-- Discord messages the bot posted for a game (board, pings, prompts with
-- buttons), so that after a restart it can edit the board and disable
-- stale buttons.
CREATE TABLE messages (
    id         INTEGER PRIMARY KEY,
    game_id    INTEGER NOT NULL REFERENCES games (id),
    kind       TEXT    NOT NULL CHECK (kind <> ''),
    channel_id TEXT    NOT NULL CHECK (channel_id <> ''),
    message_id TEXT    NOT NULL CHECK (message_id <> ''),
    created_at TEXT    NOT NULL,
    UNIQUE (channel_id, message_id)
) STRICT;

CREATE INDEX messages_game_kind ON messages (game_id, kind, id);

CREATE TABLE guild_settings (
    guild_id                  TEXT    PRIMARY KEY,
    reminder_interval_seconds INTEGER NOT NULL DEFAULT 86400
                              CHECK (reminder_interval_seconds >= 0),   -- 0: no reminders
    admin_role_id             TEXT    NOT NULL DEFAULT '',               -- '' : none
    language                  TEXT    NOT NULL DEFAULT 'en' CHECK (language <> ''),
    updated_at                TEXT    NOT NULL
) STRICT;
