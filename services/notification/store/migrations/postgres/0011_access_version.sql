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
CREATE FUNCTION bump_access_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE access_version SET version = version + 1 WHERE id = 1;
    RETURN NULL;
END
$$;
CREATE TRIGGER users_access AFTER INSERT OR DELETE OR UPDATE OF username, is_superuser, is_active, is_bot, token_hash, date_expires ON users
    FOR EACH STATEMENT EXECUTE FUNCTION bump_access_version();
CREATE TRIGGER roles_access AFTER INSERT OR DELETE OR UPDATE ON roles
    FOR EACH STATEMENT EXECUTE FUNCTION bump_access_version();
CREATE TRIGGER teams_access AFTER INSERT OR DELETE OR UPDATE ON teams
    FOR EACH STATEMENT EXECUTE FUNCTION bump_access_version();
CREATE TRIGGER team_links_access AFTER INSERT OR DELETE OR UPDATE ON team_links
    FOR EACH STATEMENT EXECUTE FUNCTION bump_access_version();
CREATE TRIGGER component_lists_access AFTER INSERT OR DELETE OR UPDATE ON component_lists
    FOR EACH STATEMENT EXECUTE FUNCTION bump_access_version();
