package store

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"gorm.io/gorm"
)

// editGroup commits concurrent unit edits together on SQLite (group
// commit). SQLite has one writer: edits queue for it anyway, and each one
// alone pays for BEGIN, COMMIT (a WAL sync) and the hand-over of the
// connection. Gathered, the edits waiting at a moment run in one
// transaction; one that is refused or fails answers its own error while
// the others commit (runTogether, runSavepoints), and the rows their
// change records add are written together at the end. A caller's answer
// still comes only after its edit committed.
//
// PostgreSQL takes concurrent writers; there each edit keeps its own
// transaction and row locks are held no longer than it needs.
type editGroup struct {
	s       *Store
	mu      sync.Mutex
	pending []*editJob
	running bool // a drain goroutine is under way
	// want is how many edits the group before took: as many are likely
	// under way again, and the next group waits for them (gather).
	want int
	full chan struct{} // signalled when pending reaches want
}

func newEditGroup(s *Store) *editGroup {
	return &editGroup{s: s, full: make(chan struct{}, 1)}
}

// editJob is one EditUnit waiting for its group.
type editJob struct {
	ctx    context.Context
	id     int64
	decide func(UnitView) (Edit, error)
	out    UnitView
	err    error
	done   chan struct{}
}

// maxGroup bounds a group, so that the first edit of a long queue does not
// wait for the last.
const maxGroup = 64

// gatherWindow is the longest a group waits for its edits to gather. A
// group's fixed cost (BEGIN, COMMIT with its WAL sync, the translation's
// counters, the change log's hand-off) is about four edits' worth, and
// with the two cores busy, groups that started as soon as the writer was
// free mostly held one or two edits: at 8 connections, waiting up to a
// millisecond for as many as the group before raised unit PATCH from
// 0.66–0.71 of the floor to 0.79–0.82 and lowered its p99. A lone
// client's groups hold one edit, and its edits do not wait (but for its
// first after a burst of others).
var gatherWindow = time.Millisecond // a variable for tests

// groupTimeout bounds a group whose edits carry no deadline.
const groupTimeout = 10 * time.Second

// edit queues one edit and waits until its group committed or failed.
func (g *editGroup) edit(ctx context.Context, id int64, decide func(UnitView) (Edit, error)) (UnitView, error) {
	job := &editJob{ctx: ctx, id: id, decide: decide, done: make(chan struct{})}
	if g.add(job) {
		go g.drain() //nolint:contextcheck // a group runs under its edits' contexts (groupContext), not this caller's alone
	}
	<-job.done // the group ends by the deadline of its edits
	return job.out, job.err
}

// add queues job, signals a gathering group that its edits are there,
// and reports whether a drain goroutine has to start.
func (g *editGroup) add(job *editJob) (start bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.pending = append(g.pending, job)
	if len(g.pending) == g.want {
		select {
		case g.full <- struct{}{}:
		default: // already signalled
		}
	}
	start, g.running = !g.running, true
	return start
}

// drain runs groups until none is waiting.
func (g *editGroup) drain() {
	for {
		g.gather()
		g.mu.Lock()
		n := min(len(g.pending), maxGroup)
		if n == 0 {
			g.running = false
			g.mu.Unlock()
			return
		}
		jobs := g.pending[:n:n]
		g.pending = g.pending[n:]
		g.want = n
		g.mu.Unlock()
		g.run(jobs)
	}
}

// gather waits, when fewer edits are pending than the group before took,
// until as many are or gatherWindow passed (group commit's delay, as
// PostgreSQL's commit_delay waits only when other transactions are
// active).
func (g *editGroup) gather() {
	g.mu.Lock()
	short := len(g.pending) > 0 && len(g.pending) < g.want
	select {
	case <-g.full: // signalled for a group already taken
	default:
	}
	g.mu.Unlock()
	if !short {
		return
	}
	t := time.NewTimer(gatherWindow)
	defer t.Stop()
	select {
	case <-g.full:
	case <-t.C:
	}
}

