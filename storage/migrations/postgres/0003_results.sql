-- 0003_results (PostgreSQL): the twin of ../0003_results.sql. Finished
-- games' results, for /rfop history and /rfop stats, and the per-server
-- ratings computed from them (derived: rebuilt from results if dropped,
-- from this file's own CREATE statements).

CREATE TABLE results (
    game_id             bigint   PRIMARY KEY REFERENCES games (id),
    guild_id            text COLLATE "C" NOT NULL DEFAULT '',        -- '' for a DM
    channel_id          text COLLATE "C" NOT NULL DEFAULT '',
    mode                text     NOT NULL CHECK (mode <> ''),
    variant             text     NOT NULL DEFAULT '',
    versailles_id       text COLLATE "C" NOT NULL DEFAULT '',        -- '' when the bot played the side
    commune_id          text COLLATE "C" NOT NULL DEFAULT '',
    winner              text     NOT NULL CHECK (winner IN ('commune', 'versailles')),
    reason              text     NOT NULL CHECK (reason <> ''),
    vp_political        bigint   NOT NULL DEFAULT 0,                 -- positive: Versailles
    vp_military         bigint   NOT NULL DEFAULT 0,
    tiebreak_versailles bigint   NOT NULL DEFAULT 0,
    tiebreak_commune    bigint   NOT NULL DEFAULT 0,
    plays               bigint   NOT NULL DEFAULT 0 CHECK (plays >= 0),
    moves               bigint   NOT NULL DEFAULT 0 CHECK (moves >= 0),
    rated               smallint NOT NULL CHECK (rated IN (0, 1)),   -- two different human players
    started_at          text COLLATE "C" NOT NULL,
    ended_at            text COLLATE "C" NOT NULL
);

CREATE INDEX results_guild_ended ON results (guild_id, ended_at, game_id);
CREATE INDEX results_channel_ended ON results (channel_id, ended_at, game_id);
CREATE INDEX results_guild_versailles ON results (guild_id, versailles_id, winner, rated);
CREATE INDEX results_guild_commune ON results (guild_id, commune_id, winner, rated);

CREATE TABLE ratings (
    guild_id   text COLLATE "C" NOT NULL,
    user_id    text COLLATE "C" NOT NULL,
    rating     double precision NOT NULL,
    deviation  double precision NOT NULL,
    volatility double precision NOT NULL,
    games      bigint NOT NULL,                                      -- rated games
    wins       bigint NOT NULL,
    PRIMARY KEY (guild_id, user_id)
);

CREATE INDEX ratings_board ON ratings (guild_id, rating);
