-- source_text.copies is how many copies (unit_text) refer to a pair, so
-- that a search of every translation counts the units of the pairs its
-- terms match by summing it over those pairs: over 1M units, a word in
-- 70,000 (11,700 pairs) was counted in 55 ms by looking each pair's
-- units up in unit_text_source, and is in 27 ms so (pgtextcount.go).
--
-- Triggers on unit_text keep it, so that every way a copy is written or
-- removed (the indexer's upsert, a deletion of units and its cascade)
-- counts. Each statement adds up its change per pair and locks the pairs
-- in the order of their ids before it writes: two indexers, or an
-- indexer and a deletion, whose copies share pairs (a string's units in
-- each language) wait for each other in one order instead of deadlocking.
ALTER TABLE source_text ADD COLUMN copies BIGINT NOT NULL DEFAULT 0;
-- Room on each page for its pairs' new versions: a count's update that
-- finds it there writes no index entry (a HOT update), where one that
-- does not writes an entry for each of the source's and context's
-- trigrams. The indexer copies units in the order of their ids, which
-- in a translation follow its strings' order, as the pairs' ids do: one
-- statement updates every pair of a page, so half of it is left free.
-- Copying 1M units took 89 s without it, 67 with it (65 before the
-- counts); a word's count reads 6,200 pages for 11,700 pairs, 27 ms,
-- instead of 17.
ALTER TABLE source_text SET (fillfactor = 50);

UPDATE source_text st SET copies = c.n
FROM (SELECT source_text_id, COUNT(*) AS n FROM unit_text GROUP BY source_text_id) c
WHERE st.id = c.source_text_id;

-- source_text_count adds n[i] to the count of the pair ids[i].
CREATE FUNCTION source_text_count(ids BIGINT[], n BIGINT[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
    PERFORM 1 FROM source_text WHERE id = ANY(ids) ORDER BY id FOR NO KEY UPDATE;
    UPDATE source_text st SET copies = st.copies + d.n FROM unnest(ids, n) AS d(id, n) WHERE st.id = d.id;
END
$$;

-- unit_text_counted is the statement's change per pair: +1 for each copy
-- it inserted or updated to refer to the pair, -1 for each it deleted or
-- updated away from it (an update of a target alone changes none).
CREATE FUNCTION unit_text_counted() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    ids BIGINT[];
    n   BIGINT[];
BEGIN
    IF TG_OP = 'INSERT' THEN
        SELECT array_agg(d.id), array_agg(d.n) INTO ids, n
        FROM (SELECT source_text_id AS id, COUNT(*) AS n FROM new_copies GROUP BY 1) d;
    ELSIF TG_OP = 'DELETE' THEN
        SELECT array_agg(d.id), array_agg(d.n) INTO ids, n
        FROM (SELECT source_text_id AS id, -COUNT(*) AS n FROM old_copies GROUP BY 1) d;
    ELSE
        SELECT array_agg(d.id), array_agg(d.n) INTO ids, n
        FROM (SELECT c.id, SUM(c.n) AS n FROM (SELECT source_text_id AS id, 1 AS n FROM new_copies
            UNION ALL SELECT source_text_id, -1 FROM old_copies) c GROUP BY 1 HAVING SUM(c.n) <> 0) d;
    END IF;
    IF ids IS NOT NULL THEN
        PERFORM source_text_count(ids, n);
    END IF;
    RETURN NULL;
END
$$;

CREATE TRIGGER unit_text_count_insert AFTER INSERT ON unit_text
    REFERENCING NEW TABLE AS new_copies FOR EACH STATEMENT EXECUTE FUNCTION unit_text_counted();
CREATE TRIGGER unit_text_count_update AFTER UPDATE ON unit_text
    REFERENCING OLD TABLE AS old_copies NEW TABLE AS new_copies FOR EACH STATEMENT EXECUTE FUNCTION unit_text_counted();
CREATE TRIGGER unit_text_count_delete AFTER DELETE ON unit_text
    REFERENCING OLD TABLE AS old_copies FOR EACH STATEMENT EXECUTE FUNCTION unit_text_counted();
