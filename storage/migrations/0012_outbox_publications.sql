-- 0012_outbox_publications: a version's outbox entries are one row, its
-- publication (kind 'parts': the entries' kinds and payloads in payload,
-- their outcomes and delivery times in outcome, JSON arrays; see
-- outbox.go). The table is unchanged: this migration's version is the
-- point. A binary older than it does not know such a row and would mark
-- it done unread (a lost board or hand DM), and an older binary refuses a
-- database whose schema is newer than it knows (ErrSchemaTooNew): so none
-- starts on a database that may hold one.
SELECT 1;
