package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"google.golang.org/protobuf/types/known/timestamppb"
	"gorm.io/gorm"

	"github.com/tmsproject/tms/pkg/db"
	"github.com/tmsproject/tms/pkg/weblate"
	changelogv1 "github.com/tmsproject/tms/proto/gen/go/tms/changelog/v1"
)

// UnitView is a unit with the translation it belongs to.
type UnitView struct {
	Unit
	Translation Translation
}

// ListUnits pages units by id: of one translation, or of all when
// translationID is 0. The total comes from the maintained counters.
func (s *Store) ListUnits(ctx context.Context, translationID, offset, limit int64, hidden Hidden) ([]UnitView, int64, error) {
	q := hidden.byTranslation(s.q(ctx), s.q(ctx).Model(&Unit{}), "translation_id")
	if translationID == 0 {
		var total int64
		if err := hidden.translations(s.q(ctx).Model(&Translation{})).Select("COALESCE(SUM(total), 0)").Scan(&total).Error; err != nil {
			return nil, 0, err
		}
		units, err := s.pageUnits(ctx, q, offset, limit)
		if err != nil {
			return nil, 0, err
		}
		views, err := s.attach(ctx, units)
		return views, total, err
	}
	t, err := s.GetTranslationByID(ctx, translationID)
	if err != nil {
		return nil, 0, err
	}
	return s.unitsOf(ctx, q, t, offset, limit)
}

// UnitsOf pages the units of translation t, read by the caller, by id; the
// total is t's counter. The caller has decided t is visible.
func (s *Store) UnitsOf(ctx context.Context, t Translation, offset, limit int64) ([]UnitView, int64, error) {
	return s.unitsOf(ctx, s.q(ctx).Model(&Unit{}), t, offset, limit)
}

func (s *Store) unitsOf(ctx context.Context, q *gorm.DB, t Translation, offset, limit int64) ([]UnitView, int64, error) {
	pq, err := s.pageQuery(ctx, q.Where("translation_id = ?", t.ID), offset, limit)
	if err != nil || pq == nil {
		return nil, t.Total, err
	}
	// All of t: no second lookup, and the rows are read into the views.
	views, err := scanUnits(pq, int(limit), func(views []UnitView) *Unit {
		views[len(views)-1].Translation = t
		return &views[len(views)-1].Unit
	})
	return views, t.Total, err
}

// directPageOffset is the offset below which a page is read in one
// statement: the rows passed on the way cost less than a second one.
const directPageOffset = 1000

// pageUnits reads one page of the units q selects, ordered by id.
func (s *Store) pageUnits(ctx context.Context, q *gorm.DB, offset, limit int64) ([]Unit, error) {
	pq, err := s.pageQuery(ctx, q, offset, limit)
	if err != nil || pq == nil {
		return nil, err
	}
	return findUnitsCap(pq, int(limit))
}

// pageQuery is the query of one page of the units q selects, ordered by
// id, or nil when the page is empty. A deep page takes two steps: the ids
// of the page first (the offset is skipped in an index, without reading
// the rows it passes), then a query of the rows of those ids only.
func (s *Store) pageQuery(ctx context.Context, q *gorm.DB, offset, limit int64) (*gorm.DB, error) {
	if limit <= 0 || offset < directPageOffset { // one pass
		return page(q, offset, limit), nil
	}
	var ids []int64
	if err := page(q.Select("id"), offset, limit).Pluck("id", &ids).Error; err != nil {
		return nil, err
	}
	if len(ids) == 0 {
		return nil, nil
	}
	return s.q(ctx).Where("id IN ?", ids).Order("id"), nil
}

// attach loads the translations of units.
func (s *Store) attach(ctx context.Context, units []Unit) ([]UnitView, error) {
	seen := map[int64]bool{}
	var ids []int64
	for _, u := range units {
		if !seen[u.TranslationID] {
			seen[u.TranslationID] = true
			ids = append(ids, u.TranslationID)
		}
	}
	ts := map[int64]Translation{}
	if len(ids) > 0 {
		var err error
		if ts, err = s.translationsByID(ctx, ids); err != nil {
			return nil, err
		}
	}
	out := make([]UnitView, len(units))
	for i, u := range units {
		out[i] = UnitView{Unit: u, Translation: ts[u.TranslationID]}
	}
	return out, nil
}

