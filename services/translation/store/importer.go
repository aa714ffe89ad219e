package store

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"gorm.io/gorm"

	"github.com/tmsproject/tms/pkg/weblate"
	changelogv1 "github.com/tmsproject/tms/proto/gen/go/tms/changelog/v1"
)

// ImportSpec is one parsed file to store as a translation.
type ImportSpec struct {
	// Translation carries the identity (ComponentID, LanguageCode) and the
	// file metadata; the counters are computed here.
	Translation Translation
	// Units in file order; Position, SourceUnitID and ids are filled here.
	Units []Unit
	// SourceIDs maps id_hash to the unit id in the source translation; nil
	// for the source translation itself.
	SourceIDs map[int64]int64
	// Changes are recorded in the same transaction (the "Resource updated"
	// record of the file).
	Changes []*changelogv1.Change
	// NeedsCommit marks the working copy as holding an uncommitted file.
	NeedsCommit bool
	// Monolingual: the units are keyed and take their source from the
	// template, so a translated unit whose source changed needs editing
	// (followTemplate).
	Monolingual bool
	// UnitChanges records one change per string added (71), updated (59)
	// or removed (63) by the file, as a repository update does.
	UnitChanges bool
	// Checks are the rules of the quality checks of the component's
	// strings, before each string's own flags.
	Checks CheckRules
	// RecordsFuzzy and RecordsApproval tell whether the file's format
	// stores "needs editing" and "approved". A stored unit whose source,
	// context and target the file left as they were keeps a state its
	// format cannot write, as the reference keeps it.
	RecordsFuzzy, RecordsApproval bool
}

// ImportResult tells what an import stored.
type ImportResult struct {
	Translation Translation
	// IDs maps id_hash to unit id.
	IDs map[int64]int64
}

const batchRows = 1000

// sqliteInsertRows is the INSERT batch size on SQLite. Its pure-Go driver
// binds parameters in time quadratic in their number per statement, so
// small statements win there; the engine itself is in process, so the
// extra statements cost no round trips.
const sqliteInsertRows = 8

// mergeInsertBatch is how many new units an import gathers before it
// inserts them.
const mergeInsertBatch = 1024

// ImportTranslation stores a parsed file in one transaction: it creates or
// updates the translation row, inserts new units in batches, updates changed
// ones in place (keeping their ids, matched by id_hash), deletes units no
// longer in the file, writes the counters and records the changes. Units
// with uncommitted edits (pending) keep their target and state. Suggestions
// the update made obsolete are cleaned up (cleanupImported).
func (s *Store) ImportTranslation(ctx context.Context, spec ImportSpec) (ImportResult, error) {
	var res ImportResult
	err := s.q(ctx).Transaction(func(tx *gorm.DB) error {
		spec.Translation.Propagate, spec.Translation.Consistency = spec.Checks.Propagate, spec.Checks.consistency()
		t, err := upsertTranslation(tx, spec.Translation)
		if err != nil {
			return err
		}
		if err = syncPropagation(tx, &t, spec.Checks); err != nil {
			return err
		}
		var existing []Unit
		if err = tx.Where("translation_id = ?", t.ID).Find(&existing).Error; err != nil {
			return err
		}
		before := unitSnapshot(existing, spec.UnitChanges)
		known := unitSnapshot(existing, !spec.Translation.IsSource)
		suggestions, err := translationSuggestions(tx, t.ID)
		if err != nil {
			return err
		}
		c, err := newChecker(tx, t, true)
		if err != nil {
			return err
		}
		ids, stats, err := s.mergeUnits(ctx, tx, t.ID, existing, spec, c)
		if err != nil {
			return err
		}
		if err = c.reconcile(nil); err != nil {
			return err
		}
		if err = recordUnitChanges(tx, t, before, ids, spec); err != nil {
			return err
		}
		if err = queueImported(tx, t, known, spec.Units, ids); err != nil {
			return err
		}
		if err = cleanupImported(tx, t, suggestions); err != nil {
			return err
		}
		// Suggestions and comments live in the database only: the file
		// does not carry them, so their counters come from the kept units.
		if err = countAnnotations(tx, t.ID, &stats); err != nil {
			return err
		}
		at := now()
		t.Stats, t.LastChange = stats, &at
		err = tx.Model(&Translation{}).Where("id = ?", t.ID).
			Select(statColumns(), "last_change").Updates(&t).Error
		if err != nil {
			return fmt.Errorf("store counters: %w", err)
		}
		if spec.NeedsCommit {
			if err := setNeedsCommit(tx, t.ComponentID); err != nil {
				return err
			}
		}
		res = ImportResult{Translation: t, IDs: ids}
		return record(tx, at, spec.Changes...)
	})
	return res, err
}

