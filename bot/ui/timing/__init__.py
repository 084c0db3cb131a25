"""Time in Discord: play-by-post commands, the scheduler's notices, heads-up DMs, the
chess clock."""
