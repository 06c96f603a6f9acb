-- 0006_outbox_leases: one publisher per game across bot processes.
--
-- Several bot processes (gateway shards) share one database; a game's
-- publications may be delivered by the process that handled the move or
-- by the process that owns the game's background work. A lease row says
-- which process (holder: a random id per process) delivers the game's
-- outbox until until_ms (Unix milliseconds); another process takes it only
-- once it has expired (a holder killed without releasing it). Rows are
-- deleted when released, so the table holds only the games being
-- delivered.
CREATE TABLE outbox_leases (
    game_id  INTEGER PRIMARY KEY REFERENCES games (id),
    holder   TEXT    NOT NULL CHECK (holder <> ''),
    until_ms INTEGER NOT NULL
) STRICT;
