-- 0002_decks_undo (PostgreSQL): the twin of ../0002_decks_undo.sql. Each
-- game's deck kept in the database, undo requests waiting for the
-- opponent's answer, and who allowed an undo.

-- Decks by identity (the engine's hash of the deck's canonical form).
CREATE TABLE decks (
    id         text COLLATE "C" NOT NULL PRIMARY KEY CHECK (id <> ''),
    content    text NOT NULL CHECK (content::json IS NOT NULL),
    created_at text COLLATE "C" NOT NULL
);

-- At most one pending undo request per game, for the game version it was
-- asked at; it lapses with the game's next move or the opponent's refusal.
CREATE TABLE undo_requests (
    game_id    bigint NOT NULL PRIMARY KEY REFERENCES games (id),
    side       text   NOT NULL CHECK (side IN ('commune', 'versailles')),
    user_id    text COLLATE "C" NOT NULL CHECK (user_id <> ''),
    version    bigint NOT NULL CHECK (version >= 0),
    created_at text COLLATE "C" NOT NULL
);

-- An undo the opponent allowed names them; '' for every other action.
ALTER TABLE actions ADD COLUMN allowed_by text COLLATE "C" NOT NULL DEFAULT '';
