-- A task someone asked to cancel (DELETE /api/tasks/<id>/): the replica
-- running it stops it and finishes it as cancelled.
ALTER TABLE tasks ADD COLUMN cancelled BOOLEAN NOT NULL DEFAULT false;
