-- The revision of each project's snapshot for the translation service:
-- every write to a project or to its components adds one, in its
-- transaction (projection.go). Rows outlive their project, so that the
-- snapshot of its removal is newer than any before it.
CREATE TABLE projection_revisions (
    project_id BIGINT PRIMARY KEY,
    revision   BIGINT NOT NULL
);