// statColumns names the counter columns for Select.
func statColumns() []string {
	return []string{"total", "total_words", "total_chars", "translated", "translated_words", "translated_chars",
		"fuzzy", "fuzzy_words", "fuzzy_chars", "approved", "approved_words", "approved_chars",
		"readonly", "readonly_words", "readonly_chars", "failing", "suggestions", "comments", "failing_words", "failing_chars"}
}

func upsertTranslation(tx *gorm.DB, in Translation) (Translation, error) {
	var t Translation
	err := tx.Where("component_id = ? AND language_code = ?", in.ComponentID, in.LanguageCode).Take(&t).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		in.ID, in.Stats, in.CreatedAt = 0, Stats{}, now()
		if err = tx.Create(&in).Error; err != nil {
			return in, fmt.Errorf("create translation: %w", err)
		}
		return in, nil
	}
	if err != nil {
		return t, err
	}
	t.ProjectSlug, t.ComponentSlug = in.ProjectSlug, in.ComponentSlug
	t.PluralNumber, t.Filename, t.Revision = in.PluralNumber, in.Filename, in.Revision
	t.PluralID, t.PluralSource, t.PluralFormula, t.PluralType = in.PluralID, in.PluralSource, in.PluralFormula, in.PluralType
	t.IsSource, t.IsTemplate = in.IsSource, in.IsTemplate
	err = tx.Model(&Translation{}).Where("id = ?", t.ID).
		Select("project_slug", "component_slug", "plural_number", "plural_id", "plural_source", "plural_formula",
			"plural_type", "filename", "revision", "is_source", "is_template").
		Updates(&t).Error
	return t, err
}

// mergeUnits applies the file's units to the stored ones (existing) and
// returns the id_hash → id map and the counters of the result.
func (s *Store) mergeUnits(ctx context.Context, tx *gorm.DB, translationID int64, existing []Unit, spec ImportSpec, c *checker) (map[int64]int64, Stats, error) {
	old := make(map[int64]*Unit, len(existing))
	for i := range existing {
		old[existing[i].IDHash] = &existing[i]
	}
	ids := make(map[int64]int64, len(spec.Units))
	var stats Stats
	// New units go in batches as they come: a list of all of them was a
	// copy of the file's units, a third of a large import's memory.
	inserts := make([]Unit, 0, min(len(spec.Units), mergeInsertBatch))
	at := now()
	pos, inserted := int64(0), 0
	rows := map[int64][]CheckRow{} // by id_hash
	found := c.runAll(spec.Units, old, spec.Checks)
	dismissed, err := translationDismissals(tx, translationID)
	if err != nil {
		return nil, Stats{}, err
	}
	for i := range spec.Units {
		u := spec.Units[i]
		check := func(u *Unit) {
			if len(found[i]) > 0 {
				r := rowsOf(found[i], dismissed[old[u.IDHash].idOrZero()])
				m := marksOfRows(r)
				rows[u.IDHash], u.HasFailingCheck, u.HasDismissedCheck = r, m.failing, m.dismissed
			}
		}
		if _, dup := ids[u.IDHash]; dup {
			continue // a repeated msgid/msgctxt: Weblate keeps the first
		}
		pos++
		u.TranslationID, u.Position = translationID, pos
		if spec.SourceIDs != nil {
			if sid, ok := spec.SourceIDs[u.IDHash]; ok {
				u.SourceUnitID = &sid
			}
		}
		if prev, ok := old[u.IDHash]; ok {
			ids[u.IDHash] = prev.ID
			keepUnwrittenState(prev, &u, spec)
			if spec.Monolingual && spec.SourceIDs != nil {
				followTemplate(prev, &u)
			}
			if err := mergeStored(tx, prev, &u, at, check); err != nil {
				return nil, Stats{}, err
			}
			delete(old, u.IDHash)
		} else {
			check(&u)
			u.Timestamp, u.LastUpdated = at, at
			ids[u.IDHash] = 0
			inserts = append(inserts, u)
			inserted++
		}
		stats.Count(u.State, u.NumWords, u.NumChars, 1)
		if u.HasFailingCheck {
			stats.Failing++
			stats.FailingWords += u.NumWords
			stats.FailingChars += u.NumChars
		}
		if len(inserts) == mergeInsertBatch {
			if err := s.insertUnits(ctx, tx, inserts); err != nil {
				return nil, Stats{}, err
			}
			inserts = inserts[:0]
		}
	}
	if err := s.insertUnits(ctx, tx, inserts); err != nil {
		return nil, Stats{}, err
	}
	if err := deleteUnits(tx, old); err != nil {
		return nil, Stats{}, err
	}
	if inserted > 0 {
		if err := insertedIDs(tx, translationID, ids); err != nil {
			return nil, Stats{}, err
		}
	}
	return ids, stats, storeImportChecks(tx, translationID, ids, rows)
}

