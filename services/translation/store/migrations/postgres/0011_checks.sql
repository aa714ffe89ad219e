-- Quality checks (Weblate's Check model): a row per failing check of a
-- unit, by its check id; dismissed rows no longer count as failing.
-- units.has_failing_check is true while the unit has a row not dismissed.
CREATE TABLE unit_checks (
    unit_id   BIGINT NOT NULL REFERENCES units (id) ON DELETE CASCADE,
    name      TEXT    NOT NULL,
    dismissed BOOLEAN NOT NULL DEFAULT false,
    PRIMARY KEY (unit_id, name)
);
CREATE INDEX unit_checks_name ON unit_checks (name, unit_id);
-- Words of the units with a failing check (failing_checks_words).
ALTER TABLE translations ADD COLUMN failing_words BIGINT NOT NULL DEFAULT 0;
