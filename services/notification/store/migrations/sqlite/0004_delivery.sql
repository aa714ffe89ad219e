-- Notification delivery. delivery_cursors holds how far a consumer has
-- read the change log; notifications holds one mail-to-be per change and
-- recipient (unique, so a restart never mails twice), due at once for
-- instant subscriptions and at the end of the period for digests.
CREATE TABLE delivery_cursors (
    name    TEXT    PRIMARY KEY,
    last_id INTEGER NOT NULL
);
CREATE TABLE notifications (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    change_id   INTEGER   NOT NULL,
    user_id     INTEGER   NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    kind        TEXT      NOT NULL,
    frequency   INTEGER   NOT NULL,
    change_json TEXT      NOT NULL,
    created_at  TIMESTAMP NOT NULL,
    due_at      TIMESTAMP NOT NULL,
    sent_at     TIMESTAMP NULL,
    attempts    INTEGER   NOT NULL DEFAULT 0,
    error       TEXT      NOT NULL DEFAULT '',
    UNIQUE (change_id, user_id)
);
CREATE INDEX notifications_due ON notifications (sent_at, due_at);
