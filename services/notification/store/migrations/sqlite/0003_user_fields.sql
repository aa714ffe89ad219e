-- The rest of the reference's account fields: bot accounts, the last web
-- sign-in (API tokens do not set it) and the expiry of temporary accounts.
ALTER TABLE users ADD COLUMN is_bot BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE users ADD COLUMN last_login TIMESTAMP NULL;
ALTER TABLE users ADD COLUMN date_expires TIMESTAMP NULL;