// GetUnit loads one unit with its translation.
func (s *Store) GetUnit(ctx context.Context, id int64) (UnitView, error) {
	return s.unitWhere(ctx, "id = ?", id)
}

// UnitByHash loads the unit of a translation with the given id_hash.
func (s *Store) UnitByHash(ctx context.Context, translationID, idHash int64) (UnitView, error) {
	return s.unitWhere(ctx, "translation_id = ? AND id_hash = ?", translationID, idHash)
}

// UnitKey is the key that identifies a string within a translation, as
// uploads match file entries with units: context, "\x04", joined source.
func UnitKey(context, source string) string { return context + "\x04" + source }

// UnitKeys maps the UnitKey of each unit of a translation to its id, read
// in one pass without the rest of the rows.
func (s *Store) UnitKeys(ctx context.Context, translationID int64) (map[string]int64, error) {
	return s.unitKeys(ctx, translationID, UnitKey)
}

// ContextKeys is UnitKeys of a monolingual translation, whose units are
// matched by key (context) alone: it maps UnitKey(context, "") to the id.
func (s *Store) ContextKeys(ctx context.Context, translationID int64) (map[string]int64, error) {
	return s.unitKeys(ctx, translationID, func(context, _ string) string { return UnitKey(context, "") })
}

func (s *Store) unitKeys(ctx context.Context, translationID int64, key func(context, source string) string) (map[string]int64, error) {
	rows, err := s.q(ctx).Raw(`SELECT id, context, source FROM units WHERE translation_id = ?`, translationID).Rows()
	if err != nil {
		return nil, err
	}
	defer func() { _ = rows.Close() }() // rows.Err below reports a failed read
	out := map[string]int64{}
	for rows.Next() {
		var id int64
		var context, source string
		if err := rows.Scan(&id, &context, &source); err != nil {
			return nil, err
		}
		out[key(context, source)] = id
	}
	return out, rows.Err()
}

// UnitScope is where a unit lives and its state: what an edit's
// permission checks need before its transaction.
type UnitScope struct {
	TranslationID int64
	ComponentID   int64
	LanguageCode  string
	State         int
}

// GetUnitScope reads a unit's scope in one small statement (an edit reads
// the whole unit again under lock), scanned without the ORM's reflection:
// every edit and unit read asks it first.
func (s *Store) GetUnitScope(ctx context.Context, id int64) (UnitScope, error) {
	var sc UnitScope
	err := s.q(ctx).Raw(`SELECT u.translation_id, t.component_id, t.language_code, u.state FROM units u
		JOIN translations t ON t.id = u.translation_id WHERE u.id = ?`, id).Row().
		Scan(&sc.TranslationID, &sc.ComponentID, &sc.LanguageCode, &sc.State)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return UnitScope{}, notFound(gorm.ErrRecordNotFound, "unit")
	case err != nil:
		return UnitScope{}, err
	}
	return sc, nil
}

func (s *Store) unitWhere(ctx context.Context, where string, args ...any) (UnitView, error) {
	var u Unit
	if err := notFound(s.q(ctx).Where(where, args...).Take(&u).Error, "unit"); err != nil {
		return UnitView{}, err
	}
	views, err := s.attach(ctx, []Unit{u})
	if err != nil {
		return UnitView{}, err
	}
	return views[0], nil
}

// Edit is what a unit edit changes, decided by the caller from the locked
// current row.
type Edit struct {
	Target  string
	State   int
	Author  string
	Changes []*changelogv1.Change
	// Checks are the rules of the quality checks of the edited string:
	// a translated edit that fails an enforced check needs editing.
	Checks CheckRules
	// Propagate, when set, decides the edit of each copy of the string
	// in another component that takes propagated translations and holds
	// another text or state (Weblate's propagate): false leaves that copy
	// alone. Copies get the edit's target and state (propagate.go).
	Propagate func(cp UnitView, target string, state int) (Edit, bool)
	// propagated marks the edit of a copy: it propagates no further, and
	// the edit it follows sets the inconsistent check of every copy.
	propagated bool
}

