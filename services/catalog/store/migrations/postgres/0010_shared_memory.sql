-- A project's part in the shared translation memory (Weblate's
-- use_shared_tm and contribute_shared_tm, both true by default).
ALTER TABLE projects ADD COLUMN use_shared_tm BOOLEAN NOT NULL DEFAULT TRUE;
ALTER TABLE projects ADD COLUMN contribute_shared_tm BOOLEAN NOT NULL DEFAULT TRUE;
