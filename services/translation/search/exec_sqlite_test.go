package search

import (
	"database/sql"
	"slices"
	"strconv"
	"strings"
	"testing"
)

func init() { RegisterSQLiteFunctions() }

func TestExecSQLite(t *testing.T) {
	db, err := sql.Open("sqlite", ":memory:")
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = db.Close() }()
	db.SetMaxOpenConns(1) // one in-memory database
	runExecSuite(t, db, DialectSQLite)
}

// TestASCIISubstringAsLower: an ASCII search on SQLite (built-in LIKE,
// lower() only for rows holding a character it turns into ASCII, listed by
// a partial index) finds exactly what lower(column) LIKE lower(value)
// finds, the rule for every other search, including on text with the
// Kelvin sign and dotted capital I; so does the search without Folded.
func TestASCIISubstringAsLower(t *testing.T) {
	db, err := sql.Open("sqlite", ":memory:")
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = db.Close() }()
	db.SetMaxOpenConns(1)
	fold := FoldCondition("source")
	//nolint:gosec // G202: FoldCondition's own SQL, no input in it
	schema := `CREATE TABLE units (id INTEGER PRIMARY KEY, source TEXT NOT NULL);
		CREATE INDEX units_fold ON units (id) WHERE ` + fold
	if _, err := db.Exec(schema); err != nil {
		t.Fatal(err)
	}
	texts := []string{"Temperature 300 \u212a", "\u0130stanbul", "KELVIN", "kelvin", "plain text", "Straße",
		"İİ", "ÉCOLE", "100% done_now", "ǅemal", "\u212aelvin \u0130I"}
	for i, s := range texts {
		if _, err := db.Exec(`INSERT INTO units VALUES (?, ?)`, i+1, s); err != nil {
			t.Fatal(err)
		}
	}
	folded, listed, none := execColumns, execColumns, execColumns
	folded.Folded = "units.id IN (SELECT id FROM units WHERE " + fold + ")"
	foldedIDs, qerr := queryIDs(db, "SELECT id FROM units WHERE "+fold, nil)
	if qerr != nil || len(foldedIDs) == 0 {
		t.Fatalf("folded rows %v: %v", foldedIDs, qerr)
	}
	list := make([]string, len(foldedIDs))
	for i, id := range foldedIDs {
		list[i] = strconv.Itoa(id)
	}
	listed.Folded = "units.id IN (" + strings.Join(list, ",") + ")"
	// NoneFolded holds for the table's other rows: the cases compare those.
	none.Folded = NoneFolded
	cases := map[string]Columns{"folded": folded, "listed": listed, "lower": execColumns, "none": none}
	for _, v := range []string{"k", "300 k", "istanbul", "i", "kelvin", "KELVIN", "stra", "e", "100%", "_now", "ii", "elvin ii", "x"} {
		for name, cols := range cases {
			t.Run(name+"/"+v, func(t *testing.T) {
				q, err := Parse("source:" + strconvQuote(v))
				if err != nil {
					t.Fatal(err)
				}
				where, args := q.SQL(cols, DialectSQLite)
				only := ""
				if name == "none" {
					only = " AND NOT (" + fold + ")"
				}
				got, err := queryIDs(db, "SELECT id FROM units WHERE ("+where+")"+only+" ORDER BY id", args)
				if err != nil {
					t.Fatalf("%v\nSQL: %s", err, where)
				}
				want, err := queryIDs(db, `SELECT id FROM units WHERE lower(source) LIKE lower(?) ESCAPE '\'`+only+` ORDER BY id`, []any{likePattern(v)})
				if err != nil {
					t.Fatal(err)
				}
				if !slices.Equal(got, want) {
					t.Errorf("found %v, lower() finds %v\nSQL: %s", got, want, where)
				}
			})
		}
	}
}

// strconvQuote quotes v for the query language.
func strconvQuote(v string) string { return `"` + v + `"` }
