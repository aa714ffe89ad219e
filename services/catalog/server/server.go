package server

import (
	"context"
	"errors"
	"log/slog"

	typev1 "github.com/tmsproject/tms/proto/gen/go/tms/type/v1"

	"google.golang.org/grpc"

	"github.com/tmsproject/tms/pkg/errs"
	catalogv1 "github.com/tmsproject/tms/proto/gen/go/tms/catalog/v1"
	changelogv1 "github.com/tmsproject/tms/proto/gen/go/tms/changelog/v1"
	translationv1 "github.com/tmsproject/tms/proto/gen/go/tms/translation/v1"
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
	// Translation imports the binding of created and rebound components;
	// nil imports nothing (the catalog alone, in tests).
	Translation Translation
	Log         *slog.Logger
}

// Server implements catalogv1.CatalogServiceServer.
type Server struct {
	catalogv1.UnimplementedCatalogServiceServer
	st          *store.Store
	notify      func()
	removed     func()
	translation Translation
	log         *slog.Logger
}

// New returns a server over st.
func New(st *store.Store, cfg Config) *Server {
	s := &Server{st: st, notify: cfg.Notify, removed: cfg.Removed, translation: cfg.Translation, log: cfg.Log}
	if s.notify == nil {
		s.notify = func() {}
	}
	if s.removed == nil {
		s.removed = func() {}
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

// page converts a request's offset and limit, refusing negative offsets.
func page(offset, limit int64) (store.Page, error) {
	if offset < 0 {
		return store.Page{}, errs.Invalid("offset", "invalid", "Offset may not be negative.")
	}
	return store.Page{Offset: offset, Limit: limit}, nil
}
