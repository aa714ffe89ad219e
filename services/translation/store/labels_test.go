package store_test

import (
	"testing"

	"gorm.io/gorm"

	"github.com/tmsproject/tms/pkg/dbtest"
	"github.com/tmsproject/tms/pkg/errs"
	"github.com/tmsproject/tms/pkg/outbox"
	"github.com/tmsproject/tms/services/translation/search"
	"github.com/tmsproject/tms/services/translation/store"
)

// TestLabels: a project's labels on both engines: unique names, strings
// labelled through their source unit, label: search, cascade on delete.
func TestLabels(t *testing.T) {
	dbtest.Engines(t, func(t *testing.T, gdb *gorm.DB) {
		ctx := t.Context()
		s := store.New(gdb)
		src, err := s.ImportTranslation(ctx, importSpec(7, "en", nil, unit("Hello", "Hello", 100, 1), unit("Close", "Close", 100, 1)))
		if err != nil {
			t.Fatal(err)
		}
		cs, err := s.ImportTranslation(ctx, importSpec(7, "cs", src.IDs, unit("Hello", "Ahoj", 20, 1), unit("Close", "", 0, 1)))
		if err != nil {
			t.Fatal(err)
		}
		ui, err := s.CreateLabel(ctx, store.Label{ProjectID: 1, ProjectSlug: "p", Name: "UI", Color: "navy"})
		if err != nil {
			t.Fatal(err)
		}
		if _, err = s.CreateLabel(ctx, store.Label{ProjectID: 1, ProjectSlug: "p", Name: "UI", Color: "red"}); errs.KindOf(err) != errs.InvalidArgument {
			t.Errorf("duplicate name: %v", err)
		}
		other, err := s.CreateLabel(ctx, store.Label{ProjectID: 2, ProjectSlug: "q", Name: "UI", Color: "red"})
		if err != nil {
			t.Fatalf("same name in another project: %v", err)
		}
		units, _, err := s.ListUnits(ctx, cs.Translation.ID, 0, 10, store.Hidden{})
		if err != nil {
			t.Fatal(err)
		}
		hello := units[0]
		if err = s.SetUnitLabels(ctx, hello, 1, []int64{other.ID}); errs.KindOf(err) != errs.InvalidArgument {
			t.Errorf("another project's label: %v", err)
		}
		if err = s.SetUnitLabels(ctx, hello, 1, []int64{ui.ID, ui.ID}); err != nil {
			t.Fatal(err)
		}
		srcUnits, _, _ := s.ListUnits(ctx, src.Translation.ID, 0, 10, store.Hidden{})
		got, err := s.LabelsOf(ctx, append(units, srcUnits...))
		if err != nil || len(got[hello.ID]) != 1 || len(got[srcUnits[0].ID]) != 1 || len(got[units[1].ID]) != 0 {
			t.Errorf("labels of units: %v %v", got, err)
		}
		q, perr := search.Parse(`label:ui`)
		if perr != nil {
			t.Fatal(perr)
		}
		if _, n, nErr := s.SearchUnits(ctx, 0, q, 0, 10, store.Hidden{}); nErr != nil || n != 2 {
			t.Errorf("label:ui finds %d, %v; want the source and the Czech unit", n, nErr)
		}
		renamed, err := s.UpdateLabel(ctx, store.Label{ID: ui.ID, ProjectID: 1, Name: "Buttons"}, []string{"name"})
		if err != nil || renamed.Name != "Buttons" || renamed.Color != "navy" {
			t.Errorf("rename: %+v %v", renamed, err)
		}
		if _, err := s.UpdateLabel(ctx, store.Label{ID: ui.ID, ProjectID: 2, Name: "x"}, []string{"name"}); errs.KindOf(err) != errs.NotFound {
			t.Errorf("update through another project: %v", err)
		}
		if err := s.DeleteLabel(ctx, 1, ui.ID); err != nil {
			t.Fatal(err)
		}
		if got, _ := s.LabelsOf(ctx, units); len(got[hello.ID]) != 0 {
			t.Errorf("deleted label still on the string: %v", got)
		}
		if ls, total, err := s.ListLabels(ctx, 2, 0, 10); err != nil || total != 1 || ls[0].ID != other.ID {
			t.Errorf("list q: %v %d %v", ls, total, err)
		}
	}, store.Migrations, outbox.Migrations)
}
