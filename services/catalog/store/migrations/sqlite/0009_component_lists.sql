-- Component lists (Weblate's ComponentList): named sets of components
-- across projects, their members, and the rules that assign components to
-- them by project and component slug (AutoComponentList).
CREATE TABLE component_lists (
    id             INTEGER PRIMARY KEY AUTOINCREMENT,
    name           TEXT    NOT NULL UNIQUE,
    slug           TEXT    NOT NULL UNIQUE,
    show_dashboard BOOLEAN NOT NULL DEFAULT TRUE
);
CREATE TABLE component_list_members (
    list_id      INTEGER NOT NULL REFERENCES component_lists (id) ON DELETE CASCADE,
    component_id INTEGER NOT NULL REFERENCES components (id) ON DELETE CASCADE,
    PRIMARY KEY (list_id, component_id)
);
CREATE INDEX component_list_members_component ON component_list_members (component_id);
CREATE TABLE component_list_rules (
    list_id         INTEGER NOT NULL REFERENCES component_lists (id) ON DELETE CASCADE,
    position        INTEGER NOT NULL,
    project_match   TEXT    NOT NULL,
    component_match TEXT    NOT NULL,
    PRIMARY KEY (list_id, position)
);
