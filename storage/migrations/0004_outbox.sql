-- 0004_outbox: what committed moves must publish, delivered after commit.
--
-- A move and what it must show on Discord (the board, hand DMs, the
-- result, the mover's panel) are written in the same transaction, so a
-- crash after the commit cannot lose the publication: the bot delivers
-- undelivered entries at start and periodically. Each entry belongs to the
-- game version that produced it (a batch); the bot orders delivery by id.
-- payload and outcome are the bot's JSON (what to publish; what delivering
-- it produced so far, e.g. the Discord message id it created, so that a
-- retry finds it instead of posting twice). done_at is '' until delivered.
CREATE TABLE outbox (
    id         INTEGER PRIMARY KEY,
    game_id    INTEGER NOT NULL REFERENCES games (id),
    version    INTEGER NOT NULL CHECK (version >= 0),
    kind       TEXT    NOT NULL CHECK (kind <> ''),
    payload    TEXT    NOT NULL DEFAULT '' CHECK (payload = '' OR json_valid(payload)),
    outcome    TEXT    NOT NULL DEFAULT '' CHECK (outcome = '' OR json_valid(outcome)),
    created_at TEXT    NOT NULL,
    done_at    TEXT    NOT NULL DEFAULT ''
) STRICT;

CREATE INDEX outbox_pending ON outbox (done_at, game_id, id);
CREATE INDEX outbox_batch ON outbox (game_id, version, id);
