-- table abandon_votes
CREATE TABLE abandon_votes (
    game_id  INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    user_id  INTEGER NOT NULL,
    voted_at REAL    NOT NULL,
    PRIMARY KEY (game_id, user_id)
) WITHOUT ROWID;

-- table actions
CREATE TABLE actions (
    game_id    INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    idx        INTEGER NOT NULL CHECK (idx >= 0),
    turn       INTEGER NOT NULL,
    seat       INTEGER NOT NULL,
    user_id    INTEGER,
    action     TEXT    NOT NULL,
    -- NULL for a player's own move; otherwise why the bot played it ('resigned', 'autoplay', ...).
    forced     TEXT,
    created_at REAL    NOT NULL,
    PRIMARY KEY (game_id, idx)
) WITHOUT ROWID;

-- table dashboards
CREATE TABLE dashboards (
    channel_id INTEGER PRIMARY KEY,
    guild_id   INTEGER NOT NULL,
    message_id INTEGER,
    changed_at REAL    NOT NULL DEFAULT 0,
    shown_at   REAL    NOT NULL DEFAULT 0,
    created_at REAL    NOT NULL
);

-- table deadlines
CREATE TABLE deadlines (
    game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    kind    TEXT    NOT NULL,
    turn    INTEGER NOT NULL,
    user_id INTEGER,
    due_at  REAL    NOT NULL,
    done_at REAL, paused_at REAL, notified_at REAL,
    PRIMARY KEY (game_id, kind)
) WITHOUT ROWID;

-- table digests
CREATE TABLE digests (
    guild_id INTEGER PRIMARY KEY,
    sent_at  REAL    NOT NULL
);

-- table followers
CREATE TABLE followers (
    game_id    INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    user_id    INTEGER NOT NULL,
    status     TEXT    NOT NULL CHECK (status IN ('asked', 'following')),
    refused_by TEXT    NOT NULL DEFAULT '[]',
    since      REAL    NOT NULL,
    PRIMARY KEY (game_id, user_id)
) WITHOUT ROWID;

-- table forgotten
CREATE TABLE forgotten (
    number       INTEGER PRIMARY KEY,
    forgotten_at REAL    NOT NULL
);

-- table game_stats
CREATE TABLE game_stats (
    game_id          INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat             INTEGER NOT NULL CHECK (seat >= 0),
    user_id          INTEGER NOT NULL,
    -- 1 for a computer seat (its user_id is negative).
    computer         INTEGER NOT NULL DEFAULT 0 CHECK (computer IN (0, 1)),
    score            INTEGER NOT NULL,
    -- 1 for every winner (a shared win counts for each of them).
    won              INTEGER NOT NULL CHECK (won IN (0, 1)),
    -- 1 if the player resigned or forfeited.
    left_game        INTEGER NOT NULL DEFAULT 0 CHECK (left_game IN (0, 1)),
    -- JSON: points per scoring category ({"city": 12, "road": 5}).
    breakdown        TEXT    NOT NULL DEFAULT '{}',
    figures_placed   INTEGER NOT NULL DEFAULT 0,
    figures_returned INTEGER NOT NULL DEFAULT 0,
    -- JSON: seconds each of the player's own turns took (games with a turn clock only).
    turn_times       TEXT    NOT NULL DEFAULT '[]',
    action_count     INTEGER NOT NULL,
    PRIMARY KEY (game_id, seat)
) WITHOUT ROWID;