// EditUnit changes a unit's target and state. decide sees the current unit
// and translation under lock (FOR UPDATE on PostgreSQL; SQLite has one
// writer) and either refuses or returns the edit. The unit becomes pending,
// the translation counters move by the difference of the unit's buckets,
// last_change/last_author are set and the changes are recorded, all in one
// transaction. When the edit completes the translation (every unit
// translated), a "Translation completed" record follows.
//
// On SQLite, concurrent edits commit together (editGroup).
func (s *Store) EditUnit(ctx context.Context, id int64, decide func(UnitView) (Edit, error)) (UnitView, error) {
	if !s.postgres {
		return s.edits.edit(ctx, id, decide)
	}
	var out UnitView
	var err error
	// The copies' translations are locked first (lockCopies); should
	// PostgreSQL still give the edit up for a deadlock, it runs again.
	for range editAttempts {
		err = s.q(ctx).Transaction(func(tx *gorm.DB) error {
			if terr := s.lockCopies(tx, id); terr != nil {
				return terr
			}
			var terr error
			out, terr = s.editTx(tx, id, decide, nil)
			return terr
		})
		if !db.IsDeadlock(err) {
			break
		}
	}
	return out, err
}

// editAttempts is how many times EditUnit tries an edit PostgreSQL gives
// up for a deadlock.
const editAttempts = 5

// ErrSkipEdit is returned by a decide function of EditUnits to leave that
// unit alone without failing the others.
var ErrSkipEdit = errors.New("skip this edit")

// EditUnits applies the edits of ids in ONE transaction, as an upload does:
// all of them or none. decide gets the index of the id; edited[i] tells
// whether unit i was changed. The units are read and written in batches
// (batchEdits); one with suggestions goes alone, as EditUnit edits it,
// since its edit may clean them up.
func (s *Store) EditUnits(ctx context.Context, ids []int64, decide func(i int, u UnitView) (Edit, error)) (edited []bool, err error) {
	err = s.EditBatches(ctx, func(apply ApplyEdits) error {
		edited, err = apply(ids, decide)
		return err
	})
	return edited, err
}

// ApplyEdits applies the edits of a batch of ids as EditUnits does, in the
// transaction of EditBatches, and tells which units changed.
type ApplyEdits func(ids []int64, decide func(i int, u UnitView) (Edit, error)) ([]bool, error)

// EditBatches is EditUnits for edits that come in batches (an upload's,
// read from its file): feed calls apply with each batch, all in ONE
// transaction, all of them kept or, when feed or an edit fails, none. One
// transaction rather than a savepoint per batch: SQLite journals every
// write of a savepoint a second time.
func (s *Store) EditBatches(ctx context.Context, feed func(apply ApplyEdits) error) error {
	return s.q(ctx).Transaction(func(tx *gorm.DB) error {
		b := &batchEdits{s: s, tx: tx, at: now(), translations: map[int64]*batchTranslation{}}
		defer b.close()
		err := feed(func(ids []int64, decide func(i int, u UnitView) (Edit, error)) ([]bool, error) {
			return b.editAll(ids, decide)
		})
		if err != nil {
			return err
		}
		return b.flush(true)
	})
}

// editAll decides and writes the edits of ids, editBatch at a time.
func (b *batchEdits) editAll(ids []int64, decide func(i int, u UnitView) (Edit, error)) ([]bool, error) {
	edited := make([]bool, len(ids))
	for start := 0; start < len(ids); start += editBatch {
		chunk := ids[start:min(start+editBatch, len(ids))]
		units, err := b.lockUnits(chunk)
		if err != nil {
			return nil, err
		}
		for j, id := range chunk {
			i := start + j
			ok, editErr := b.edit(units[id], func(u UnitView) (Edit, error) { return decide(i, u) })
			if editErr != nil {
				return nil, editErr
			}
			edited[i] = ok
		}
	}
	return edited, nil
}

// editBatch is how many units EditUnits reads, and writes, per statement.
const editBatch = 300

// batchEdits gathers the writes of EditUnits: the units' new text, the
// counters of their translations and the change records, written per
// batch instead of per unit.
type batchEdits struct {
	s            *Store
	tx           *gorm.DB
	at           time.Time
	translations map[int64]*batchTranslation
	writes       []unitWrite
	changes      []*changelogv1.Change
	update       *sql.Stmt // of writeUnits, prepared in the transaction
}

// batchTranslation is a translation as the batch leaves it, and what it
// has yet to write of it.
type batchTranslation struct {
	t           Translation
	delta       Stats
	author      string
	wasComplete bool
	firstChange *changelogv1.Change // of the batch's edits, for "completed"
	checker     *checker
	hashes      []int64 // of the edited strings, whose copies follow
}

