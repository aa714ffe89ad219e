-- Alerts of a component (Weblate's component alerts): an import that could
-- not fetch the repository (UpdateFailure) or read its files (ParseError)
-- stays visible until an import succeeds. One row per component and name.
CREATE TABLE component_alerts (
    component_id BIGINT NOT NULL,
    name         TEXT   NOT NULL,
    detail       TEXT   NOT NULL DEFAULT '',
    created_at   TIMESTAMPTZ NOT NULL,
    updated_at   TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (component_id, name)
);
