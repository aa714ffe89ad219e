-- The service's copy of what it needs from the catalog (catalogcopy.go):
-- each project and each component as the catalog last sent them
-- (ApplyCatalogSnapshots), the message itself in payload. A removed
-- project keeps its row and revision, so that an older snapshot arriving
-- late changes nothing.
CREATE TABLE catalog_projects (
    id                   BIGINT PRIMARY KEY,
    slug                 TEXT    NOT NULL DEFAULT '',
    revision             BIGINT NOT NULL,
    removed              BOOLEAN NOT NULL DEFAULT FALSE,
    access_control       INTEGER NOT NULL DEFAULT 0,
    use_shared_tm        BOOLEAN NOT NULL DEFAULT FALSE,
    contribute_shared_tm BOOLEAN NOT NULL DEFAULT FALSE,
    payload              BYTEA
);
CREATE INDEX catalog_projects_slug ON catalog_projects (slug);
CREATE TABLE catalog_components (
    id           BIGINT PRIMARY KEY,
    project_id   BIGINT NOT NULL,
    project_slug TEXT    NOT NULL,
    slug         TEXT    NOT NULL,
    removed      BOOLEAN NOT NULL DEFAULT FALSE,
    payload      BYTEA
);
CREATE INDEX catalog_components_project ON catalog_components (project_id);
CREATE INDEX catalog_components_slugs ON catalog_components (project_slug, slug);
