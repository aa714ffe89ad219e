-- API rate-limit counters shared by every gateway replica: requests taken
-- by a caller (key: "anon:<ip>" or "user:<name>") in one fixed window that
-- starts at window_start (Unix seconds). Old windows are deleted as the
-- key moves on.
CREATE TABLE rate_limit_counters (
    key          TEXT   NOT NULL,
    window_start BIGINT NOT NULL,
    used         BIGINT NOT NULL DEFAULT 0,
    PRIMARY KEY (key, window_start)
);
