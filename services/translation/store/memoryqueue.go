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

// memoryBacklog is what waits for the memory: how many queued rows, the
// greatest row id (it grows while edits queue units), and how many tasks
// (imports) run, which the memory waits for as the text index does: an
// import queues its translated units, file by file, and a batch taken
// between two files made the next wait for the writer.
type memoryBacklog struct{ rows, last, running int64 }

// memoryBacklog reads the queue's backlog: a read, so that an idle look
// does not take the writer.
func (s *Store) memoryBacklog(ctx context.Context) (memoryBacklog, error) {
	var b memoryBacklog
	err := s.q(ctx).Raw(`SELECT COUNT(*), COALESCE(MAX(id), 0), (`+runningTasks+`)
		FROM memory_queue`).Row().Scan(&b.rows, &b.last, &b.running)
	return b, err
}

// MemoryQueueEmpty reports whether the memory took every queued unit.
func (s *Store) MemoryQueueEmpty(ctx context.Context) (bool, error) {
	b, err := s.memoryBacklog(ctx)
	return b.rows == 0, err
}

// runningTasks counts the tasks (imports) under way, which the memory's
// batches and the search index's catch-up wait for.
const runningTasks = `SELECT COUNT(*) FROM tasks WHERE NOT completed`

// importing reports whether a task (an import) runs.
func (s *Store) importing(ctx context.Context) (bool, error) {
	var running int64
	err := s.q(ctx).Raw(runningTasks).Scan(&running).Error
	return running > 0, err
}

// A batch holds SQLite's single writer and writes a segment of the
// memory's word index: batches taken every look during a burst of edits
// made each edit wait behind them (the p99 of unit PATCH at 8
// connections went from 12 to 33 ms, and the rate fell by a tenth). So
// the queue waits for edits to pause (memorySettled), up to a bound in
// rows and in time, as the text index does (RunTextIndex): under a
// steady stream of edits the memory still follows, a few seconds behind.
const (
	memoryMaxRows = 10000           // rows that do not wait longer
	memoryMaxWait = 5 * time.Second // the longest a queued unit waits for a pause
)

// memorySettled reports whether RunMemoryQueue remembers now the backlog
// b, seen as seen at the previous look: when no import runs, and no row
// was queued since, or the backlog reached memoryMaxRows or has waited
// (since first seen) memoryMaxWait.
func memorySettled(b, seen memoryBacklog, waited time.Duration) bool {
	return b.running == 0 && (b.last == seen.last || b.rows >= memoryMaxRows || waited >= memoryMaxWait)
}

// RunMemoryQueue remembers the queued units until ctx ends: every
// interval it looks at the queue, and once it settled (memorySettled) it
// remembers what waits, a batch after another.
func (s *Store) RunMemoryQueue(ctx context.Context, interval time.Duration, log *slog.Logger) {
	var seen memoryBacklog
	var since time.Time // when the backlog was first seen; zero: none
	periodic.Run(ctx, interval, log, "memory queue", func(ctx context.Context, now time.Time) error {
		b, err := s.memoryBacklog(ctx)
		switch {
		case err != nil || b.rows == 0:
			seen, since = b, time.Time{}
			return err
		case since.IsZero():
			since = now
		}
		if !memorySettled(b, seen, now.Sub(since)) {
			seen = b
			return nil
		}
		seen, since = memoryBacklog{}, time.Time{}
		return s.drainMemoryQueue(ctx, b.rows)
	})
}

// drainMemoryQueue runs batches until the queue is empty, until it took
// as many rows as the backlog it was called for (rows), or until an
// import starts: edits that go on queueing, and the import, wait for the
// next look instead of the writer.
func (s *Store) drainMemoryQueue(ctx context.Context, rows int64) error {
	var err error
	for left, empty, busy := rows, false, false; left > 0 && !empty && !busy && err == nil && ctx.Err() == nil; left -= memoryQueueChunk {
		if empty, err = s.RememberQueued(ctx, memoryQueueChunk); err == nil && !empty {
			busy, err = s.importing(ctx)
		}
	}
	return err
}
