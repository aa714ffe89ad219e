package e2e

import (
	"context"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc"

	"github.com/tmsproject/tms/gateway/stack"
	"github.com/tmsproject/tms/gateway/stacktest"
	"github.com/tmsproject/tms/pkg/errs"
	"github.com/tmsproject/tms/pkg/grpcx"
	"github.com/tmsproject/tms/pkg/weblate"
	catalogv1 "github.com/tmsproject/tms/proto/gen/go/tms/catalog/v1"
	changelogv1 "github.com/tmsproject/tms/proto/gen/go/tms/changelog/v1"
	translationv1 "github.com/tmsproject/tms/proto/gen/go/tms/translation/v1"
	typev1 "github.com/tmsproject/tms/proto/gen/go/tms/type/v1"
)

// services are the generated clients an internal caller holds.
type services struct {
	catalog     catalogv1.CatalogServiceClient
	translation translationv1.TranslationServiceClient
	changelog   changelogv1.ChangelogServiceClient
}

// TestInternalCallerGetsWhatRESTGets runs every service in one process on
// SQLite, listening on TCP, with the gateway beside them. An internal
// caller with nothing but the generated gRPC clients (and the deployment's
// service credential) creates a project and a component bound to a local
// repository, waits for its import, edits a string and deletes the
// component: the component, its translations, units and pending work are
// gone, its working copy too, and the change log holds the records. A REST
// client doing the same in another project ends in the same state.
func TestInternalCallerGetsWhatRESTGets(t *testing.T) {
	st := stacktest.Start(t, stacktest.Options{Mode: stacktest.Listening})
	data, addrs := st.DataDir, st.Addrs
	svc := dialServices(t, addrs)
	// The services dialled one another before all of them listened: wait
	// until the translation service reaches the catalog again.
	stacktest.Eventually(t, 30*time.Second, func() bool {
		_, err := svc.translation.ListTranslations(t.Context(), &translationv1.ListTranslationsRequest{})
		return err == nil
	})
	origin := makeOrigin(t)

	viaGRPC := grpcSequence(t, svc, "viagrpc", origin)
	viaREST := restSequence(t, st.API, "viarest", origin)
	got := map[string]outcome{"gRPC": observe(t, svc, data, viaGRPC), "REST": observe(t, svc, data, viaREST)}
	want := outcome{importError: "", edited: "Tschüss", pendingBeforeDelete: true, componentGone: true,
		translationsGone: true, unitGone: true, editNotFound: true, pendingGone: true, removalDelivered: true,
		// Project and component created, the import's resource update, the
		// new translation and its translation completed, component removed.
		workingCopyGone: true, actions: []int32{50, 51, 0, 5, 1, 38}}
	for name, o := range got {
		if fmt.Sprint(o) != fmt.Sprint(want) {
			t.Errorf("%s caller:\n got %+v\nwant %+v", name, o, want)
		}
	}
}

func dialServices(t *testing.T, addrs map[string]string) services {
	conn := func(name string) *grpc.ClientConn {
		c, err := grpcx.Dial(addrs[name], grpcx.WithServiceToken(serviceToken))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = c.Close() })
		return c
	}
	return services{catalog: catalogv1.NewCatalogServiceClient(conn(stack.Catalog)),
		translation: translationv1.NewTranslationServiceClient(conn(stack.Translation)),
		changelog:   changelogv1.NewChangelogServiceClient(conn(stack.Changelog))}
}

// run is what one caller did: its project, the component it created, the
// import task and the string it edited; pending says whether the edit was
// waiting to be committed when the component was deleted.
type run struct {
	project     string
	componentID int64
	taskID      string
	unitID      int64
	edited      string
	pending     bool
}