type unitWrite struct {
	id            int64
	target        string
	state         int
	pendingAuthor string
	marks         checkMarks // has_failing_check, has_dismissed_check
	translated    string     // translated_target
}

// lockUnits reads the units of ids (locked on PostgreSQL).
func (b *batchEdits) lockUnits(ids []int64) (map[int64]*Unit, error) {
	us, err := findUnits(b.s.forUpdate(b.tx).Where("id IN ?", ids))
	if err != nil {
		return nil, err
	}
	out := make(map[int64]*Unit, len(us))
	for i := range us {
		out[us[i].ID] = &us[i]
	}
	for _, id := range ids {
		if out[id] == nil {
			return nil, notFound(gorm.ErrRecordNotFound, "unit")
		}
	}
	return out, nil
}

// translation is the batch's view of translation id, read once.
func (b *batchEdits) translation(id int64) (*batchTranslation, error) {
	if bt := b.translations[id]; bt != nil {
		return bt, nil
	}
	var t Translation
	if err := notFound(b.s.forUpdate(b.tx).Where("id = ?", id).Take(&t).Error, "translation"); err != nil {
		return nil, err
	}
	bt := &batchTranslation{t: t, wasComplete: t.Translated == t.Total}
	b.translations[id] = bt
	return bt, nil
}

// edit decides and records the edit of u; it reports whether u changed.
func (b *batchEdits) edit(u *Unit, decide func(UnitView) (Edit, error)) (bool, error) {
	bt, err := b.translation(u.TranslationID)
	if err != nil {
		return false, err
	}
	// alone, after what is gathered: see EditUnits; a monolingual source
	// string too, as its edit reaches the other translations
	if u.HasSuggestion || (bt.t.IsSource && bt.t.IsTemplate) {
		if err = b.flush(false); err != nil {
			return false, err
		}
		_, err = b.s.editTx(b.tx, u.ID, decide, nil)
		if errors.Is(err, ErrSkipEdit) {
			return false, nil
		}
		if err != nil {
			return false, err
		}
		// Its counters, and those of the translations a source edit
		// reached, moved: read them again.
		return true, b.reload()
	}
	e, err := decide(UnitView{Unit: *u, Translation: bt.t})
	if errors.Is(err, ErrSkipEdit) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	if bt.checker == nil {
		if bt.checker, err = newChecker(b.tx, bt.t, true); err != nil {
			return false, err
		}
	}
	if e.Propagate != nil && len(bt.checker.copyTs) > 0 { // alone too: it edits other translations
		if err = b.flush(false); err != nil {
			return false, err
		}
		if _, err = b.s.applyEdit(b.tx, *u, bt.t, e, nil); err != nil {
			return false, err
		}
		return true, b.reload()
	}
	fails := bt.checker.enforce(u, &e)
	if bt.checker.err != nil {
		return false, bt.checker.err
	}
	if bt.t.Propagate {
		bt.hashes = append(bt.hashes, u.IDHash)
	}
	var d Stats
	d.Count(u.State, u.NumWords, u.NumChars, -1)
	d.Count(e.State, u.NumWords, u.NumChars, 1)
	marks, err := saveChecks(b.tx, u.ID, marksOf(u), fails)
	if err != nil {
		return false, err
	}
	failingMove(&d, u, marks.failing)
	bt.t.Stats.add(d)
	bt.delta.add(d)
	bt.author = e.Author
	bt.t.LastChange, bt.t.LastAuthor = &b.at, e.Author
	if bt.firstChange == nil && len(e.Changes) > 0 {
		bt.firstChange = e.Changes[0]
	}
	b.writes = append(b.writes, unitWrite{id: u.ID, target: e.Target, state: e.State, pendingAuthor: e.Author, marks: marks,
		translated: translatedTarget(u, u.Source, e.Target, e.State)})
	b.changes = append(b.changes, e.Changes...)
	if len(b.writes) >= editBatch {
		return true, b.flush(false)
	}
	return true, nil
}

// reload reads again the translations the batch holds, after an edit
// alone moved counters in SQL. Their gathered deltas are already written
// (flush comes before it).
func (b *batchEdits) reload() error {
	for _, bt := range b.translations {
		if err := b.tx.Where("id = ?", bt.t.ID).Take(&bt.t).Error; err != nil {
			return err
		}
	}
	return nil
}

