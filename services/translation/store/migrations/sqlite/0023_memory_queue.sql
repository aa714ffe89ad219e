-- memory_queue: the units whose translations go into the translation
-- memory (memoryqueue.go). An edit adds its units here, in its own
-- transaction, and a background worker remembers them in batches, as the
-- reference updates its memory in a task after the edit: writing the
-- memory (two hash-keyed indexes and its word index) in every edit's
-- transaction cost a fifth of the edit rate. A unit may be queued more
-- than once; remembering is idempotent.
CREATE TABLE memory_queue (
    id      INTEGER PRIMARY KEY,
    unit_id INTEGER NOT NULL
);
