-- Issue 58: tournaments (Swiss rounds, knockout brackets, Swiss then a final table).
-- Standings and brackets are never stored: they are computed from the decided tables of
-- tournament_games (bot/tournaments.py), so an annulled game (only marked) stops counting while
-- its pairing stands.

CREATE TABLE tournaments (
    id             INTEGER PRIMARY KEY,
    guild_id       INTEGER NOT NULL,
    -- Where its games get their threads and its lobby message lives.
    channel_id     INTEGER NOT NULL,
    name           TEXT    NOT NULL,
    organiser_id   INTEGER NOT NULL,
    -- A tournament of a league: its games count for the league's ratings.
    league_id      INTEGER REFERENCES leagues (id) ON DELETE SET NULL,
    kind           TEXT    NOT NULL DEFAULT 'carcassonne',
    expansions     TEXT    NOT NULL DEFAULT '[]',
    options        TEXT    NOT NULL DEFAULT '{}',
    table_size     INTEGER NOT NULL CHECK (table_size BETWEEN 2 AND 5),
    format         TEXT    NOT NULL CHECK (format IN ('swiss', 'knockout', 'swiss_final')),
    -- The Swiss rounds (swiss, swiss_final); NULL for a knockout.
    rounds         INTEGER CHECK (rounds IS NULL OR rounds >= 1),
    -- Games per knockout match at 2-player tables: the first to win a majority goes on.
    best_of        INTEGER NOT NULL DEFAULT 1 CHECK (best_of IN (1, 3, 5)),
    -- Players going on from each knockout table of 3 to 5; the final table's size (swiss_final).
    advance        INTEGER NOT NULL DEFAULT 1 CHECK (advance BETWEEN 1 AND 5),
    -- 'live': the server's usual timing; 'post': play-by-post, turn_seconds per turn, then
    -- timeout_policy, and round_seconds per round (then its unfinished games are decided).
    pace           TEXT    NOT NULL CHECK (pace IN ('live', 'post')),
    turn_seconds   INTEGER CHECK (turn_seconds IS NULL OR turn_seconds > 0),
    round_seconds  INTEGER CHECK (round_seconds IS NULL OR round_seconds > 0),
    timeout_policy TEXT    NOT NULL DEFAULT 'skip'
                           CHECK (timeout_policy IN ('autoplay', 'skip', 'forfeit')),
    -- The level of the computer players that fill short tables, NULL if none may.
    computers      TEXT    CHECK (computers IS NULL OR computers IN ('easy', 'medium', 'hard', 'expert')),
    state          TEXT    NOT NULL DEFAULT 'signup'
                           CHECK (state IN ('signup', 'checkin', 'running', 'finished', 'cancelled')),
    -- The round being played (0 before the first).
    round          INTEGER NOT NULL DEFAULT 0 CHECK (round >= 0),
    round_deadline REAL,
    -- The sign-up message in the channel.
    message_id     INTEGER,
    created_at     REAL    NOT NULL,
    ended_at       REAL
);
CREATE INDEX tournaments_by_guild ON tournaments (guild_id, state);

-- Who signed up; rating is their seeding, fixed when the tournament starts. dropped_round is the
-- round they dropped out in (0: before the first), NULL while they play on.
CREATE TABLE tournament_entrants (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    user_id       INTEGER NOT NULL,
    name          TEXT    NOT NULL,
    rating        INTEGER NOT NULL DEFAULT 1000,
    joined_at     REAL    NOT NULL,
    checked_in    INTEGER NOT NULL DEFAULT 0 CHECK (checked_in IN (0, 1)),
    dropped_round INTEGER CHECK (dropped_round IS NULL OR dropped_round >= 0),
    PRIMARY KEY (tournament_id, user_id)
) WITHOUT ROWID;

-- One game of one table of one round (game_no: the game of a best-of match), paired when its
-- round was: players (JSON user ids, top seed first) stand even when the game is annulled.
-- game_id is NULL for a bye or a forfeit (nothing to play), and once a finished game is deleted.
-- ranks and scores (JSON, aligned with players) are set when the table is decided; absent
-- lists who forfeited (behind everyone who played).
CREATE TABLE tournament_games (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    round         INTEGER NOT NULL CHECK (round >= 1),
    table_no      INTEGER NOT NULL CHECK (table_no >= 1),
    game_no       INTEGER NOT NULL DEFAULT 1 CHECK (game_no >= 1),
    players       TEXT    NOT NULL,
    game_id       INTEGER UNIQUE REFERENCES games (id) ON DELETE SET NULL,
    ranks         TEXT,
    scores        TEXT,
    absent        TEXT    NOT NULL DEFAULT '[]',
    decided_at    REAL,
    annulled_at   REAL,
    PRIMARY KEY (tournament_id, round, table_no, game_no)
) WITHOUT ROWID;

-- Who did what to a tournament and why: creation, start, drop-outs by the organiser, annulled
-- games, a cancellation.
CREATE TABLE tournament_audit (
    id            INTEGER PRIMARY KEY,
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    user_id       INTEGER NOT NULL,
    action        TEXT    NOT NULL,
    round         INTEGER,
    game_id       INTEGER,
    reason        TEXT    NOT NULL DEFAULT '',
    created_at    REAL    NOT NULL
);
CREATE INDEX tournament_audit_by_tournament ON tournament_audit (tournament_id, created_at);
