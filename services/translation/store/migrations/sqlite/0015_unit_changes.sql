-- The change records of each string, as search reads them (changed:,
-- changed_by:, change_time:, change_action:): the reference's action
-- number, the author's user name ('' for none) and the time. The records
-- themselves belong to the changelog service; this index is written in the
-- transaction that writes a record to the outbox, and goes with its unit.
CREATE TABLE unit_changes (
    id      INTEGER     PRIMARY KEY AUTOINCREMENT,
    unit_id INTEGER     NOT NULL REFERENCES units (id) ON DELETE CASCADE,
    action  INTEGER     NOT NULL,
    author  TEXT        NOT NULL DEFAULT '',
    at      TIMESTAMP   NOT NULL
);
CREATE INDEX unit_changes_unit ON unit_changes (unit_id, at);
