package store

import (
	"sync"

	"google.golang.org/protobuf/proto"

	catalogv1 "github.com/tmsproject/tms/proto/gen/go/tms/catalog/v1"
)

// copyCache keeps the copy of the catalog as last read, on SQLite, where
// this process is the database's only writer: every write to the copy
// (ApplySnapshot, ForgetCatalogComponents) goes through this store and
// empties the cache, so reads and edits find the component, its project,
// the access levels and the deleted components without a query. On
// PostgreSQL, other replicas write the copy, and every lookup reads.
type copyCache struct {
	mu       sync.Mutex
	gen      uint64 // writes to the copy so far
	comps    map[int64]*catalogv1.Component
	slugs    map[[2]string]*catalogv1.Component
	projects map[string]*catalogv1.Project
	removed  []int64 // nil: not read
	access   *catalogv1.GetProjectAccessResponse
}

func newCopyCache() *copyCache {
	c := &copyCache{}
	c.reset()
	return c
}

// reset empties the cache (c.mu held, or c not shared yet).
func (c *copyCache) reset() {
	c.comps, c.slugs, c.projects = map[int64]*catalogv1.Component{}, map[[2]string]*catalogv1.Component{}, map[string]*catalogv1.Project{}
	c.removed, c.access = nil, nil
}

// written empties the cache: called before and after a write to the copy,
// so that nothing read before the write is kept after it.
func (c *copyCache) written() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.gen++
	c.reset()
}

// generation is the count of writes, taken before a read whose answer is
// kept only if no write came meanwhile (keep).
func (c *copyCache) generation() uint64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.gen
}

// keep runs put under the lock if no write came since gen.
func (c *copyCache) keep(gen uint64, put func()) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.gen == gen {
		put()
	}
}

// lookup runs get under the lock.
func lookup[T any](c *copyCache, get func() (T, bool)) (T, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return get()
}

// cachedMessage answers a message of the cache, a copy no caller shares,
// or reads it and keeps it.
func cachedMessage[M proto.Message](c *copyCache, get func() (M, bool), read func() (M, error), put func(M)) (M, error) {
	return cachedValue(c, proto.CloneOf[M], get, read, put)
}

// cachedValue answers a value of the cache (get), cloned so that no
// caller shares it, or reads it and keeps a clone if no write came
// meanwhile. Without a cache (c nil) it reads.
func cachedValue[T any](c *copyCache, clone func(T) T, get func() (T, bool), read func() (T, error), put func(T)) (T, error) {
	if c == nil {
		return read()
	}
	if v, ok := lookup(c, get); ok {
		return clone(v), nil
	}
	gen := c.generation()
	v, err := read()
	if err != nil {
		return v, err
	}
	c.keep(gen, func() { put(clone(v)) })
	return v, nil
}
