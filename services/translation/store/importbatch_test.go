package store_test

import (
	"fmt"
	"testing"

	"gorm.io/gorm"

	"github.com/tmsproject/tms/pkg/dbtest"
	"github.com/tmsproject/tms/pkg/outbox"
	"github.com/tmsproject/tms/services/translation/store"
)

// TestImportInsertsInBatches imports more new units than one insert batch
// holds, beside kept ones, with repeated strings (the first counts) both
// inside and at the very end of the file: every distinct string is stored
// once, in file order, with its id in the result.
func TestImportInsertsInBatches(t *testing.T) {
	dbtest.Engines(t, func(t *testing.T, gdb *gorm.DB) {
		ctx := t.Context()
		s := store.New(gdb)
		mk := func(i int, target string) store.Unit {
			u := unit(fmt.Sprintf("s%d", i), target, 20, 1)
			u.IDHash = int64(i + 1)
			return u
		}
		var first []store.Unit
		for i := range 100 {
			first = append(first, mk(i, "old"))
		}
		if _, err := s.ImportTranslation(ctx, importSpec(9, "en", nil, first...)); err != nil {
			t.Fatal(err)
		}
		const n = 2500
		var units []store.Unit
		for i := range n {
			units = append(units, mk(i, "new"))
			if i == 1500 {
				units = append(units, mk(7, "repeated")) // a kept string again
			}
		}
		units = append(units, mk(1200, "repeated"), mk(n-1, "repeated")) // new strings again, last
		res, err := s.ImportTranslation(ctx, importSpec(9, "en", nil, units...))
		if err != nil {
			t.Fatal(err)
		}
		if len(res.IDs) != n || res.Translation.Stats.Total != n {
			t.Fatalf("%d ids, total %d; want %d", len(res.IDs), res.Translation.Stats.Total, n)
		}
		got, total, err := s.ListUnits(ctx, res.Translation.ID, 0, n+10, store.Hidden{})
		if err != nil || total != n || len(got) != n {
			t.Fatalf("listed %d of %d: %v", len(got), total, err)
		}
		for i, u := range got {
			if want := fmt.Sprintf("s%d", i); u.Source != want || u.Target != "new" || u.ID != res.IDs[u.IDHash] {
				t.Fatalf("unit %d: %s → %q (id %d, result %d), want %s → \"new\"", i, u.Source, u.Target, u.ID, res.IDs[u.IDHash], want)
			}
		}
	}, store.Migrations, outbox.Migrations)
}
