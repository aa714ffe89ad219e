-- A project's machine translation configuration, by service id (JSON).
ALTER TABLE projects ADD COLUMN machinery_settings TEXT NOT NULL DEFAULT '{}';
