-- 0011_clocks: a game's pace and clock, a server's default pace, and time
-- away.
--
-- A game's clock is opaque JSON owned by the bot (bot/clock.go), like its
-- state: the pace, each side's remaining time and since when it runs. It is
-- written with every move (ApplyMove, in the move's transaction) and by the
-- clock's own writes (SetClock: one more day, a warning sent), compared and
-- swapped so that two processes never both write it. '' means no clock
-- (pace "none", games against the AI or the solo opponent, games stored
-- before this migration).
ALTER TABLE games ADD COLUMN clock TEXT NOT NULL DEFAULT '';

-- The pace a new game takes when /rfop new names none ('' for none).
ALTER TABLE guild_settings ADD COLUMN pace TEXT NOT NULL DEFAULT '';

-- Time away: one row per spell a member declared (/rfop away), ended early
-- by /rfop back (ends_at moved to that time). A player's clocks do not run
-- while a spell covers the time; the budget (bot/away.go) sums the spells
-- of the last days.
CREATE TABLE away (
    user_id   TEXT NOT NULL CHECK (user_id <> ''),
    starts_at TEXT NOT NULL CHECK (starts_at <> ''),
    ends_at   TEXT NOT NULL CHECK (ends_at >= starts_at),
    PRIMARY KEY (user_id, starts_at)
) STRICT, WITHOUT ROWID;
