package search

import (
	"database/sql"
	"slices"
	"testing"
	"time"
)

// execColumns are the expressions used against the table made by
// createUnits.
var execColumns = Columns{
	Source: "units.source", Target: "units.target", Context: "units.context",
	Note: "units.note", Location: "units.location", State: "units.state",
	HasSuggestion: "units.has_suggestion <> 0", HasComment: "units.has_comment <> 0",
	Translation: "units.translation_id",
	ID:          "units.id", Position: "units.position", Priority: "units.priority",
	Pending: "units.pending <> 0", Explanation: "units.explanation",
	CheckUnit: "units.id", Added: "units.added", LastChanged: "units.changed",
	LabelUnit:  "units.id", // every row is its own source string here
	ChangeUnit: "units.id", SourceChanged: "units.changed", ExtraFlags: "units.flags",
}

// execChanges are the change records of execRows: unit, the reference's
// action number (2 changed, 36 approved, 3 comment, 5 added, 59 updated
// in the repository), author and time.
var execChanges = [][4]any{
	{1, 2, "Ann", time.Date(2025, 3, 1, 8, 0, 0, 0, time.UTC)},
	{1, 36, "bob", time.Date(2025, 3, 2, 9, 0, 0, 0, time.UTC)},
	{2, 3, "ann", time.Date(2025, 3, 3, 10, 0, 0, 0, time.UTC)},
	{4, 5, "", time.Date(2024, 6, 4, 12, 0, 0, 0, time.UTC)},
	{5, 59, "carl", time.Date(2025, 3, 5, 8, 0, 0, 0, time.UTC)},
	{6, 2, "bob", time.Date(2025, 3, 6, 10, 0, 0, 0, time.UTC)},
}

// execAdded and execChanged are when each row was stored and last
// changed: rows 1-3 in 2023, 4-6 in 2024; row n changed on day n of
// March 2025, row 6 at 10:00 on the day execNow reads as today.
var execNow = time.Date(2025, 3, 6, 15, 30, 0, 0, time.UTC)

func execAdded(id int) time.Time {
	return time.Date(2022+(id+2)/3, 6, id, 12, 0, 0, 0, time.UTC)
}

func execChanged(id int) time.Time {
	if id == 6 {
		return time.Date(2025, 3, 6, 10, 0, 0, 0, time.UTC)
	}
	return time.Date(2025, 3, id, 8, 0, 0, 0, time.UTC)
}

// execRelated are the suggestions (unit, text, author) and comments
// (unit, text, author, resolved) of execRows.
var (
	execSuggestions = [][3]any{{2, "Öffne die Datei", "Ann"}, {2, "Datei aufmachen", "bob"}, {6, "50% more", "ann"}}
	execComments    = [][4]any{{3, "Typo in source", "carl", 0}, {1, "Fixed the typo", "dana", 1}}
)

// execTranslations are the translations of execRows (project,
// component, language), and execIn the translation of each row.
var (
	execTranslations = [][3]string{1: {"acme", "webapp", "de"}, 2: {"acme", "mobile-app", "pt_BR"}, 3: {"other", "webapp", "de"}}
	execIn           = map[int]int{1: 1, 2: 1, 3: 2, 4: 2, 5: 3, 6: 3}
)

var execRows = []struct {
	id                               int
	source, target, context          string
	note, location                   any // nil stores NULL
	state, hasSuggestion, hasComment int
}{
	{1, "Hello world", "Hallo Welt", "greeting", "shown on start", "main.c:12", 20, 0, 0},
	{2, "Open file" + PluralSeparator + "Open files", "Datei öffnen" + PluralSeparator + "Dateien öffnen", "", "", "", 10, 1, 0},
	{3, "100% done_now", "", "progress", "", "", 0, 0, 1},
	{4, "ÉCOLE", "École", "", "", "", 30, 0, 0},
	{5, "Read-only source", "Read-only source", "", nil, nil, 100, 0, 0},
	{6, "'; DROP TABLE units; --", "x", "", "", "", 20, 0, 0},
}

