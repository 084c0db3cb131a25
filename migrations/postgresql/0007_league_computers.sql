-- PostgreSQL twin of ../0007_league_computers.sql (same version, same tables; BIGINT ids, DOUBLE PRECISION times).
-- Leagues that allow computer players: the level their computer seats play at, NULL for none.
-- Computers fill seats up to the league's smallest table; people are rated among themselves.
ALTER TABLE leagues ADD COLUMN computers TEXT
    CHECK (computers IS NULL OR computers IN ('easy', 'medium', 'hard'));
