-- memory_queue: the units whose translations go into the translation
-- memory (memoryqueue.go). An edit adds its units here, in its own
-- transaction, and a background worker remembers them in batches, as the
-- reference updates its memory in a task after the edit: writing the
-- memory in every edit's transaction cost a fifth of the edit rate.
--
-- Rows are keyed by their own id, not by unit: a worker deletes the rows
-- it claimed (FOR UPDATE SKIP LOCKED, safe with several replicas), so an
-- edit committed while it works leaves a row of its own behind. A unit may
-- be queued more than once; remembering is idempotent.
CREATE TABLE memory_queue (
    id      BIGSERIAL PRIMARY KEY,
    unit_id BIGINT NOT NULL
);
