CREATE TABLE outbox_events (
    id           BIGSERIAL   PRIMARY KEY,
    event_id     TEXT        NOT NULL UNIQUE,
    topic        TEXT        NOT NULL,
    payload      BYTEA       NOT NULL,
    created_at   TIMESTAMPTZ NOT NULL,
    attempts     INTEGER     NOT NULL DEFAULT 0,
    last_error   TEXT,
    delivered_at TIMESTAMPTZ
);

-- The relay's scan: undelivered events in id order.
CREATE INDEX outbox_events_undelivered ON outbox_events (id) WHERE delivered_at IS NULL;

-- Pruning of delivered events.
CREATE INDEX outbox_events_delivered_at ON outbox_events (delivered_at) WHERE delivered_at IS NOT NULL;
