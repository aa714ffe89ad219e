package translation_test

import (
	"testing"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/tmsproject/tms/pkg/errs"
	"github.com/tmsproject/tms/pkg/policy"
	catalogv1 "github.com/tmsproject/tms/proto/gen/go/tms/catalog/v1"
	translationv1 "github.com/tmsproject/tms/proto/gen/go/tms/translation/v1"
	typev1 "github.com/tmsproject/tms/proto/gen/go/tms/type/v1"
)

// TestReadsAndEditsWithoutTheCatalog stops the catalog after two imports
// (a public project and a private one): the service still answers unit
// reads and edits by id from its own copy of the catalog, over gRPC, and
// still hides the private project from a caller who may not see it; it
// imports a new component and imports a bound one again, its files'
// languages resolved against its copy of the language table.
func TestReadsAndEditsWithoutTheCatalog(t *testing.T) {
	e, origin := setupRepo(t, nil)
	secret := greeter(2, origin)
	secret.ProjectSlug = "secret"
	e.catalog.Set(secret, &catalogv1.Project{Slug: "secret", Name: "Secret", AccessControl: typev1.AccessControl_ACCESS_CONTROL_PRIVATE})
	if task := e.importNow(t, 2); task.GetError() != "" {
		t.Fatal(task.GetError())
	}
	public := e.units(t, e.translation(t, 1, "de").GetId())[0]
	hidden := e.units(t, e.translation(t, 2, "de").GetId())[0]

	e.stopCatalog()
	_, err := catalogv1.NewCatalogServiceClient(e.catalogConn).GetComponent(t.Context(), &catalogv1.GetComponentRequest{Id: 1})
	if status.Code(err) != codes.Unavailable {
		t.Fatalf("the catalog answers after its stop: %v", err)
	}
	mia := policy.WithCaller(t.Context(), policy.Caller{Username: "mia", Grants: policy.DefaultGrants(false)})
	if _, err = e.client.GetUnit(mia, &translationv1.GetUnitRequest{Id: public.GetId()}); err != nil {
		t.Fatalf("read a unit: %v", err)
	}
	if _, err = e.client.ListUnits(mia, &translationv1.ListUnitsRequest{TranslationId: public.GetTranslationId()}); err != nil {
		t.Fatalf("list units: %v", err)
	}
	edited, err := e.client.UpdateUnit(mia, &translationv1.UpdateUnitRequest{Id: public.GetId(), Target: []string{"Ohne Katalog"},
		State: typev1.UnitState_UNIT_STATE_TRANSLATED, Actor: "mia"})
	if err != nil {
		t.Fatalf("edit a unit: %v", err)
	}
	got, err := e.client.GetUnit(mia, &translationv1.GetUnitRequest{Id: public.GetId()})
	if err != nil || got.GetUnit().GetTarget()[0] != "Ohne Katalog" || edited.GetUnit().GetTarget()[0] != "Ohne Katalog" {
		t.Errorf("after the edit: %v, %v", got.GetUnit().GetTarget(), err)
	}
	if _, err = e.client.GetUnit(mia, &translationv1.GetUnitRequest{Id: hidden.GetId()}); kind(err) != errs.NotFound {
		t.Errorf("a unit of the private project: %v, want NotFound", err)
	}
	_, err = e.client.UpdateUnit(mia, &translationv1.UpdateUnitRequest{Id: hidden.GetId(), Target: []string{"x"},
		State: typev1.UnitState_UNIT_STATE_TRANSLATED, Actor: "mia"})
	if kind(err) != errs.NotFound {
		t.Errorf("an edit in the private project: %v, want NotFound", err)
	}

	third := greeter(3, origin)
	third.Slug = "third"
	e.catalog.Set(third, project)
	for _, id := range []int64{3, 1} {
		if task := e.importNow(t, id); task.GetError() != "" {
			t.Fatalf("import component %d without the catalog: %s", id, task.GetError())
		}
	}
	if units := e.units(t, e.translation(t, 3, "cs").GetId()); len(units) == 0 {
		t.Error("the component imported without the catalog has no Czech units")
	}
}
