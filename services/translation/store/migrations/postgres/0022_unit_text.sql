-- The trigram index moves off units (migration 0021) into unit_text,
-- which a background indexer fills (textindex.go), as on SQLite: GIN
-- indexes on units made every import and upload update them row by row
-- (an import of 294k units took half again as long).
--
-- unit_text holds, per unit, a copy of its source, target and context,
-- each with a pg_trgm index, and its translation. unit_text_queue lists the units whose copy
-- is missing or out of date: triggers add the units an
-- import inserts (one statement per insert) and those whose text an edit
-- changes, in the same transaction, so a unit is either queued or its
-- copy is its text. Searches test the queued units with their own
-- condition and look the others up in unit_text; the indexer claims
-- queued units in chunks (FOR UPDATE SKIP LOCKED, safe with several
-- replicas) and writes their copies.
--
-- No foreign key: an indexer writing the copy of a unit deleted in the
-- meantime leaves a row no unit matches, which no search can return;
-- the delete trigger removes the rows of deleted units.
DROP INDEX IF EXISTS units_source_trgm;
DROP INDEX IF EXISTS units_target_trgm;
DROP INDEX IF EXISTS units_context_trgm;

CREATE TABLE unit_text (
    unit_id        BIGINT PRIMARY KEY,
    -- a unit's translation never changes; a search of one translation
    -- looks up only its units
    translation_id BIGINT NOT NULL,
    source         TEXT NOT NULL,
    target         TEXT NOT NULL,
    context        TEXT NOT NULL
);
CREATE INDEX unit_text_translation ON unit_text (translation_id);
CREATE TABLE unit_text_queue (
    unit_id BIGINT NOT NULL,
    -- edited: queued by an edit of a unit (not an insert), which the
    -- indexer does not let wait for imports to settle
    edited  BOOLEAN NOT NULL
);
CREATE INDEX unit_text_queue_unit ON unit_text_queue (unit_id);

CREATE FUNCTION unit_text_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO unit_text_queue (unit_id, edited) SELECT id, false FROM new_units;
    RETURN NULL;
END
$$;
CREATE TRIGGER unit_text_insert AFTER INSERT ON units
    REFERENCING NEW TABLE AS new_units FOR EACH STATEMENT EXECUTE FUNCTION unit_text_inserted();

CREATE FUNCTION unit_text_edited() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO unit_text_queue (unit_id, edited) VALUES (NEW.id, true);
    RETURN NULL;
END
$$;
CREATE TRIGGER unit_text_update AFTER UPDATE OF source, target, context ON units
    FOR EACH ROW
    WHEN (OLD.source IS DISTINCT FROM NEW.source OR OLD.target IS DISTINCT FROM NEW.target
        OR OLD.context IS DISTINCT FROM NEW.context)
    EXECUTE FUNCTION unit_text_edited();

CREATE FUNCTION unit_text_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM unit_text WHERE unit_id IN (SELECT id FROM old_units);
    RETURN NULL;
END
$$;
CREATE TRIGGER unit_text_delete AFTER DELETE ON units
    REFERENCING OLD TABLE AS old_units FOR EACH STATEMENT EXECUTE FUNCTION unit_text_deleted();

-- The units already there wait for the indexer like an import's.
INSERT INTO unit_text_queue (unit_id, edited) SELECT id, false FROM units;

-- pg_trgm may be missing (migration 0021): then unit_text has no index,
-- the indexer stays idle and searches scan.
DO $$
DECLARE
    ops text;
BEGIN
    SELECT n.nspname INTO ops
    FROM pg_opclass c JOIN pg_namespace n ON n.oid = c.opcnamespace JOIN pg_am a ON a.oid = c.opcmethod
    WHERE c.opcname = 'gin_trgm_ops' AND a.amname = 'gin'
    LIMIT 1;
    IF ops IS NOT NULL THEN
        EXECUTE format('CREATE INDEX unit_text_source_trgm ON unit_text USING gin (source %I.gin_trgm_ops)', ops);
        EXECUTE format('CREATE INDEX unit_text_target_trgm ON unit_text USING gin (target %I.gin_trgm_ops)', ops);
        EXECUTE format('CREATE INDEX unit_text_context_trgm ON unit_text USING gin (context %I.gin_trgm_ops)', ops);
    END IF;
END
$$;
