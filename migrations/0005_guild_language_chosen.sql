-- Whether a server's admin chose the language of its games. Until one does, games speak the
-- server's own Discord language (its community "preferred locale") when the bot speaks it.
-- A language other than English was certainly chosen.
ALTER TABLE guild_settings ADD COLUMN locale_chosen INTEGER NOT NULL DEFAULT 0;
UPDATE guild_settings SET locale_chosen = 1 WHERE locale <> 'en';
