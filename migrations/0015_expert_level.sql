-- The expert level of computer players: seats and leagues accept it.
-- SQLite cannot change a CHECK constraint, and rebuilding leagues would delete every league's
-- members, seasons and games on the way (DROP TABLE cascades while foreign keys are on). A wider
-- CHECK changes nothing stored, so each table's definition is edited in place, the way SQLite's
-- documentation gives for CHECK constraints; the runner then bumps the schema cookie so that
-- every connection reads the new definitions.
PRAGMA writable_schema = ON;
UPDATE sqlite_master
SET sql = replace(sql, 'IN (''easy'', ''medium'', ''hard'')', 'IN (''easy'', ''medium'', ''hard'', ''expert'')')
WHERE type = 'table' AND name IN ('seats', 'leagues');
PRAGMA writable_schema = OFF;