// run commits one group. A failed commit fails every edit of it, none of
// which then took effect. The statements run under the group's context:
// interrupting one statement of a SQLite transaction rolls all of it back.
func (g *editGroup) run(jobs []*editJob) {
	ctx, cancel := groupContext(jobs)
	defer cancel()
	var err error
	defer func() {
		if r := recover(); r != nil { // answer every caller, as a handler's recovery would
			err = fmt.Errorf("edit group: panic: %v", r)
		}
		for _, j := range jobs {
			if err != nil && j.err == nil {
				j.err, j.out = err, UnitView{}
			}
			close(j.done)
		}
	}()
	if len(jobs) == 1 {
		runAlone(ctx, g.s, jobs[0])
		return
	}
	if err = g.runTogether(ctx, jobs); errors.Is(err, errEditFailed) {
		for _, j := range jobs {
			j.out, j.err = UnitView{}, nil
		}
		err = g.runSavepoints(ctx, jobs)
	}
}

// errEditFailed rolls a group run without savepoints back: one of its
// edits failed after it began writing.
var errEditFailed = errors.New("an edit of the group failed while writing")

// runTogether runs a group's edits one after the other in its
// transaction, without a savepoint each (two statements an edit): an edit
// refused (by its decide, or its unit gone) wrote nothing, and the others
// go on. An edit failing after it began writing, which only an error of
// the database does, leaves part of itself behind: then the whole group
// rolls back (errEditFailed) and runs again with savepoints.
func (g *editGroup) runTogether(ctx context.Context, jobs []*editJob) error {
	return g.s.q(ctx).Transaction(func(tx *gorm.DB) error {
		marks := &editMarks{}
		for _, j := range jobs {
			if j.err = j.ctx.Err(); j.err != nil {
				continue // its caller is gone or out of time: not started
			}
			var u Unit
			var t Translation
			var e Edit
			if u, t, e, j.err = g.s.decideTx(tx, j.id, j.decide, marks); j.err != nil {
				continue
			}
			if j.out, j.err = g.s.applyEdit(tx, u, t, e, marks); j.err != nil {
				return errEditFailed
			}
			marks.keep(true)
		}
		return marks.done.write(tx)
	})
}

// runSavepoints runs a group's edits each inside its own savepoint, so one
// that fails rolls back alone and answers its own error while the others
// commit.
func (g *editGroup) runSavepoints(ctx context.Context, jobs []*editJob) error {
	return g.s.q(ctx).Transaction(func(tx *gorm.DB) error {
		marks := &editMarks{}
		for _, j := range jobs {
			if j.err = j.ctx.Err(); j.err != nil {
				continue
			}
			j.err = tx.Transaction(func(sp *gorm.DB) error {
				var err error
				j.out, err = g.s.editTx(sp, j.id, j.decide, marks)
				return err
			})
			marks.keep(j.err == nil)
		}
		return marks.done.write(tx)
	})
}

// runAlone runs the edit of a group of one: its transaction is its
// savepoint, which spares two statements.
func runAlone(ctx context.Context, s *Store, j *editJob) {
	if j.err = j.ctx.Err(); j.err != nil {
		return
	}
	j.err = s.q(ctx).Transaction(func(tx *gorm.DB) error {
		// Checked again once the writer is ours: waiting for it does not
		// always end by the deadline, and an edit out of time must not
		// take effect after its caller was told it failed.
		if err := j.ctx.Err(); err != nil {
			return err
		}
		var err error
		j.out, err = s.editTx(tx, j.id, j.decide, nil)
		return err
	})
	if j.err != nil {
		j.out = UnitView{}
	}
}

// groupContext is the context of a group's transaction: no caller's
// cancellation ends it (the others still want their edits), but it ends
// by the latest deadline among them, so the query bound still holds.
func groupContext(jobs []*editJob) (context.Context, context.CancelFunc) {
	var last time.Time
	for _, j := range jobs {
		dl, ok := j.ctx.Deadline()
		if !ok {
			dl = time.Now().Add(groupTimeout)
		}
		if dl.After(last) {
			last = dl
		}
	}
	return context.WithDeadline(context.WithoutCancel(jobs[0].ctx), last)
}