// flush writes what is gathered; the last flush also notes the content
// change, the commit to make and any translation completed.
func (b *batchEdits) flush(last bool) error {
	if err := b.writeUnits(); err != nil {
		return err
	}
	for _, bt := range b.translations {
		if bt.delta != (Stats{}) || (last && bt.author != "") {
			if err := moveCountersOnly(b.tx, bt.t.ID, bt.delta, map[string]any{"last_change": b.at, "last_author": bt.author}); err != nil {
				return err
			}
			bt.delta = Stats{}
		}
		if last && bt.author != "" {
			if err := noteContentChange(b.tx, bt.t.ID, b.at); err != nil {
				return err
			}
			if err := setNeedsCommit(b.tx, bt.t.ComponentID); err != nil {
				return err
			}
			if len(bt.hashes) > 0 {
				if err := bt.checker.reconcile(bt.hashes); err != nil {
					return err
				}
			}
			if !bt.wasComplete && bt.t.Translated == bt.t.Total && bt.firstChange != nil {
				b.changes = append(b.changes, completed(bt.firstChange))
			}
		}
	}
	for _, c := range b.changes {
		if c.Timestamp == nil {
			c.Timestamp = timestamp(b.at)
		}
	}
	err := recordChanges(b.tx, b.at, b.changes)
	b.changes = b.changes[:0]
	return err
}

// writeUnits sets the gathered units' text, state and pending author,
// each by its id through one statement prepared per transaction. (A single
// UPDATE … FROM a list of values made SQLite scan the table's index for
// each list.)
func (b *batchEdits) writeUnits() error {
	if len(b.writes) == 0 {
		return nil
	}
	if b.update == nil {
		q := "UPDATE units SET target = ?, state = ?, pending = ?, pending_author = ?, last_updated = ?, has_failing_check = ?, has_dismissed_check = ?, translated_target = ? WHERE id = ?"
		if b.s.postgres {
			q = "UPDATE units SET target = $1, state = $2, pending = $3, pending_author = $4, last_updated = $5, has_failing_check = $6, has_dismissed_check = $7, translated_target = $8 WHERE id = $9"
		}
		st, err := b.tx.Statement.ConnPool.PrepareContext(b.tx.Statement.Context, q)
		if err != nil {
			return err
		}
		b.update = st
	}
	for _, w := range b.writes {
		if _, err := b.update.ExecContext(b.tx.Statement.Context, w.target, w.state, true, w.pendingAuthor, b.at, w.marks.failing, w.marks.dismissed, w.translated, w.id); err != nil {
			return err
		}
	}
	b.writes = b.writes[:0]
	return nil
}

// close releases the prepared statement.
func (b *batchEdits) close() {
	if b.update != nil {
		_ = b.update.Close()
	}
}

// editTx is EditUnit within tx. After the edit, suggestions equal to the
// new target are cleaned up (action 29) and the unit's has_suggestion and
// the translation's counters follow.
func (s *Store) editTx(tx *gorm.DB, id int64, decide func(UnitView) (Edit, error), marks *editMarks) (UnitView, error) {
	u, t, e, err := s.decideTx(tx, id, decide, marks)
	if err != nil {
		return UnitView{}, err
	}
	return s.applyEdit(tx, u, t, e, marks)
}

// decideTx locks unit id and its translation and decides its edit; it
// writes nothing. An edit of a group takes the translation as the group's
// earlier edits left it (editMarks.translation).
func (s *Store) decideTx(tx *gorm.DB, id int64, decide func(UnitView) (Edit, error), marks *editMarks) (Unit, Translation, Edit, error) {
	u, t, err := s.lockGroupUnit(tx, id, marks)
	if err != nil {
		return Unit{}, Translation{}, Edit{}, err
	}
	e, err := decide(UnitView{Unit: u, Translation: t})
	return u, t, e, err
}