// grpcSequence is the internal caller, acting as the service itself for
// the admin (actor) with the generated clients only.
func grpcSequence(t *testing.T, svc services, project, origin string) run {
	ctx := t.Context()
	r := run{project: project}
	if _, err := svc.catalog.CreateProject(ctx, &catalogv1.CreateProjectRequest{Actor: "admin",
		Project: &catalogv1.Project{Name: project, Slug: project, Web: "https://demo.example/"}}); err != nil {
		t.Fatal(err)
	}
	created, err := svc.catalog.CreateComponent(ctx, &catalogv1.CreateComponentRequest{Actor: "admin",
		Component: &catalogv1.Component{ProjectSlug: project, Name: "Demo", Slug: "demo", Repo: "file://" + origin,
			Branch: "main", Filemask: "po/*.po", NewBase: "po/demo.pot", FileFormat: "po"},
		Fields: []string{"name", "slug", "repo", "branch", "filemask", "new_base", "file_format"}})
	if err != nil {
		t.Fatal(err)
	}
	r.componentID, r.taskID = created.GetComponent().GetId(), created.GetImportTaskId()
	if r.taskID == "" {
		t.Fatal("CreateComponent answered no import task")
	}
	waitTask(t, svc, r.taskID)
	// Resource names address what the component holds: its translation by
	// the component's name and the language, a unit by its own name.
	compName := created.GetComponent().GetResourceName()
	if compName != "projects/"+project+"/components/demo" {
		t.Fatalf("component named %q", compName)
	}
	tr, err := svc.translation.GetTranslation(ctx, &translationv1.GetTranslationRequest{Name: compName + "/translations/de"})
	if err != nil {
		t.Fatal(err)
	}
	bye := findUnitByPages(t, svc, tr.GetTranslation().GetId(), "Bye")
	byName, err := svc.translation.GetUnit(ctx, &translationv1.GetUnitRequest{Name: bye.GetResourceName()})
	if err != nil || byName.GetUnit().GetId() != bye.GetId() {
		t.Fatalf("GetUnit(%q) = %v, %v", bye.GetResourceName(), byName, err)
	}
	r.unitID = bye.GetId()
	edit, err := svc.translation.UpdateUnit(ctx, &translationv1.UpdateUnitRequest{Id: r.unitID, Target: []string{"Tschüss"}, State: typev1.UnitState_UNIT_STATE_TRANSLATED, Actor: "admin"})
	if err != nil {
		t.Fatal(err)
	}
	r.edited = strings.Join(edit.GetUnit().GetTarget(), "")
	r.pending = needsCommit(t, svc, r.componentID)
	if found, err := svc.translation.ListUnits(ctx, &translationv1.ListUnitsRequest{Query: "target:Tschüss"}); err != nil || found.GetTotal() != 1 {
		t.Fatalf("search for the edit before the delete: %d, %v", found.GetTotal(), err)
	}
	if _, err := svc.catalog.DeleteComponent(ctx, &catalogv1.DeleteComponentRequest{ProjectSlug: project, Slug: "demo", Actor: "admin"}); err != nil {
		t.Fatal(err)
	}
	return r
}

// findUnitByPages pages through a translation's units one at a time with
// page tokens, to the last page, and returns the one with this source.
func findUnitByPages(t *testing.T, svc services, translationID int64, source string) *translationv1.Unit {
	var found *translationv1.Unit
	seen := 0
	req := &translationv1.ListUnitsRequest{TranslationId: translationID, PageSize: 1}
	for {
		page, err := svc.translation.ListUnits(t.Context(), req)
		if err != nil {
			t.Fatal(err)
		}
		for _, u := range page.GetUnits() {
			seen++
			if slices.Equal(u.GetSource(), []string{source}) {
				found = u
			}
		}
		if page.GetNextPageToken() == "" {
			if int64(seen) != page.GetTotal() {
				t.Fatalf("paged through %d units of %d", seen, page.GetTotal())
			}
			break
		}
		req.PageToken = page.GetNextPageToken()
	}
	if found == nil {
		t.Fatalf("no unit with source %q", source)
	}
	return found
}

// restSequence is the same through the REST API, as the admin.
func restSequence(t *testing.T, base, project, origin string) run {
	r := run{project: project}
	call(t, "POST", base+"projects/", map[string]any{"name": project, "slug": project, "web": "https://demo.example/"}, 201)
	comp := call(t, "POST", base+"projects/"+project+"/components/", map[string]any{"name": "Demo", "slug": "demo",
		"repo": "file://" + origin, "branch": "main", "filemask": "po/*.po", "new_base": "po/demo.pot", "file_format": "po"}, 201)
	r.componentID = int64(comp["id"].(float64))
	taskURL, _ := comp["task_url"].(string)
	r.taskID = path.Base(taskURL)
	stacktest.Eventually(t, 60*time.Second, func() bool { return call(t, "GET", taskURL, nil, 200)["completed"] == true })
	units := call(t, "GET", base+"translations/"+project+"/demo/de/units/?q=source:Bye", nil, 200)
	results, _ := units["results"].([]any)
	if len(results) != 1 {
		t.Fatalf("units with source Bye: %v", units)
	}
	r.unitID = int64(results[0].(map[string]any)["id"].(float64))
	edit := call(t, "PATCH", base+"units/"+strconv.FormatInt(r.unitID, 10)+"/", map[string]any{"target": []string{"Tschüss"}, "state": 20}, 200)
	target, _ := edit["target"].([]any)
	if len(target) == 1 {
		r.edited, _ = target[0].(string)
	}
	repo := call(t, "GET", base+"components/"+project+"/demo/repository/", nil, 200)
	r.pending = repo["needs_commit"] == true
	call(t, "DELETE", base+"components/"+project+"/demo/", nil, 204)
	return r
}

