package translation_test

import (
	"testing"

	"google.golang.org/protobuf/types/known/fieldmaskpb"

	"github.com/tmsproject/tms/pkg/errs"
	catalogv1 "github.com/tmsproject/tms/proto/gen/go/tms/catalog/v1"
	translationv1 "github.com/tmsproject/tms/proto/gen/go/tms/translation/v1"
	"github.com/tmsproject/tms/services/translation/internal/fixture"
)

// TestLabelsOverGRPC is an internal caller's view of labels: create,
// read, list, change, delete, set on a string and search by them.
func TestLabelsOverGRPC(t *testing.T) {
	e := newEnv(t, true)
	ctx := t.Context()
	e.catalog.Set(greeter(1, fixture.Origin(t, fixture.Files())), &catalogv1.Project{Id: 7, Slug: "hello", Name: "Hello"})
	if task := e.importNow(t, 1); task.GetError() != "" {
		t.Fatal(task.GetError())
	}
	created, err := e.client.CreateLabel(ctx, &translationv1.CreateLabelRequest{Label: &translationv1.Label{ProjectSlug: "hello", Name: "UI", Color: "navy"}})
	if err != nil || created.GetLabel().GetProjectId() != 7 {
		t.Fatalf("create: %v %v", created, err)
	}
	id := created.GetLabel().GetId()
	_, err = e.client.CreateLabel(ctx, &translationv1.CreateLabelRequest{Label: &translationv1.Label{ProjectSlug: "hello", Name: "X", Color: "chartreuse"}})
	if errs.FromStatus(err).Kind != errs.InvalidArgument {
		t.Errorf("bad colour: %v", err)
	}
	if _, err = e.client.UpdateLabel(ctx, &translationv1.UpdateLabelRequest{Label: &translationv1.Label{ProjectSlug: "hello", Id: id, Description: "Buttons"},
		UpdateMask: &fieldmaskpb.FieldMask{Paths: []string{"description"}}}); err != nil {
		t.Fatal(err)
	}
	got, err := e.client.GetLabel(ctx, &translationv1.GetLabelRequest{ProjectSlug: "hello", Id: id})
	if err != nil || got.GetLabel().GetDescription() != "Buttons" || got.GetLabel().GetColor() != "navy" {
		t.Errorf("get: %v %v", got, err)
	}
	unit := e.unit(t, "cs", "Close")
	edited, err := e.client.UpdateUnit(ctx, &translationv1.UpdateUnitRequest{Id: unit.GetId(), SetLabels: true, LabelsOnly: true, LabelIds: []int64{id}})
	if err != nil || len(edited.GetUnit().GetLabels()) != 1 || edited.GetUnit().GetTarget()[0] != unit.GetTarget()[0] {
		t.Fatalf("label the string: %v %v", edited, err)
	}
	// The label is the string's: every translation of it carries it.
	trs, _ := e.client.ListTranslations(ctx, &translationv1.ListTranslationsRequest{ComponentId: 1})
	found, err := e.client.ListUnits(ctx, &translationv1.ListUnitsRequest{Query: "label:UI"})
	if err != nil || found.GetTotal() != trs.GetTotal() || trs.GetTotal() < 2 {
		t.Errorf("label:UI finds %d units, want one in each of the %d translations, %v", found.GetTotal(), trs.GetTotal(), err)
	}
	// A page shows the labels of its labelled units (by their source
	// string) and none on the others.
	for _, lang := range []string{"cs", "en"} {
		page, perr := e.client.ListUnits(ctx, &translationv1.ListUnitsRequest{ComponentId: 1, LanguageCode: lang})
		if perr != nil || len(page.GetUnits()) < 2 {
			t.Fatalf("page of %s: %v %v", lang, page, perr)
		}
		for _, u := range page.GetUnits() {
			want := 0
			if u.GetSource()[0] == "Close" {
				want = 1
			}
			if len(u.GetLabels()) != want || (want == 1 && u.GetLabels()[0].GetName() != "UI") {
				t.Errorf("%s %q has labels %v, want %d", lang, u.GetSource(), u.GetLabels(), want)
			}
		}
	}
	list, err := e.client.ListLabels(ctx, &translationv1.ListLabelsRequest{ProjectSlug: "hello"})
	if err != nil || list.GetTotal() != 1 {
		t.Errorf("list: %v %v", list, err)
	}
	if _, err := e.client.DeleteLabel(ctx, &translationv1.DeleteLabelRequest{ProjectSlug: "hello", Id: id}); err != nil {
		t.Fatal(err)
	}
	after, _ := e.client.GetUnit(ctx, &translationv1.GetUnitRequest{Id: unit.GetId()})
	if len(after.GetUnit().GetLabels()) != 0 {
		t.Errorf("a deleted label stays on the string: %v", after.GetUnit().GetLabels())
	}
}
