package policy

import (
	"context"
	"sync"
	"time"
)

// AccessCache keeps what credentials resolve to (an API token's account
// and grants, the anonymous caller's grants) for as long as the access
// version they were read under is current, so that a change of teams,
// roles, accounts or tokens made anywhere (any gateway replica, a direct
// gRPC call) ends their use within Every, and no handler has to clear the
// cache after a write.
//
// The version is the notification service's (GetAccessVersion): it grows
// in the transaction of every such change. The cache reads it at most once
// per Every, and before the first lookup after Unverified. When the
// version cannot be read, an entry lives MaxAge after it was read, no
// longer.
//
// The version only grows; a notification database started over (a new
// version 1) needs the gateways started over too.
type AccessCache[V any] struct {
	version func(ctx context.Context) (int64, error) // nil: MaxAge alone
	every   time.Duration
	maxAge  time.Duration
	now     func() time.Time
	limit   int

	mu      sync.Mutex
	current int64
	checked time.Time     // when current was read; zero: read it first
	reading chan struct{} // closed when the read under way ends; nil: none
	epoch   int           // Unverified calls so far
	entries map[string]cached[V]
}

// cached is an entry and the version and time it was read at.
type cached[V any] struct {
	value   V
	version int64
	read    time.Time
}

// NewAccessCache returns a cache reading the access version through
// version (nil: entries live maxAge), at most once per every.
func NewAccessCache[V any](version func(ctx context.Context) (int64, error), every, maxAge time.Duration) *AccessCache[V] {
	return &AccessCache[V]{version: version, every: every, maxAge: maxAge, now: time.Now, limit: 10000,
		entries: map[string]cached[V]{}}
}

// Get answers key from the cache while its entry is current, else from
// load, whose answer it keeps (not its error).
func (c *AccessCache[V]) Get(ctx context.Context, key string, load func(ctx context.Context) (V, error)) (V, error) {
	version := c.verify(ctx)
	now := c.now()
	c.mu.Lock()
	e, hit := c.entries[key]
	c.mu.Unlock()
	if hit && e.version == version && now.Sub(e.read) < c.maxAge {
		return e.value, nil
	}
	v, err := load(ctx)
	if err != nil {
		return v, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.entries) >= c.limit {
		c.entries = map[string]cached[V]{}
	}
	if version == c.current { // not read under a version that went by meanwhile
		c.entries[key] = cached[V]{value: v, version: version, read: now}
	}
	return v, nil
}

// Unverified has the next lookup read the version first: after a write
// this process made, which may have changed it, the next request must
// not be answered from before the write.
func (c *AccessCache[V]) Unverified() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.checked = time.Time{}
	c.epoch++
}

// verify reads the version when it is older than every (or unverified)
// and drops the entries of an older one; it returns the current version.
//
// One read runs at a time: requests arriving meanwhile wait for its
// answer rather than ask too. A read that started before Unverified does
// not count as a check (it may predate the write): a request waiting on
// it reads again.
func (c *AccessCache[V]) verify(ctx context.Context) int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	for {
		now := c.now()
		if c.version == nil || (!c.checked.IsZero() && now.Sub(c.checked) < c.every) {
			return c.current
		}
		if wait := c.reading; wait != nil {
			c.mu.Unlock()
			select {
			case <-wait:
			case <-ctx.Done():
			}
			c.mu.Lock()
			if ctx.Err() != nil {
				return c.current
			}
			continue
		}
		c.read(ctx, now)
		return c.current
	}
}

// read asks for the version (c.mu held on entry and on return, not
// during the call) and takes its answer.
func (c *AccessCache[V]) read(ctx context.Context, now time.Time) {
	done, epoch := make(chan struct{}), c.epoch
	c.reading = done
	c.mu.Unlock()
	v, err := c.version(ctx)
	c.mu.Lock()
	c.reading = nil
	close(done)
	if err != nil {
		// Entries live maxAge; ask again after every (the service is away),
		// or at once if a write came meanwhile.
		if c.epoch == epoch {
			c.checked = now
		}
		return
	}
	if v > c.current { // it only grows: an older answer arriving late is no news
		c.current, c.entries = v, map[string]cached[V]{}
	}
	if c.epoch == epoch {
		c.checked = now
	}
}
