-- The word index's pending list at 2 MB rather than 512 kB: a TMX import
-- of 1M segments took 62 s at 512 kB, most of it merging the list into
-- the index again and again, and takes 52 s at 2 MB. A full list costs a
-- search about 12 ms more than a merged one (each search reads the list
-- through), so a TMX import merges it when it ends and an automatic
-- translation from the memory before it starts.
ALTER INDEX memory_words SET (gin_pending_list_limit = 2048);
