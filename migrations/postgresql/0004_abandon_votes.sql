-- PostgreSQL twin of ../0004_abandon_votes.sql (same version, same tables; BIGINT ids, DOUBLE PRECISION times).
-- Votes to abandon a started game: its creator asks, every player still playing must agree
-- (see GameManager.vote_abandon). A refusal drops them all; they go with the game.
CREATE TABLE abandon_votes (
    game_id  BIGINT  NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    user_id  BIGINT  NOT NULL,
    voted_at DOUBLE PRECISION    NOT NULL,
    PRIMARY KEY (game_id, user_id)
);
