-- Change records. The slugs, language code and user names are stored beside
-- each record so that the log renders without calls to other services.
CREATE TABLE changes (
    id             INTEGER PRIMARY KEY AUTOINCREMENT,
    event_id       TEXT      NOT NULL,
    action         INTEGER   NOT NULL,
    project_slug   TEXT      NOT NULL DEFAULT '',
    component_slug TEXT      NOT NULL DEFAULT '',
    language_code  TEXT      NOT NULL DEFAULT '',
    unit_id        INTEGER   NOT NULL DEFAULT 0,
    user_name      TEXT      NOT NULL DEFAULT '',
    author         TEXT      NOT NULL DEFAULT '',
    target         TEXT      NOT NULL DEFAULT '',
    old            TEXT      NOT NULL DEFAULT '',
    details_json   TEXT      NOT NULL DEFAULT '',
    timestamp      TIMESTAMP NOT NULL
);

-- Appends are idempotent by event id.
CREATE UNIQUE INDEX changes_event_id ON changes (event_id);

-- Every list is ordered by (timestamp, id) descending; each index ends with
-- those columns so that a page is read in index order without a sort.
CREATE INDEX changes_translation ON changes (project_slug, component_slug, language_code, timestamp, id);
CREATE INDEX changes_component ON changes (project_slug, component_slug, timestamp, id);
CREATE INDEX changes_project ON changes (project_slug, timestamp, id);
CREATE INDEX changes_unit ON changes (unit_id, timestamp, id);
CREATE INDEX changes_user ON changes (user_name, timestamp, id);
CREATE INDEX changes_timestamp ON changes (timestamp, id);