-- table games
CREATE TABLE games (
    id             INTEGER PRIMARY KEY,
    guild_id       INTEGER,
    channel_id     INTEGER,
    thread_id      INTEGER,
    message_id     INTEGER,
    owner_id       INTEGER NOT NULL,
    kind           TEXT    NOT NULL DEFAULT 'carcassonne',
    expansions     TEXT    NOT NULL DEFAULT '[]',
    options        TEXT    NOT NULL DEFAULT '{}',
    -- Other setup fields of the record (forced draw orders of imported games), as a JSON object.
    setup_extra    TEXT    NOT NULL DEFAULT '{}',
    seed           INTEGER,
    status         TEXT    NOT NULL DEFAULT 'lobby'
                           CHECK (status IN ('lobby', 'active', 'finished', 'abandoned')),
    private        INTEGER NOT NULL DEFAULT 0 CHECK (private IN (0, 1)),
    max_players    INTEGER NOT NULL DEFAULT 6 CHECK (max_players BETWEEN 1 AND 6),
    locale         TEXT,
    -- Denormalised from the replay so that lists and the scheduler need no engine.
    turn           INTEGER NOT NULL DEFAULT 0,
    action_count   INTEGER NOT NULL DEFAULT 0,
    current_seat   INTEGER,
    turn_seconds   INTEGER CHECK (turn_seconds IS NULL OR turn_seconds > 0),
    timeout_policy TEXT    NOT NULL DEFAULT 'autoplay'
                           CHECK (timeout_policy IN ('autoplay', 'skip', 'forfeit')),
    -- JSON: {"scores": [...], "winners": [...], "reason": "..."} once finished or abandoned.
    result         TEXT,
    created_at     REAL    NOT NULL,
    updated_at     REAL    NOT NULL,
    started_at     REAL,
    ended_at       REAL
, purist INTEGER NOT NULL DEFAULT 0 CHECK (purist IN (0, 1)), clock_bank INTEGER CHECK (clock_bank IS NULL OR clock_bank > 0), clock_increment INTEGER NOT NULL DEFAULT 0 CHECK (clock_increment >= 0), clock_paused_at REAL, clock_paused_until REAL, deleted_at REAL);

-- table guild_settings
CREATE TABLE guild_settings (
    guild_id          INTEGER PRIMARY KEY,
    locale            TEXT    NOT NULL DEFAULT 'en',
    game              TEXT    NOT NULL DEFAULT 'carcassonne',
    expansions        TEXT    NOT NULL DEFAULT '[]',
    options           TEXT    NOT NULL DEFAULT '{}',
    channel_id        INTEGER,
    turn_seconds      INTEGER CHECK (turn_seconds IS NULL OR turn_seconds > 0),
    timeout_policy    TEXT    NOT NULL DEFAULT 'autoplay'
                              CHECK (timeout_policy IN ('autoplay', 'skip', 'forfeit')),
    digest_channel_id INTEGER,
    updated_at        REAL    NOT NULL
, locale_chosen INTEGER NOT NULL DEFAULT 0, keep_days INTEGER CHECK (keep_days IS NULL OR keep_days > 0));

-- table league_audit
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

-- table league_games
CREATE TABLE league_games (
    game_id    INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    league_id  INTEGER NOT NULL REFERENCES leagues (id) ON DELETE CASCADE,
    season     INTEGER NOT NULL,
    created_by INTEGER NOT NULL,
    -- JSON list of user ids a challenge waits for ('[]' for a scheduled game).
    invited    TEXT    NOT NULL DEFAULT '[]',
    created_at REAL    NOT NULL
);

-- table league_members
CREATE TABLE league_members (
    league_id INTEGER NOT NULL REFERENCES leagues (id) ON DELETE CASCADE,
    user_id   INTEGER NOT NULL,
    name      TEXT    NOT NULL,
    joined_at REAL    NOT NULL,
    left_at   REAL,
    PRIMARY KEY (league_id, user_id)
) WITHOUT ROWID;

-- table league_placings
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

-- table league_results
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

-- table league_seasons
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

-- table leagues
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
, computers TEXT
    CHECK (computers IS NULL OR computers IN ('easy', 'medium', 'hard', 'expert')));

-- table notices
CREATE TABLE "notices" (
    game_id       INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    kind          TEXT    NOT NULL CHECK (kind IN ('start', 'reminder', 'timeout')),
    turn          INTEGER NOT NULL,
    claimed_until REAL    NOT NULL,
    sent_at       REAL,
    PRIMARY KEY (game_id, kind, turn)
) WITHOUT ROWID;

-- table pause_votes
CREATE TABLE pause_votes (
    game_id  INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    user_id  INTEGER NOT NULL,
    voted_at REAL    NOT NULL,
    until    REAL,
    PRIMARY KEY (game_id, user_id)
) WITHOUT ROWID;

-- table review_seats
CREATE TABLE review_seats (
    game_id       INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat          INTEGER NOT NULL CHECK (seat >= 0),
    -- The player's own decisions reviewed (the bot's forced ones left out).
    decisions     INTEGER NOT NULL CHECK (decisions >= 0),
    -- Share of them within 1 point of the best (0..1).
    accuracy      REAL    NOT NULL CHECK (accuracy >= 0 AND accuracy <= 1),
    -- Mean points of expected final margin lost per decision.
    lost_per_turn REAL    NOT NULL CHECK (lost_per_turn >= 0),
    PRIMARY KEY (game_id, seat)
) WITHOUT ROWID;