// applyEdit is editTx of the edit e decided for the locked unit u of t.
func (s *Store) applyEdit(tx *gorm.DB, u Unit, t Translation, e Edit, marks *editMarks) (UnitView, error) {
	at := now()
	c, err := marks.checker(tx, t)
	if err != nil {
		return UnitView{}, err
	}
	// The copies take the edit first, as in Weblate: the checks (and an
	// enforced inconsistent) then see them agree.
	propagated, err := s.propagate(tx, c, u, e, marks)
	if err != nil {
		return UnitView{}, err
	}
	fails := c.enforce(&u, &e)
	if c.err != nil {
		return UnitView{}, c.err
	}
	var delta Stats
	delta.Count(u.State, u.NumWords, u.NumChars, -1)
	// The check rows first: the unit's marks then go with its text, in
	// one statement.
	if err = saveEditChecks(tx, &u, fails, &delta); err != nil {
		return UnitView{}, err
	}
	wasComplete := t.Translated == t.Total
	oldTarget, sourceEdit := u.Target, editsSource(t, u, e.Target)
	u.TranslatedTarget = translatedTarget(&u, u.Source, e.Target, e.State)
	u.Target, u.State, u.Pending, u.PendingAuthor, u.LastUpdated = e.Target, e.State, true, e.Author, at
	err = tx.Exec(`UPDATE units SET target = ?, state = ?, pending = ?, pending_author = ?, last_updated = ?, translated_target = ?,
		has_failing_check = ?, has_dismissed_check = ? WHERE id = ?`,
		u.Target, u.State, u.Pending, u.PendingAuthor, u.LastUpdated, u.TranslatedTarget, u.HasFailingCheck, u.HasDismissedCheck, u.ID).Error
	if err != nil {
		return UnitView{}, err
	}
	changes := e.Changes
	if sourceEdit { // a monolingual source string: the other translations follow
		if serr := setSource(tx, &u, newSourceText(u.Target, u.Context, t.LanguageCode)); serr != nil {
			return UnitView{}, serr
		}
		followed, perr := s.propagateSource(tx, u, oldTarget, e.Author, at)
		if perr != nil {
			return UnitView{}, perr
		}
		changes = append(changes, followed...)
		// The translations are checked against the new source.
		if perr = recheckTranslations(tx, u.ID, e.Checks); perr != nil {
			return UnitView{}, perr
		}
	}
	delta.Count(u.State, u.NumWords, u.NumChars, 1)
	reconciled := (t.Propagate || propagated) && !e.propagated
	if reconciled { // its copies may now be consistent, or not
		if err = c.reconcile([]int64{u.IDHash}); err != nil {
			return UnitView{}, err
		}
	}
	if u.HasSuggestion { // an edit changes suggestions only by this cleanup, comments never
		if u.State >= weblate.StateTranslated {
			cleanup, err := cleanupSuggestions(tx, u, t)
			if err != nil {
				return UnitView{}, err
			}
			changes = append(changes, cleanup...)
		}
		flags, err := refreshUnitFlags(tx, &u)
		if err != nil {
			return UnitView{}, err
		}
		delta.Suggestions, delta.Comments = flags.Suggestions, flags.Comments
		if err := applyDelta(tx, &t, delta, at, e.Author); err != nil {
			return UnitView{}, err
		}
	} else if err := applyLockedDelta(tx, &t, delta, at, e.Author); err != nil {
		return UnitView{}, err
	}
	if err := marks.noteContentChange(tx, t.ID, at); err != nil {
		return UnitView{}, err
	}
	if marks.first(markFlagged, t.ComponentID) {
		if err := setNeedsCommit(tx, t.ComponentID); err != nil {
			return UnitView{}, err
		}
	}
	if !wasComplete && t.Translated == t.Total && len(e.Changes) > 0 {
		changes = append(changes, completed(e.Changes[0]))
	}
	if rerr := recordEdit(tx, at, changes, marks); rerr != nil {
		return UnitView{}, rerr
	}
	// t is the row as it now stands unless the edit moved counters of
	// translations besides its own delta (copies, followers, checks of
	// copies): then no translation read earlier in the group is trusted.
	marks.noteTranslation(t, !propagated && !sourceEdit && !(reconciled && c.hasCopies()) && !e.propagated)
	u.sourceFlags = nil // read for this edit's checks only
	return UnitView{Unit: u, Translation: t}, nil
}

// recordEdit records the changes of an edit; an edit of a group leaves
// writing them to the group (editMarks).
func recordEdit(tx *gorm.DB, at time.Time, changes []*changelogv1.Change, marks *editMarks) error {
	if marks == nil {
		return record(tx, at, changes...)
	}
	return marks.under.record(at, changes)
}

