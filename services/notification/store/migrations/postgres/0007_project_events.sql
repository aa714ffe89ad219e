-- The catalog's project lifecycle events applied so far (AccessService.
-- ApplyProjectEvents), by event id: the catalog delivers each at least
-- once, and one delivered again is skipped, so that a rename delivered
-- again after a new project took the former slug does not move the new
-- project's teams, nor a delete delivered again drop them.
CREATE TABLE applied_project_events (
    event_id   TEXT      PRIMARY KEY,
    applied_at TIMESTAMPTZ NOT NULL
);
