package store

import (
	"cmp"
	"context"
	"errors"
	"hash/fnv"
	"slices"
	"strings"
	"time"

	"gorm.io/gorm"

	"github.com/tmsproject/tms/pkg/weblate"
	typev1 "github.com/tmsproject/tms/proto/gen/go/tms/type/v1"
)

// MemoryEntry is a row of the translation memory (migration 0017).
type MemoryEntry struct {
	ID             int64 `gorm:"primaryKey"`
	ProjectSlug    string
	SourceLanguage string
	TargetLanguage string
	Source         string
	Target         string
	Context        string
	Origin         string
	FromFile       bool
	SourceHash     int64
	EntryHash      int64
	CreatedAt      time.Time
}

// TableName is the memory table.
func (MemoryEntry) TableName() string { return "memory" }

// textHash is a 64-bit FNV-1a hash of parts, each ended by a NUL, as a
// signed column value.
func textHash(parts ...string) int64 {
	h := fnv.New64a()
	for _, p := range parts {
		_, _ = h.Write([]byte(p))
		_, _ = h.Write([]byte{0})
	}
	return int64(h.Sum64()) //nolint:gosec // G115: a hash's bits, kept as they are
}

// SourceHash is the hash exact lookups find a source by.
func SourceHash(source string) int64 { return textHash(source) }

// withHashes fills the entry's hashes: of its content (languages, source,
// target), which with its project and origin identifies it, and of its
// source.
//
// The entry hash starts with the source hash's upper half, so that both
// indexes order a batch sorted by source hash alike (insertMemory).
func (e *MemoryEntry) withHashes() {
	e.SourceHash = SourceHash(e.Source)
	content := textHash(e.SourceLanguage, e.TargetLanguage, e.Source, e.Target)
	e.EntryHash = e.SourceHash&^0xffffffff | content&0xffffffff
}

// memoryBatch is how many entries one INSERT writes on PostgreSQL (11
// parameters each, well within its limit).
const memoryBatch = 1000

// Remember adds entries to the memory; one already there (same project,
// languages, origin, source and target) is left as it is. It answers how
// many were new.
func (s *Store) Remember(ctx context.Context, entries []MemoryEntry) (int64, error) {
	var added int64
	err := s.q(ctx).Transaction(func(tx *gorm.DB) error {
		var err error
		added, err = remember(tx, entries)
		return err
	})
	return added, err
}

// remember is Remember inside tx, and keeps SQLite's word index current.
func remember(tx *gorm.DB, entries []MemoryEntry) (int64, error) {
	sqlite := tx.Dialector.Name() == "sqlite"
	var last int64
	if sqlite {
		if err := tx.Raw("SELECT COALESCE(MAX(id), 0) FROM memory").Scan(&last).Error; err != nil {
			return 0, err
		}
	}
	added, err := insertMemory(tx, entries, sqlite)
	if err != nil || !sqlite || added == 0 {
		return added, err
	}
	// The word index takes the new rows in one statement: FTS5 writes a
	// segment at the end of each statement, and one per row (a trigger)
	// or per INSERT made a large import spend its time merging them.
	// Row ids only grow (AUTOINCREMENT) and this transaction is the
	// only writer, so the new rows are those above the old maximum.
	return added, tx.Exec("INSERT INTO memory_words (rowid, source) SELECT id, source FROM memory WHERE id > ?", last).Error
}

// memoryColumns are the columns an entry is written with.
const memoryColumns = "INSERT INTO memory (project_slug, source_language, target_language, source, target, context, " +
	"origin, from_file, source_hash, entry_hash, created_at) VALUES "

// memoryConflict leaves an entry already there as it is.
const memoryConflict = " ON CONFLICT (project_slug, origin, entry_hash) DO NOTHING"

