-- 0005_locales: which language to speak when nobody chose one.
--
-- A guild that never chose its `language` speaks the server's preferred
-- locale (Discord's preferred_locale): language_chosen says whether the
-- language column is a choice (1) or only the column's default (0). Rows
-- written before this migration cannot tell; they count as chosen, which
-- keeps what those servers saw.
ALTER TABLE guild_settings ADD COLUMN language_chosen INTEGER NOT NULL DEFAULT 1
    CHECK (language_chosen IN (0, 1));

-- The last Discord locale seen for each user (an interaction's locale), so
-- that a DM sent outside any interaction (a hand, a reveal, a reminder)
-- speaks the user's language.
CREATE TABLE user_locales (
    user_id    TEXT NOT NULL PRIMARY KEY CHECK (user_id <> ''),
    locale     TEXT NOT NULL CHECK (locale <> ''),
    updated_at TEXT NOT NULL
) STRICT;

-- The last preferred locale Discord reported for each guild (GUILD_CREATE,
-- an interaction's guild_locale), so that a board posted after a restart,
-- before Discord reports it again, speaks the server's language.
CREATE TABLE guild_locales (
    guild_id   TEXT NOT NULL PRIMARY KEY CHECK (guild_id <> ''),
    locale     TEXT NOT NULL CHECK (locale <> ''),
    updated_at TEXT NOT NULL
) STRICT;
