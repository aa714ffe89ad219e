-- An account's settings (the reference's user profile), as the service's
-- Profile message in JSON with its field names; '' for an account whose
-- settings were never written, which reads as the defaults.
ALTER TABLE users ADD COLUMN profile TEXT NOT NULL DEFAULT '';
