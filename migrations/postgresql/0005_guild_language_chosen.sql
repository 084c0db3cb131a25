-- PostgreSQL twin of ../0005_guild_language_chosen.sql (same version, same tables; BIGINT ids, DOUBLE PRECISION times).
-- Whether a server's admin chose the language of its games. Until one does, games speak the
-- server's own Discord language (its community "preferred locale") when the bot speaks it.
-- A language other than English was certainly chosen.
ALTER TABLE guild_settings ADD COLUMN locale_chosen BIGINT  NOT NULL DEFAULT 0;
UPDATE guild_settings SET locale_chosen = 1 WHERE locale <> 'en';
