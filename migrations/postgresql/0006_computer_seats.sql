-- PostgreSQL twin of ../0006_computer_seats.sql (same version, same tables; BIGINT ids, DOUBLE PRECISION times).
-- Computer players: a seat the bot plays itself, at a level. NULL for a person.
-- A computer seat's user_id is negative (-1, -2, ... within its game): never a Discord user.
ALTER TABLE seats ADD COLUMN computer TEXT
    CHECK (computer IS NULL OR computer IN ('easy', 'medium', 'hard'));
