-- The component's allow_translation_propagation: its strings are copies
-- of the same strings in the project's other components (Weblate's
-- propagated_units), and receive their edits.
ALTER TABLE translations ADD COLUMN propagate BOOLEAN NOT NULL DEFAULT true;
-- Whether the component's strings get the inconsistent check: it takes
-- propagated translations and its flags do not switch the check off.
ALTER TABLE translations ADD COLUMN consistency BOOLEAN NOT NULL DEFAULT true;
-- The copies of a string are looked up by project and language.
CREATE INDEX translations_project_language ON translations (project_slug, language_code);
