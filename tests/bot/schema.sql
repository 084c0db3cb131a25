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
);

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
    joined_at REAL    NOT NULL,
    PRIMARY KEY (game_id, seat),
    UNIQUE (game_id, colour)
) WITHOUT ROWID;

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
);

-- index deadlines_by_user
CREATE INDEX deadlines_by_user ON deadlines (user_id) WHERE done_at IS NULL;

-- index deadlines_due
CREATE INDEX deadlines_due ON deadlines (due_at) WHERE done_at IS NULL AND paused_at IS NULL;

-- index games_by_channel
CREATE INDEX games_by_channel ON games (channel_id, status);

-- index games_by_guild
CREATE INDEX games_by_guild ON games (guild_id, status);

-- index games_by_thread
CREATE INDEX games_by_thread ON games (thread_id);

-- index seats_by_user
CREATE INDEX seats_by_user ON seats (user_id);