// translationDismissals are the dismissed checks of a translation's
// units, by unit id: an import keeps the dismissal of a check that still
// fails.
func translationDismissals(tx *gorm.DB, translationID int64) (map[int64]map[string]bool, error) {
	var found []struct {
		UnitID int64
		Name   string
	}
	err := tx.Raw(`SELECT uc.unit_id, uc.name FROM unit_checks uc JOIN units u ON u.id = uc.unit_id
		WHERE u.translation_id = ? AND u.has_dismissed_check = ? AND uc.dismissed = ?`, translationID, true, true).Scan(&found).Error
	out := map[int64]map[string]bool{}
	for _, f := range found {
		if out[f.UnitID] == nil {
			out[f.UnitID] = map[string]bool{}
		}
		out[f.UnitID][f.Name] = true
	}
	return out, err
}

// idOrZero is the id of a stored unit, 0 for none (a new one).
func (u *Unit) idOrZero() int64 {
	if u == nil {
		return 0
	}
	return u.ID
}

// storeImportChecks replaces the check rows of a translation's units by
// those of an import (rows, by id_hash).
func storeImportChecks(tx *gorm.DB, translationID int64, ids map[int64]int64, rows map[int64][]CheckRow) error {
	err := tx.Exec("DELETE FROM unit_checks WHERE unit_id IN (SELECT id FROM units WHERE translation_id = ?)", translationID).Error
	if err != nil || len(rows) == 0 {
		return err
	}
	byUnit := make(map[int64][]CheckRow, len(rows))
	for hash, r := range rows {
		byUnit[ids[hash]] = r
	}
	return insertChecks(tx, byUnit)
}

// keepUnwrittenState gives the file's version u of an unchanged stored
// unit prev the state the file cannot record: "needs editing" in a format
// without a fuzzy flag, "approved" in one without approval (PO, JSON).
// Any change of the strings means the file's state holds.
func keepUnwrittenState(prev, u *Unit, spec ImportSpec) {
	if u.State != weblate.StateTranslated || prev.Source != u.Source || prev.Context != u.Context || prev.Target != u.Target {
		return
	}
	switch {
	case prev.State == weblate.StateFuzzy && !spec.RecordsFuzzy:
		u.State = weblate.StateFuzzy
	case prev.State == weblate.StateApproved && !spec.RecordsApproval:
		u.State = weblate.StateApproved
	}
}

// mergeStored applies the file's version u of a stored unit prev. A unit
// with an uncommitted edit keeps its target, state and author; check runs
// on the result.
func mergeStored(tx *gorm.DB, prev, u *Unit, at time.Time, check func(*Unit)) error {
	if prev.Pending {
		u.Target, u.State, u.Pending, u.PendingAuthor = prev.Target, prev.State, true, prev.PendingAuthor
	}
	u.ExtraFlags = prev.ExtraFlags // the database's, not the file's
	u.TranslatedTarget = translatedTarget(prev, u.Source, u.Target, u.State)
	check(u)
	return updateIfChanged(tx, prev, u, at)
}

// insertedIDs fills ids (id_hash → id) with the ids the database gave the
// translation's units.
func insertedIDs(tx *gorm.DB, translationID int64, ids map[int64]int64) error {
	var rows []struct {
		ID     int64
		IDHash int64 `gorm:"column:id_hash"`
	}
	if err := tx.Model(&Unit{}).Select("id", "id_hash").Where("translation_id = ?", translationID).Find(&rows).Error; err != nil {
		return err
	}
	for _, r := range rows {
		ids[r.IDHash] = r.ID
	}
	return nil
}

