package store_test

import (
	"testing"

	"gorm.io/gorm"

	"github.com/tmsproject/tms/pkg/dbtest"
	"github.com/tmsproject/tms/pkg/outbox"
	"github.com/tmsproject/tms/services/translation/store"
)

// TestImportKeepsUnwrittenState re-reads a file that left a stored unit as
// it was: a state the format cannot write stays, as the reference keeps
// it (Unit.get_unit_state's fallback); a state the format writes, or any
// change of the text, follows the file.
func TestImportKeepsUnwrittenState(t *testing.T) {
	cases := []struct {
		name                 string
		fuzzy, approval      bool // what the format records
		stored, file         int  // states
		storedText, fileText string
		want                 int
	}{
		{"needs editing, format without fuzzy flag", false, false, 10, 20, "Ahoj", "Ahoj", 10},
		{"needs editing, PO", true, false, 10, 20, "Ahoj", "Ahoj", 20},
		{"needs editing, text changed", false, false, 10, 20, "Ahoj", "Nazdar", 20},
		{"approved, format without approval", true, false, 30, 20, "Ahoj", "Ahoj", 30},
		{"approved, XLIFF", true, true, 30, 20, "Ahoj", "Ahoj", 20},
		{"approved, text changed", true, false, 30, 20, "Ahoj", "Nazdar", 20},
		{"translated stays translated", false, false, 20, 20, "Ahoj", "Ahoj", 20},
		{"emptied", false, false, 10, 0, "Ahoj", "", 0},
	}
	dbtest.Engines(t, func(t *testing.T, gdb *gorm.DB) {
		for i, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				ctx := t.Context()
				s := store.New(gdb)
				comp := int64(100 + i)
				src, err := s.ImportTranslation(ctx, importSpec(comp, "en", nil, unit("Hello", "Hello", 100, 1)))
				if err != nil {
					t.Fatal(err)
				}
				spec := importSpec(comp, "cs", src.IDs, unit("Hello", tc.storedText, tc.stored, 1))
				if _, err = s.ImportTranslation(ctx, spec); err != nil {
					t.Fatal(err)
				}
				spec = importSpec(comp, "cs", src.IDs, unit("Hello", tc.fileText, tc.file, 1))
				spec.RecordsFuzzy, spec.RecordsApproval = tc.fuzzy, tc.approval
				res, err := s.ImportTranslation(ctx, spec)
				if err != nil {
					t.Fatal(err)
				}
				var got store.Unit
				if err = gdb.Where("translation_id = ?", res.Translation.ID).Take(&got).Error; err != nil {
					t.Fatal(err)
				}
				if got.State != tc.want {
					t.Errorf("state = %d, want %d", got.State, tc.want)
				}
			})
		}
	}, store.Migrations, outbox.Migrations)
}
