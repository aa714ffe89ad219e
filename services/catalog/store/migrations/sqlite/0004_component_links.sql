-- Projects a component is shared with (the reference's Component.links).
CREATE TABLE component_links (
    component_id INTEGER NOT NULL REFERENCES components (id) ON DELETE CASCADE,
    project_id   INTEGER NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
    PRIMARY KEY (component_id, project_id)
);
CREATE INDEX component_links_project ON component_links (project_id);
