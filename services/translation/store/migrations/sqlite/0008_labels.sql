-- Labels of a project (the reference's Label) and the source strings they
-- are set on. A project is named by its catalog id, so a project created
-- again with the same slug does not inherit the labels of the old one.
CREATE TABLE labels (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    project_id   BIGINT NOT NULL,
    project_slug TEXT   NOT NULL,
    name         TEXT   NOT NULL,
    description  TEXT   NOT NULL DEFAULT '',
    color        TEXT   NOT NULL DEFAULT 'gray',
    UNIQUE (project_id, name)
);
CREATE INDEX labels_project_slug ON labels (project_slug);

CREATE TABLE unit_labels (
    unit_id  INTEGER NOT NULL REFERENCES units (id) ON DELETE CASCADE,
    label_id INTEGER NOT NULL REFERENCES labels (id) ON DELETE CASCADE,
    PRIMARY KEY (unit_id, label_id)
);
CREATE INDEX unit_labels_label ON unit_labels (label_id);
