-- PostgreSQL twin of ../0013_dashboards_followers.sql (same version, same tables; BIGINT ids, DOUBLE PRECISION times).
-- Issue 19: a dashboard message per channel, followers of a game, heads-up DMs.
-- Independent of every migration after 0011: new tables, and one new column of user_settings.
--
-- A channel's dashboard (turned on by an admin): one message edited in place, listing the
-- channel's running games. message_id is NULL until it is posted (and again when Discord lost
-- it); changed_at is when a game of the channel last changed, shown_at what the message shows,
-- so the process running the channel's guild edits it when another process moved a game.
CREATE TABLE dashboards (
    channel_id BIGINT PRIMARY KEY,
    guild_id   BIGINT NOT NULL,
    message_id BIGINT,
    changed_at DOUBLE PRECISION NOT NULL DEFAULT 0,
    shown_at   DOUBLE PRECISION NOT NULL DEFAULT 0,
    created_at DOUBLE PRECISION NOT NULL
);
CREATE INDEX dashboards_by_guild ON dashboards (guild_id);

-- Who follows a game without playing it. status 'asked': a request to follow a private game
-- waits for one of its players to accept (refused_by: JSON list of the players who said no);
-- 'following': the user is in the game's thread.
CREATE TABLE followers (
    game_id    BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    user_id    BIGINT NOT NULL,
    status     TEXT   NOT NULL CHECK (status IN ('asked', 'following')),
    refused_by TEXT   NOT NULL DEFAULT '[]',
    since      DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (game_id, user_id)
);
CREATE INDEX followers_by_user ON followers (user_id);

-- 1: a DM when the player before you starts their turn ("you are next").
ALTER TABLE user_settings ADD COLUMN dm_heads_up BIGINT NOT NULL DEFAULT 0
    CHECK (dm_heads_up IN (0, 1));
