-- 0011_clocks (PostgreSQL): the twin of ../0010_clocks.sql. A game's pace
-- and clock (opaque JSON owned by the bot, '' for none), a server's default
-- pace, and the spells of time away members declared.
ALTER TABLE games ADD COLUMN clock text NOT NULL DEFAULT '';

ALTER TABLE guild_settings ADD COLUMN pace text NOT NULL DEFAULT '';

CREATE TABLE away (
    user_id   text COLLATE "C" NOT NULL CHECK (user_id <> ''),
    starts_at text COLLATE "C" NOT NULL CHECK (starts_at <> ''),
    ends_at   text COLLATE "C" NOT NULL CHECK (ends_at >= starts_at),
    PRIMARY KEY (user_id, starts_at)
);
