-- Votes to abandon a started game: its creator asks, every player still playing must agree
-- (see GameManager.vote_abandon). A refusal drops them all; they go with the game.
CREATE TABLE abandon_votes (
    game_id  INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    user_id  INTEGER NOT NULL,
    voted_at REAL    NOT NULL,
    PRIMARY KEY (game_id, user_id)
) WITHOUT ROWID;
