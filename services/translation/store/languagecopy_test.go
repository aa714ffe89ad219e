package store_test

import (
	"testing"

	"gorm.io/gorm"

	"github.com/tmsproject/tms/pkg/dbtest"
	catalogv1 "github.com/tmsproject/tms/proto/gen/go/tms/catalog/v1"
	translationv1 "github.com/tmsproject/tms/proto/gen/go/tms/translation/v1"
	"github.com/tmsproject/tms/services/translation/store"
)

// TestLanguageCopy: the copy of the language table on both engines takes
// newer revisions only, finds codes as the catalog does (exactly, then
// ignoring case), and gives translations read with a plural the copy
// lacked (id 0) the id a newer table has for their rule.
func TestLanguageCopy(t *testing.T) {
	dbtest.Engines(t, func(t *testing.T, gdb *gorm.DB) {
		ctx, s := t.Context(), store.New(gdb)
		if l, err := s.LanguageTable(ctx); err != nil || l.Revision != 0 {
			t.Fatalf("before the first table: revision %v, %v", l, err)
		}
		three := "n==1 ? 0 : n==2 ? 1 : 2"
		table := func(rev int64, plurals ...*catalogv1.Plural) *translationv1.LanguageTable {
			return &translationv1.LanguageTable{Revision: rev, Plurals: plurals, Languages: []*catalogv1.Language{
				{Id: 7, Code: "de", PluralId: 7, PluralNumber: 2, PluralFormula: "n != 1"},
				{Id: 9, Code: "sr_Latn", PluralId: 9, PluralNumber: 3, PluralFormula: three}}}
		}
		apply := func(want bool, tb *translationv1.LanguageTable) {
			t.Helper()
			if got, err := s.ApplyLanguages(ctx, tb); err != nil || got != want {
				t.Fatalf("apply revision %d: %v, %v; want %v", tb.GetRevision(), got, err, want)
			}
		}
		apply(true, table(2))
		apply(false, table(1)) // late and older
		apply(false, table(2)) // the same again
		l, err := s.LanguageTable(ctx)
		if err != nil || l.Revision != 2 {
			t.Fatalf("table: %v, %v", l, err)
		}
		for code, want := range map[string]int64{"de": 7, "DE": 7, "sr_latn": 9, "fr": 0} {
			if got, ok := l.Find(code); got.GetId() != want || ok != (want != 0) {
				t.Errorf("find %q: %v %v, want %d", code, got, ok, want)
			}
		}

		// de read with a file's three-form rule, sr_Latn with its default,
		// both before the copy had the ids.
		for _, tr := range []store.Translation{
			{ComponentID: 1, LanguageCode: "de", PluralNumber: 3, PluralFormula: three},
			{ComponentID: 1, LanguageCode: "sr_Latn", PluralNumber: 3, PluralFormula: three},
		} {
			spec := importSpec(1, tr.LanguageCode, nil, unit("Hello", "", 0, 1))
			spec.Translation.PluralNumber, spec.Translation.PluralFormula = tr.PluralNumber, tr.PluralFormula
			if _, err = s.ImportTranslation(ctx, spec); err != nil {
				t.Fatal(err)
			}
		}
		apply(true, table(3, &catalogv1.Plural{Id: 12, LanguageCode: "de", Source: 1, Number: 3, Formula: three}))
		for code, want := range map[string]int64{"de": 12, "sr_Latn": 9} {
			if tr, err := s.GetTranslation(ctx, 1, code); err != nil || tr.PluralID != want {
				t.Errorf("%s after the table: plural %d, %v; want %d", code, tr.PluralID, err, want)
			}
		}
	}, store.Sources()...)
}
