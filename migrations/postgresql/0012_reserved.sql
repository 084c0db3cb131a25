-- PostgreSQL twin of ../0012_reserved.sql.
-- Reserved: number 12 belongs to a migration of another branch (issue 19's chess clock), and
-- the migrations are numbered without gaps. Merging that branch replaces this file with its own
-- 0012 (two files numbered 12 are refused at start-up, so a forgotten one cannot slip through).
SELECT 1;
