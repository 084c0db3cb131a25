-- PostgreSQL twin of ../0009_timeout_notices.sql (same version, same tables).
-- A timeout's announcement joins the notices outbox: it is claimed in the transaction that
-- saves the forced move and marked sent once posted, so a process that dies in between leaves
-- it owed and another process posts it (once) when the claim runs out.
ALTER TABLE notices DROP CONSTRAINT notices_kind_check;
ALTER TABLE notices ADD CONSTRAINT notices_kind_check
    CHECK (kind IN ('start', 'reminder', 'timeout'));
