-- The service's copy of the catalog's language table (languagecopy.go):
-- one row, the LanguageTable message of ApplyCatalogSnapshots in payload,
-- kept only when its revision is newer than the one held.
CREATE TABLE catalog_languages (
    id       BIGINT PRIMARY KEY,
    revision BIGINT NOT NULL,
    payload  BYTEA
);
