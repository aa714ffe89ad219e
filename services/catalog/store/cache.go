package store

import (
	"slices"
	"sync"
)

// componentCache keeps components as last read, for as long as nothing
// was written to the catalog's database since (db.Generation): every
// request that names a component (a unit edit, a units page) looks it
// up, and the read joins five tables into some sixty columns. Any write
// empties it, so a lock, a rename or a change of access shows at once. It
// works on SQLite only, where this process is the only writer; on
// PostgreSQL every lookup reads.
type componentCache struct {
	mu     sync.Mutex
	gen    uint64
	byID   map[int64]*Component
	bySlug map[[2]string]*Component // project slug, component slug
}

// maxCached bounds the cache; past it, it starts over.
const maxCached = 4096

// get answers a copy of the component cached at generation gen.
func (c *componentCache) get(gen uint64, id int64, slugs [2]string) (*Component, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.gen != gen {
		return nil, false
	}
	comp := c.byID[id]
	if id == 0 {
		comp = c.bySlug[slugs]
	}
	if comp == nil {
		return nil, false
	}
	return comp.clone(), true
}

// put keeps a copy of comp, read after taking generation gen.
func (c *componentCache) put(gen uint64, comp *Component) {
	c.mu.Lock()
	defer c.mu.Unlock()
	switch {
	case gen < c.gen:
		return // read before a write this cache already knows of
	case gen > c.gen || len(c.byID) >= maxCached:
		c.gen, c.byID, c.bySlug = gen, map[int64]*Component{}, map[[2]string]*Component{}
	}
	kept := comp.clone()
	c.byID[kept.ID] = kept
	c.bySlug[[2]string{kept.ProjectSlug, kept.Slug}] = kept
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
