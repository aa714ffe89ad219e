package store

import (
	"context"
	"time"

	"gorm.io/gorm"
)

// PostgreSQL's copies of the units' text (migration 0025): the source and
// context once per distinct pair in source_text, and per unit its target
// and its pair in unit_text; searches select units by set (copyScope).

// pgDigest is the key of a unit's source and context in source_text,
// over the columns of the units row u.
const pgDigest = `sha256(textsend(COALESCE(u.source, '')) || '\x00'::bytea || textsend(COALESCE(u.context, '')))`

// indexQueued takes up to limit units off PostgreSQL's queue and writes
// their copies, in one transaction. SKIP LOCKED lets the replicas of the
// service index side by side. The copies are read after the queue is (a
// later snapshot): a unit edited in between is copied as it is now, and
// queued again by its edit. The units copied are held (FOR KEY SHARE;
// edits do not wait), so that a deletion under way is waited for and its
// unit skipped, and one that follows removes the copy: searches count the
// copies, and a copy of a deleted unit would count.
func (s *Store) indexQueued(ctx context.Context, limit int64) (bool, error) {
	if ok, err := pgTextIndexed(s.q(ctx)); err != nil || !ok {
		return true, err // no pg_trgm: searches scan, nothing to keep
	}
	var taken []int64
	err := s.q(ctx).Transaction(func(tx *gorm.DB) error {
		var err error
		taken, err = scanIDs(tx.Raw(`DELETE FROM unit_text_queue
			WHERE ctid IN (SELECT ctid FROM unit_text_queue LIMIT ? FOR UPDATE SKIP LOCKED) RETURNING unit_id`, limit))
		if err != nil || len(taken) == 0 {
			return err
		}
		return copyUnitText(tx, pgArray(taken))
	})
	return int64(len(taken)) < limit, err
}

// copyUnitText writes the copies of the units ids (an array literal).
// The pairs are inserted in the order of their keys, so that two
// replicas inserting the same ones wait for each other in one order, and
// each waits for a pair another inserts to be committed, then finds it.
func copyUnitText(tx *gorm.DB, ids string) error {
	if err := tx.Exec(`INSERT INTO source_text (digest, source, context)
		SELECT DISTINCT ON (digest) `+pgDigest+` AS digest, COALESCE(u.source, ''), COALESCE(u.context, '')
		FROM units u WHERE u.id = ANY(?::bigint[]) ORDER BY digest
		ON CONFLICT (digest) DO NOTHING`, ids).Error; err != nil {
		return err
	}
	return tx.Exec(`INSERT INTO unit_text (unit_id, translation_id, source_text_id, target_is_source, target)
		SELECT u.id, u.translation_id, st.id, COALESCE(u.target, '') = COALESCE(u.source, ''),
			CASE WHEN COALESCE(u.target, '') = COALESCE(u.source, '') THEN '' ELSE COALESCE(u.target, '') END
		FROM units u JOIN source_text st ON st.digest = `+pgDigest+`
		WHERE u.id = ANY(?::bigint[]) FOR KEY SHARE OF u
		ON CONFLICT (unit_id) DO UPDATE SET source_text_id = EXCLUDED.source_text_id,
			target_is_source = EXCLUDED.target_is_source, target = EXCLUDED.target`, ids).Error
}

// pgTextIndexed reports whether PostgreSQL's copies have their pg_trgm
// indexes (migrations 0022 and 0025 create them only where the extension
// is).
func pgTextIndexed(tx *gorm.DB) (bool, error) {
	var ok bool
	err := tx.Raw(`SELECT to_regclass('unit_text_target_trgm') IS NOT NULL`).Scan(&ok).Error
	return ok, err
}

// dropUnusedSources removes the pairs of source_text no copy refers to
// any more (their count of copies is 0; migration 0026). It holds
// source_text against every indexer (which inserts into it first): one
// that found a pair and has yet to refer to it commits before, one that
// has yet to look inserts it again after.
func (s *Store) dropUnusedSources(ctx context.Context) error {
	return s.q(ctx).Transaction(func(tx *gorm.DB) error {
		if err := tx.Exec(`LOCK TABLE source_text IN SHARE ROW EXCLUSIVE MODE`).Error; err != nil {
			return err
		}
		return tx.Exec(`DELETE FROM source_text WHERE copies = 0`).Error
	})
}

// sweepEvery is how often each replica removes unused pairs: every
// deletion of units or change of a source leaves some, and nothing else
// looks for them.
const sweepEvery = 10 * time.Minute

// copyUpkeep keeps the statistics and the visibility map of PostgreSQL's
// copies up to date while a large catch-up writes them. The planner goes
// by the statistics, which a whole import's copies leave stale until
// autovacuum analyzes them; and a source term counts its units from an
// index alone only on pages the visibility map marks all visible: after
// an import of 1M units, a word in 70,000 took 180 ms to count instead of
// 60 until a vacuum. A vacuum right after the catch-up ran beside the
// first searches, which waited on it; it runs before the last chunk
// instead, and covers all but that chunk's copies.
type copyUpkeep struct {
	s      *Store
	queued int64 // units queued when the catch-up began
}

// upkeepFrom is the number of chunks of a catch-up from which it is
// looked after: smaller ones are left to autovacuum.
const upkeepFrom = 8

func (s *Store) newCopyUpkeep(ctx context.Context) (*copyUpkeep, error) {
	u := &copyUpkeep{s: s}
	err := s.q(ctx).Raw(`SELECT COUNT(*) FROM unit_text_queue`).Scan(&u.queued).Error
	return u, err
}

// before runs before the chunk-th chunk of the catch-up: it analyzes the
// copies after upkeepFrom chunks and each time their number doubles, and
// vacuums them before the last chunk (as counted when the catch-up
// began). Nil: nothing to look after.
func (u *copyUpkeep) before(ctx context.Context, chunk int64) error {
	done := chunk - 1
	switch {
	case u == nil || u.queued < upkeepFrom*textIndexChunk:
		return nil
	case done*textIndexChunk < u.queued && u.queued <= chunk*textIndexChunk:
		return u.s.q(ctx).Exec(`VACUUM (ANALYZE) unit_text, source_text`).Error // outside a transaction
	case done >= upkeepFrom && done&(done-1) == 0:
		return u.s.q(ctx).Exec(`ANALYZE unit_text, source_text`).Error
	}
	return nil
}
