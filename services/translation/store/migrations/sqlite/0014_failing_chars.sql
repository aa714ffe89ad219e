-- Characters of the units with a failing check (Weblate's
-- allchecks_chars, the failing_chars of project metrics), counted for the
-- translations stored before it.
ALTER TABLE translations ADD COLUMN failing_chars INTEGER NOT NULL DEFAULT 0;
UPDATE translations SET failing_chars = (SELECT COALESCE(SUM(num_chars), 0) FROM units
    WHERE units.translation_id = translations.id AND units.has_failing_check);
