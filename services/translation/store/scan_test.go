package store_test

import (
	"fmt"
	"slices"
	"testing"

	"gorm.io/gorm"

	"github.com/tmsproject/tms/pkg/dbtest"
	"github.com/tmsproject/tms/pkg/outbox"
	"github.com/tmsproject/tms/services/translation/search"
	"github.com/tmsproject/tms/services/translation/store"
)

// TestSplitScan: a search scanned in id ranges side by side answers the
// same total and the same pages as one scan, on both engines (PostgreSQL
// always scans whole), for queries matching everywhere, in one part only,
// and nowhere, and for pages that straddle a range boundary.
func TestSplitScan(t *testing.T) {
	dbtest.Engines(t, func(t *testing.T, gdb *gorm.DB) {
		ctx := t.Context()
		s := store.New(gdb)
		const n = 300
		cs, _ := wordsToTranslate(t, s, n)
		queries := []string{"word", "word1", "source:word299", "xylophone", "word2 OR word29", "NOT word1"}
		pages := []struct{ offset, limit int64 }{{0, 20}, {140, 40}, {290, 50}, {0, 0}, {600, 10}}
		type answer struct {
			ids   []int64
			total int64
		}
		run := func(translationID int64) map[string]answer {
			got := map[string]answer{}
			for _, qs := range queries {
				q, err := search.Parse(qs)
				if err != nil {
					t.Fatal(err)
				}
				for _, p := range pages {
					units, total, err := s.SearchUnits(ctx, translationID, q, p.offset, p.limit, store.Hidden{})
					if err != nil {
						t.Fatalf("%q: %v", qs, err)
					}
					var a answer
					a.total = total
					for _, u := range units {
						a.ids = append(a.ids, u.ID)
					}
					got[fmt.Sprintf("%d %q %d+%d", translationID, qs, p.offset, p.limit)] = a
				}
			}
			return got
		}
		whole := map[int64]map[string]answer{0: run(0), cs.Translation.ID: run(cs.Translation.ID)}
		if whole[0][`0 "word" 0+0`].total != 2*n {
			t.Fatalf("%q matches %d units, want %d", "word", whole[0][`0 "word" 0+0`].total, 2*n)
		}
		for _, parts := range []int{2, 3, 7} {
			t.Run(fmt.Sprintf("%d parts", parts), func(t *testing.T) {
				store.SplitScans(t, parts)
				for tr, want := range whole {
					for key, got := range run(tr) {
						if got.total != want[key].total || !slices.Equal(got.ids, want[key].ids) {
							t.Errorf("%s: %d units %v, one scan: %d units %v", key, got.total, got.ids, want[key].total, want[key].ids)
						}
					}
				}
			})
		}
	}, store.Migrations, outbox.Migrations)
}
