-- 0008_analyses: post-game analyses (issue 29), kept so that asking again
-- is instant. data is the analysis in the bot's encoding (package
-- analysis, JSON); version is that encoding's version, and an analysis of
-- another version is made again. A game's analysis goes with the game.
CREATE TABLE analyses (
    game_id    INTEGER NOT NULL PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
    version    INTEGER NOT NULL,
    data       TEXT    NOT NULL CHECK (json_valid(data)),
    created_at TEXT    NOT NULL
) STRICT;
