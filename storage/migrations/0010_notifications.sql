-- 0010_notifications: how each member wants to be told it is their turn,
-- across all their games (/rfop notify).
--
-- notify is one of mention (the board mentions them: the default, and
-- what a member without a row gets), dm (a DM at each hand-over), digest
-- (one DM a day listing the games waiting for them) or off. digest_anchor
-- is when the member chose the digest: it comes every day at that time of
-- day. digest_sent_at is the last digest sent, so that none comes twice
-- in a day.
CREATE TABLE member_prefs (
    user_id        TEXT NOT NULL PRIMARY KEY CHECK (user_id <> ''),
    notify         TEXT NOT NULL CHECK (notify IN ('mention', 'dm', 'digest', 'off')),
    digest_anchor  TEXT NOT NULL DEFAULT '',
    digest_sent_at TEXT NOT NULL DEFAULT '',
    updated_at     TEXT NOT NULL
) STRICT;

-- reminders counts the reminders sent since the game's last move
-- (ClaimReminder adds one, a move sets it back to 0): the bot stops
-- after a few, and a stop of the bot does not change how many were sent.
ALTER TABLE games ADD COLUMN reminders INTEGER NOT NULL DEFAULT 0 CHECK (reminders >= 0);
