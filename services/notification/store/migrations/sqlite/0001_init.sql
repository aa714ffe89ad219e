-- Accounts. username_key and email_key are the case-folded forms that make
-- user names and e-mail addresses unique regardless of case; email_key is
-- NULL for accounts without an address. token_hash is the hex SHA-256 of
-- the account's API token, NULL when it has none.
CREATE TABLE users (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    username     TEXT      NOT NULL,
    username_key TEXT      NOT NULL,
    full_name    TEXT      NOT NULL DEFAULT '',
    email        TEXT      NOT NULL DEFAULT '',
    email_key    TEXT,
    is_superuser BOOLEAN   NOT NULL DEFAULT FALSE,
    is_active    BOOLEAN   NOT NULL DEFAULT TRUE,
    date_joined  TIMESTAMP NOT NULL,
    token_hash   TEXT
);
CREATE UNIQUE INDEX users_username ON users (username);
CREATE UNIQUE INDEX users_username_key ON users (username_key);
CREATE UNIQUE INDEX users_email_key ON users (email_key);
CREATE UNIQUE INDEX users_token_hash ON users (token_hash);

-- Notification subscriptions of an account. Project and component are
-- identified by slug; empty when the subscription is not limited to one.
CREATE TABLE subscriptions (
    id             INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id        INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    notification   TEXT    NOT NULL,
    scope          INTEGER NOT NULL,
    frequency      INTEGER NOT NULL,
    project_slug   TEXT    NOT NULL DEFAULT '',
    component_slug TEXT    NOT NULL DEFAULT ''
);
CREATE INDEX subscriptions_user ON subscriptions (user_id, id);
-- Delivery (a later feature) looks subscriptions up by kind.
CREATE INDEX subscriptions_notification ON subscriptions (notification, scope);
