-- The translation memory: each string translated in a project, remembered
-- with its languages, origin ("project/component", or an imported file's
-- name) and project. entry_hash (of the languages, source and target)
-- with the project and origin identifies an entry, so that remembering it
-- again adds nothing;
-- source_hash finds exact matches. A GIN index of the sources' words
-- (the simple text search configuration: lower-cased, no stemming)
-- answers fuzzy lookups: the entries holding pairs of a string's longest
-- words, scored by the service.
CREATE TABLE memory (
    id              BIGSERIAL   PRIMARY KEY,
    project_slug    TEXT        NOT NULL,
    source_language TEXT        NOT NULL,
    target_language TEXT        NOT NULL,
    source          TEXT        NOT NULL,
    target          TEXT        NOT NULL,
    context         TEXT        NOT NULL DEFAULT '',
    origin          TEXT        NOT NULL,
    from_file       BOOLEAN     NOT NULL DEFAULT FALSE,
    source_hash     BIGINT      NOT NULL,
    entry_hash      BIGINT      NOT NULL,
    created_at      TIMESTAMPTZ NOT NULL
);
CREATE UNIQUE INDEX memory_entry ON memory (project_slug, origin, entry_hash);
CREATE INDEX memory_exact ON memory (source_language, target_language, source_hash);
-- Its pending list (entries not yet merged into the index, read through
-- by every search) is held to 512 kB: at the default 4 MB a lookup spent
-- most of its time there.
CREATE INDEX memory_words ON memory USING gin (to_tsvector('simple', source)) WITH (gin_pending_list_limit = 512);
-- A memory import is a task of a project, not of a component.
ALTER TABLE tasks ADD COLUMN project_slug TEXT NOT NULL DEFAULT '';