-- table reviews
CREATE TABLE reviews (
    game_id      INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    budget       INTEGER NOT NULL CHECK (budget > 0),
    action_count INTEGER NOT NULL,
    -- JSON: ai.review.Review.to_json() (its format number inside).
    review       TEXT    NOT NULL,
    created_at   REAL    NOT NULL
);

-- table seats
CREATE TABLE seats (
    game_id   INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat      INTEGER NOT NULL CHECK (seat >= 0),
    user_id   INTEGER NOT NULL,
    name      TEXT    NOT NULL,
    colour    TEXT    NOT NULL,
    status    TEXT    NOT NULL DEFAULT 'playing'
                      CHECK (status IN ('playing', 'resigned', 'forfeited')),
    joined_at REAL    NOT NULL, computer TEXT
    CHECK (computer IS NULL OR computer IN ('easy', 'medium', 'hard', 'expert')), bank REAL,
    PRIMARY KEY (game_id, seat),
    UNIQUE (game_id, colour)
) WITHOUT ROWID;

-- table tournament_audit
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

-- table tournament_entrants
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

-- table tournament_games
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

-- table tournaments
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

-- table undo_votes
CREATE TABLE undo_votes (
    game_id    INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    action_idx INTEGER NOT NULL,
    user_id    INTEGER NOT NULL,
    voted_at   REAL    NOT NULL,
    PRIMARY KEY (game_id, action_idx, user_id)
) WITHOUT ROWID;

-- table user_settings
CREATE TABLE user_settings (
    user_id      INTEGER PRIMARY KEY,
    locale       TEXT,
    dm_reminders INTEGER NOT NULL DEFAULT 0 CHECK (dm_reminders IN (0, 1)),
    away_until   REAL,
    updated_at   REAL    NOT NULL
, dm_heads_up INTEGER NOT NULL DEFAULT 0
    CHECK (dm_heads_up IN (0, 1)));

-- index dashboards_by_guild
CREATE INDEX dashboards_by_guild ON dashboards (guild_id);

-- index deadlines_by_user
CREATE INDEX deadlines_by_user ON deadlines (user_id) WHERE done_at IS NULL;

-- index deadlines_due
CREATE INDEX deadlines_due ON deadlines (due_at) WHERE done_at IS NULL AND paused_at IS NULL;

-- index followers_by_user
CREATE INDEX followers_by_user ON followers (user_id);

-- index game_stats_by_user
CREATE INDEX game_stats_by_user ON game_stats (user_id);

-- index games_by_channel
CREATE INDEX games_by_channel ON games (channel_id, status);

-- index games_by_guild
CREATE INDEX games_by_guild ON games (guild_id, status);

-- index games_by_thread
CREATE INDEX games_by_thread ON games (thread_id);

-- index games_clock_paused
CREATE INDEX games_clock_paused ON games (clock_paused_until) WHERE clock_paused_until IS NOT NULL;

-- index games_ended
CREATE INDEX games_ended ON games (guild_id, ended_at) WHERE deleted_at IS NULL;

-- index league_audit_by_league
CREATE INDEX league_audit_by_league ON league_audit (league_id, created_at);

-- index league_games_by_league
CREATE INDEX league_games_by_league ON league_games (league_id, season);

-- index league_placings_by_user
CREATE INDEX league_placings_by_user ON league_placings (user_id);

-- index league_results_by_league
CREATE INDEX league_results_by_league ON league_results (league_id, ended_at);

-- index leagues_by_name
CREATE UNIQUE INDEX leagues_by_name ON leagues (guild_id, name COLLATE NOCASE);

-- index notices_unsent
CREATE INDEX notices_unsent ON notices (claimed_until) WHERE sent_at IS NULL;

-- index seats_by_user
CREATE INDEX seats_by_user ON seats (user_id);

-- index tournament_audit_by_tournament
CREATE INDEX tournament_audit_by_tournament ON tournament_audit (tournament_id, created_at);

-- index tournaments_by_guild
CREATE INDEX tournaments_by_guild ON tournaments (guild_id, state);

