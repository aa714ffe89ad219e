CREATE TABLE repositories (
    component_id  INTEGER PRIMARY KEY,
    url           TEXT      NOT NULL DEFAULT '',
    branch        TEXT      NOT NULL DEFAULT '',
    revision      TEXT      NOT NULL DEFAULT '',
    needs_commit  BOOLEAN   NOT NULL DEFAULT 0,
    updated_at    TIMESTAMP NOT NULL
);

CREATE TABLE translations (
    id                 INTEGER PRIMARY KEY AUTOINCREMENT,
    component_id       INTEGER   NOT NULL,
    project_slug       TEXT      NOT NULL DEFAULT '',
    component_slug     TEXT      NOT NULL DEFAULT '',
    language_code      TEXT      NOT NULL,
    plural_number      INTEGER   NOT NULL DEFAULT 1,
    filename           TEXT      NOT NULL DEFAULT '',
    revision           TEXT      NOT NULL DEFAULT '',
    is_source          BOOLEAN   NOT NULL DEFAULT 0,
    is_template        BOOLEAN   NOT NULL DEFAULT 0,
    total              INTEGER   NOT NULL DEFAULT 0,
    total_words        INTEGER   NOT NULL DEFAULT 0,
    total_chars        INTEGER   NOT NULL DEFAULT 0,
    translated         INTEGER   NOT NULL DEFAULT 0,
    translated_words   INTEGER   NOT NULL DEFAULT 0,
    translated_chars   INTEGER   NOT NULL DEFAULT 0,
    fuzzy              INTEGER   NOT NULL DEFAULT 0,
    fuzzy_words        INTEGER   NOT NULL DEFAULT 0,
    fuzzy_chars        INTEGER   NOT NULL DEFAULT 0,
    approved           INTEGER   NOT NULL DEFAULT 0,
    approved_words     INTEGER   NOT NULL DEFAULT 0,
    approved_chars     INTEGER   NOT NULL DEFAULT 0,
    readonly           INTEGER   NOT NULL DEFAULT 0,
    readonly_words     INTEGER   NOT NULL DEFAULT 0,
    readonly_chars     INTEGER   NOT NULL DEFAULT 0,
    failing            INTEGER   NOT NULL DEFAULT 0,
    suggestions        INTEGER   NOT NULL DEFAULT 0,
    comments           INTEGER   NOT NULL DEFAULT 0,
    last_change        TIMESTAMP NULL,
    last_author        TEXT      NOT NULL DEFAULT '',
    created_at         TIMESTAMP NOT NULL,
    UNIQUE (component_id, language_code)
);
CREATE INDEX translations_language ON translations (language_code);

CREATE TABLE units (
    id                INTEGER PRIMARY KEY AUTOINCREMENT,
    translation_id    INTEGER   NOT NULL REFERENCES translations (id) ON DELETE CASCADE,
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
    position          INTEGER   NOT NULL,
    num_words         INTEGER   NOT NULL,
    num_chars         INTEGER   NOT NULL,
    source_unit_id    INTEGER   NULL,
    priority          INTEGER   NOT NULL DEFAULT 100,
    pending           BOOLEAN   NOT NULL DEFAULT 0,
    has_suggestion    BOOLEAN   NOT NULL DEFAULT 0,
    has_comment       BOOLEAN   NOT NULL DEFAULT 0,
    has_failing_check BOOLEAN   NOT NULL DEFAULT 0,
    timestamp         TIMESTAMP NOT NULL,
    last_updated      TIMESTAMP NOT NULL,
    UNIQUE (translation_id, id_hash)
);
CREATE INDEX units_source_unit ON units (source_unit_id);

CREATE TABLE content_changes (
    id             INTEGER PRIMARY KEY AUTOINCREMENT,
    translation_id INTEGER   NOT NULL REFERENCES translations (id) ON DELETE CASCADE,
    at             TIMESTAMP NOT NULL
);
CREATE INDEX content_changes_translation ON content_changes (translation_id, at);

CREATE TABLE tasks (
    id           TEXT      PRIMARY KEY,
    component_id INTEGER   NOT NULL,
    completed    BOOLEAN   NOT NULL DEFAULT 0,
    progress     INTEGER   NOT NULL DEFAULT 0,
    error        TEXT      NOT NULL DEFAULT '',
    log          TEXT      NOT NULL DEFAULT '',
    created_at   TIMESTAMP NOT NULL,
    updated_at   TIMESTAMP NOT NULL
);
CREATE INDEX tasks_component ON tasks (component_id);