// updateIfChanged rewrites a stored unit only when the file changed it, so
// an unchanged re-import costs no writes.
func updateIfChanged(tx *gorm.DB, prev, u *Unit, at time.Time) error {
	same := prev.Source == u.Source && prev.Target == u.Target && prev.PreviousSource == u.PreviousSource &&
		prev.Context == u.Context && prev.Location == u.Location && prev.Note == u.Note &&
		prev.Flags == u.Flags && prev.ContentHash == u.ContentHash && prev.State == u.State &&
		prev.Position == u.Position && prev.NumWords == u.NumWords && prev.NumChars == u.NumChars &&
		ptrEq(prev.SourceUnitID, u.SourceUnitID) && prev.HasFailingCheck == u.HasFailingCheck &&
		prev.HasDismissedCheck == u.HasDismissedCheck && prev.TranslatedTarget == u.TranslatedTarget
	if same {
		return nil
	}
	u.ID, u.Timestamp, u.LastUpdated = prev.ID, prev.Timestamp, at
	return tx.Model(&Unit{}).Where("id = ?", prev.ID).Select("source", "target", "previous_source", "context",
		"location", "note", "flags", "content_hash", "state", "position", "num_words", "num_chars",
		"source_unit_id", "has_failing_check", "has_dismissed_check", "translated_target", "last_updated").Updates(u).Error
}

func ptrEq(a, b *int64) bool {
	return (a == nil && b == nil) || (a != nil && b != nil && *a == *b)
}

func deleteUnits(tx *gorm.DB, gone map[int64]*Unit) error {
	ids := make([]int64, 0, len(gone))
	for _, u := range gone {
		ids = append(ids, u.ID)
	}
	for start := 0; start < len(ids); start += batchRows {
		end := min(start+batchRows, len(ids))
		if err := tx.Where("id IN ?", ids[start:end]).Delete(&Unit{}).Error; err != nil {
			return err
		}
	}
	return nil
}

var unitColumns = []string{"translation_id", "source", "target", "previous_source", "context", "location",
	"note", "flags", "extra_flags", "explanation", "id_hash", "content_hash", "state", "position",
	"num_words", "num_chars", "source_unit_id", "priority", "pending", "pending_author", "has_suggestion", "has_comment",
	"has_failing_check", "has_dismissed_check", "translated_target", "timestamp", "last_updated"}

// insertUnits writes units with multi-row INSERTs straight to the driver:
// no per-row ORM work, one prepared statement reused for every full batch.
func (s *Store) insertUnits(ctx context.Context, tx *gorm.DB, units []Unit) error {
	pool := tx.Statement.ConnPool
	size := batchRows
	if !s.postgres {
		size = sqliteInsertRows
	}
	full := len(units) / size * size
	if full > 0 {
		query, _ := s.insertSQL(units[:size])
		stmt, err := pool.PrepareContext(ctx, query)
		if err != nil {
			return fmt.Errorf("prepare unit insert: %w", err)
		}
		defer func() { _ = stmt.Close() }() // a prepared statement's Close frees it; the inserts report their own errors
		for start := 0; start < full; start += size {
			_, args := s.insertSQL(units[start : start+size])
			if _, err := stmt.ExecContext(ctx, args...); err != nil {
				return fmt.Errorf("insert units: %w", err)
			}
		}
	}
	if full < len(units) {
		query, args := s.insertSQL(units[full:])
		if _, err := pool.ExecContext(ctx, query, args...); err != nil {
			return fmt.Errorf("insert units: %w", err)
		}
	}
	return nil
}

func (s *Store) insertSQL(batch []Unit) (string, []any) {
	var b strings.Builder
	b.WriteString("INSERT INTO units (")
	b.WriteString(strings.Join(unitColumns, ", "))
	b.WriteString(") VALUES ")
	args := make([]any, 0, len(batch)*len(unitColumns))
	n := 0
	for i, u := range batch {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteByte('(')
		for j := range unitColumns {
			if j > 0 {
				b.WriteByte(',')
			}
			n++
			if s.postgres {
				b.WriteString("$" + strconv.Itoa(n))
			} else {
				b.WriteByte('?')
			}
		}
		b.WriteByte(')')
		var src any
		if u.SourceUnitID != nil {
			src = *u.SourceUnitID
		}
		args = append(args, u.TranslationID, u.Source, u.Target, u.PreviousSource, u.Context, u.Location,
			u.Note, u.Flags, u.ExtraFlags, u.Explanation, u.IDHash, u.ContentHash, u.State, u.Position,
			u.NumWords, u.NumChars, src, u.Priority, u.Pending, u.PendingAuthor, u.HasSuggestion, u.HasComment,
			u.HasFailingCheck, u.HasDismissedCheck, u.TranslatedTarget, u.Timestamp, u.LastUpdated)
	}
	return b.String(), args
}
