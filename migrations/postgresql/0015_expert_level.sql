-- PostgreSQL twin of ../0015_expert_level.sql (same version, same tables).
-- The expert level of computer players: seats and leagues accept it.
ALTER TABLE seats DROP CONSTRAINT seats_computer_check;
ALTER TABLE seats ADD CONSTRAINT seats_computer_check
    CHECK (computer IS NULL OR computer IN ('easy', 'medium', 'hard', 'expert'));
ALTER TABLE leagues DROP CONSTRAINT leagues_computers_check;
ALTER TABLE leagues ADD CONSTRAINT leagues_computers_check
    CHECK (computers IS NULL OR computers IN ('easy', 'medium', 'hard', 'expert'));
