package server

import (
	"context"
	"errors"
	"log/slog"

	"google.golang.org/grpc"
	"google.golang.org/protobuf/proto"

	"github.com/tmsproject/tms/pkg/errs"
	"github.com/tmsproject/tms/pkg/pagetoken"
	catalogv1 "github.com/tmsproject/tms/proto/gen/go/tms/catalog/v1"
	changelogv1 "github.com/tmsproject/tms/proto/gen/go/tms/changelog/v1"
	translationv1 "github.com/tmsproject/tms/proto/gen/go/tms/translation/v1"
	typev1 "github.com/tmsproject/tms/proto/gen/go/tms/type/v1"
	"github.com/tmsproject/tms/services/catalog/store"
)

// Change actions the catalog records (COMPAT.md §7).
const (
	actionLock            = typev1.ChangeAction_CHANGE_ACTION_LOCK
	actionUnlock          = typev1.ChangeAction_CHANGE_ACTION_UNLOCK
	actionRemoveComponent = typev1.ChangeAction_CHANGE_ACTION_REMOVE_COMPONENT
	actionRemoveProject   = typev1.ChangeAction_CHANGE_ACTION_REMOVE_PROJECT
	actionRenameProject   = typev1.ChangeAction_CHANGE_ACTION_RENAME_PROJECT
	actionRenameComponent = typev1.ChangeAction_CHANGE_ACTION_RENAME_COMPONENT
	actionCreateProject   = typev1.ChangeAction_CHANGE_ACTION_CREATE_PROJECT
	actionCreateComponent = typev1.ChangeAction_CHANGE_ACTION_CREATE_COMPONENT
)

// Translation is the part of the translation service the catalog calls:
// the import of a component's binding.
type Translation interface {
	ImportComponent(ctx context.Context, in *translationv1.ImportComponentRequest, opts ...grpc.CallOption) (*translationv1.ImportComponentResponse, error)
}

// Config wires a Server; every field is optional.
type Config struct {
	// Notify is called after each committed write that recorded changes
	// (to wake the change log's outbox relay).
	Notify func()
	// Removed is called after each committed delete of components (to
	// wake the relay of store.Removals).
	Removed func()
	// Lifecycle is called after each committed write that created,
	// renamed or deleted a project or component (store.Lifecycle): it
	// delivers their events to the notification service before the call
	// answers, so that the creator of a project administers it when the
	// creation answers, and a project created next under a deleted or
	// former slug finds none of the old teams (bounded: see
	// outbox.Relay.Flush).
	Lifecycle func()
	// Translation imports the binding of created and rebound components;
	// nil imports nothing (the catalog alone, in tests).
	Translation Translation
	// AllowLocalRepos lets push URLs name local paths and local or
	// private network addresses (TMS_ALLOW_LOCAL_REPOS).
	AllowLocalRepos bool
	Log             *slog.Logger
}

// Server implements catalogv1.CatalogServiceServer.
type Server struct {
	catalogv1.UnimplementedCatalogServiceServer
	st          Store
	notify      func()
	removed     func()
	lifecycle   func()
	translation Translation
	allowLocal  bool // TMS_ALLOW_LOCAL_REPOS
	log         *slog.Logger
}

// New returns a server over st.
func New(st Store, cfg Config) *Server {
	s := &Server{st: st, notify: cfg.Notify, removed: cfg.Removed, lifecycle: cfg.Lifecycle, translation: cfg.Translation,
		allowLocal: cfg.AllowLocalRepos, log: cfg.Log}
	for _, f := range []*func(){&s.notify, &s.removed, &s.lifecycle} {
		if *f == nil {
			*f = func() {}
		}
	}
	if s.log == nil {
		s.log = slog.Default()
	}
	return s
}

var _ catalogv1.CatalogServiceServer = (*Server)(nil)

// notFound is the error for any missing resource.
func notFound() error { return errs.NotFoundf("Not found.") }

// storeErr maps the store's errors to API errors; for duplicates, the
// message names the resource kind ("Project with this URL slug ...").
func storeErr(err error, duplicate func(field string) string) error {
	var dup *store.DuplicateError
	switch {
	case err == nil:
		return nil
	case errors.Is(err, store.ErrNotFound):
		return notFound()
	case errors.As(err, &dup) && duplicate != nil:
		return errs.Invalid(dup.Field, "unique", duplicate(dup.Field))
	}
	return errs.Wrap(errs.Internal, err, "Internal server error.")
}

// change builds a change record acted by actor (user and credited author).
func change(action typev1.ChangeAction, actor, projectSlug, componentSlug string) *changelogv1.Change {
	return &changelogv1.Change{Action: action, ProjectSlug: projectSlug, ComponentSlug: componentSlug,
		User: actor, Author: actor}
}

// listLimits are the page sizes of every List RPC of the catalog, as the
// protos document them.
var listLimits = pagetoken.Limits{Default: 50, Max: 1000}

// listPage reads the paging of a List request: its page_token form, or
// offset and limit (pagetoken refuses a negative offset). The token page
// gives the response's next_page_token.
func listPage(req proto.Message) (store.Page, pagetoken.Page, error) {
	tp, err := listLimits.Read(req)
	return store.Page{Offset: tp.Offset, Limit: tp.Limit}, tp, err
}