// record writes change records, stamping those without a timestamp.
func record(tx *gorm.DB, at time.Time, changes ...*changelogv1.Change) error {
	return recordChanges(tx, at, changes)
}

// completed is the "Translation completed" record following an edit.
func completed(edit *changelogv1.Change) *changelogv1.Change {
	return &changelogv1.Change{
		Action: actionCompleted, ProjectSlug: edit.ProjectSlug, ComponentSlug: edit.ComponentSlug,
		LanguageCode: edit.LanguageCode, User: edit.User, Author: edit.Author, Timestamp: edit.Timestamp,
	}
}

// applyDelta moves the counters of t by delta in SQL (so concurrent edits
// of other units add up), sets the last change, and mirrors the result in t.
func applyDelta(tx *gorm.DB, t *Translation, d Stats, at time.Time, author string) error {
	return moveCounters(tx, t, d, map[string]any{"last_change": at, "last_author": author})
}

// applyLockedDelta is applyDelta for a t read in this transaction under
// lock, nothing having moved its counters since: t follows in memory
// instead of being read again.
func applyLockedDelta(tx *gorm.DB, t *Translation, d Stats, at time.Time, author string) error {
	if err := moveCountersOnly(tx, t.ID, d, map[string]any{"last_change": at, "last_author": author}); err != nil {
		return err
	}
	t.Stats.add(d)
	t.LastChange, t.LastAuthor = &at, author
	return nil
}

// moveCounters adds d to the counters of t together with the other
// updates, then reloads t.
func moveCounters(tx *gorm.DB, t *Translation, d Stats, updates map[string]any) error {
	if err := moveCountersOnly(tx, t.ID, d, updates); err != nil {
		return err
	}
	return tx.Where("id = ?", t.ID).Take(t).Error
}

// moveCountersOnly adds d to the counters of translation id together with
// the other updates (columns named by the store's code). Its statement is
// built here, not by the ORM: every edit runs it while it holds the
// writer, and the columns come in a fixed order, so that each shape of it
// is one prepared statement.
func moveCountersOnly(tx *gorm.DB, id int64, d Stats, updates map[string]any) error {
	sets := make([]string, 0, len(updates)+4)
	args := make([]any, 0, len(updates)+5)
	for _, c := range slices.Sorted(maps.Keys(updates)) {
		sets, args = append(sets, c+" = ?"), append(args, updates[c])
	}
	vals := d.values()
	for i, c := range statColumns() {
		if vals[i] != 0 {
			sets, args = append(sets, c+" = "+c+" + ?"), append(args, vals[i])
		}
	}
	if len(sets) == 0 {
		return nil
	}
	if err := tx.Exec(`UPDATE translations SET `+strings.Join(sets, ", ")+` WHERE id = ?`, append(args, id)...).Error; err != nil {
		return fmt.Errorf("update counters: %w", err)
	}
	return nil
}

// noteContentChange is noteContentChange of an edit, whose row an edit
// of a group leaves to the group (pruning once for it).
func (m *editMarks) noteContentChange(tx *gorm.DB, translationID int64, at time.Time) error {
	if m == nil {
		return noteContentChange(tx, translationID, at)
	}
	m.under.content = append(m.under.content, contentChange{TranslationID: translationID, At: at})
	if !m.first(markPruned, translationID) {
		return nil
	}
	return pruneContentChanges(tx, translationID, at)
}

// noteContentChange remembers a content change for recent_changes and
// forgets those too old to count for any scope containing the translation.
func noteContentChange(tx *gorm.DB, translationID int64, at time.Time) error {
	if err := tx.Exec(`INSERT INTO content_changes (translation_id, at) VALUES (?, ?)`, translationID, at).Error; err != nil {
		return err
	}
	return pruneContentChanges(tx, translationID, at)
}

// pruneContentChanges forgets the content changes of a translation too old
// at at to count for any scope containing it.
func pruneContentChanges(tx *gorm.DB, translationID int64, at time.Time) error {
	return tx.Where("translation_id = ? AND at < ?", translationID, at.Add(-recentWindow)).Delete(&contentChange{}).Error
}

func timestamp(t time.Time) *timestamppb.Timestamp { return timestamppb.New(t) }
