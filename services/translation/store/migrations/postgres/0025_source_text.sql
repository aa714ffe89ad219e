-- unit_text copied each unit's source and context, and so held a
-- component's source strings once per translation: a word in 70,000 of
-- 1M units made a search read 70,000 copies (28,000 pages of a 232 MB
-- table) to count them, 220 ms. The source and context are now copied
-- once per distinct pair, into source_text, and each unit's copy keeps
-- its target and refers to its pair: the units whose source matches are
-- counted from an index (unit_text_source) without reading a copy.
--
-- target_is_source marks a copy whose target is its source (every unit
-- of a source-language translation): its target is not copied again, and
-- a search of targets finds it through its source.
--
-- A pair no copy refers to any more (its units were deleted or their
-- source changed) is removed by the indexer (textindex.go), which holds
-- source_text against the indexers of other replicas while it does.
CREATE TABLE source_text (
    id      BIGSERIAL PRIMARY KEY,
    -- sha256 of source, a zero byte and context: the pair's key
    digest  BYTEA NOT NULL UNIQUE,
    source  TEXT NOT NULL,
    context TEXT NOT NULL
);

DROP TABLE unit_text;
CREATE TABLE unit_text (
    unit_id          BIGINT PRIMARY KEY,
    translation_id   BIGINT NOT NULL,
    source_text_id   BIGINT NOT NULL,
    target_is_source BOOLEAN NOT NULL,
    -- '' when target_is_source
    target           TEXT NOT NULL
);
-- covers the lookup of the units of matching pairs, of one translation
-- or all, without reading the copies
CREATE INDEX unit_text_source ON unit_text (source_text_id, translation_id, unit_id);
CREATE INDEX unit_text_translation ON unit_text (translation_id);
-- the same for the copies whose target is their source, and whether a
-- translation has any (a search of its targets looks their sources up
-- only then)
CREATE INDEX unit_text_same ON unit_text (source_text_id, translation_id, unit_id) WHERE target_is_source;
CREATE INDEX unit_text_same_translation ON unit_text (translation_id) WHERE target_is_source;

-- Every unit is indexed again, in the background; searches scan until
-- the queue is short.
DELETE FROM unit_text_queue;
INSERT INTO unit_text_queue (unit_id, edited) SELECT id, false FROM units;

DO $$
DECLARE
    ops text;
BEGIN
    SELECT n.nspname INTO ops
    FROM pg_opclass c JOIN pg_namespace n ON n.oid = c.opcnamespace JOIN pg_am a ON a.oid = c.opcmethod
    WHERE c.opcname = 'gin_trgm_ops' AND a.amname = 'gin'
    LIMIT 1;
    IF ops IS NOT NULL THEN
        EXECUTE format('CREATE INDEX source_text_source_trgm ON source_text USING gin (source %I.gin_trgm_ops)', ops);
        EXECUTE format('CREATE INDEX source_text_context_trgm ON source_text USING gin (context %I.gin_trgm_ops)', ops);
        EXECUTE format('CREATE INDEX unit_text_target_trgm ON unit_text USING gin (target %I.gin_trgm_ops)', ops);
    END IF;
END
$$;
