-- Outbound webhooks of a project: each change of the project (or of the
-- actions chosen) is posted to url as JSON, signed with secret per the
-- Standard Webhooks specification. webhook_deliveries is the delivery log
-- and queue: one row per webhook and change, retried until delivered.
CREATE TABLE webhooks (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    project_slug TEXT      NOT NULL,
    url          TEXT      NOT NULL,
    secret       TEXT      NOT NULL,
    actions      TEXT      NOT NULL DEFAULT '',
    active       BOOLEAN   NOT NULL DEFAULT TRUE,
    created_at   TIMESTAMP NOT NULL
);
CREATE INDEX webhooks_project ON webhooks (project_slug, id);
CREATE TABLE webhook_deliveries (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    webhook_id   INTEGER   NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
    change_id    INTEGER   NOT NULL,
    payload      TEXT      NOT NULL,
    created_at   TIMESTAMP NOT NULL,
    due_at       TIMESTAMP NOT NULL,
    delivered_at TIMESTAMP NULL,
    attempts     INTEGER   NOT NULL DEFAULT 0,
    status_code  INTEGER   NOT NULL DEFAULT 0,
    error        TEXT      NOT NULL DEFAULT '',
    UNIQUE (webhook_id, change_id)
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (delivered_at, due_at);
