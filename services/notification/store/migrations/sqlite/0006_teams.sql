-- Teams (the reference's groups) and roles. A role is a set of
-- permissions (comma-separated); a team gives its roles to its members on
-- a selection of projects and languages. team_links holds every link of a
-- team: kind 1 role id, 2 project slug, 3 "project/component", 4 language
-- code, 5 member user id (0: the anonymous caller). The built-in roles and
-- teams are written by the service at start (policy.BuiltinRoles).
CREATE TABLE roles (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    name        TEXT    NOT NULL UNIQUE,
    permissions TEXT    NOT NULL DEFAULT '',
    builtin     BOOLEAN NOT NULL DEFAULT FALSE
);
CREATE TABLE teams (
    id                 INTEGER PRIMARY KEY AUTOINCREMENT,
    name               TEXT    NOT NULL,
    defining_project   TEXT    NOT NULL DEFAULT '',
    project_selection  INTEGER NOT NULL DEFAULT 0,
    language_selection INTEGER NOT NULL DEFAULT 1,
    auto               BOOLEAN NOT NULL DEFAULT FALSE,
    UNIQUE (name, defining_project)
);
CREATE TABLE team_links (
    team_id INTEGER NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
    kind    INTEGER NOT NULL,
    value   TEXT    NOT NULL,
    PRIMARY KEY (team_id, kind, value)
);
CREATE INDEX team_links_value ON team_links (kind, value);
