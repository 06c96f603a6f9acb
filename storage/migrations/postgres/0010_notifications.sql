-- 0010_notifications (PostgreSQL): the twin of ../0010_notifications.sql.
-- How each member wants to be told it is their turn (mention, dm, digest,
-- off), the time of day of their digest and when the last one was sent;
-- games.reminders counts the reminders sent since the game's last move.
CREATE TABLE member_prefs (
    user_id        text COLLATE "C" NOT NULL PRIMARY KEY CHECK (user_id <> ''),
    notify         text NOT NULL CHECK (notify IN ('mention', 'dm', 'digest', 'off')),
    digest_anchor  text COLLATE "C" NOT NULL DEFAULT '',
    digest_sent_at text COLLATE "C" NOT NULL DEFAULT '',
    updated_at     text COLLATE "C" NOT NULL
);

ALTER TABLE games ADD COLUMN reminders bigint NOT NULL DEFAULT 0 CHECK (reminders >= 0);
