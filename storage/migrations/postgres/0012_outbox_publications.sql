-- 0012_outbox_publications (PostgreSQL): the twin of
-- ../0012_outbox_publications.sql. A version's outbox entries are one row
-- (kind 'parts'); the table is unchanged, this migration's version keeps
-- older binaries, which would mark such a row done unread, from starting
-- on the database (ErrSchemaTooNew).
SELECT 1;
