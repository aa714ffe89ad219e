-- Named leases: one holder at a time until expires_ms (Unix milliseconds).
CREATE TABLE leases (
    name       TEXT    PRIMARY KEY,
    holder     TEXT    NOT NULL,
    expires_ms INTEGER NOT NULL
);
