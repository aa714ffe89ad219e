-- Several replicas (ARCHITECTURE.md rule 12). A component's working copy
-- is a cache: repository_snapshots holds what only the copy had, the
-- commits not pushed yet (a git pack of the objects the remote-tracking
-- branch lacks), so that any replica can rebuild it from the remote. A
-- task names the process running it (holder), so that a replica takes over
-- the imports of a dead one only. state is the copy's position against its
-- remote (JSON: commits, ahead, behind, files), so that reading it needs
-- no working copy.
CREATE TABLE repository_snapshots (
    component_id INTEGER   PRIMARY KEY,
    url          TEXT      NOT NULL,
    branch       TEXT      NOT NULL,
    head         TEXT      NOT NULL,
    remote_head  TEXT      NOT NULL,
    state        TEXT      NOT NULL DEFAULT '',
    pack         BLOB      NOT NULL,
    updated_at   TIMESTAMP NOT NULL
);
ALTER TABLE tasks ADD COLUMN holder TEXT NOT NULL DEFAULT '';
