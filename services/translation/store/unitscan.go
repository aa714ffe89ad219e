package store

import (
	"database/sql"
	"fmt"
	"strings"
	"time"

	"gorm.io/gorm"

	"github.com/tmsproject/tms/pkg/db"
)

// unitSelect lists every column of units in the order scanUnit reads them.
// The last, Labelled, costs a probe of unit_labels' key per row, less than
// a query of the labels of a page that has none.
var unitSelect = selectUnits(func(col string) string { return "units." + col })

// unitSelectSQLite is unitSelect for SQLite, with the times read as text:
// the driver tried two layouts per time, the first failing, and a units
// page spent a twentieth of its CPU there; scanUnit parses the one layout
// the driver writes (textTime).
var unitSelectSQLite = selectUnits(func(col string) string {
	if col == "timestamp" || col == "last_updated" {
		return "CAST(units." + col + " AS TEXT)"
	}
	return "units." + col
})

func selectUnits(column func(string) string) string {
	cols := []string{column("id")}
	for _, c := range unitColumns {
		cols = append(cols, column(c))
	}
	return strings.Join(cols, ", ") +
		", EXISTS (SELECT 1 FROM unit_labels WHERE unit_labels.unit_id = COALESCE(units.source_unit_id, units.id))"
}

// findUnits runs q (a query of the units table) and reads its rows
// without the ORM's reflection, which cost a third of a units page's CPU
// in the service; q's own selected columns are replaced.
func findUnits(q *gorm.DB) ([]Unit, error) { return findUnitsCap(q, 0) }

// findUnitsCap is findUnits of a query that answers about n rows.
func findUnitsCap(q *gorm.DB, n int) ([]Unit, error) {
	return scanUnits(q, n, func(us []Unit) *Unit { return &us[len(us)-1] })
}

// scanUnits runs q as findUnits does, into a slice of about n elements
// (sized once: growing it copied a page's units several times), each row
// into the unit at returns for the element just appended.
func scanUnits[T any](q *gorm.DB, n int, at func([]T) *Unit) ([]T, error) {
	rows, err := q.Model(&Unit{}).Select(unitSelectOf(q)).Rows()
	if err != nil {
		return nil, err
	}
	defer func() { _ = rows.Close() }() // read-only; Err reports what matters
	out := make([]T, 0, n)
	for rows.Next() {
		var zero T
		out = append(out, zero)
		if err := scanUnit(rows, at(out)); err != nil {
			return nil, err
		}
	}
	return out, rows.Err()
}

// lockEditUnit loads a unit for update with its source string's extra
// flags, which its checks need (one statement, not two).
func (s *Store) lockEditUnit(tx *gorm.DB, id int64) (Unit, error) {
	rows, err := tx.Raw("SELECT "+unitSelectOf(tx)+", COALESCE((SELECT s.extra_flags FROM units s WHERE s.id = units.source_unit_id), '')"+
		" FROM units WHERE id = ?"+s.rowLock(), id).Rows()
	if err != nil {
		return Unit{}, err
	}
	defer func() { _ = rows.Close() }() // read-only; Err reports what matters
	if !rows.Next() {
		if err = rows.Err(); err == nil {
			err = gorm.ErrRecordNotFound
		}
		return Unit{}, notFound(err, "unit")
	}
	var u Unit
	var flags string
	if err = scanUnit(rows, &u, &flags); err != nil {
		return Unit{}, err
	}
	if u.SourceUnitID != nil {
		u.sourceFlags = &flags
	}
	return u, rows.Err()
}

// unitSelectOf is unitSelect for q's engine.
func unitSelectOf(q *gorm.DB) string {
	if q.Dialector.Name() != db.Postgres {
		return unitSelectSQLite
	}
	return unitSelect
}

