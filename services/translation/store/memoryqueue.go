package store

import (
	"context"
	"log/slog"
	"time"

	"gorm.io/gorm"

	"github.com/tmsproject/tms/pkg/periodic"
)

// An edit does not write the translation memory in its transaction: it
// queues its units (memory_queue, migration 0023), and RunMemoryQueue
// remembers them in batches, as the reference updates its memory in a
// task after the edit. The memory's two hash-keyed indexes and its word
// index took a fifth of the edit rate when every group of edits wrote
// them; a batch writes one word-index segment for hundreds of entries.
// A queued unit is remembered as it is when its batch runs, as the
// reference's task reads the unit when it runs.

// memoryQueueChunk is how many queued rows one batch takes: it holds
// SQLite's single writer, so edits wait at most for one batch.
const memoryQueueChunk = 500

// queueMemory adds ids to the memory's queue, in tx.
func queueMemory(tx *gorm.DB, ids []int64) error {
	args := make([]any, len(ids))
	for i, id := range ids {
		args[i] = id
	}
	return insertRows(tx, "INSERT INTO memory_queue (unit_id)", 1, 500, args)
}

// RememberQueued remembers the translations of up to limit queued rows'
// units and takes the rows off the queue, in one transaction, and reports
// whether the queue was then empty. On PostgreSQL the rows are claimed
// with SKIP LOCKED, so that replicas take distinct batches.
func (s *Store) RememberQueued(ctx context.Context, limit int) (bool, error) {
	claim := `SELECT id, unit_id FROM memory_queue ORDER BY id LIMIT ?`
	if s.postgres {
		claim += ` FOR UPDATE SKIP LOCKED`
	}
	var rows []struct{ ID, UnitID int64 }
	err := s.q(ctx).Transaction(func(tx *gorm.DB) error {
		if err := tx.Raw(claim, limit).Scan(&rows).Error; err != nil || len(rows) == 0 {
			return err
		}
		ids, units := make([]int64, len(rows)), make([]int64, len(rows))
		for i, r := range rows {
			ids[i], units[i] = r.ID, r.UnitID
		}
		if err := rememberUnits(tx, units); err != nil {
			return err
		}
		return tx.Exec(`DELETE FROM memory_queue WHERE id IN ?`, ids).Error
	})
	return len(rows) < limit, err
}

// memoryQueued reports whether any unit waits for the memory: a read, so
// that an idle look does not take the writer.
func (s *Store) memoryQueued(ctx context.Context) (bool, error) {
	var queued bool
	err := s.q(ctx).Raw(`SELECT EXISTS (SELECT 1 FROM memory_queue)`).Row().Scan(&queued)
	return queued, err
}

// RunMemoryQueue remembers the queued units every interval until ctx
// ends, a batch after another until the queue is empty.
func (s *Store) RunMemoryQueue(ctx context.Context, interval time.Duration, log *slog.Logger) {
	periodic.Run(ctx, interval, log, "memory queue", func(ctx context.Context, _ time.Time) error {
		return s.drainMemoryQueue(ctx)
	})
}

// drainMemoryQueue runs batches until the queue is empty.
func (s *Store) drainMemoryQueue(ctx context.Context) error {
	queued, err := s.memoryQueued(ctx)
	for queued && err == nil && ctx.Err() == nil {
		var empty bool
		empty, err = s.RememberQueued(ctx, memoryQueueChunk)
		queued = !empty
	}
	return err
}
