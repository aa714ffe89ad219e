-- Categories of a project (the reference's Category), nested through
-- parent_id (0: the top level; no foreign key, so that 0 can stand for
-- "none" and uniqueness holds at the top level too). Components name
-- their category the same way.
CREATE TABLE categories (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    project_id INTEGER NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
    parent_id  BIGINT NOT NULL DEFAULT 0,
    name       TEXT   NOT NULL,
    slug       TEXT   NOT NULL,
    UNIQUE (project_id, parent_id, slug),
    UNIQUE (project_id, parent_id, name)
);
ALTER TABLE components ADD COLUMN category_id BIGINT NOT NULL DEFAULT 0;
CREATE INDEX components_category ON components (category_id);
