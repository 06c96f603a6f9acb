-- 0008_analyses (PostgreSQL): the twin of ../0008_analyses.sql. Post-game
-- analyses (issue 29), kept so that asking again is instant; an analysis
-- of another encoding version is made again.
CREATE TABLE analyses (
    game_id    bigint  NOT NULL PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
    version    integer NOT NULL,
    data       text    NOT NULL CHECK (data::json IS NOT NULL),
    created_at text COLLATE "C" NOT NULL
);
