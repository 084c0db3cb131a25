-- PostgreSQL twin of ../0016_reviews.sql (same version, same tables).
-- Issue 56: the game review of a finished game, computed once (by the expert at a fixed budget)
-- and posted from here again. One row per reviewed game; its moments (every tile decision,
-- played and best, their values and why) are the record's, deleted with it (keep_days).
-- action_count: the length of the action log the review was computed from.
CREATE TABLE reviews (
    game_id      BIGINT  PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    budget       BIGINT  NOT NULL CHECK (budget > 0),
    action_count BIGINT  NOT NULL,
    -- JSON: ai.review.Review.to_json() (its format number inside).
    review       TEXT    NOT NULL,
    created_at   DOUBLE PRECISION NOT NULL
);

-- What /carcassonne stats counts of a review, one row per seat: kept with the game's summary
-- when its record is deleted. Written in the same transaction as the review.
CREATE TABLE review_seats (
    game_id       BIGINT  NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat          BIGINT  NOT NULL CHECK (seat >= 0),
    -- The player's own decisions reviewed (the bot's forced ones left out).
    decisions     BIGINT  NOT NULL CHECK (decisions >= 0),
    -- Share of them within 1 point of the best (0..1).
    accuracy      DOUBLE PRECISION NOT NULL CHECK (accuracy >= 0 AND accuracy <= 1),
    -- Mean points of expected final margin lost per decision.
    lost_per_turn DOUBLE PRECISION NOT NULL CHECK (lost_per_turn >= 0),
    PRIMARY KEY (game_id, seat)
);
