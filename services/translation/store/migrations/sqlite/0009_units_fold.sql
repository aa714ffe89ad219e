-- The units whose searched text (source, target, context, note, location)
-- holds a character lower() turns into ASCII: the dotted capital I and the
-- Kelvin sign. An ASCII substring search uses SQLite's own LIKE, which
-- folds ASCII only, and runs lower() on these rows alone (search.Columns
-- Folded). The WHERE must stay identical to search.FoldCondition over
-- these columns, or queries stop using the index (TestFoldIndex).
CREATE INDEX units_fold ON units (id) WHERE instr(source, 'İ') > 0 OR instr(source, 'K') > 0 OR instr(target, 'İ') > 0 OR instr(target, 'K') > 0 OR instr(context, 'İ') > 0 OR instr(context, 'K') > 0 OR instr(note, 'İ') > 0 OR instr(note, 'K') > 0 OR instr(location, 'İ') > 0 OR instr(location, 'K') > 0;
