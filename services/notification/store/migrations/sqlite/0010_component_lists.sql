-- The catalog's component lists as teams use them: each list's slug and
-- components ("project/component", one per line), kept up to date by the
-- catalog's ComponentListChanged events. A team links a list by its id
-- (team_links kind 7).
CREATE TABLE component_lists (
    id         BIGINT PRIMARY KEY,
    slug       TEXT   NOT NULL,
    components TEXT   NOT NULL DEFAULT ''
);