// execCases run against execRows; want lists matching ids in order.
var execCases = []struct {
	q    string
	want []int
}{
	{"", []int{1, 2, 3, 4, 5, 6}},
	{"hello", []int{1}},
	{"HELLO WORLD", []int{1}},
	{`"hello world"`, []int{1}},
	{`'world hello'`, nil},
	{"greeting", []int{1}},
	{"key:progress", []int{3}},
	{"source:open", []int{2}},
	{"source:files", []int{2}},
	{"target:öffnen", []int{2}},
	{"target:ÖFFNEN", []int{2}},
	{"source:école", []int{4}},
	{"source:=ÉCOLE", []int{4}},
	{"source:=école", nil},
	{`source:="Open file"`, nil},
	{`source:="Hello world"`, []int{1}},
	{`target:=""`, []int{3}},
	{"source:%", []int{3}},
	{"source:_", []int{3}},
	{`source:\`, nil},
	{"source:100%", []int{3}},
	{"source:>x", nil},
	{"state:translated", []int{1, 6}},
	{"state:>=translated", []int{1, 4, 5, 6}},
	{"state:<approved", []int{1, 2, 3, 6}},
	{"state:>10", []int{1, 4, 5, 6}},
	{"state:empty", []int{3}},
	{"state:0", []int{3}},
	{"is:untranslated", []int{2, 3}},
	{"is:translated", []int{1, 4, 5, 6}},
	{"is:fuzzy", []int{2}},
	{"is:read-only", []int{5}},
	{"is:approved", []int{4}},
	{"has:suggestion", []int{2}},
	{"has:comment", []int{3}},
	{"has:plural", []int{2}},
	{"has:context", []int{1, 3}},
	{"has:note", []int{1}},
	{"NOT has:note", []int{2, 3, 4, 5, 6}},
	{"NOT location:main", []int{2, 3, 4, 5, 6}},
	{"hello OR école", []int{1, 4}},
	{"hello or école", []int{1, 4}},
	{"NOT is:translated AND has:plural OR is:approved", []int{2, 4}},
	{"NOT (is:translated OR has:comment)", []int{2}},
	{"read-only -source", nil},
	{`"'; DROP TABLE units; --"`, []int{6}},
	{`source:r"^[0-9]+%"`, []int{3}},
	{`target:r"^D"`, []int{2}},
	{`r"^Hal"`, []int{1}},
	{"project:acme", []int{1, 2, 3, 4}},
	{"project:ACME", []int{1, 2, 3, 4}},
	{"project:=acme", []int{1, 2, 3, 4}},
	{"project:=ACME", nil},
	{"project:acm", nil},
	{"component:app", []int{1, 2, 3, 4, 5, 6}},
	{"component:MOBILE", []int{3, 4}},
	{"component:=WEBAPP", []int{1, 2, 5, 6}},
	{"component:=web", nil},
	{"component:%", nil},
	{"language:de", []int{1, 2, 5, 6}},
	{"language:pt_br", []int{3, 4}},
	{"language:=pt_br", nil},
	{`language:r"^pt"`, []int{3, 4}},
	{"NOT language:de", []int{3, 4}},
	{`key:"greeting" project:acme component:webapp language:de`, []int{1}},
	{`project:other OR component:mobile-app`, []int{3, 4, 5, 6}},
	// position = 10 × id, priority 100 but 200 on 2, pending 3 and 4,
	// an explanation on 1 (execDetails)
	{"id:2", []int{2}},
	{"id:=2", []int{2}},
	{"id:2,4,9", []int{2, 4}},
	{"id:>=5", []int{5, 6}},
	{"position:<30", []int{1, 2}},
	{"priority:>100", []int{2}},
	{"priority:100", []int{1, 3, 4, 5, 6}},
	{"is:pending", []int{3, 4}},
	{"NOT is:pending", []int{1, 2, 5, 6}},
	{"has:explanation", []int{1}},
	{"explanation:MENU", []int{1}},
	{"explanation:tooltip", nil},
	// Suggestions and comments (Weblate's suggestion:, comment:,
	// resolved_comment:, *_author: and has:resolved-comment).
	{"suggestion:datei", []int{2}},
	{"suggestion:öffne", []int{2}},
	{"suggestion:50%", []int{6}},
	{`suggestion:="Datei aufmachen"`, []int{2}},
	{`suggestion:r"^Öff"`, []int{2}},
	{"suggestion_author:ann", []int{2, 6}},
	{"suggestion_author:BOB", []int{2}},
	{"suggestion_author:an", nil},
	{"comment:typo", []int{3}},
	{"resolved_comment:typo", []int{1}},
	{"comment_author:dana", []int{1}},
	{"has:resolved-comment", []int{1}},
	{"source_comment:typo", []int{3}},
	{"resolved_source_comment:TYPO", []int{1}},
	{"source_comment_author:carl", []int{3}},
	{"has:source-comment", []int{3}},
	{"has:resolved-source-comment", []int{1}},
	{"NOT suggestion:datei", []int{1, 3, 4, 5, 6}},
	{"comment:typo OR suggestion:more", []int{3, 6}},
	// Dates and ranges (Weblate's added:, last_changed: and [a to b]).
	{"added:2023", []int{1, 2, 3}},
	{"added:>=2024", []int{4, 5, 6}},
	{"added:<=2023", []int{1, 2, 3}},
	{"added:<2024", []int{1, 2, 3, 4, 5, 6}}, // Weblate: a span with < reaches its end
	{"added:2023-06-02", []int{2}},
	{"added:[2023-06-02 to 2024-06-04]", []int{2, 3, 4}},
	{"added:[2023-06-02 TO 2023-06-02]", []int{2}},
	{"last_changed:today", []int{6}},
	{"last_changed:yesterday", []int{5}},
	{"last_changed:>2025-03-04T08:00:00Z", []int{5, 6}},
	{"last_changed:>=2025-03-04T08:00:00Z", []int{4, 5, 6}},
	{"last_changed:<=[2025-03-01 to 2025-03-02]", []int{1, 2}},
	{"position:[20 to 40]", []int{2, 3, 4}},
	{"position:>[50 to 70]", []int{5, 6}},
	{"id:[2 to 3] OR id:6", []int{2, 3, 6}},
	// Change records (Weblate's changed:, changed_by:, change_time:,
	// change_action:); execChanges. changed: and changed_by: count
	// content changes only; conditions joined by AND hold for one record.
	{"changed_by:ann", []int{1}},
	{"changed_by:BOB", []int{1, 6}},
	{"changed_by:carl", nil},
	{`changed_by:""`, []int{4}},
	{`changed_by:r"^b"`, []int{1, 6}},
	{"change_action:comment-added", []int{2}},
	{`change_action:"String updated in the repository"`, []int{5}},
	{"change_action:>=translation-added", []int{1, 4, 5}},
	{"changed:2025-03-02", []int{1}},
	{"changed:2025-03-03", nil},
	{"change_time:2025-03-03", []int{2}},
	{"change_time:today", []int{6}},
	{"changed:[2024-01-01 to 2024-12-31]", []int{4}},
	{"changed_by:bob change_action:translation-changed", []int{6}},
	{"changed_by:ann change_time:2025-03-02", nil},
	{"changed_by:bob change_time:2025-03-02", []int{1}},
	{"changed_by:bob source:hello", []int{1}},
	{"changed_by:bob OR change_action:comment-added", []int{1, 2, 6}},
	{"(changed_by:ann OR changed_by:bob) change_time:>=2025-03-02", []int{1, 6}},
	{"NOT changed_by:bob", []int{2, 3, 4, 5}},
	// has: location, label (unit 5), flags (unit 2), ignored-check;
	// source_changed: as last_changed here (every row is its own source).
	{"has:location", []int{1}},
	{"has:label", []int{5}},
	{"has:flags", []int{2}},
	{"NOT has:flags", []int{1, 3, 4, 5, 6}},
	{"source_changed:today", []int{6}},
	{"source_changed:<2025-03-02", []int{1, 2}}, // a span with < reaches its end
}

func createUnits(t *testing.T, db *sql.DB, dialect string) {
	t.Helper()
	_, err := db.Exec(`CREATE TABLE units (id INTEGER PRIMARY KEY, source TEXT NOT NULL,
		target TEXT NOT NULL, context TEXT NOT NULL, note TEXT, location TEXT,
		state INTEGER NOT NULL, has_suggestion INTEGER NOT NULL, has_comment INTEGER NOT NULL, translation_id INTEGER NOT NULL,
		position INTEGER NOT NULL, priority INTEGER NOT NULL, pending INTEGER NOT NULL, explanation TEXT NOT NULL,
		added TIMESTAMP NOT NULL, changed TIMESTAMP NOT NULL, flags TEXT NOT NULL DEFAULT '')`)
	if err == nil {
		_, err = db.Exec(`CREATE TABLE translations (id INTEGER PRIMARY KEY, project_slug TEXT NOT NULL,
			component_slug TEXT NOT NULL, language_code TEXT NOT NULL)`)
	}
	if err != nil {
		t.Fatal(err)
	}
	numbered := func(q string) string {
		if dialect == DialectPostgres {
			return Numbered(q)
		}
		return q
	}
	for id, tr := range execTranslations[1:] {
		if _, err := db.Exec(numbered(`INSERT INTO translations VALUES (?, ?, ?, ?)`), id+1, tr[0], tr[1], tr[2]); err != nil {
			t.Fatal(err)
		}
	}
	for _, q := range []string{
		`CREATE TABLE suggestions (unit_id INTEGER NOT NULL, target TEXT NOT NULL, user_name TEXT NOT NULL)`,
		`CREATE TABLE comments (unit_id INTEGER NOT NULL, comment TEXT NOT NULL, user_name TEXT NOT NULL, resolved BOOLEAN NOT NULL)`,
		`CREATE TABLE unit_changes (unit_id INTEGER NOT NULL, action INTEGER NOT NULL, author TEXT NOT NULL, at TIMESTAMP NOT NULL)`,
		`CREATE TABLE unit_labels (unit_id INTEGER NOT NULL, label_id INTEGER NOT NULL)`,
		`INSERT INTO unit_labels VALUES (5, 1)`,
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	for _, r := range execSuggestions {
		if _, err := db.Exec(numbered(`INSERT INTO suggestions VALUES (?, ?, ?)`), r[0], r[1], r[2]); err != nil {
			t.Fatal(err)
		}
	}
	for _, r := range execChanges {
		if _, err := db.Exec(numbered(`INSERT INTO unit_changes VALUES (?, ?, ?, ?)`), r[0], r[1], r[2], r[3]); err != nil {
			t.Fatal(err)
		}
	}
	for _, r := range execComments {
		if _, err := db.Exec(numbered(`INSERT INTO comments VALUES (?, ?, ?, ?)`), r[0], r[1], r[2], r[3] == 1); err != nil {
			t.Fatal(err)
		}
	}
	for _, r := range execRows {
		_, err := db.Exec(numbered(`INSERT INTO units VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`), r.id, r.source,
			r.target, r.context, r.note, r.location, r.state, r.hasSuggestion, r.hasComment, execIn[r.id],
			10*r.id, execPriority(r.id), boolInt(r.id == 3 || r.id == 4), map[int]string{1: "The main menu's greeting"}[r.id],
			execAdded(r.id), execChanged(r.id), map[int]string{2: "max-length:10"}[r.id])
		if err != nil {
			t.Fatal(err)
		}
	}
}

func execPriority(id int) int {
	if id == 2 {
		return 200
	}
	return 100
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// runExecSuite executes every case through database/sql on one engine
// (exec_sqlite_test.go, exec_postgres_test.go).
func runExecSuite(t *testing.T, db *sql.DB, dialect string) {
	createUnits(t, db, dialect)
	now = func() time.Time { return execNow }
	t.Cleanup(func() { now = time.Now })
	for _, tc := range execCases {
		q, err := Parse(tc.q)
		if err != nil {
			t.Errorf("Parse(%q): %v", tc.q, err)
			continue
		}
		where, args := q.SQL(execColumns, dialect)
		if dialect == DialectPostgres {
			where = Numbered(where)
		}
		got, err := queryIDs(db, "SELECT id FROM units WHERE "+where+" ORDER BY id", args)
		if err != nil {
			t.Errorf("%q: %v\nSQL: %s", tc.q, err, where)
			continue
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%q: got ids %v, want %v\nSQL: %s %v", tc.q, got, tc.want, where, args)
		}
	}
	var n int
	if err := db.QueryRow("SELECT count(*) FROM units").Scan(&n); err != nil || n != len(execRows) {
		t.Errorf("units table damaged: count %d, err %v", n, err)
	}
}

func queryIDs(db *sql.DB, query string, args []any) ([]int, error) {
	rows, err := db.Query(query, args...)
	if err != nil {
		return nil, err
	}
	defer func() { _ = rows.Close() }()
	var ids []int
	for rows.Next() {
		var id int
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		ids = append(ids, id)
	}
	return ids, rows.Err()
}
