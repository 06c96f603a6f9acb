-- 0008_lease_incarnations: a restarted shard takes over its own outbox
-- leases at once.
--
-- Each start of a bot process takes the next incarnation of its gateway
-- shard (shard_incarnations, NextIncarnation), and its outbox leases name
-- the shard and that incarnation. A newer incarnation of the same shard
-- takes an older one's lease at once: that process was stopped or killed
-- (its successor is the same shard), so nobody waits for the lease to
-- expire. A process of another shard still waits for the expiry. Leases
-- written before this migration name no shard (-1) and expire as before.
ALTER TABLE outbox_leases ADD COLUMN shard INTEGER NOT NULL DEFAULT -1;
ALTER TABLE outbox_leases ADD COLUMN incarnation INTEGER NOT NULL DEFAULT 0;

CREATE TABLE shard_incarnations (
    shard       INTEGER PRIMARY KEY CHECK (shard >= 0),
    incarnation INTEGER NOT NULL CHECK (incarnation >= 1)
) STRICT;
