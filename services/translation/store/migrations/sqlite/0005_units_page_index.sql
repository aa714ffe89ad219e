-- A translation's units are listed by id: with this index the page is read
-- in order and the offset is skipped inside the index.
CREATE INDEX units_translation_page ON units (translation_id, id);
