package store

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/tmsproject/tms/pkg/db"
)

func TestPerfMillion(t *testing.T) {
	gdb, err := db.Open(t.Context(), db.Config{SQLitePath: filepath.Join(os.TempDir(), "perf-changelog.db")})
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Migrate(t.Context(), gdb, Migrations); err != nil {
		t.Fatal(err)
	}
	s := New(gdb)
	var n int64
	gdb.Raw("SELECT COUNT(*) FROM changes").Scan(&n)
	start := time.Now()
	base := time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)
	for b := n / 5000; b < 200; b++ {
		cs := make([]Change, 5000)
		for i := range cs {
			k := int(b)*5000 + i
			cs[i] = Change{EventID: fmt.Sprint("e", k), Action: int32(k % 60), ProjectSlug: fmt.Sprint("p", k%10),
				ComponentSlug: fmt.Sprint("c", k%50), LanguageCode: fmt.Sprint("l", k%30), UnitID: int64(k % 100000),
				User: fmt.Sprint("u", k%100), Target: "some translated text", Timestamp: base.Add(time.Duration(k) * time.Second)}
		}
		if _, err := s.Append(t.Context(), cs); err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("insert: %v", time.Since(start))
	for _, f := range []Filter{{ProjectSlug: "p3", ComponentSlug: "c13"}, {ProjectSlug: "p3", ComponentSlug: "c13", LanguageCode: "l13"}, {}, {User: "u5", Actions: []int32{5, 7}}} {
		start = time.Now()
		list, total, err := s.List(t.Context(), f, 1000, 50)
		t.Logf("%+v: %d rows of %d in %v (%v)", f, len(list), total, time.Since(start), err)
	}
}
