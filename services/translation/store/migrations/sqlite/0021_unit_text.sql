-- unit_text: a trigram index (FTS5, case folded) of the units' source,
-- target and context, which substring searches look up instead of
-- scanning every unit (search.Query.TrigramMatch, textindex.go). It reads
-- its text from units (external content).
--
-- Imports do not write it: a row per insert tripled their time. It holds
-- the units up to unit_text_state.indexed_through, which a background
-- indexer raises in chunks once imports have settled; a search scans the
-- units above it. Unit ids are never reused (AUTOINCREMENT), so a new
-- unit is always above.
--
-- Below the mark, an edit or deletion does not rewrite the index either
-- (two tokenizations in every edit's transaction cost a fifth of the edit
-- rate): a trigger notes the unit in unit_text_dirty with the text the
-- index holds for it (the first noted; external content needs it to
-- remove the entry), searches test those units with the scan's condition,
-- and the indexer brings their entries up to date in batches.
CREATE VIRTUAL TABLE unit_text USING fts5 (source, target, context, content = 'units', content_rowid = 'id', tokenize = 'trigram');
CREATE TABLE unit_text_state (
    id               INTEGER PRIMARY KEY CHECK (id = 1),
    indexed_through  INTEGER NOT NULL
);
INSERT INTO unit_text_state (id, indexed_through) VALUES (1, 0);
CREATE TABLE unit_text_dirty (
    unit_id INTEGER PRIMARY KEY,
    source  TEXT NOT NULL,
    target  TEXT NOT NULL,
    context TEXT NOT NULL
);
CREATE TRIGGER unit_text_update AFTER UPDATE OF source, target, context ON units
WHEN old.id <= (SELECT indexed_through FROM unit_text_state WHERE id = 1)
    AND (old.source IS NOT new.source OR old.target IS NOT new.target OR old.context IS NOT new.context)
BEGIN
    INSERT OR IGNORE INTO unit_text_dirty (unit_id, source, target, context) VALUES (old.id, old.source, old.target, old.context);
END;
CREATE TRIGGER unit_text_delete AFTER DELETE ON units
WHEN old.id <= (SELECT indexed_through FROM unit_text_state WHERE id = 1)
BEGIN
    INSERT OR IGNORE INTO unit_text_dirty (unit_id, source, target, context) VALUES (old.id, old.source, old.target, old.context);
END;
