-- Announcements of a category (Weblate's /api/categories/<id>/announcements/);
-- zero for those of a project, component, translation or project language.
ALTER TABLE announcements ADD COLUMN category_id BIGINT NOT NULL DEFAULT 0;
