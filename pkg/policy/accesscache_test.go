package policy

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"
)

// TestAccessCache: an entry is reused while the version it was read under
// is current, read again after the version grows (seen at most every
// interval, or at once after Unverified), and, when the version cannot be
// read, kept for maxAge at most. Errors of load are not kept.
func TestAccessCache(t *testing.T) {
	clock := time.Unix(1000, 0)
	version, versionErr := int64(1), error(nil)
	c := NewAccessCache[string](func(context.Context) (int64, error) { return version, versionErr }, time.Second, 10*time.Second)
	c.now = func() time.Time { return clock }
	loads := 0
	answer := "v1"
	get := func() string {
		t.Helper()
		v, err := c.Get(t.Context(), "token", func(context.Context) (string, error) { loads++; return answer, nil })
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	steps := []struct {
		name      string
		before    func()
		want      string
		wantLoads int
	}{
		{"first lookup loads", func() {}, "v1", 1},
		{"again: cached", func() { answer = "v2" }, "v1", 1},
		{"the version grew, not yet seen", func() { version = 2 }, "v1", 1},
		{"seen after the interval", func() { clock = clock.Add(time.Second) }, "v2", 2},
		{"a write here: seen at once", func() { version, answer = 3, "v3"; c.Unverified() }, "v3", 3},
		{"the version cannot be read: kept", func() { versionErr, answer = errors.New("down"), "v4"; clock = clock.Add(5 * time.Second) }, "v3", 3},
		{"past maxAge: read again", func() { clock = clock.Add(6 * time.Second) }, "v4", 4},
	}
	for _, s := range steps {
		s.before()
		if got := get(); got != s.want || loads != s.wantLoads {
			t.Fatalf("%s: %q after %d loads, want %q after %d", s.name, got, loads, s.want, s.wantLoads)
		}
	}
	versionErr = nil
	clock = clock.Add(time.Second)
	if _, err := c.Get(t.Context(), "bad", func(context.Context) (string, error) { return "", errors.New("refused") }); err == nil {
		t.Fatal("a failed load answered no error")
	}
	if v, _ := c.Get(t.Context(), "bad", func(context.Context) (string, error) { return "ok", nil }); v != "ok" {
		t.Errorf("a failed load was kept: %q", v)
	}
	version = 1 // an old answer arriving late
	c.Unverified()
	if got := get(); got != "v4" || loads != 4 {
		t.Errorf("an older version dropped the entries: %q after %d loads", got, loads)
	}
}

// TestAccessCacheReadsOnce: requests arriving while the version is being
// read wait for that read instead of asking too; one arriving after
// Unverified does not take a read that started before it.
func TestAccessCacheReadsOnce(t *testing.T) {
	var mu sync.Mutex
	reads := 0
	release := make(chan struct{})
	c := NewAccessCache[int](func(context.Context) (int64, error) {
		mu.Lock()
		reads++
		mu.Unlock()
		<-release
		return 1, nil
	}, time.Hour, time.Hour)
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() { _, _ = c.Get(t.Context(), "k", func(context.Context) (int, error) { return 1, nil }) })
	}
	time.Sleep(50 * time.Millisecond) // all eight are waiting on one read
	c.Unverified()                    // a write: the read under way may predate it
	close(release)
	wg.Wait()
	if reads != 2 {
		t.Errorf("%d reads of the version, want 2 (one, and one after the write)", reads)
	}
}
