-- Whether a unit has a dismissed check (a unit_checks row with dismissed
-- set): with has_failing_check it tells, without a query, whether a unit
-- has check rows at all, so that an edit of a unit without any and
-- without failures costs no statement on unit_checks.
ALTER TABLE units ADD COLUMN has_dismissed_check INTEGER NOT NULL DEFAULT 0;
-- What a task does: an import (the catalog's, retried by another replica
-- when its process dies), a recheck of a component's strings, or a bulk
-- dismissal of checks.
ALTER TABLE tasks ADD COLUMN kind TEXT NOT NULL DEFAULT 'import';
-- The target a string had while translated, kept once it is emptied or
-- needs editing with another text (Weblate's "translated" check reads it
-- from the string's history); empty otherwise.
ALTER TABLE units ADD COLUMN translated_target TEXT NOT NULL DEFAULT '';
