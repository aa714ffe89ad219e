package search

import (
	"database/sql"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestIndexFoldsToASCII checks indexFoldsToASCII against lowersToASCII and
// every character FTS5's case-folding trigram tokenizer turns into ASCII:
// it indexes each non-ASCII character after two tildes and reads back the
// trigrams that came out ASCII.
func TestIndexFoldsToASCII(t *testing.T) {
	db, err := sql.Open("sqlite", ":memory:")
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = db.Close() }()
	db.SetMaxOpenConns(1) // one in-memory database
	for _, q := range []string{`CREATE VIRTUAL TABLE f USING fts5 (t, tokenize = 'trigram')`,
		`CREATE VIRTUAL TABLE v USING fts5vocab (f, 'instance')`} {
		if _, xerr := db.Exec(q); xerr != nil {
			t.Fatal(xerr)
		}
	}
	// A row of 4096 characters, "~~" before each: the trigram at offset
	// 3i is "~~" and the folded character rowid+i.
	const block = 4096
	for start := rune(utf8.RuneSelf); start <= utf8.MaxRune; start += block {
		var b strings.Builder
		for r := start; r < start+block; r++ {
			b.WriteString("~~")
			if utf8.ValidRune(r) {
				b.WriteRune(r)
			} else {
				b.WriteByte('~')
			}
		}
		if _, xerr := db.Exec(`INSERT INTO f (rowid, t) VALUES (?, ?)`, start, b.String()); xerr != nil {
			t.Fatal(xerr)
		}
	}
	rows, err := db.Query(`SELECT doc + "offset" / 3 FROM v WHERE "offset" % 3 = 0 AND unicode(substr(term, 3, 1)) < 128`)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = rows.Close() }()
	want := slices.Clone(lowersToASCII)
	for rows.Next() {
		var r rune
		if err := rows.Scan(&r); err != nil {
			t.Fatal(err)
		}
		if utf8.ValidRune(r) && !slices.Contains(want, r) {
			want = append(want, r)
		}
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	slices.Sort(want)
	if !slices.Contains(want, '\u212a') { // the derivation itself works
		t.Fatalf("FTS5 folds nothing into ASCII, not even the Kelvin sign: %q", want)
	}
	if !slices.Equal(indexFoldsToASCII, want) {
		t.Errorf("indexFoldsToASCII = %q, lower() and FTS5 say %q", indexFoldsToASCII, want)
	}
}
