package server_test

import (
	"fmt"
	"slices"
	"sync"
	"testing"

	"gorm.io/gorm"

	"github.com/tmsproject/tms/pkg/dbtest"
	translationv1 "github.com/tmsproject/tms/proto/gen/go/tms/translation/v1"
	typev1 "github.com/tmsproject/tms/proto/gen/go/tms/type/v1"
	"github.com/tmsproject/tms/services/translation/store"
)

// TestConcurrentEditsOfOneUnit sends ten edits of one unit at once: the
// store serialises them on the unit's row (FOR UPDATE on PostgreSQL, the
// single writer on SQLite), so every edit succeeds, each sees the one
// before it (its record's old text is the previous record's target), the
// last write wins and the counters equal a recount.
func TestConcurrentEditsOfOneUnit(t *testing.T) {
	dbtest.Engines(t, func(t *testing.T, gdb *gorm.DB) {
		r := newRig(t, gdb)
		hello := r.units(r.cs, `source:="Hello"`)[0]
		const n = 10
		var wg sync.WaitGroup
		errc := make(chan error, n)
		for i := range n {
			wg.Go(func() {
				state := typev1.UnitState_UNIT_STATE_TRANSLATED
				if i%2 == 1 {
					state = typev1.UnitState_UNIT_STATE_FUZZY
				}
				_, err := r.client.UpdateUnit(t.Context(), &translationv1.UpdateUnitRequest{
					Id: hello.GetId(), Target: []string{fmt.Sprintf("Ahoj %d", i)}, State: state,
					Actor: fmt.Sprintf("user%d", i)})
				errc <- err
			})
		}
		wg.Wait()
		close(errc)
		for err := range errc {
			if err != nil {
				t.Errorf("concurrent edit: %v", err)
			}
		}
		var edits []string // targets in record order
		prev := ""
		for _, c := range r.changes() {
			if c.GetUnitId() != hello.GetId() {
				continue
			}
			if !slices.Contains([]typev1.ChangeAction{typev1.ChangeAction_CHANGE_ACTION_CHANGE, typev1.ChangeAction_CHANGE_ACTION_NEW, typev1.ChangeAction_CHANGE_ACTION_MARKED_EDIT}, c.GetAction()) {
				t.Errorf("unexpected record: action %v", c.GetAction())
				continue
			}
			if c.GetOld() != prev {
				t.Errorf("edit to %q saw %q, the previous edit left %q", c.GetTarget(), c.GetOld(), prev)
			}
			prev = c.GetTarget()
			edits = append(edits, c.GetTarget())
		}
		if len(edits) != n {
			t.Fatalf("%d edit records, want %d: %q", len(edits), n, edits)
		}
		var u store.Unit
		if err := gdb.Where("id = ?", hello.GetId()).Take(&u).Error; err != nil {
			t.Fatal(err)
		}
		if u.Target != edits[n-1] || !u.Pending {
			t.Errorf("unit target %q (pending %v), newest record %q", u.Target, u.Pending, edits[n-1])
		}
		if want := "user" + u.Target[len("Ahoj "):]; u.PendingAuthor != want {
			t.Errorf("pending author %q, want %q (who wrote %q)", u.PendingAuthor, want, u.Target)
		}
		r.exact(r.cs)
	}, store.Sources()...)
}
