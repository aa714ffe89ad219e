-- Weblate 2026.8's inheritable settings: a project and a category hold
-- the settings their components inherit (license, agreement, new_lang,
-- language_code_style, the secondary language and the commit messages);
-- each object says per setting whether its parent's value is in effect
-- (inherit_*), and keeps the values in effect, recomputed on every write
-- of a setting (effective, JSON). Existing components keep their own
-- values (inherit false), as they did; categories, which had no
-- settings, inherit. The catalog fills the new settings of existing
-- projects and categories with the defaults, and their effective
-- values, when it starts (store.Backfill).
ALTER TABLE projects ADD COLUMN license TEXT NOT NULL DEFAULT '';
ALTER TABLE projects ADD COLUMN agreement TEXT NOT NULL DEFAULT '';
ALTER TABLE projects ADD COLUMN language_code_style TEXT NOT NULL DEFAULT '';
ALTER TABLE projects ADD COLUMN commit_message TEXT NOT NULL DEFAULT '';
ALTER TABLE projects ADD COLUMN add_message TEXT NOT NULL DEFAULT '';
ALTER TABLE projects ADD COLUMN delete_message TEXT NOT NULL DEFAULT '';
ALTER TABLE projects ADD COLUMN merge_message TEXT NOT NULL DEFAULT '';
ALTER TABLE projects ADD COLUMN addon_message TEXT NOT NULL DEFAULT '';
ALTER TABLE projects ADD COLUMN pull_message TEXT NOT NULL DEFAULT '';
ALTER TABLE projects ADD COLUMN new_lang TEXT NOT NULL DEFAULT 'add';
ALTER TABLE categories ADD COLUMN license TEXT NOT NULL DEFAULT '';
ALTER TABLE categories ADD COLUMN agreement TEXT NOT NULL DEFAULT '';
ALTER TABLE categories ADD COLUMN language_code_style TEXT NOT NULL DEFAULT '';
ALTER TABLE categories ADD COLUMN secondary_language_code TEXT NOT NULL DEFAULT '';
ALTER TABLE categories ADD COLUMN commit_message TEXT NOT NULL DEFAULT '';
ALTER TABLE categories ADD COLUMN add_message TEXT NOT NULL DEFAULT '';
ALTER TABLE categories ADD COLUMN delete_message TEXT NOT NULL DEFAULT '';
ALTER TABLE categories ADD COLUMN merge_message TEXT NOT NULL DEFAULT '';
ALTER TABLE categories ADD COLUMN addon_message TEXT NOT NULL DEFAULT '';
ALTER TABLE categories ADD COLUMN pull_message TEXT NOT NULL DEFAULT '';
ALTER TABLE categories ADD COLUMN check_flags TEXT NOT NULL DEFAULT '';
ALTER TABLE categories ADD COLUMN new_lang TEXT NOT NULL DEFAULT 'add';
ALTER TABLE projects ADD COLUMN inherit_license BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE projects ADD COLUMN inherit_agreement BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE projects ADD COLUMN inherit_new_lang BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE projects ADD COLUMN inherit_language_code_style BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE projects ADD COLUMN inherit_secondary_language BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE projects ADD COLUMN inherit_commit_message BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE projects ADD COLUMN inherit_add_message BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE projects ADD COLUMN inherit_delete_message BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE projects ADD COLUMN inherit_merge_message BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE projects ADD COLUMN inherit_addon_message BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE projects ADD COLUMN inherit_pull_message BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE projects ADD COLUMN effective TEXT NOT NULL DEFAULT '';
ALTER TABLE categories ADD COLUMN inherit_license BOOLEAN NOT NULL DEFAULT TRUE;
ALTER TABLE categories ADD COLUMN inherit_agreement BOOLEAN NOT NULL DEFAULT TRUE;
ALTER TABLE categories ADD COLUMN inherit_new_lang BOOLEAN NOT NULL DEFAULT TRUE;
ALTER TABLE categories ADD COLUMN inherit_language_code_style BOOLEAN NOT NULL DEFAULT TRUE;
ALTER TABLE categories ADD COLUMN inherit_secondary_language BOOLEAN NOT NULL DEFAULT TRUE;
ALTER TABLE categories ADD COLUMN inherit_commit_message BOOLEAN NOT NULL DEFAULT TRUE;
ALTER TABLE categories ADD COLUMN inherit_add_message BOOLEAN NOT NULL DEFAULT TRUE;
ALTER TABLE categories ADD COLUMN inherit_delete_message BOOLEAN NOT NULL DEFAULT TRUE;
ALTER TABLE categories ADD COLUMN inherit_merge_message BOOLEAN NOT NULL DEFAULT TRUE;
ALTER TABLE categories ADD COLUMN inherit_addon_message BOOLEAN NOT NULL DEFAULT TRUE;
ALTER TABLE categories ADD COLUMN inherit_pull_message BOOLEAN NOT NULL DEFAULT TRUE;
ALTER TABLE categories ADD COLUMN effective TEXT NOT NULL DEFAULT '';
ALTER TABLE components ADD COLUMN inherit_license BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE components ADD COLUMN inherit_agreement BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE components ADD COLUMN inherit_new_lang BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE components ADD COLUMN inherit_language_code_style BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE components ADD COLUMN inherit_secondary_language BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE components ADD COLUMN inherit_commit_message BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE components ADD COLUMN inherit_add_message BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE components ADD COLUMN inherit_delete_message BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE components ADD COLUMN inherit_merge_message BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE components ADD COLUMN inherit_addon_message BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE components ADD COLUMN inherit_pull_message BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE components ADD COLUMN effective TEXT NOT NULL DEFAULT '';
