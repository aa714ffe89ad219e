-- Trigram indexes (pg_trgm, GIN) of the units' source, target and
-- context, which substring searches (ILIKE) use instead of scanning every
-- unit. The expressions are the ones the search renders
-- (COALESCE(units.source, '')), or the planner does not match them.
--
-- pg_trgm ships with PostgreSQL's contrib and is a trusted extension, but
-- a server may lack it or refuse it: then searches scan, as before, and
-- the migration still applies. The extension may already live in another
-- schema of the database; its operator class is named with its schema.
DO $$
DECLARE
    ops text;
BEGIN
    BEGIN
        CREATE EXTENSION IF NOT EXISTS pg_trgm;
    EXCEPTION WHEN OTHERS THEN
        RAISE NOTICE 'pg_trgm unavailable (%): unit searches scan', SQLERRM;
    END;
    SELECT n.nspname INTO ops
    FROM pg_opclass c JOIN pg_namespace n ON n.oid = c.opcnamespace JOIN pg_am a ON a.oid = c.opcmethod
    WHERE c.opcname = 'gin_trgm_ops' AND a.amname = 'gin'
    LIMIT 1;
    IF ops IS NOT NULL THEN
        EXECUTE format('CREATE INDEX units_source_trgm ON units USING gin ((COALESCE(source, %L)) %I.gin_trgm_ops)', '', ops);
        EXECUTE format('CREATE INDEX units_target_trgm ON units USING gin ((COALESCE(target, %L)) %I.gin_trgm_ops)', '', ops);
        EXECUTE format('CREATE INDEX units_context_trgm ON units USING gin ((COALESCE(context, %L)) %I.gin_trgm_ops)', '', ops);
    END IF;
END
$$;
