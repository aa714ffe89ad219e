-- The units whose indexed text (source, target, context) holds a
-- character lower() or FTS5's case-folding trigrams turn into ASCII: the
-- dotted capital I, the long s, the Kelvin sign. On these rows alone the
-- trigram index (unit_text) and an ASCII substring test may disagree, so
-- a search counted from the index tests them with its own condition
-- (search.Query.TrigramExact). The WHERE must stay identical to
-- search.IndexFoldCondition over these columns, or queries stop using
-- the index (TestFoldIndex).
CREATE INDEX units_index_fold ON units (id) WHERE instr(source, 'İ') > 0 OR instr(source, 'ſ') > 0 OR instr(source, 'K') > 0 OR instr(target, 'İ') > 0 OR instr(target, 'ſ') > 0 OR instr(target, 'K') > 0 OR instr(context, 'İ') > 0 OR instr(context, 'ſ') > 0 OR instr(context, 'K') > 0;