// insertMemory writes entries, skipping those already there.
func insertMemory(tx *gorm.DB, entries []MemoryEntry, sqlite bool) (int64, error) {
	at := now()
	for i := range entries {
		entries[i].withHashes()
	}
	// In index order, a batch changes each index page once, in one pass,
	// not a page per row in random order.
	entries = slices.Clone(entries)
	slices.SortFunc(entries, func(a, b MemoryEntry) int { return cmp.Compare(a.SourceHash, b.SourceHash) })
	if sqlite {
		return insertMemoryRows(tx, entries, at)
	}
	var added int64
	for start := 0; start < len(entries); start += memoryBatch {
		batch := entries[start:min(start+memoryBatch, len(entries))]
		var sql strings.Builder
		sql.WriteString(memoryColumns)
		args := make([]any, 0, len(batch)*11)
		for i, e := range batch {
			if i > 0 {
				sql.WriteString(", ")
			}
			sql.WriteString("(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
			args = append(args, memoryArgs(e, at)...)
		}
		sql.WriteString(memoryConflict)
		res := tx.Exec(sql.String(), args...)
		if res.Error != nil {
			return added, res.Error
		}
		added += res.RowsAffected
	}
	return added, nil
}

// insertMemoryRows writes entries one prepared single-row INSERT each.
// On SQLite a multi-row INSERT keeps a statement journal of every page
// it changes, and the memory's indexes are keyed by hashes, so a batch
// changes a page per row: single rows cost a third of the time.
func insertMemoryRows(tx *gorm.DB, entries []MemoryEntry, at time.Time) (int64, error) {
	ctx := tx.Statement.Context
	stmt, err := tx.Statement.ConnPool.PrepareContext(ctx,
		memoryColumns+"(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"+memoryConflict)
	if err != nil {
		return 0, err
	}
	defer func() { _ = stmt.Close() }() // a statement only read from
	var added int64
	for _, e := range entries {
		res, err := stmt.ExecContext(ctx, memoryArgs(e, at)...)
		if err != nil {
			return added, err
		}
		n, err := res.RowsAffected()
		if err != nil {
			return added, err
		}
		added += n
	}
	return added, nil
}

// memoryArgs are an entry's values in memoryColumns' order.
func memoryArgs(e MemoryEntry, at time.Time) []any {
	return []any{e.ProjectSlug, e.SourceLanguage, e.TargetLanguage, e.Source, e.Target, e.Context,
		e.Origin, e.FromFile, e.SourceHash, e.EntryHash, at}
}

// memoryActions are the changes after which a string's translation is
// remembered: a person's edits, uploads and accepted suggestions, and
// their propagation. Automatic translation is not among them: the
// reference keeps machine translation out of the memory, and translations
// copied from other components are remembered there already.
var memoryActions = []typev1.ChangeAction{
	typev1.ChangeAction_CHANGE_ACTION_CHANGE, typev1.ChangeAction_CHANGE_ACTION_NEW,
	typev1.ChangeAction_CHANGE_ACTION_ACCEPT, typev1.ChangeAction_CHANGE_ACTION_REVERT,
	typev1.ChangeAction_CHANGE_ACTION_UPLOAD, typev1.ChangeAction_CHANGE_ACTION_REPLACE,
	typev1.ChangeAction_CHANGE_ACTION_BULK_EDIT, typev1.ChangeAction_CHANGE_ACTION_APPROVE,
	typev1.ChangeAction_CHANGE_ACTION_MARKED_EDIT, typev1.ChangeAction_CHANGE_ACTION_PROPAGATED_EDIT,
}

// memoryRow is a translated unit with what its memory entry needs.
type memoryRow struct {
	Source, Target, Context      string
	LanguageCode, SourceLanguage string
	ProjectSlug, ComponentSlug   string
}

// rememberUnits remembers the translations of the units ids that are
// translated (or approved, or read-only) in a translation that is not the
// source, as they are in tx (RememberQueued's batch). On PostgreSQL the
// units read stay locked until tx ends: a deletion of their component
// then waits for it, and the forgetting of the project's memory that
// follows takes what it wrote.
func rememberUnits(tx *gorm.DB, ids []int64) error {
	if len(ids) == 0 {
		return nil
	}
	slices.Sort(ids)
	ids = slices.Compact(ids)
	lock := ""
	if tx.Dialector.Name() == "postgres" {
		lock = " FOR SHARE OF u"
	}
	var rows []memoryRow
	err := tx.Raw(`SELECT u.source, u.target, u.context, t.language_code, t.project_slug, t.component_slug,
		(SELECT s.language_code FROM translations s WHERE s.component_id = t.component_id AND s.is_source LIMIT 1) AS source_language
		FROM units u JOIN translations t ON t.id = u.translation_id
		WHERE u.id IN ? AND u.state >= ? AND u.target <> '' AND NOT t.is_source`+lock, ids, weblate.StateTranslated).Scan(&rows).Error
	if err != nil {
		return err
	}
	entries := make([]MemoryEntry, 0, len(rows))
	for _, r := range rows {
		if r.SourceLanguage == "" || r.SourceLanguage == r.LanguageCode {
			continue
		}
		entries = append(entries, MemoryEntry{ProjectSlug: r.ProjectSlug, SourceLanguage: r.SourceLanguage,
			TargetLanguage: r.LanguageCode, Source: r.Source, Target: r.Target, Context: r.Context,
			Origin: r.ProjectSlug + "/" + r.ComponentSlug})
	}
	_, err = remember(tx, entries)
	return err
}

// queueImported queues for the memory (RunMemoryQueue) the units an
// import brought into t translated that were not there before with the
// same target; ids are the stored units' by id_hash. The batch after the
// import remembers them as they are then, as the reference's memory task
// does after its import: written in the import's transaction, on the
// single writer, the memory took a fifth of a large import's time.
func queueImported(tx *gorm.DB, t Translation, before map[int64]Unit, units []Unit, ids map[int64]int64) error {
	if t.IsSource || t.IsTemplate {
		return nil
	}
	var queue []int64
	for _, u := range units {
		if u.State < weblate.StateTranslated || u.Target == "" {
			continue
		}
		if prev, ok := before[u.IDHash]; ok && prev.Target == u.Target && prev.State >= weblate.StateTranslated {
			continue
		}
		if id := ids[u.IDHash]; id != 0 {
			queue = append(queue, id)
		}
	}
	return queueMemory(tx, queue)
}

// MemoryFilter selects entries of the memory.
type MemoryFilter struct {
	// Restricted limits the entries to the projects in Seen.
	Restricted bool
	Seen       []string
	// Source: entries whose source contains it, case-insensitively.
	Source                         string
	SourceLanguage, TargetLanguage string
	Project, Origin                string
	// Shared adds to Project's entries those of these projects that
	// their translations made (not imported from files): the shared
	// memory, as the reference scopes it.
	Shared []string
}

func (f MemoryFilter) apply(q *gorm.DB, postgres bool) *gorm.DB {
	if f.Restricted {
		q = q.Where("project_slug IN ?", nonEmpty(f.Seen))
	}
	if f.Source != "" {
		pattern := "%" + escapeLike(f.Source) + "%"
		if postgres {
			q = q.Where(`source ILIKE ? ESCAPE '\'`, pattern)
		} else {
			q = q.Where(`lower(source) LIKE lower(?) ESCAPE '\'`, pattern)
		}
	}
	project := f.Project
	if len(f.Shared) > 0 {
		q, project = q.Where("(project_slug = ? OR (project_slug IN ? AND from_file = ?))", f.Project, f.Shared, false), ""
	}
	// In a fixed order: the statement cache knows a query by its text.
	for _, c := range [...]struct{ col, v string }{{"source_language", f.SourceLanguage},
		{"target_language", f.TargetLanguage}, {"project_slug", project}, {"origin", f.Origin}} {
		if c.v != "" {
			q = q.Where(c.col+" = ?", c.v)
		}
	}
	return q
}

// escapeLike escapes LIKE's wildcards and its escape character.
func escapeLike(s string) string {
	return strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(s)
}

// ListMemory answers a page of the entries f selects, by id, and their
// number.
func (s *Store) ListMemory(ctx context.Context, f MemoryFilter, offset, limit int64) ([]MemoryEntry, int64, error) {
	var total int64
	if err := f.apply(s.q(ctx).Model(&MemoryEntry{}), s.postgres).Count(&total).Error; err != nil {
		return nil, 0, err
	}
	var out []MemoryEntry
	err := page(f.apply(s.q(ctx), s.postgres), offset, limit).Find(&out).Error
	return out, total, err
}

// ScanMemory answers, by id, up to limit entries f selects after the
// entry after: an export's next piece.
func (s *Store) ScanMemory(ctx context.Context, f MemoryFilter, after int64, limit int) ([]MemoryEntry, error) {
	var out []MemoryEntry
	err := f.apply(s.q(ctx), s.postgres).Where("id > ?", after).Order("id").Limit(limit).Find(&out).Error
	return out, err
}

// GetMemory answers an entry, NotFound when there is none.
func (s *Store) GetMemory(ctx context.Context, id int64) (MemoryEntry, error) {
	var e MemoryEntry
	err := s.q(ctx).Where("id = ?", id).Take(&e).Error
	return e, notFound(err, "memory entry")
}

// DeleteMemory removes entries of f (a filter naming a project, an origin
// or both) or the entry id when id > 0, and answers how many went.
func (s *Store) DeleteMemory(ctx context.Context, id int64, f MemoryFilter) (int64, error) {
	q := s.q(ctx)
	if id > 0 {
		q = q.Where("id = ?", id)
	} else if f.Project == "" && f.Origin == "" {
		return 0, errors.New("store: DeleteMemory needs an id, a project or an origin")
	}
	res := f.apply(q, s.postgres).Delete(&MemoryEntry{})
	return res.RowsAffected, res.Error
}

// renameMemory follows a component's rename (or its project's): the
// entries it gave keep naming it as their origin, and the project's
// entries move to the project's new slug.
func renameMemory(tx *gorm.DB, old Translation, n ComponentName) error {
	from, to := old.ProjectSlug+"/"+old.ComponentSlug, n.ProjectSlug+"/"+n.ComponentSlug
	if from == to {
		return nil
	}
	err := tx.Model(&MemoryEntry{}).Where("project_slug = ? AND origin = ? AND NOT from_file", old.ProjectSlug, from).
		Update("origin", to).Error
	if err != nil || old.ProjectSlug == n.ProjectSlug {
		return err
	}
	return tx.Model(&MemoryEntry{}).Where("project_slug = ?", old.ProjectSlug).Update("project_slug", n.ProjectSlug).Error
}

// ForgetMemoryProjects removes the entries of deleted projects.
func (s *Store) ForgetMemoryProjects(ctx context.Context, slugs []string) error {
	if len(slugs) == 0 {
		return nil
	}
	return s.q(ctx).Where("project_slug IN ?", slugs).Delete(&MemoryEntry{}).Error
}

// AnalyzeMemory refreshes the planner's statistics of the memory after a
// large import: on PostgreSQL, until autovacuum gets to it, a lookup on a
// freshly filled table scans it instead of using its indexes.
func (s *Store) AnalyzeMemory(ctx context.Context) error {
	if !s.postgres {
		return nil
	}
	if err := s.MergeMemoryIndex(ctx); err != nil {
		return err
	}
	return s.q(ctx).Exec("ANALYZE memory").Error
}

// MergeMemoryIndex readies the word index for many lookups. On
// PostgreSQL the GIN index keeps recent entries in an unsorted pending
// list (up to 2 MB) that every search reads through until it is merged;
// this merges it. SQLite's index has no such list.
func (s *Store) MergeMemoryIndex(ctx context.Context) error {
	if !s.postgres {
		return nil
	}
	return s.q(ctx).Exec("SELECT gin_clean_pending_list('memory_words'::regclass)").Error
}
