-- 0002_decks_undo: each game's deck kept in the database, undo requests
-- waiting for the opponent's answer, and who allowed an undo.

-- Decks by identity. content is a deck in its canonical form (the engine's
-- Deck.Canonical) and id the engine's hash of it; a game's state names the
-- id of the deck it plays with, so a game keeps its cards whatever the
-- deck file or the release does. Rows written for games saved before this
-- table existed are keyed by the id their state names (a hash of the deck
-- file's bytes) and hold the deck the bot adopted for them.
CREATE TABLE decks (
    id         TEXT NOT NULL PRIMARY KEY CHECK (id <> ''),
    content    TEXT NOT NULL CHECK (json_valid(content)),
    created_at TEXT NOT NULL
) STRICT;

-- A player's request to take back a choice the opponent could have seen:
-- at most one per game, for the game version it was asked at. It lapses
-- with the game's next move (ApplyMove deletes it) or the opponent's
-- refusal.
CREATE TABLE undo_requests (
    game_id    INTEGER NOT NULL PRIMARY KEY REFERENCES games (id),
    side       TEXT    NOT NULL CHECK (side IN ('commune', 'versailles')),
    user_id    TEXT    NOT NULL CHECK (user_id <> ''),
    version    INTEGER NOT NULL CHECK (version >= 0),
    created_at TEXT    NOT NULL
) STRICT;

-- An undo the opponent allowed names them; '' for every other action.
ALTER TABLE actions ADD COLUMN allowed_by TEXT NOT NULL DEFAULT '';