func waitTask(t *testing.T, svc services, id string) {
	stacktest.Eventually(t, 60*time.Second, func() bool {
		resp, err := svc.translation.GetTask(t.Context(), &translationv1.GetTaskRequest{Id: id})
		if err != nil {
			t.Fatal(err)
		}
		return resp.GetTask().GetCompleted()
	})
}

func needsCommit(t *testing.T, svc services, componentID int64) bool {
	resp, err := svc.translation.GetRepository(t.Context(), &translationv1.GetRepositoryRequest{ComponentIds: []int64{componentID}})
	if err != nil {
		t.Fatal(err)
	}
	return resp.GetRepository().GetNeedsCommit()
}

// outcome is the state a run left, as the services tell it (and the
// working copy on disk).
type outcome struct {
	importError                                 string
	edited                                      string
	pendingBeforeDelete                         bool
	componentGone, translationsGone, unitGone   bool
	editNotFound, pendingGone, removalDelivered bool
	workingCopyGone                             bool
	actions                                     []int32
}

func observe(t *testing.T, svc services, data string, r run) outcome {
	ctx := t.Context()
	o := outcome{edited: r.edited, pendingBeforeDelete: r.pending}
	task, err := svc.translation.GetTask(ctx, &translationv1.GetTaskRequest{Id: r.taskID})
	if err == nil {
		o.importError = task.GetTask().GetError()
	}
	_, err = svc.catalog.GetComponent(ctx, &catalogv1.GetComponentRequest{Id: r.componentID})
	o.componentGone = notFound(err)
	list, err := svc.translation.ListTranslations(ctx, &translationv1.ListTranslationsRequest{ComponentId: r.componentID})
	o.translationsGone = err == nil && list.GetTotal() == 0
	_, err = svc.translation.GetUnit(ctx, &translationv1.GetUnitRequest{Id: r.unitID})
	o.unitGone = notFound(err)
	found, err := svc.translation.ListUnits(ctx, &translationv1.ListUnitsRequest{Query: "target:Tschüss"})
	o.editNotFound = err == nil && found.GetTotal() == 0
	_, err = svc.translation.GetRepository(ctx, &translationv1.GetRepositoryRequest{ComponentIds: []int64{r.componentID}})
	o.pendingGone = notFound(err)
	// The cascade: the catalog's removal delivered, the working copy gone.
	dir := filepath.Join(data, "translation", "repos", strconv.FormatInt(r.componentID, 10))
	deadline := time.Now().Add(30 * time.Second)
	for {
		removed, err := svc.catalog.ListRemovedComponents(ctx, &catalogv1.ListRemovedComponentsRequest{})
		o.removalDelivered = err == nil && !slices.Contains(removed.GetComponentIds(), r.componentID)
		_, serr := os.Stat(dir)
		o.workingCopyGone = os.IsNotExist(serr)
		if o.removalDelivered && o.workingCopyGone || time.Now().After(deadline) {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	o.actions = projectActions(ctx, t, svc, r.project, 6)
	return o
}

// projectActions waits for at least n change records of the project and
// returns their actions, oldest first.
func projectActions(ctx context.Context, t *testing.T, svc services, project string, n int) []int32 {
	var actions []int32
	deadline := time.Now().Add(30 * time.Second)
	for {
		resp, err := svc.changelog.ListChanges(ctx, &changelogv1.ListChangesRequest{ProjectSlug: project})
		if err != nil {
			t.Fatal(err)
		}
		actions = actions[:0]
		for _, c := range slices.Backward(resp.GetChanges()) {
			actions = append(actions, weblate.ChangeActions.RefOf(c.GetAction())) // the reference's numbers
		}
		if len(actions) >= n || time.Now().After(deadline) {
			return actions
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func notFound(err error) bool { return err != nil && errs.FromStatus(err).Kind == errs.NotFound }
