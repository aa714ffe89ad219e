-- The translation memory: each string translated in a project, remembered
-- with its languages, origin ("project/component", or an imported file's
-- name) and project. entry_hash (of the languages, source and target)
-- with the project and origin identifies an entry, so that remembering it
-- again adds nothing;
-- source_hash finds exact matches. memory_words indexes the sources'
-- words (FTS5, case and accents folded) for fuzzy lookup: a lookup asks
-- for the entries holding pairs of its longest words and scores the
-- nearest. The store adds new rows to it once per batch (an insert
-- trigger made FTS5 write a segment per row); a trigger removes them.
CREATE TABLE memory (
    id              INTEGER   PRIMARY KEY AUTOINCREMENT,
    project_slug    TEXT      NOT NULL,
    source_language TEXT      NOT NULL,
    target_language TEXT      NOT NULL,
    source          TEXT      NOT NULL,
    target          TEXT      NOT NULL,
    context         TEXT      NOT NULL DEFAULT '',
    origin          TEXT      NOT NULL,
    from_file       BOOLEAN   NOT NULL DEFAULT FALSE,
    source_hash     INTEGER   NOT NULL,
    entry_hash      INTEGER   NOT NULL,
    created_at      TIMESTAMP NOT NULL
);
CREATE UNIQUE INDEX memory_entry ON memory (project_slug, origin, entry_hash);
CREATE INDEX memory_exact ON memory (source_language, target_language, source_hash);
CREATE VIRTUAL TABLE memory_words USING fts5 (source, content = 'memory', content_rowid = 'id', tokenize = 'unicode61 remove_diacritics 2', detail = 'none');
CREATE TRIGGER memory_words_delete AFTER DELETE ON memory BEGIN
    INSERT INTO memory_words (memory_words, rowid, source) VALUES ('delete', old.id, old.source);
END;
-- A memory import is a task of a project, not of a component.
ALTER TABLE tasks ADD COLUMN project_slug TEXT NOT NULL DEFAULT '';
