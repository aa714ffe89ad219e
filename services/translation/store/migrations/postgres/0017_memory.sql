-- The translation memory: each string translated in a project, remembered
-- with its languages, origin ("project/component", or an imported file's
-- name) and project. entry_hash (of the languages, source and target)
-- with the project and origin identifies an entry, so that remembering it
-- again adds nothing;
-- source_hash finds exact matches. A pg_trgm GiST index on the sources
-- answers fuzzy lookups nearest first (KNN). The extension may already
-- live in another schema (installed by the operator): the index names the
-- operator class where it is.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
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
DO $$
DECLARE ext_schema TEXT;
BEGIN
    SELECT n.nspname INTO ext_schema FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace
        WHERE e.extname = 'pg_trgm';
    EXECUTE format('CREATE INDEX memory_source_trgm ON memory USING gist (source %I.gist_trgm_ops)', ext_schema);
END $$;
-- A memory import is a task of a project, not of a component.
ALTER TABLE tasks ADD COLUMN project_slug TEXT NOT NULL DEFAULT '';
