-- Community leagues: a guild's leagues with their rules, seasons, members, the games created
-- from them, the results those games gave, and a log of every destructive action.
-- Ratings and standings are never stored: they are recomputed from the results in order, so
-- annulling a result (which only marks it) gives exactly the ratings as if it never counted.

CREATE TABLE leagues (
    id           INTEGER PRIMARY KEY,
    guild_id     INTEGER NOT NULL,
    name         TEXT    NOT NULL,
    organiser_id INTEGER NOT NULL,
    -- Where the league's games get their threads and its standings message is kept up to date.
    channel_id   INTEGER NOT NULL,
    kind         TEXT    NOT NULL DEFAULT 'carcassonne',
    expansions   TEXT    NOT NULL DEFAULT '[]',
    options      TEXT    NOT NULL DEFAULT '{}',
    min_players  INTEGER NOT NULL CHECK (min_players BETWEEN 2 AND 5),
    max_players  INTEGER NOT NULL CHECK (max_players BETWEEN min_players AND 5),
    -- 'live': no turn timer; 'post': play-by-post, turn_seconds per turn, then timeout_policy.
    pace         TEXT    NOT NULL CHECK (pace IN ('live', 'post')),
    turn_seconds INTEGER CHECK (turn_seconds IS NULL OR turn_seconds > 0),
    timeout_policy TEXT  NOT NULL DEFAULT 'skip'
                         CHECK (timeout_policy IN ('autoplay', 'skip', 'forfeit')),
    -- JSON: standings points per placement ([3, 1, 0] = 3 for first, 1 for second, 0 after).
    points       TEXT    NOT NULL,
    -- JSON: tie-breakers after points, in order ("wins", "total_score", "average_score").
    tiebreaks    TEXT    NOT NULL,
    created_at   REAL    NOT NULL
);
CREATE UNIQUE INDEX leagues_by_name ON leagues (guild_id, name COLLATE NOCASE);

-- Seasons in order; the league's current season is its last one, closed once closed_at is set.
CREATE TABLE league_seasons (
    league_id  INTEGER NOT NULL REFERENCES leagues (id) ON DELETE CASCADE,
    season     INTEGER NOT NULL CHECK (season >= 1),
    starts_at  REAL    NOT NULL,
    ends_at    REAL,
    -- The auto-updated standings message of this season (in the league's channel).
    message_id INTEGER,
    closed_at  REAL,
    PRIMARY KEY (league_id, season)
) WITHOUT ROWID;

-- left_at is set while the member is out of the league; their results stay.
CREATE TABLE league_members (
    league_id INTEGER NOT NULL REFERENCES leagues (id) ON DELETE CASCADE,
    user_id   INTEGER NOT NULL,
    name      TEXT    NOT NULL,
    joined_at REAL    NOT NULL,
    left_at   REAL,
    PRIMARY KEY (league_id, user_id)
) WITHOUT ROWID;

-- A game created from a league (scheduled by an organiser, or a challenge between members).
CREATE TABLE league_games (
    game_id    INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    league_id  INTEGER NOT NULL REFERENCES leagues (id) ON DELETE CASCADE,
    season     INTEGER NOT NULL,
    created_by INTEGER NOT NULL,
    -- JSON list of user ids a challenge waits for ('[]' for a scheduled game).
    invited    TEXT    NOT NULL DEFAULT '[]',
    created_at REAL    NOT NULL
);
CREATE INDEX league_games_by_league ON league_games (league_id, season);

-- The result a finished league game gave, with one placing per seat. Annulled results are kept
-- (with who annulled them and why) but count for nothing.
CREATE TABLE league_results (
    id           INTEGER PRIMARY KEY,
    league_id    INTEGER NOT NULL REFERENCES leagues (id) ON DELETE CASCADE,
    season       INTEGER NOT NULL,
    game_id      INTEGER NOT NULL UNIQUE REFERENCES games (id),
    ended_at     REAL    NOT NULL,
    recorded_at  REAL    NOT NULL,
    annulled_at  REAL,
    annulled_by  INTEGER,
    annul_reason TEXT
);
CREATE INDEX league_results_by_league ON league_results (league_id, ended_at);

CREATE TABLE league_placings (
    result_id INTEGER NOT NULL REFERENCES league_results (id) ON DELETE CASCADE,
    seat      INTEGER NOT NULL CHECK (seat >= 0),
    user_id   INTEGER NOT NULL,
    name      TEXT    NOT NULL,
    score     INTEGER NOT NULL,
    -- 1 = first; tied players share a rank (1, 2, 2, 4).
    rank      INTEGER NOT NULL CHECK (rank >= 1),
    -- 1 if the player resigned or forfeited (ranked after everyone who stayed).
    left_game INTEGER NOT NULL DEFAULT 0 CHECK (left_game IN (0, 1)),
    -- JSON: points per scoring category ({"city": 12, "road": 5}).
    breakdown TEXT    NOT NULL DEFAULT '{}',
    PRIMARY KEY (result_id, seat)
) WITHOUT ROWID;
CREATE INDEX league_placings_by_user ON league_placings (user_id);

-- Who did what to a league and why: creation, closing a season, annulling a result.
CREATE TABLE league_audit (
    id         INTEGER PRIMARY KEY,
    league_id  INTEGER NOT NULL REFERENCES leagues (id) ON DELETE CASCADE,
    user_id    INTEGER NOT NULL,
    action     TEXT    NOT NULL,
    season     INTEGER,
    game_id    INTEGER,
    reason     TEXT    NOT NULL DEFAULT '',
    created_at REAL    NOT NULL
);
CREATE INDEX league_audit_by_league ON league_audit (league_id, created_at);
