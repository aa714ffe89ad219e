-- The access version: one number that every change to what a caller is
-- granted adds one to, in the changing transaction (triggers, so that no
-- write path can forget it): accounts (their name, status, token and
-- expiry, not their last login or profile), roles, teams, team links and
-- the component lists grants name. A gateway keeps what tokens resolve to
-- for as long as the version it read them under is current
-- (GetAccessVersion, pkg/policy.AccessCache).
CREATE TABLE access_version (
    id      INTEGER PRIMARY KEY CHECK (id = 1),
    version BIGINT  NOT NULL
);
INSERT INTO access_version (id, version) VALUES (1, 1);
CREATE TRIGGER users_access_insert AFTER INSERT ON users
BEGIN
    UPDATE access_version SET version = version + 1 WHERE id = 1;
END;
CREATE TRIGGER users_access_delete AFTER DELETE ON users
BEGIN
    UPDATE access_version SET version = version + 1 WHERE id = 1;
END;
CREATE TRIGGER users_access_update AFTER UPDATE OF username, is_superuser, is_active, is_bot, token_hash, date_expires ON users
BEGIN
    UPDATE access_version SET version = version + 1 WHERE id = 1;
END;
CREATE TRIGGER roles_access_insert AFTER INSERT ON roles
BEGIN
    UPDATE access_version SET version = version + 1 WHERE id = 1;
END;
CREATE TRIGGER roles_access_delete AFTER DELETE ON roles
BEGIN
    UPDATE access_version SET version = version + 1 WHERE id = 1;
END;
CREATE TRIGGER roles_access_update AFTER UPDATE ON roles
BEGIN
    UPDATE access_version SET version = version + 1 WHERE id = 1;
END;
CREATE TRIGGER teams_access_insert AFTER INSERT ON teams
BEGIN
    UPDATE access_version SET version = version + 1 WHERE id = 1;
END;
CREATE TRIGGER teams_access_delete AFTER DELETE ON teams
BEGIN
    UPDATE access_version SET version = version + 1 WHERE id = 1;
END;
CREATE TRIGGER teams_access_update AFTER UPDATE ON teams
BEGIN
    UPDATE access_version SET version = version + 1 WHERE id = 1;
END;
CREATE TRIGGER team_links_access_insert AFTER INSERT ON team_links
BEGIN
    UPDATE access_version SET version = version + 1 WHERE id = 1;
END;
CREATE TRIGGER team_links_access_delete AFTER DELETE ON team_links
BEGIN
    UPDATE access_version SET version = version + 1 WHERE id = 1;
END;
CREATE TRIGGER team_links_access_update AFTER UPDATE ON team_links
BEGIN
    UPDATE access_version SET version = version + 1 WHERE id = 1;
END;
CREATE TRIGGER component_lists_access_insert AFTER INSERT ON component_lists
BEGIN
    UPDATE access_version SET version = version + 1 WHERE id = 1;
END;
CREATE TRIGGER component_lists_access_delete AFTER DELETE ON component_lists
BEGIN
    UPDATE access_version SET version = version + 1 WHERE id = 1;
END;
CREATE TRIGGER component_lists_access_update AFTER UPDATE ON component_lists
BEGIN
    UPDATE access_version SET version = version + 1 WHERE id = 1;
END;
