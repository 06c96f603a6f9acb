-- 0005_locales (PostgreSQL): the twin of ../0005_locales.sql. Which
-- language to speak when nobody chose one.
--
-- language_chosen says whether guild_settings.language is a choice (1) or
-- only the column's default (0); rows written before this migration count
-- as chosen, which keeps what those servers saw.
ALTER TABLE guild_settings ADD COLUMN language_chosen smallint NOT NULL DEFAULT 1
    CHECK (language_chosen IN (0, 1));

-- The last Discord locale seen for each user, so that a DM sent outside
-- any interaction speaks the user's language.
CREATE TABLE user_locales (
    user_id    text COLLATE "C" NOT NULL PRIMARY KEY CHECK (user_id <> ''),
    locale     text NOT NULL CHECK (locale <> ''),
    updated_at text COLLATE "C" NOT NULL
);

-- The last preferred locale Discord reported for each guild.
CREATE TABLE guild_locales (
    guild_id   text COLLATE "C" NOT NULL PRIMARY KEY CHECK (guild_id <> ''),
    locale     text NOT NULL CHECK (locale <> ''),
    updated_at text COLLATE "C" NOT NULL
);
