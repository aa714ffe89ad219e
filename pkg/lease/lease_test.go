package lease_test

import (
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"gorm.io/gorm"

	"github.com/tmsproject/tms/pkg/dbtest"
	"github.com/tmsproject/tms/pkg/lease"
	"github.com/tmsproject/tms/pkg/pgtest"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

// clock is a shared, movable clock for the holders of a test.
type clock struct{ at time.Time }

func (c *clock) now() time.Time { return c.at }

func holders(gdb *gorm.DB, c *clock, names ...string) []*lease.Leases {
	out := make([]*lease.Leases, len(names))
	for i, n := range names {
		out[i] = lease.New(gdb, n)
		out[i].Now = c.now
	}
	return out
}

func TestAcquireRenewExpireRelease(t *testing.T) {
	dbtest.Engines(t, func(t *testing.T, gdb *gorm.DB) {
		c := &clock{at: time.Unix(1_700_000_000, 0)}
		hs := holders(gdb, c, "a", "b")
		a, b := hs[0], hs[1]
		steps := []struct {
			name    string
			advance time.Duration
			who     *lease.Leases
			release bool
			want    bool
		}{
			{name: "first taker gets it", who: a, want: true},
			{name: "another is refused while it lasts", advance: 5 * time.Second, who: b, want: false},
			{name: "the holder renews", who: a, want: true},
			{name: "renewed: still refused after the first expiry", advance: 8 * time.Second, who: b, want: false},
			{name: "expired: another takes over", advance: 3 * time.Second, who: b, want: true},
			{name: "the former holder is refused", who: a, want: false},
			{name: "released: free at once", who: b, release: true},
			{name: "after release anyone takes it", who: a, want: true},
		}
		for _, st := range steps {
			c.at = c.at.Add(st.advance)
			if st.release {
				if err := st.who.Release(t.Context(), "job"); err != nil {
					t.Fatal(err)
				}
				continue
			}
			got, err := st.who.Acquire(t.Context(), "job", 10*time.Second)
			if err != nil {
				t.Fatal(err)
			}
			if got != st.want {
				t.Fatalf("%s: held = %v, want %v", st.name, got, st.want)
			}
		}
		holder, _, err := b.Holding(t.Context(), "job")
		if err != nil || holder != "a" {
			t.Fatalf("Holding = %q, %v; want a", holder, err)
		}
	}, lease.Migrations)
}

// TestOneWinnerAmongRacers races holders for a free lease: exactly one
// gets it, on either engine.
func TestOneWinnerAmongRacers(t *testing.T) {
	dbtest.Engines(t, func(t *testing.T, gdb *gorm.DB) {
		for round := range 5 {
			var wins atomic.Int32
			var wg sync.WaitGroup
			name := "race" + string(rune('a'+round))
			for range 8 {
				l := lease.New(gdb, "")
				wg.Go(func() {
					ok, err := l.Acquire(t.Context(), name, time.Minute)
					if err != nil {
						t.Error(err)
					}
					if ok {
						wins.Add(1)
					}
				})
			}
			wg.Wait()
			if n := wins.Load(); n != 1 {
				t.Fatalf("round %d: %d holders, want 1", round, n)
			}
		}
	}, lease.Migrations)
}
