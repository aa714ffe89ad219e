-- Plurals of a language besides its default (which stays on the language
-- row and has the language's id): rules read from files that no known rule
-- of the language matches, as Weblate's Plural rows of source gettext. Their
-- ids start at 10^9 so they never meet a language's id.
CREATE TABLE plurals (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    language_id INTEGER NOT NULL REFERENCES languages (id) ON DELETE CASCADE,
    source      INTEGER NOT NULL DEFAULT 1,
    number      INTEGER NOT NULL,
    formula     TEXT    NOT NULL,
    type        INTEGER NOT NULL DEFAULT 0,
    UNIQUE (language_id, number, formula)
);
INSERT INTO sqlite_sequence (name, seq) VALUES ('plurals', 999999999);
