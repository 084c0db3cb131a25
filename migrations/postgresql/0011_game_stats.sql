-- PostgreSQL twin of ../0011_game_stats.sql (same version, same tables).
-- What /carcassonne stats counts, one row per seat of a finished game: computed once from the
-- game's replay when it ends (or, for games that ended before, the first time stats need them)
-- so that a player's statistics never replay every record.
-- action_count: the length of the action log the row was computed from (a different count
-- in games means the row is stale and is computed again).
CREATE TABLE game_stats (
    game_id          BIGINT  NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat             BIGINT  NOT NULL CHECK (seat >= 0),
    user_id          BIGINT  NOT NULL,
    -- 1 for a computer seat (its user_id is negative).
    computer         BIGINT  NOT NULL DEFAULT 0 CHECK (computer IN (0, 1)),
    score            BIGINT  NOT NULL,
    -- 1 for every winner (a shared win counts for each of them).
    won              BIGINT  NOT NULL CHECK (won IN (0, 1)),
    -- 1 if the player resigned or forfeited.
    left_game        BIGINT  NOT NULL DEFAULT 0 CHECK (left_game IN (0, 1)),
    -- JSON: points per scoring category ({"city": 12, "road": 5}).
    breakdown        TEXT    NOT NULL DEFAULT '{}',
    figures_placed   BIGINT  NOT NULL DEFAULT 0,
    figures_returned BIGINT  NOT NULL DEFAULT 0,
    -- JSON: seconds each of the player's own turns took (games with a turn clock only).
    turn_times       TEXT    NOT NULL DEFAULT '[]',
    action_count     BIGINT  NOT NULL,
    PRIMARY KEY (game_id, seat)
);
CREATE INDEX game_stats_by_user ON game_stats (user_id);
