-- The last failed merge of a working copy, shown by the repository status
-- until a pull or reset succeeds.
ALTER TABLE repositories ADD COLUMN merge_failure TEXT NOT NULL DEFAULT '';
