-- 0006_outbox_leases (PostgreSQL): the twin of ../0006_outbox_leases.sql.
-- Which bot process (holder) delivers a game's outbox until until_ms (Unix
-- milliseconds); ClaimOutbox takes it in one conditional upsert.
CREATE TABLE outbox_leases (
    game_id  bigint PRIMARY KEY REFERENCES games (id),
    holder   text   NOT NULL CHECK (holder <> ''),
    until_ms bigint NOT NULL
);
