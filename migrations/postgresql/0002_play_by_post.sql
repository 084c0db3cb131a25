-- PostgreSQL twin of ../0002_play_by_post.sql (same version, same tables; BIGINT ids, DOUBLE PRECISION times).
-- Play-by-post: vacations pause a player's timers, each turn's start is announced once, and the
-- daily digest of each guild is sent once per day.

-- paused_at: set while the player the timer waits for is away; on their return due_at moves
-- later by the time paused, so they get back exactly the time they had left.
-- notified_at: on a 'turn' row, when the scheduler announced the turn's start (at most once).
ALTER TABLE deadlines ADD COLUMN paused_at DOUBLE PRECISION;
ALTER TABLE deadlines ADD COLUMN notified_at DOUBLE PRECISION;
DROP INDEX deadlines_due;
CREATE INDEX deadlines_due ON deadlines (due_at) WHERE done_at IS NULL AND paused_at IS NULL;
CREATE INDEX deadlines_by_user ON deadlines (user_id) WHERE done_at IS NULL;

-- The last daily digest sent to each guild's digest channel.
CREATE TABLE digests (
    guild_id BIGINT PRIMARY KEY,
    sent_at  DOUBLE PRECISION    NOT NULL
);
