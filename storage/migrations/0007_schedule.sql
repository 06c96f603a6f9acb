-- 0007_schedule: due work found by index, not by scanning every game.
--
-- Until now the bot's periodic passes (reminders, challenge expiry,
-- publication retries) and its start-up (resuming the solo opponent's and
-- the AI's turns) read every open game, with its state, and filtered in
-- Go, so that every pass cost in proportion to the games stored. Now each
-- piece of due work is a row of `schedule`, written in the same
-- transaction as the change that makes it due, and a pass reads only the
-- rows whose time has come, through an index, for its own shard.

-- A game's shard key: Discord's guild_id >> 22 (0 for DMs and for a guild
-- id that is not a snowflake), so that a shard's queries select its games
-- with shard_key % shard_count = shard_id in SQL. Discord's snowflakes are
-- below 2^63 (until 2084); a larger or malformed id is shard 0's.
ALTER TABLE games ADD COLUMN shard_key INTEGER NOT NULL DEFAULT 0 CHECK (shard_key >= 0);
UPDATE games SET shard_key = CAST(guild_id AS INTEGER) >> 22
 WHERE guild_id <> '' AND guild_id NOT GLOB '*[^0-9]*'
   AND (length(guild_id) < 19 OR (length(guild_id) = 19 AND guild_id <= '9223372036854775807'));

-- One row per piece of due work: kind is the bot's name for it (remind,
-- expire, resume, ...; the store gives kinds no meaning), game_id the game
-- it concerns (0 for an item of a user or a server), subject what within
-- it ('' for the game itself, a side, a user id), shard_key whose shard
-- runs it, due_at when (UTC text, like every timestamp). An open game's
-- rows are replaced by each move, and deleted when it ends.
CREATE TABLE schedule (
    kind      TEXT    NOT NULL CHECK (kind <> ''),
    game_id   INTEGER NOT NULL DEFAULT 0 CHECK (game_id >= 0),
    subject   TEXT    NOT NULL DEFAULT '',
    shard_key INTEGER NOT NULL DEFAULT 0 CHECK (shard_key >= 0),
    due_at    TEXT    NOT NULL CHECK (due_at <> ''),
    PRIMARY KEY (kind, game_id, subject)
) STRICT, WITHOUT ROWID;

-- A pass reads one kind's due rows in time order (covering: no table read).
CREATE INDEX schedule_due ON schedule (kind, due_at, game_id, subject, shard_key);
-- A game's rows, replaced or deleted with it.
CREATE INDEX schedule_game ON schedule (game_id) WHERE game_id <> 0;

-- The rows of the games stored before this migration, as the bot computes
-- them (bot/due.go): a challenge expires 24 hours after it was issued;
-- an active game is reminded its server's interval (24 hours unless set;
-- 0: never) after its last move or last reminder; a game against the solo
-- opponent or the AI, or one not yet moved, is looked at once at the next
-- start (the solo opponent's or the AI's turn a stop interrupted, a start
-- not yet published).
INSERT INTO schedule (kind, game_id, shard_key, due_at)
SELECT 'expire', id, shard_key, strftime('%Y-%m-%dT%H:%M:%fZ', created_at, '+1 day')
  FROM games WHERE status = 'waiting';

INSERT INTO schedule (kind, game_id, shard_key, due_at)
SELECT 'remind', g.id, g.shard_key,
       strftime('%Y-%m-%dT%H:%M:%fZ', max(g.last_action_at, g.reminded_at),
                '+' || coalesce(s.reminder_interval_seconds, 86400) || ' seconds')
  FROM games g LEFT JOIN guild_settings s ON s.guild_id = g.guild_id
 WHERE g.status = 'active' AND coalesce(s.reminder_interval_seconds, 86400) > 0;

INSERT INTO schedule (kind, game_id, shard_key, due_at)
SELECT 'resume', g.id, g.shard_key, g.last_action_at
  FROM games g
 WHERE g.status = 'active'
   AND (g.state_version = 0 OR EXISTS (SELECT 1 FROM players p WHERE p.game_id = g.id AND p.is_bot = 1));

-- Publication retries read the games with undelivered outbox entries:
-- outbox_pending (done_at, game_id, id) already finds them by index.

-- Work a migration asks the bot to do once, at its next start (for
-- example rebuilding the ratings after their formula changed); the bot
-- deletes the row when done.
CREATE TABLE maintenance (
    job          TEXT NOT NULL PRIMARY KEY CHECK (job <> ''),
    requested_at TEXT NOT NULL
) STRICT;

-- Results of games finished before results were kept were recorded at
-- every start; from now on once, on request.
INSERT INTO maintenance (job, requested_at)
VALUES ('backfill-results', strftime('%Y-%m-%dT%H:%M:%fZ', 'now'));
