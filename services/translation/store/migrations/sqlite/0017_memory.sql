-- The translation memory: each string translated in a project, remembered
-- with its languages, origin ("project/component", or an imported file's
-- name) and project. entry_hash (of the languages, source and target)
-- with the project and origin identifies an entry, so that remembering it
-- again adds nothing;
-- source_hash finds exact matches. memory_fts indexes the sources by
-- character trigrams for fuzzy lookup, kept by triggers, and
-- memory_fts_terms counts the entries holding each trigram, so that a
-- lookup asks for its rarest ones.
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
CREATE VIRTUAL TABLE memory_fts USING fts5 (source, content = 'memory', content_rowid = 'id', tokenize = 'trigram', detail = 'none');
CREATE VIRTUAL TABLE memory_fts_terms USING fts5vocab (memory_fts, 'row');
CREATE TRIGGER memory_fts_insert AFTER INSERT ON memory BEGIN
    INSERT INTO memory_fts (rowid, source) VALUES (new.id, new.source);
END;
CREATE TRIGGER memory_fts_delete AFTER DELETE ON memory BEGIN
    INSERT INTO memory_fts (memory_fts, rowid, source) VALUES ('delete', old.id, old.source);
END;
-- A memory import is a task of a project, not of a component.
ALTER TABLE tasks ADD COLUMN project_slug TEXT NOT NULL DEFAULT '';
