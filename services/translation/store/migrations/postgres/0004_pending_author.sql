-- Who made each unit's uncommitted edit, and who removed each string whose
-- file entry the committer still has to drop: a commit credits them (the
-- latest as author, the others as Co-authored-by trailers).
ALTER TABLE units ADD COLUMN pending_author TEXT NOT NULL DEFAULT '';
ALTER TABLE unit_removals ADD COLUMN author TEXT NOT NULL DEFAULT '';
