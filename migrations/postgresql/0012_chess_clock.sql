-- PostgreSQL twin of ../0012_chess_clock.sql (same version, same tables; BIGINT ids, DOUBLE PRECISION times).
-- The chess clock of live games: each player has a bank of time and gains an increment each turn.
-- clock_bank: the seconds each bank starts with (NULL: no chess clock); clock_increment: the
-- seconds added at the start of each of a player's turns. The clock of the turn in play is a
-- 'clock' row of deadlines (due when the player's bank and increment are spent).
-- clock_paused_at / clock_paused_until: an agreed pause (every player said yes) and when it ends
-- by itself (the asker's absence); both NULL while the clock runs.
ALTER TABLE games ADD COLUMN clock_bank BIGINT CHECK (clock_bank IS NULL OR clock_bank > 0);
ALTER TABLE games ADD COLUMN clock_increment BIGINT NOT NULL DEFAULT 0 CHECK (clock_increment >= 0);
ALTER TABLE games ADD COLUMN clock_paused_at DOUBLE PRECISION;
ALTER TABLE games ADD COLUMN clock_paused_until DOUBLE PRECISION;
CREATE INDEX games_clock_paused ON games (clock_paused_until) WHERE clock_paused_until IS NOT NULL;

-- bank: the seconds left in the seat's bank before its next turn (NULL: no chess clock); the turn
-- in play has its own deadline, and the bank is written back when the turn ends.
ALTER TABLE seats ADD COLUMN bank DOUBLE PRECISION;

-- Votes to pause a live game's clock: a player going away asks (until: the end of their
-- absence), every player still playing must agree; a refusal drops them all.
CREATE TABLE pause_votes (
    game_id  BIGINT  NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    user_id  BIGINT  NOT NULL,
    voted_at DOUBLE PRECISION    NOT NULL,
    until    DOUBLE PRECISION,
    PRIMARY KEY (game_id, user_id)
);
