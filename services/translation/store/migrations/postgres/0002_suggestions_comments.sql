-- Suggestions and their votes, comments, and the strings removed through
-- the API whose file entries the committer still has to drop.
CREATE TABLE suggestions (
    id         BIGSERIAL PRIMARY KEY,
    unit_id    BIGINT    NOT NULL REFERENCES units (id) ON DELETE CASCADE,
    target     TEXT      NOT NULL,
    user_name  TEXT      NOT NULL DEFAULT '',
    votes      INTEGER   NOT NULL DEFAULT 0,
    created_at TIMESTAMPTZ NOT NULL
);
CREATE INDEX suggestions_unit ON suggestions (unit_id);

CREATE TABLE suggestion_votes (
    suggestion_id BIGINT  NOT NULL REFERENCES suggestions (id) ON DELETE CASCADE,
    user_name     TEXT    NOT NULL,
    value         INTEGER NOT NULL,
    PRIMARY KEY (suggestion_id, user_name)
);

CREATE TABLE comments (
    id         BIGSERIAL PRIMARY KEY,
    unit_id    BIGINT    NOT NULL REFERENCES units (id) ON DELETE CASCADE,
    scope      TEXT      NOT NULL,
    comment    TEXT      NOT NULL,
    user_name  TEXT      NOT NULL DEFAULT '',
    resolved   BOOLEAN   NOT NULL DEFAULT FALSE,
    created_at TIMESTAMPTZ NOT NULL
);
CREATE INDEX comments_unit ON comments (unit_id);

CREATE TABLE unit_removals (
    id             BIGSERIAL PRIMARY KEY,
    translation_id BIGINT    NOT NULL REFERENCES translations (id) ON DELETE CASCADE,
    context        TEXT      NOT NULL DEFAULT '',
    source         TEXT      NOT NULL,
    created_at     TIMESTAMPTZ NOT NULL
);
CREATE INDEX unit_removals_translation ON unit_removals (translation_id);
