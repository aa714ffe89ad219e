package store

import (
	"slices"
	"sync"

	"gorm.io/gorm"

	"github.com/tmsproject/tms/pkg/db"
)

// genCache keeps values as last read, for as long as nothing was written
// to the catalog's database since (db.Generation). Every gateway request
// that names a component or a project looks them up (a unit edit, a units
// page); any write empties the cache, so a lock, a rename, a change of
// access or a delete shows at once. It works on SQLite only, where this
// process is the only writer; on PostgreSQL every lookup reads.
type genCache[K comparable, V any] struct {
	mu    sync.Mutex
	gen   uint64
	m     map[K]V
	clone func(V) V // a copy no caller shares
}

// maxCached bounds a cache; past it, it starts over.
const maxCached = 4096

func (c *genCache[K, V]) get(gen uint64, k K) (V, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	v, ok := c.m[k]
	if !ok || c.gen != gen {
		var zero V
		return zero, false
	}
	return c.clone(v), true
}

// put keeps a copy of v, read after taking generation gen.
func (c *genCache[K, V]) put(gen uint64, k K, v V) {
	c.mu.Lock()
	defer c.mu.Unlock()
	switch {
	case gen < c.gen:
		return // read before a write this cache already knows of
	case gen > c.gen || c.m == nil || len(c.m) >= maxCached:
		c.gen, c.m = gen, map[K]V{}
	}
	c.m[k] = c.clone(v)
}

// cached answers k from c, or reads it and keeps it.
func cached[K comparable, V any](gdb *gorm.DB, c *genCache[K, V], k K, read func() (V, error)) (V, error) {
	gen, ok := db.Generation(gdb)
	if ok {
		if v, hit := c.get(gen, k); hit {
			return v, nil
		}
	}
	v, err := read()
	if err == nil && ok {
		c.put(gen, k, v)
	}
	return v, err
}

// caches are the store's genCaches.
type caches struct {
	componentByID   genCache[int64, *Component]
	componentBySlug genCache[[2]string, *Component] // project slug, component slug
	projectBySlug   genCache[string, *Project]
	removed         genCache[struct{}, []int64]
	access          genCache[struct{}, []ProjectLevel]
}

func newCaches() *caches {
	c := &caches{}
	c.componentByID.clone = (*Component).clone
	c.componentBySlug.clone = (*Component).clone
	c.projectBySlug.clone = func(p *Project) *Project { cp := *p; return &cp }
	c.removed.clone = slices.Clone[[]int64]
	c.access.clone = slices.Clone[[]ProjectLevel]
	return c
}

// clone copies c deeply enough that no caller shares its slices.
func (c *Component) clone() *Component {
	cp := *c
	cp.EnforcedChecks = slices.Clone(c.EnforcedChecks)
	if c.LinkedComponentID != nil {
		id := *c.LinkedComponentID
		cp.LinkedComponentID = &id
	}
	return &cp
}
