package server

import (
	"encoding/json"
	"errors"

	"github.com/tmsproject/tms/pkg/errs"
	catalogv1 "github.com/tmsproject/tms/proto/gen/go/tms/catalog/v1"
	changelogv1 "github.com/tmsproject/tms/proto/gen/go/tms/changelog/v1"
	"github.com/tmsproject/tms/services/catalog/store"
)

// Change actions the catalog records (COMPAT.md §7).
const (
	actionLock            = 14
	actionUnlock          = 15
	actionRemoveComponent = 38
	actionRemoveProject   = 39
	actionCreateProject   = 50
	actionCreateComponent = 51
)

// Server implements catalogv1.CatalogServiceServer.
type Server struct {
	catalogv1.UnimplementedCatalogServiceServer
	st     *store.Store
	notify func()
}

// New returns a server over st. notify, when not nil, is called after each
// committed write that recorded changes (to wake the outbox relay).
func New(st *store.Store, notify func()) *Server {
	if notify == nil {
		notify = func() {}
	}
	return &Server{st: st, notify: notify}
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
func change(action int32, actor, projectSlug, componentSlug string) *changelogv1.Change {
	return &changelogv1.Change{Action: action, ProjectSlug: projectSlug, ComponentSlug: componentSlug,
		User: actor, Author: actor}
}

func detailsJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err) // only called with maps of plain values
	}
	return string(b)
}

// page converts a request's offset and limit, refusing negative offsets.
func page(offset, limit int64) (store.Page, error) {
	if offset < 0 {
		return store.Page{}, errs.Invalid("offset", "invalid", "Offset may not be negative.")
	}
	return store.Page{Offset: offset, Limit: limit}, nil
}
