-- Searches made only of terms the trigram index answers now count the
-- copies in unit_text instead of testing each unit, so a copy of a
-- deleted unit would count. The indexer now holds the units it copies
-- (FOR KEY SHARE), so that a deletion under way is waited for; before,
-- one that ran beside it could leave a copy behind (migration 0022).
-- Those go.
DELETE FROM unit_text x WHERE NOT EXISTS (SELECT 1 FROM units u WHERE u.id = x.unit_id);
