-- 0008_lease_incarnations (PostgreSQL): the twin of
-- ../0008_lease_incarnations.sql. Outbox leases name the holder's shard
-- and incarnation; a newer incarnation of the same shard takes an older
-- one's lease at once.
ALTER TABLE outbox_leases ADD COLUMN shard bigint NOT NULL DEFAULT -1;
ALTER TABLE outbox_leases ADD COLUMN incarnation bigint NOT NULL DEFAULT 0;

CREATE TABLE shard_incarnations (
    shard       bigint PRIMARY KEY CHECK (shard >= 0),
    incarnation bigint NOT NULL CHECK (incarnation >= 1)
);
