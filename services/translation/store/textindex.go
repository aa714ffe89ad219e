package store

import (
	"context"
	"errors"
	"log/slog"
	"time"

	"gorm.io/gorm"

	"github.com/tmsproject/tms/pkg/periodic"
)

// Substring searches look the units up in unit_text, a trigram index
// (migration 0021 on SQLite: FTS5; 0022 on PostgreSQL: a table of each
// unit's text with a pg_trgm index), and test with their own condition
// only the units it finds and those it does not hold as they are. Imports
// do not write the index (a row per insert tripled their time on SQLite,
// and cost half again on PostgreSQL), nor do edits (two tokenizations per
// edit cost a fifth of the edit rate): IndexText catches up, in chunks,
// and RunTextIndex calls it in the background.
//
// On SQLite the index covers the units up to unit_text_state's mark,
// except those noted in unit_text_dirty (edited or deleted since).
// PostgreSQL's ids are not assigned in commit order, so a mark cannot
// tell what is indexed: its triggers queue each unit inserted or edited
// (unit_text_queue) in the inserting or editing transaction instead.

// textIndexChunk is how many units one IndexText transaction adds: it
// holds SQLite's single writer, so edits wait at most for one chunk. (A
// variable for tests.)
var textIndexChunk int64 = 2000

// indexedThrough is the greatest unit id unit_text covers: every unit at
// or below it is in the index, as it was when noted (unit_text_dirty).
func indexedThrough(tx *gorm.DB) (int64, error) {
	var through int64
	err := tx.Raw(`SELECT indexed_through FROM unit_text_state WHERE id = 1`).Scan(&through).Error
	return through, err
}

// IndexText brings up to limit of the noted units' entries up to date,
// or, when none is noted, adds up to limit units above the mark to the
// index, in one transaction (on PostgreSQL: indexes up to limit queued
// units), and reports whether the index then covers every unit as it is.
func (s *Store) IndexText(ctx context.Context, limit int64) (bool, error) {
	if s.postgres {
		return s.indexQueued(ctx, limit)
	}
	var done bool
	err := s.q(ctx).Transaction(func(tx *gorm.DB) error {
		var dirty []int64
		err := tx.Raw(`SELECT unit_id FROM unit_text_dirty ORDER BY unit_id LIMIT ?`, limit).Scan(&dirty).Error
		switch {
		case err != nil:
			return err
		case len(dirty) > 0:
			return reindexDirty(tx, dirty)
		}
		done, err = indexTail(tx, limit)
		return err
	})
	return done, err
}

// TextIndexCovered reports whether the search index covers every unit as
// it is, so that no search tests a unit the index could have answered
// for (true, too, on a PostgreSQL without pg_trgm, where searches scan).
func (s *Store) TextIndexCovered(ctx context.Context) (bool, error) {
	q := s.q(ctx)
	if s.postgres {
		if ok, err := pgTextIndexed(q); err != nil || !ok {
			return true, err
		}
		var queued bool
		err := q.Raw(`SELECT EXISTS (SELECT 1 FROM unit_text_queue)`).Scan(&queued).Error
		return !queued, err
	}
	var through, last, dirty int64
	err := q.Raw(`SELECT (SELECT indexed_through FROM unit_text_state WHERE id = 1), (SELECT COALESCE(MAX(id), 0) FROM units),
		(SELECT COUNT(*) FROM unit_text_dirty)`).Row().Scan(&through, &last, &dirty)
	return through >= last && dirty == 0, err
}

// reindexDirty replaces the entries of the noted units ids: out with the
// text noted (what the index holds), in with their text now, unless they
// are gone.
func reindexDirty(tx *gorm.DB, ids []int64) error {
	for _, q := range []string{
		`INSERT INTO unit_text (unit_text, rowid, source, target, context)
			SELECT 'delete', unit_id, source, target, context FROM unit_text_dirty WHERE unit_id IN ?`,
		`INSERT INTO unit_text (rowid, source, target, context) SELECT id, source, target, context FROM units WHERE id IN ?`,
		`DELETE FROM unit_text_dirty WHERE unit_id IN ?`,
	} {
		if err := tx.Exec(q, ids).Error; err != nil {
			return err
		}
	}
	return nil
}

