package server_test

import (
	"testing"

	"google.golang.org/grpc"
	"gorm.io/gorm"

	"github.com/tmsproject/tms/pkg/changefeed/changefeedtest"
	"github.com/tmsproject/tms/pkg/dbtest"
	"github.com/tmsproject/tms/pkg/errs"
	"github.com/tmsproject/tms/pkg/grpctest"
	catalogv1 "github.com/tmsproject/tms/proto/gen/go/tms/catalog/v1"
	changelogv1 "github.com/tmsproject/tms/proto/gen/go/tms/changelog/v1"
	"github.com/tmsproject/tms/services/catalog/server"
	"github.com/tmsproject/tms/services/catalog/store"
)

// env is a catalog server on a fresh SQLite database behind a real
// in-process gRPC connection.
type env struct {
	t      *testing.T
	client catalogv1.CatalogServiceClient
	gdb    *gorm.DB
}

func newEnv(t *testing.T) *env { return newEnvWith(t, server.Config{}) }

// newEnvWith is newEnv with a server configured by cfg.
func newEnvWith(t *testing.T, cfg server.Config) *env {
	t.Helper()
	gdb := dbtest.SQLite(t, store.Sources()...)
	st := store.New(gdb)
	if _, err := st.SeedLanguages(t.Context(), server.BuiltinLanguages()); err != nil {
		t.Fatal(err)
	}
	conn := grpctest.Serve(t, func(srv grpc.ServiceRegistrar) { catalogv1.RegisterCatalogServiceServer(srv, server.New(st, cfg)) })
	return &env{t: t, client: catalogv1.NewCatalogServiceClient(conn), gdb: gdb}
}

// changes returns the change records in the outbox, oldest first.
func (e *env) changes() []*changelogv1.Change { return changefeedtest.All(e.t, e.gdb) }

func (e *env) project(slug string) *catalogv1.Project {
	e.t.Helper()
	resp, err := e.client.CreateProject(e.t.Context(), &catalogv1.CreateProjectRequest{
		Project: &catalogv1.Project{Name: "Project " + slug, Slug: slug, Web: "https://example.com/"}, Actor: "admin"})
	if err != nil {
		e.t.Fatal(err)
	}
	return resp.GetProject()
}

// minimal is a component request setting only the required fields.
func minimal(project, slug string) *catalogv1.CreateComponentRequest {
	return &catalogv1.CreateComponentRequest{
		Component: &catalogv1.Component{ProjectSlug: project, Name: "Component " + slug, Slug: slug,
			FileFormat: "po", Filemask: "po/*.po", Repo: "https://example.com/repo.git"},
		Fields: []string{"name", "slug", "file_format", "filemask", "repo"},
		Actor:  "admin",
	}
}

func (e *env) component(project, slug string) *catalogv1.Component {
	e.t.Helper()
	resp, err := e.client.CreateComponent(e.t.Context(), minimal(project, slug))
	if err != nil {
		e.t.Fatal(err)
	}
	return resp.GetComponent()
}

// violation is one expected field problem.
type violation struct{ field, code, msg string }

// wantKind checks the kind of err and, for validation errors, the first
// violation (field, code, and message when given).
func wantKind(t *testing.T, err error, kind errs.Kind, v *violation) {
	t.Helper()
	e := errs.FromStatus(err)
	if e == nil || e.Kind != kind {
		t.Fatalf("error %v, want kind %v", err, kind)
	}
	if v == nil {
		return
	}
	for _, f := range e.Fields {
		if f.Field == v.field && f.Code == v.code && (v.msg == "" || f.Description == v.msg) {
			return
		}
	}
	t.Fatalf("violations %+v, want %+v", e.Fields, *v)
}
