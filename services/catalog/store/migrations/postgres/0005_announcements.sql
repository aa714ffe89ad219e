-- Announcements of a project, a component (component_id) or one of its
-- translations (language_code), as the reference's Announcement.
CREATE TABLE announcements (
    id            BIGSERIAL PRIMARY KEY,
    project_id    BIGINT      NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
    component_id  BIGINT      NOT NULL DEFAULT 0,
    language_code TEXT        NOT NULL DEFAULT '',
    message       TEXT        NOT NULL,
    category      TEXT        NOT NULL DEFAULT 'info',
    expiry        TEXT        NOT NULL DEFAULT '',
    notify        BOOLEAN     NOT NULL DEFAULT TRUE,
    username      TEXT        NOT NULL DEFAULT '',
    created       TIMESTAMPTZ NOT NULL
);
CREATE INDEX announcements_context ON announcements (project_id, component_id, language_code);