// indexTail adds up to limit units above the mark and raises it.
func indexTail(tx *gorm.DB, limit int64) (done bool, err error) {
	through, err := indexedThrough(tx)
	if err != nil {
		return false, err
	}
	var last int64
	if err := tx.Raw(`SELECT COALESCE(MAX(id), 0) FROM units`).Scan(&last).Error; err != nil {
		return false, err
	}
	// Inside the write transaction no unit can appear below last, so
	// everything up to the new mark is in.
	upTo := min(last, through+limit)
	if upTo <= through {
		return true, nil
	}
	if err := tx.Exec(`INSERT INTO unit_text (rowid, source, target, context)
		SELECT id, source, target, context FROM units WHERE id > ? AND id <= ?`, through, upTo).Error; err != nil {
		return false, err
	}
	return upTo == last, tx.Exec(`UPDATE unit_text_state SET indexed_through = ? WHERE id = 1`, upTo).Error
}

// RunTextIndex keeps unit_text current until ctx ends: every interval,
// once no import runs and units stopped being added and noted since the
// previous look (an import or an upload under way goes on adding; its
// units are indexed when it is done, and scanned until then), or when
// many are noted, it indexes until the index covers every unit.
func (s *Store) RunTextIndex(ctx context.Context, interval time.Duration, log *slog.Logger) {
	var seen textBacklog
	var swept time.Time
	periodic.Run(ctx, interval, log, "text index", func(ctx context.Context, now time.Time) error {
		backlog, err := s.textBacklog(ctx)
		if err != nil || (backlog.busy() || backlog != seen) && backlog.dirty < maxDirty {
			seen = backlog // still growing, or unreadable: look again next time
			return nil
		}
		err = s.catchUpText(ctx)
		seen, _ = s.textBacklog(ctx)
		if s.postgres && err == nil && now.Sub(swept) >= sweepEvery {
			swept, err = now, s.dropUnusedSources(ctx)
		}
		return err
	})
}

// maxDirty is how many noted units RunTextIndex lets wait for writes to
// settle: each costs every substring search a lookup.
const maxDirty = 10000

// textBacklog is what the index lacks: the greatest unit id (on SQLite,
// the units above the mark are not indexed; on both, it grows while units
// are added) and how many edited units wait (noted on SQLite, queued by
// an edit on PostgreSQL); and how many tasks (imports) are running, which
// the index waits for: indexing beside an import, in its pauses between
// files, made it a quarter slower.
type textBacklog struct{ last, dirty, running int64 }

func (b textBacklog) busy() bool { return b.running > 0 }

func (s *Store) textBacklog(ctx context.Context) (textBacklog, error) {
	dirty := `SELECT COUNT(*) FROM unit_text_dirty`
	if s.postgres {
		dirty = `SELECT COUNT(*) FROM unit_text_queue WHERE edited`
	}
	var b textBacklog
	err := s.q(ctx).Raw(`SELECT (SELECT COALESCE(MAX(id), 0) FROM units), (`+dirty+`),
		(`+runningTasks+`)`).Row().Scan(&b.last, &b.dirty, &b.running)
	return b, err
}

// catchUpText indexes chunks until the index covers every unit, or until
// units are added again or an import starts: the index waits for its end.
// On PostgreSQL it looks after the copies as they grow (copyUpkeep).
func (s *Store) catchUpText(ctx context.Context) error {
	start, err := s.textBacklog(ctx)
	var upkeep *copyUpkeep
	if s.postgres && err == nil {
		upkeep, err = s.newCopyUpkeep(ctx)
	}
	for chunks := int64(1); err == nil && ctx.Err() == nil; chunks++ {
		if err = upkeep.before(ctx, chunks); err != nil {
			return err
		}
		var done bool
		if done, err = s.IndexText(ctx, textIndexChunk); err != nil || done {
			return err
		}
		var now textBacklog
		if now, err = s.textBacklog(ctx); now.last != start.last || now.busy() && !start.busy() {
			return err
		}
	}
	return errors.Join(err, ctx.Err())
}
