CREATE TABLE repositories (
    component_id  BIGINT PRIMARY KEY,
    url           TEXT      NOT NULL DEFAULT '',
    branch        TEXT      NOT NULL DEFAULT '',
    revision      TEXT      NOT NULL DEFAULT '',
    needs_commit  BOOLEAN   NOT NULL DEFAULT FALSE,
    updated_at    TIMESTAMPTZ NOT NULL
);

CREATE TABLE translations (
    id                 BIGSERIAL PRIMARY KEY,
    component_id       BIGINT   NOT NULL,
    project_slug       TEXT      NOT NULL DEFAULT '',
    component_slug     TEXT      NOT NULL DEFAULT '',
    language_code      TEXT      NOT NULL,
    plural_number      INTEGER   NOT NULL DEFAULT 1,
    filename           TEXT      NOT NULL DEFAULT '',
    revision           TEXT      NOT NULL DEFAULT '',
    is_source          BOOLEAN   NOT NULL DEFAULT FALSE,
    is_template        BOOLEAN   NOT NULL DEFAULT FALSE,
    total              BIGINT    NOT NULL DEFAULT 0,
    total_words        BIGINT    NOT NULL DEFAULT 0,
    total_chars        BIGINT    NOT NULL DEFAULT 0,
    translated         BIGINT    NOT NULL DEFAULT 0,
    translated_words   BIGINT    NOT NULL DEFAULT 0,
    translated_chars   BIGINT    NOT NULL DEFAULT 0,
    fuzzy              BIGINT    NOT NULL DEFAULT 0,
    fuzzy_words        BIGINT    NOT NULL DEFAULT 0,
    fuzzy_chars        BIGINT    NOT NULL DEFAULT 0,
    approved           BIGINT    NOT NULL DEFAULT 0,
    approved_words     BIGINT    NOT NULL DEFAULT 0,
    approved_chars     BIGINT    NOT NULL DEFAULT 0,
    readonly           BIGINT    NOT NULL DEFAULT 0,
    readonly_words     BIGINT    NOT NULL DEFAULT 0,
    readonly_chars     BIGINT    NOT NULL DEFAULT 0,
    failing            BIGINT    NOT NULL DEFAULT 0,
    suggestions        BIGINT    NOT NULL DEFAULT 0,
    comments           BIGINT    NOT NULL DEFAULT 0,
    last_change        TIMESTAMPTZ NULL,
    last_author        TEXT      NOT NULL DEFAULT '',
    created_at         TIMESTAMPTZ NOT NULL,
    UNIQUE (component_id, language_code)
);
CREATE INDEX translations_language ON translations (language_code);

CREATE TABLE units (
    id                BIGSERIAL PRIMARY KEY,
    translation_id    BIGINT    NOT NULL REFERENCES translations (id) ON DELETE CASCADE,
    source            TEXT      NOT NULL,
    target            TEXT      NOT NULL,
    previous_source   TEXT      NOT NULL DEFAULT '',
    context           TEXT      NOT NULL DEFAULT '',
    location          TEXT      NOT NULL DEFAULT '',
    note              TEXT      NOT NULL DEFAULT '',
    flags             TEXT      NOT NULL DEFAULT '',
    extra_flags       TEXT      NOT NULL DEFAULT '',
    explanation       TEXT      NOT NULL DEFAULT '',
    id_hash           BIGINT    NOT NULL,
    content_hash      BIGINT    NOT NULL,
    state             INTEGER   NOT NULL,
    position          BIGINT    NOT NULL,
    num_words         INTEGER   NOT NULL,
    num_chars         INTEGER   NOT NULL,
    source_unit_id    BIGINT    NULL,
    priority          INTEGER   NOT NULL DEFAULT 100,
    pending           BOOLEAN   NOT NULL DEFAULT FALSE,
    has_suggestion    BOOLEAN   NOT NULL DEFAULT FALSE,
    has_comment       BOOLEAN   NOT NULL DEFAULT FALSE,
    has_failing_check BOOLEAN   NOT NULL DEFAULT FALSE,
    timestamp         TIMESTAMPTZ NOT NULL,
    last_updated      TIMESTAMPTZ NOT NULL,
    UNIQUE (translation_id, id_hash)
);
CREATE INDEX units_source_unit ON units (source_unit_id);

CREATE TABLE content_changes (
    id             BIGSERIAL PRIMARY KEY,
    translation_id BIGINT    NOT NULL REFERENCES translations (id) ON DELETE CASCADE,
    at             TIMESTAMPTZ NOT NULL
);
CREATE INDEX content_changes_translation ON content_changes (translation_id, at);

CREATE TABLE tasks (
    id           TEXT      PRIMARY KEY,
    component_id BIGINT   NOT NULL,
    completed    BOOLEAN   NOT NULL DEFAULT FALSE,
    progress     BIGINT    NOT NULL DEFAULT 0,
    error        TEXT      NOT NULL DEFAULT '',
    log          TEXT      NOT NULL DEFAULT '',
    created_at   TIMESTAMPTZ NOT NULL,
    updated_at   TIMESTAMPTZ NOT NULL
);
CREATE INDEX tasks_component ON tasks (component_id);
