-- PostgreSQL twin of ../0010_reserved.sql (same version, same tables).
-- Reserved: version 10 belongs to another change in progress. This file only keeps the
-- numbering without gaps (see bot.storage.migrate); it is removed when that change lands.
SELECT 1;
