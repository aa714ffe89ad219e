-- The plural a translation uses (Weblate's Translation.plural): the
-- language's default or the rule of its file when no known rule of the
-- language is the same. plural_number was already here; plural_id 0 and an
-- empty formula mean "the language's default" for rows imported before.
ALTER TABLE translations ADD COLUMN plural_id BIGINT NOT NULL DEFAULT 0;
ALTER TABLE translations ADD COLUMN plural_source INTEGER NOT NULL DEFAULT 0;
ALTER TABLE translations ADD COLUMN plural_formula TEXT NOT NULL DEFAULT '';
ALTER TABLE translations ADD COLUMN plural_type INTEGER NOT NULL DEFAULT 0;
