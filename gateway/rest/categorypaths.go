package rest

import (
	"context"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/tmsproject/tms/pkg/errs"
	"github.com/tmsproject/tms/pkg/policy"
	catalogv1 "github.com/tmsproject/tms/proto/gen/go/tms/catalog/v1"
)

// categoryPathTTL bounds how long a gateway names a moved component by its
// old category path in the URLs it writes.
const categoryPathTTL = 2 * time.Second

// categoryPaths knows, per project, the category path of each component
// in a category, for the URLs of components and translations. Most
// projects have no categories: for them one cheap category count is
// cached, and no component list is read.
type categoryPaths struct {
	catalog catalogv1.CatalogServiceClient
	log     *slog.Logger
	mu      sync.Mutex
	byProj  map[string]projectPaths
}

type projectPaths struct {
	fetched time.Time
	paths   map[string]string // component slug → category path
}

func newCategoryPaths(catalog catalogv1.CatalogServiceClient, log *slog.Logger) *categoryPaths {
	return &categoryPaths{catalog: catalog, log: log, byProj: map[string]projectPaths{}}
}

// lookup is the category path of component c of project p, "" when it is
// in none (or the catalog cannot say: the URL then names the slug alone,
// which this gateway also answers).
func (cp *categoryPaths) lookup(p, c string) string {
	if cp == nil || cp.catalog == nil {
		return ""
	}
	cp.mu.Lock()
	e, ok := cp.byProj[p]
	cp.mu.Unlock()
	if !ok || time.Since(e.fetched) > categoryPathTTL {
		e = cp.fetch(p)
		cp.mu.Lock()
		cp.byProj[p] = e
		cp.mu.Unlock()
	}
	return e.paths[c]
}

// forget drops what is known of a project after a change made here.
func (cp *categoryPaths) forget(p string) {
	if cp == nil {
		return
	}
	cp.mu.Lock()
	delete(cp.byProj, p)
	cp.mu.Unlock()
}

// fetch reads a project's paths as the service itself: the result only
// names components in URLs of responses that already show them. It has a
// context of its own: the entry is shared, and one request's cancellation
// must not leave an empty one in the cache.
//
//nolint:contextcheck // see above
func (cp *categoryPaths) fetch(p string) projectPaths {
	e := projectPaths{fetched: time.Now()}
	ctx, cancel := context.WithTimeout(policy.System(context.Background()), 5*time.Second)
	defer cancel()
	cats, err := cp.catalog.ListCategories(ctx, &catalogv1.ListCategoriesRequest{ProjectSlug: p, Limit: 1})
	if err != nil || cats.GetTotal() == 0 {
		if err != nil && errs.FromStatus(err).Kind != errs.NotFound {
			cp.log.Warn("category paths", "project", p, "err", err)
		}
		return e
	}
	comps, err := cp.catalog.ListComponents(ctx, &catalogv1.ListComponentsRequest{ProjectSlug: p})
	if err != nil {
		cp.log.Warn("category paths", "project", p, "err", err)
		return e
	}
	e.paths = map[string]string{}
	for _, c := range comps.GetComponents() {
		if c.GetCategoryPath() != "" {
			e.paths[c.GetSlug()] = c.GetCategoryPath()
		}
	}
	return e
}

// slashes unescapes the slashes of a category path; built once, as a
// Replacer builds its tables on first use.
var slashes = strings.NewReplacer("%2F", "/", "%2f", "/")

// splitComponentParam reads the reference's addressing of a component in
// a category ("docs%2Fusage", or "docs/usage" once more unescaped): the
// slug stays in "component", the path goes to "category_path".
func splitComponentParam(params map[string]string) {
	v, ok := params["component"]
	if !ok {
		return
	}
	v = slashes.Replace(v)
	if i := strings.LastIndexByte(v, '/'); i >= 0 {
		params["component"], params["category_path"] = v[i+1:], v[:i]
	}
}