// editMarks remembers, across the edits of one transaction, the
// translations whose aged content changes were pruned and the components
// flagged for commit, so that a group does each once, and gathers the
// rows its edits' change records add, which the group writes when it
// commits. Marks and rows of an edit count only once its savepoint is
// released (keep): one rolled back took its prune and flag with it. A nil
// *editMarks (an edit alone) does each every time and writes its rows at
// once.
type editMarks struct {
	kept    [2]map[int64]bool // by edits kept, per markKind
	pending []markKey         // by the edit under way
	// The rows of the edits kept, and of the edit under way.
	done, under changeWrites
	// The translations as the group's edits left them, and the checkers
	// of their units (what a checker reads does not change within a
	// group), by translation id: the next edit of the same translation
	// reads neither again.
	trans    map[int64]Translation
	checkers map[int64]*checker
}

// markKind is what a mark says was done.
type markKind int

const (
	markPruned  markKind = iota // a translation's aged content changes pruned
	markFlagged                 // a component flagged for commit
)

type markKey struct {
	kind markKind
	id   int64
}

// first reports whether no kept edit did kind for id yet; the edit under
// way then does it, and its mark waits for keep.
func (m *editMarks) first(kind markKind, id int64) bool {
	if m == nil {
		return true
	}
	if m.kept[kind][id] {
		return false
	}
	m.pending = append(m.pending, markKey{kind, id})
	return true
}

// keep makes the marks and rows of the edit under way count (its
// savepoint was released), or drops them (rolled back).
func (m *editMarks) keep(ok bool) {
	if ok {
		m.done.add(&m.under)
	} else {
		clear(m.trans) // the rollback may have undone what they hold
	}
	m.under.reset()
	for _, k := range m.pending {
		if !ok {
			break // rolled back: its marks go with it
		}
		if m.kept[k.kind] == nil {
			m.kept[k.kind] = map[int64]bool{}
		}
		m.kept[k.kind][k.id] = true
	}
	m.pending = m.pending[:0]
}

// lockGroupUnit is lockUnit of an edit (lockEditUnit), whose translation
// an earlier edit of its group may have left in marks.
func (s *Store) lockGroupUnit(tx *gorm.DB, id int64, marks *editMarks) (Unit, Translation, error) {
	u, err := s.lockEditUnit(tx, id)
	if err != nil {
		return Unit{}, Translation{}, err
	}
	if t, ok := marks.translation(u.TranslationID); ok {
		return u, t, nil
	}
	t, err := takeTranslation(tx, s.rowLock(), "id = ?", u.TranslationID)
	return u, t, notFound(err, "translation")
}

// translation is translation id as the group's edits left it, if kept.
func (m *editMarks) translation(id int64) (Translation, bool) {
	if m == nil {
		return Translation{}, false
	}
	t, ok := m.trans[id]
	return t, ok
}

// noteTranslation keeps t, as an edit left it, for the group's next edits
// when exact; otherwise the edit moved other rows, and every translation
// kept is dropped.
func (m *editMarks) noteTranslation(t Translation, exact bool) {
	switch {
	case m == nil:
	case !exact:
		clear(m.trans)
	default:
		if m.trans == nil {
			m.trans = map[int64]Translation{}
		}
		m.trans[t.ID] = t
	}
}

// checker is newChecker of t's units for one edit, kept for the group's
// other edits of t.
func (m *editMarks) checker(tx *gorm.DB, t Translation) (*checker, error) {
	if m == nil {
		return newChecker(tx, t, false)
	}
	if c, ok := m.checkers[t.ID]; ok {
		c.tx, c.t, c.err = tx, t, nil
		return c, nil
	}
	c, err := newChecker(tx, t, false)
	if err != nil {
		return nil, err
	}
	if m.checkers == nil {
		m.checkers = map[int64]*checker{}
	}
	m.checkers[t.ID] = c
	return c, nil
}