// scanUnit reads one row of unitSelect into u, and the columns selected
// after them into extra.
func scanUnit(rows *sql.Rows, u *Unit, extra ...any) error {
	var src sql.NullInt64
	err := rows.Scan(append([]any{&u.ID, &u.TranslationID, &u.Source, &u.Target, &u.PreviousSource, &u.Context, &u.Location,
		&u.Note, &u.Flags, &u.ExtraFlags, &u.Explanation, &u.IDHash, &u.ContentHash, &u.State, &u.Position,
		&u.NumWords, &u.NumChars, &src, &u.Priority, &u.Pending, &u.PendingAuthor, &u.HasSuggestion, &u.HasComment,
		&u.HasFailingCheck, &u.HasDismissedCheck, &u.TranslatedTarget, textTime{&u.Timestamp}, textTime{&u.LastUpdated}, &u.Labelled},
		extra...)...)
	if src.Valid {
		u.SourceUnitID = &src.Int64
	}
	return err
}

// textTime scans a time: as the driver hands it over (PostgreSQL), or as
// the text SQLite stores.
type textTime struct{ t *time.Time }

// Scan reads src.
func (d textTime) Scan(src any) error {
	switch v := src.(type) {
	case time.Time:
		*d.t = v
		return nil
	case string:
		return d.parse(v)
	case []byte:
		return d.parse(string(v))
	}
	return fmt.Errorf("a time of type %T", src)
}

func (d textTime) parse(s string) error {
	if t, ok := parseStoredTime(s); ok {
		*d.t = t
		return nil
	}
	for _, layout := range storedTimeLayouts {
		if t, err := time.Parse(layout, s); err == nil {
			*d.t = t
			return nil
		}
	}
	return fmt.Errorf("a time the store does not write: %q", s)
}

// storedTimeLayouts are the layouts the SQLite driver writes and reads
// times in, the first its default.
var storedTimeLayouts = []string{"2006-01-02 15:04:05.999999999-07:00", "2006-01-02T15:04:05.999999999-07:00",
	"2006-01-02 15:04:05.999999999", "2006-01-02T15:04:05.999999999", "2006-01-02 15:04:05.999999999 -0700 MST"}

// parseStoredTime parses the driver's default layout,
// "2006-01-02 15:04:05.999999999-07:00", without time.Parse's generality;
// ok is false for any other text.
func parseStoredTime(s string) (time.Time, bool) {
	if len(s) < 25 || s[4] != '-' || s[7] != '-' || s[10] != ' ' || s[13] != ':' || s[16] != ':' {
		return time.Time{}, false
	}
	num := func(from, to int) int {
		n := 0
		for _, c := range []byte(s[from:to]) {
			if c < '0' || c > '9' {
				return -1
			}
			n = n*10 + int(c-'0')
		}
		return n
	}
	year, month, day, hour, minute, sec := num(0, 4), num(5, 7), num(8, 10), num(11, 13), num(14, 16), num(17, 19)
	rest, nanos := s[19:], 0
	if rest[0] == '.' {
		i := 1
		for i < len(rest) && rest[i] >= '0' && rest[i] <= '9' {
			i++
		}
		if i == 1 || i > 10 {
			return time.Time{}, false
		}
		nanos = num(20, 19+i)
		for range 10 - i {
			nanos *= 10
		}
		rest = rest[i:]
	}
	if len(rest) != 6 || (rest[0] != '+' && rest[0] != '-') || rest[3] != ':' {
		return time.Time{}, false
	}
	zh, zm := num(len(s)-5, len(s)-3), num(len(s)-2, len(s))
	if min(year, month, day, hour, minute, sec, zh, zm) < 0 || month < 1 || month > 12 || day < 1 || day > 31 ||
		hour > 23 || minute > 59 || sec > 59 {
		return time.Time{}, false
	}
	offset := (zh*60 + zm) * 60
	if rest[0] == '-' {
		offset = -offset
	}
	loc := time.UTC
	if offset != 0 {
		loc = time.FixedZone("", offset)
	}
	t := time.Date(year, time.Month(month), day, hour, minute, sec, nanos, loc)
	return t, t.Day() == day // not 31 February
}
