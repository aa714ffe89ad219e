package store

import (
	"errors"
	"fmt"
	"reflect"
	"testing"
	"time"

	"gorm.io/gorm"

	"github.com/tmsproject/tms/pkg/dbtest"
)

// TestTextTime: the times SQLite stores read back as the instants written,
// by the quick parse of the driver's default layout and by the fallback
// layouts; anything else is an error, not a zero time.
func TestTextTime(t *testing.T) {
	at := time.Date(2026, 11, 29, 8, 46, 8, 6591000, time.UTC)
	east := time.FixedZone("", 5*3600+30*60)
	for _, tc := range []struct {
		in   any
		want time.Time
		bad  bool
	}{
		{in: "2026-11-29 08:46:08.006591+00:00", want: at},
		{in: []byte("2026-11-29 08:46:08.006591+00:00"), want: at},
		{in: "2026-11-29 08:46:08+00:00", want: at.Truncate(time.Second)},
		{in: "2026-11-29 14:16:08.006591+05:30", want: at},
		{in: "2026-11-29 03:16:08.006591-05:30", want: at},
		{in: "2026-11-29 08:46:08.123456789+00:00", want: at.Truncate(time.Second).Add(123456789)},
		{in: "2026-11-29T08:46:08.006591+00:00", want: at},
		{in: "2026-11-29 08:46:08.006591", want: at},
		{in: "2026-11-29 08:46:08.006591 +0000 UTC", want: at},
		{in: at.In(east), want: at},
		{in: "2026-02-31 08:46:08+00:00", bad: true},
		{in: "2026-11-29 25:46:08+00:00", bad: true},
		{in: "yesterday", bad: true},
		{in: 42, bad: true},
	} {
		var got time.Time
		err := textTime{&got}.Scan(tc.in)
		if tc.bad {
			if err == nil {
				t.Errorf("%v: read as %v, want an error", tc.in, got)
			}
			continue
		}
		if err != nil || !got.Equal(tc.want) {
			t.Errorf("%v: %v, %v; want %v", tc.in, got, err, tc.want)
		}
	}
}

// TestTakeTranslation: the translation read without the ORM is the one the
// ORM reads, every column in its field, on both engines, with and without
// a last change; a missing one is gorm.ErrRecordNotFound.
func TestTakeTranslation(t *testing.T) {
	dbtest.Engines(t, func(t *testing.T, gdb *gorm.DB) {
		at := time.Date(2026, 11, 29, 8, 46, 8, 6591000, time.UTC)
		stats := Stats{}
		for i, p := range stats.pointers() {
			*p = int64(i + 1)
		}
		for i, last := range []*time.Time{nil, &at} {
			want := Translation{ComponentID: 7, ProjectSlug: "p", ComponentSlug: "c", LanguageCode: fmt.Sprint("l", i),
				PluralNumber: 3, PluralID: 9, PluralSource: 1, PluralFormula: "n != 1", PluralType: 2, Filename: "po/x.po",
				Revision: "abc", IsSource: true, IsTemplate: true, Propagate: true, Consistency: true, Stats: stats,
				LastChange: last, LastAuthor: "admin", CreatedAt: at.Add(-time.Hour)}
			if err := gdb.Create(&want).Error; err != nil {
				t.Fatal(err)
			}
			var viaORM Translation
			if err := gdb.Where("id = ?", want.ID).Take(&viaORM).Error; err != nil {
				t.Fatal(err)
			}
			got, err := takeTranslation(gdb, "", "id = ?", want.ID)
			if err != nil {
				t.Fatal(err)
			}
			if !sameInstants(got, viaORM) || !sameInstants(got, want) {
				t.Errorf("read %+v\nORM  %+v\nwant %+v", got, viaORM, want)
			}
		}
		if _, err := takeTranslation(gdb, "", "id = ?", 999); !errors.Is(err, gorm.ErrRecordNotFound) {
			t.Errorf("a missing translation: %v", err)
		}
	}, Migrations)
}

// sameInstants compares translations with their times as instants.
func sameInstants(a, b Translation) bool {
	if (a.LastChange == nil) != (b.LastChange == nil) || (a.LastChange != nil && !a.LastChange.Equal(*b.LastChange)) ||
		!a.CreatedAt.Equal(b.CreatedAt) {
		return false
	}
	a.LastChange, b.LastChange, a.CreatedAt, b.CreatedAt = nil, nil, time.Time{}, time.Time{}
	return reflect.DeepEqual(a, b)
}
