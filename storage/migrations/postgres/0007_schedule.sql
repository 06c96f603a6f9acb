-- 0007_schedule (PostgreSQL): the twin of ../0007_schedule.sql. Due work
-- found by index, not by scanning every game: each piece of due work is a
-- row of schedule, written with the change that makes it due, and a pass
-- reads only the rows whose time has come, for its own shard.

-- A game's shard key: Discord's guild_id >> 22 (0 for DMs and for a guild
-- id that is not a snowflake below 2^63).
ALTER TABLE games ADD COLUMN shard_key bigint NOT NULL DEFAULT 0 CHECK (shard_key >= 0);
UPDATE games SET shard_key = guild_id::bigint >> 22
 WHERE guild_id ~ '^[0-9]+$'
   AND (length(guild_id) < 19 OR (length(guild_id) = 19 AND guild_id <= '9223372036854775807'));

-- One row per piece of due work (see the SQLite twin).
CREATE TABLE schedule (
    kind      text   NOT NULL CHECK (kind <> ''),
    game_id   bigint NOT NULL DEFAULT 0 CHECK (game_id >= 0),
    subject   text COLLATE "C" NOT NULL DEFAULT '',
    shard_key bigint NOT NULL DEFAULT 0 CHECK (shard_key >= 0),
    due_at    text COLLATE "C" NOT NULL CHECK (due_at <> ''),
    PRIMARY KEY (kind, game_id, subject)
);

CREATE INDEX schedule_due ON schedule (kind, due_at, game_id, subject, shard_key);
CREATE INDEX schedule_game ON schedule (game_id) WHERE game_id <> 0;

-- The rows of the games stored before this migration (see the SQLite
-- twin). Timestamps are the stores' UTC text, 2006-01-02T15:04:05.000Z.
INSERT INTO schedule (kind, game_id, shard_key, due_at)
SELECT 'expire', id, shard_key,
       to_char((created_at::timestamptz AT TIME ZONE 'UTC') + interval '1 day', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
  FROM games WHERE status = 'waiting';

INSERT INTO schedule (kind, game_id, shard_key, due_at)
SELECT 'remind', g.id, g.shard_key,
       to_char((greatest(g.last_action_at, g.reminded_at)::timestamptz AT TIME ZONE 'UTC')
               + make_interval(secs => coalesce(s.reminder_interval_seconds, 86400)),
               'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
  FROM games g LEFT JOIN guild_settings s ON s.guild_id = g.guild_id
 WHERE g.status = 'active' AND coalesce(s.reminder_interval_seconds, 86400) > 0;

INSERT INTO schedule (kind, game_id, shard_key, due_at)
SELECT 'resume', g.id, g.shard_key, g.last_action_at
  FROM games g
 WHERE g.status = 'active'
   AND (g.state_version = 0 OR EXISTS (SELECT 1 FROM players p WHERE p.game_id = g.id AND p.is_bot = 1));

-- Work a migration asks the bot to do once, at its next start.
CREATE TABLE maintenance (
    job          text NOT NULL PRIMARY KEY CHECK (job <> ''),
    requested_at text COLLATE "C" NOT NULL
);

INSERT INTO maintenance (job, requested_at)
VALUES ('backfill-results', to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'));
