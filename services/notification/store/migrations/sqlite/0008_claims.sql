-- Claims (ARCHITECTURE.md rule 12): several replicas of the service share
-- the due webhook deliveries and mail; a row is theirs while claimed_until
-- (Unix milliseconds) lies ahead, and free again once it has passed, so the
-- work of a replica that died is taken over.
ALTER TABLE webhook_deliveries ADD COLUMN claimed_by TEXT NOT NULL DEFAULT '';
ALTER TABLE webhook_deliveries ADD COLUMN claimed_until BIGINT NOT NULL DEFAULT 0;
ALTER TABLE notifications ADD COLUMN claimed_by TEXT NOT NULL DEFAULT '';
ALTER TABLE notifications ADD COLUMN claimed_until BIGINT NOT NULL DEFAULT 0;
