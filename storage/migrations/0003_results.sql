-- 0002_results: finished games' results, for /rfop history and
-- /rfop stats, and the per-server ratings computed from them.
--
-- results is the record: one row per finished game (abandoned games have
-- none), written when the game ends (and, for games finished before this
-- migration, by the bot at start-up from their action logs). ratings is
-- derived: it is recomputed from results whenever a result is recorded,
-- and rebuilt from results if it is dropped.

CREATE TABLE results (
    game_id             INTEGER PRIMARY KEY REFERENCES games (id),
    guild_id            TEXT    NOT NULL DEFAULT '',        -- '' for a DM
    channel_id          TEXT    NOT NULL DEFAULT '',
    mode                TEXT    NOT NULL CHECK (mode <> ''), -- the game's mode (two-player, solo, ...)
    variant             TEXT    NOT NULL DEFAULT '',
    versailles_id       TEXT    NOT NULL DEFAULT '',        -- '' when the bot played the side
    commune_id          TEXT    NOT NULL DEFAULT '',
    winner              TEXT    NOT NULL CHECK (winner IN ('commune', 'versailles')),
    reason              TEXT    NOT NULL CHECK (reason <> ''), -- victory, tiebreaker, resigned, solo-tie
    vp_political        INTEGER NOT NULL DEFAULT 0,         -- positive: Versailles
    vp_military         INTEGER NOT NULL DEFAULT 0,
    tiebreak_versailles INTEGER NOT NULL DEFAULT 0,
    tiebreak_commune    INTEGER NOT NULL DEFAULT 0,
    plays               INTEGER NOT NULL DEFAULT 0 CHECK (plays >= 0),
    moves               INTEGER NOT NULL DEFAULT 0 CHECK (moves >= 0),
    rated               INTEGER NOT NULL CHECK (rated IN (0, 1)), -- two different human players
    started_at          TEXT    NOT NULL,
    ended_at            TEXT    NOT NULL
) STRICT;

CREATE INDEX results_guild_ended ON results (guild_id, ended_at, game_id);
CREATE INDEX results_channel_ended ON results (channel_id, ended_at, game_id);
CREATE INDEX results_guild_versailles ON results (guild_id, versailles_id, winner, rated); -- covering: records
CREATE INDEX results_guild_commune ON results (guild_id, commune_id, winner, rated);

CREATE TABLE ratings (
    guild_id   TEXT    NOT NULL,
    user_id    TEXT    NOT NULL,
    rating     REAL    NOT NULL,
    deviation  REAL    NOT NULL,
    volatility REAL    NOT NULL,
    games      INTEGER NOT NULL,                            -- rated games
    wins       INTEGER NOT NULL,
    PRIMARY KEY (guild_id, user_id)
) STRICT, WITHOUT ROWID;

CREATE INDEX ratings_board ON ratings (guild_id, rating);
