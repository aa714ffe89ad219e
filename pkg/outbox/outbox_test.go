package outbox_test

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"runtime"
	"slices"
	"sync"
	"testing"
	"time"

	"gorm.io/gorm"

	"github.com/tmsproject/tms/pkg/dbtest"
	"github.com/tmsproject/tms/pkg/outbox"
	"github.com/tmsproject/tms/pkg/pgtest"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

// sink is a Deliverer that records batches and can be told to fail.
type sink struct {
	mu      sync.Mutex
	batches [][]outbox.Event
	fails   int // calls left to fail
	calls   int
	got     chan struct{}
}

func newSink(fails int) *sink { return &sink{fails: fails, got: make(chan struct{}, 1000)} }

func (s *sink) deliver(_ context.Context, events []outbox.Event) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.calls++
	if s.fails > 0 {
		s.fails--
		return errors.New("consumer unavailable")
	}
	s.batches = append(s.batches, events)
	s.got <- struct{}{}
	return nil
}

func (s *sink) events() []outbox.Event {
	s.mu.Lock()
	defer s.mu.Unlock()
	var all []outbox.Event
	for _, b := range s.batches {
		all = append(all, b...)
	}
	return all
}

func (s *sink) waitFor(t *testing.T, n int) []outbox.Event {
	t.Helper()
	deadline := time.After(10 * time.Second)
	for {
		if evs := s.events(); len(evs) >= n {
			return evs
		}
		select {
		case <-s.got:
		case <-deadline:
			t.Fatalf("timed out waiting for %d events, have %d", n, len(s.events()))
		}
	}
}

func add(t *testing.T, gdb *gorm.DB, topic string, payload string) string {
	t.Helper()
	var id string
	err := gdb.Transaction(func(tx *gorm.DB) (err error) {
		id, err = outbox.Add(tx, topic, []byte(payload))
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// run starts r.Run and stops it when the test ends.
func run(t *testing.T, r *outbox.Relay) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	go func() { done <- r.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Run returned %v after cancel, want nil", err)
		}
	})
}

func TestRolledBackEventsAreNeverDelivered(t *testing.T) {
	dbtest.Engines(t, func(t *testing.T, gdb *gorm.DB) {
		err := gdb.Transaction(func(tx *gorm.DB) error {
			if _, err := outbox.Add(tx, "ghost", []byte("x")); err != nil {
				return err
			}
			return errors.New("the state change failed")
		})
		if err == nil {
			t.Fatal("transaction unexpectedly committed")
		}
		kept := add(t, gdb, "kept", "y")
		s := newSink(0)
		r := outbox.NewRelay(gdb, s.deliver)
		for range 2 {
			if _, err := r.RunOnce(t.Context()); err != nil {
				t.Fatal(err)
			}
		}
		evs := s.events()
		if len(evs) != 1 || evs[0].EventID != kept || evs[0].Topic != "kept" || string(evs[0].Payload) != "y" {
			t.Fatalf("delivered %+v, want only the committed event %s", evs, kept)
		}
		if age := time.Since(evs[0].CreatedAt); age < 0 || age > time.Minute {
			t.Fatalf("CreatedAt %v is not recent", evs[0].CreatedAt)
		}
	}, outbox.Migrations)
}

func TestDeliveryRetriedAfterFailures(t *testing.T) {
	dbtest.Engines(t, func(t *testing.T, gdb *gorm.DB) {
		id := add(t, gdb, "topic", "payload")
		s := newSink(3)
		r := outbox.NewRelay(gdb, s.deliver, outbox.WithBackoff(time.Millisecond, 4*time.Millisecond),
			outbox.WithPollInterval(time.Hour), outbox.WithLogger(slog.New(slog.DiscardHandler)))
		run(t, r)
		evs := s.waitFor(t, 1)
		if len(evs) != 1 || evs[0].EventID != id {
			t.Fatalf("delivered %+v, want event %s once", evs, id)
		}
		s.mu.Lock()
		calls := s.calls
		s.mu.Unlock()
		if calls != 4 {
			t.Fatalf("deliverer called %d times, want 3 failures and 1 success", calls)
		}
		var row struct {
			Attempts  int
			LastError string
		}
		if err := gdb.Raw(`SELECT attempts, last_error FROM outbox_events WHERE event_id = ?`, id).Scan(&row).Error; err != nil {
			t.Fatal(err)
		}
		if row.Attempts != 3 || row.LastError != "consumer unavailable" {
			t.Fatalf("attempts, last_error = %d, %q; want 3, consumer unavailable", row.Attempts, row.LastError)
		}
	}, outbox.Migrations)
}

func TestDeliveryInOrderAcrossBatches(t *testing.T) {
	dbtest.Engines(t, func(t *testing.T, gdb *gorm.DB) {
		const total = 25
		for i := range total {
			add(t, gdb, "seq", fmt.Sprint(i))
		}
		s := newSink(0)
		r := outbox.NewRelay(gdb, s.deliver, outbox.WithBatchSize(10))
		var sizes []int
		for {
			n, err := r.RunOnce(t.Context())
			if err != nil {
				t.Fatal(err)
			}
			if n == 0 {
				break
			}
			sizes = append(sizes, n)
		}
		if fmt.Sprint(sizes) != "[10 10 5]" {
			t.Fatalf("batch sizes = %v, want [10 10 5]", sizes)
		}
		evs := s.events()
		for i, ev := range evs {
			if string(ev.Payload) != fmt.Sprint(i) || (i > 0 && ev.ID <= evs[i-1].ID) {
				t.Fatalf("event %d = id %d payload %q: out of order", i, ev.ID, ev.Payload)
			}
		}
	}, outbox.Migrations)
}

func TestNotifyWakesTheRelay(t *testing.T) {
	dbtest.Engines(t, func(t *testing.T, gdb *gorm.DB) {
		s := newSink(0)
		r := outbox.NewRelay(gdb, s.deliver, outbox.WithPollInterval(time.Hour))
		run(t, r)
		time.Sleep(20 * time.Millisecond) // let the first, empty poll pass
		for i := range 3 {
			add(t, gdb, "wake", fmt.Sprint(i))
			r.Notify()
			start := time.Now()
			s.waitFor(t, i+1)
			if d := time.Since(start); d > 5*time.Second {
				t.Fatalf("delivery took %v after Notify", d)
			}
		}
	}, outbox.Migrations)
}

// TestFlushDeliversBeforeReturning: what is waiting when Flush is called
// has reached the consumer when it returns, across batches; a consumer
// that fails holds Flush no longer than FlushWait.
func TestFlushDeliversBeforeReturning(t *testing.T) {
	dbtest.Engines(t, func(t *testing.T, gdb *gorm.DB) {
		for i := range 25 {
			add(t, gdb, "flush", fmt.Sprint(i))
		}
		s := newSink(0)
		outbox.NewRelay(gdb, s.deliver, outbox.WithBatchSize(10)).Flush()
		if n := len(s.events()); n != 25 {
			t.Fatalf("%d events delivered when Flush returned, want 25", n)
		}
		failing := newSink(1000)
		add(t, gdb, "flush", "late")
		start := time.Now()
		outbox.NewRelay(gdb, failing.deliver).Flush()
		if d := time.Since(start); d > outbox.FlushWait+time.Second {
			t.Errorf("Flush held %v with a failing consumer", d)
		}
	}, outbox.Migrations)
}

func TestAddValidatesAndKeepsEmptyPayload(t *testing.T) {
	dbtest.Engines(t, func(t *testing.T, gdb *gorm.DB) {
		if _, err := outbox.Add(gdb, "", []byte("x")); err == nil {
			t.Fatal("Add accepted an empty topic")
		}
		a, err := outbox.Add(gdb, "empty", nil)
		if err != nil {
			t.Fatal(err)
		}
		b, err := outbox.Add(gdb.Where("1 = 0"), "chained", []byte{}) // stray conditions must not leak in
		if err != nil {
			t.Fatal(err)
		}
		if a == b || len(a) != 36 {
			t.Fatalf("event ids %q, %q: want two distinct UUIDs", a, b)
		}
		s := newSink(0)
		if _, err := outbox.NewRelay(gdb, s.deliver).RunOnce(t.Context()); err != nil {
			t.Fatal(err)
		}
		evs := s.events()
		if len(evs) != 2 || evs[0].Payload == nil || len(evs[0].Payload) != 0 {
			t.Fatalf("delivered %+v, want two events with empty payloads", evs)
		}
	}, outbox.Migrations)
}

func TestConcurrentRelaysDeliverEachEventOncePostgres(t *testing.T) {
	gdb := dbtest.Postgres(t, outbox.Migrations)
	const total = 200
	for i := range total {
		add(t, gdb, "c", fmt.Sprint(i))
	}
	s := newSink(0)
	for range 3 {
		run(t, outbox.NewRelay(gdb, s.deliver, outbox.WithBatchSize(7), outbox.WithPollInterval(5*time.Millisecond)))
	}
	s.waitFor(t, total)
	time.Sleep(50 * time.Millisecond) // room for a duplicate to show up
	evs := s.events()
	if len(evs) != total {
		t.Fatalf("delivered %d events, want %d exactly once", len(evs), total)
	}
	for i, ev := range evs {
		if string(ev.Payload) != fmt.Sprint(i) {
			t.Fatalf("event %d has payload %q: out of order", i, ev.Payload)
		}
	}
}

// TestConcurrentFlushes has many writers flush at once beside the
// background relay: each Flush returns with its writer's event delivered,
// and no event is delivered twice (rounds never overlap).
func TestConcurrentFlushes(t *testing.T) {
	dbtest.Engines(t, func(t *testing.T, gdb *gorm.DB) {
		s := newSink(0)
		r := outbox.NewRelay(gdb, s.deliver, outbox.WithPollInterval(time.Millisecond))
		run(t, r)
		const writers, each = 8, 20
		var wg sync.WaitGroup
		errs := make(chan string, writers*each)
		for w := range writers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := range each {
					payload := fmt.Sprintf("%d-%d", w, i)
					if err := gdb.Transaction(func(tx *gorm.DB) error {
						_, err := outbox.Add(tx, "edit", []byte(payload))
						return err
					}); err != nil {
						errs <- err.Error()
						return
					}
					r.Flush()
					if !slices.ContainsFunc(s.events(), func(e outbox.Event) bool { return string(e.Payload) == payload }) {
						errs <- payload + " not delivered when Flush returned"
					}
				}
			}()
		}
		wg.Wait()
		close(errs)
		for e := range errs {
			t.Error(e)
		}
		seen := map[string]int{}
		for _, e := range s.events() {
			seen[string(e.Payload)]++
		}
		for p, n := range seen {
			if n != 1 {
				t.Errorf("event %s delivered %d times", p, n)
			}
		}
		if len(seen) != writers*each {
			t.Errorf("%d events delivered, want %d", len(seen), writers*each)
		}
	}, outbox.Migrations)
}

// TestAddAll writes events in multi-row statements: every one is
// delivered once, in order, with its payload (an empty one too), and
// nothing is written when the transaction rolls back.
func TestAddAll(t *testing.T) {
	dbtest.Engines(t, func(t *testing.T, gdb *gorm.DB) {
		payloads := make([][]byte, 600) // more than one statement's worth
		for i := range payloads {
			payloads[i] = []byte(fmt.Sprint(i))
		}
		payloads[7] = nil
		rollback := errors.New("roll back")
		if err := gdb.Transaction(func(tx *gorm.DB) error {
			if err := outbox.AddAll(tx, "bulk", payloads[:10]); err != nil {
				return err
			}
			return rollback
		}); !errors.Is(err, rollback) {
			t.Fatal(err)
		}
		if err := gdb.Transaction(func(tx *gorm.DB) error { return outbox.AddAll(tx, "bulk", payloads) }); err != nil {
			t.Fatal(err)
		}
		if err := outbox.AddAll(gdb, "", payloads); err == nil {
			t.Error("AddAll took an empty topic")
		}
		s := newSink(0)
		outbox.NewRelay(gdb, s.deliver, outbox.WithBatchSize(1000)).Flush()
		got := s.events()
		if len(got) != len(payloads) {
			t.Fatalf("%d events delivered, want %d", len(got), len(payloads))
		}
		ids := map[string]bool{}
		for i, e := range got {
			if want := string(payloads[i]); string(e.Payload) != want || e.Topic != "bulk" || e.Payload == nil {
				t.Errorf("event %d: %s %q, want bulk %q", i, e.Topic, e.Payload, want)
			}
			ids[e.EventID] = true
		}
		if len(ids) != len(got) {
			t.Errorf("%d distinct event ids for %d events", len(ids), len(got))
		}
	}, outbox.Migrations)
}

// TestFlushBesideAStuckRound: while the background relay's round hangs on
// a consumer that does not answer (a paused changelog), a Flush gives up
// after FlushWait instead of queueing behind it, and the events go once
// the consumer answers.
func TestFlushBesideAStuckRound(t *testing.T) {
	dbtest.Engines(t, func(t *testing.T, gdb *gorm.DB) {
		entered, release := make(chan struct{}, 100), make(chan struct{})
		s := newSink(0)
		deliver := func(ctx context.Context, events []outbox.Event) error {
			entered <- struct{}{}
			select {
			case <-release:
			case <-ctx.Done():
				return ctx.Err()
			}
			return s.deliver(ctx, events)
		}
		r := outbox.NewRelay(gdb, deliver, outbox.WithPollInterval(time.Millisecond))
		add(t, gdb, "edit", "first")
		run(t, r)
		<-entered // the background round hangs
		add(t, gdb, "edit", "second")
		start := time.Now()
		r.Flush()
		if d := time.Since(start); d > outbox.FlushWait+500*time.Millisecond {
			t.Errorf("Flush waited %v behind a stuck round, want at most FlushWait (%v)", d, outbox.FlushWait)
		}
		close(release)
		s.waitFor(t, 2)
	}, outbox.Migrations)
}

// TestLazyMarksOnSQLite: on SQLite a delivery round writes nothing; the
// next round does not deliver the same events again, Run stamps them
// within a poll, and a relay started afresh before the stamp delivers
// them again (consumers deduplicate by event id).
func TestLazyMarksOnSQLite(t *testing.T) {
	gdb := dbtest.SQLite(t, outbox.Migrations)
	undelivered := func() int64 {
		t.Helper()
		var n int64
		if err := gdb.Table("outbox_events").Where("delivered_at IS NULL").Count(&n).Error; err != nil {
			t.Fatal(err)
		}
		return n
	}
	for i := range 3 {
		add(t, gdb, "lazy", fmt.Sprint(i))
	}
	s := newSink(0)
	r := outbox.NewRelay(gdb, s.deliver, outbox.WithPollInterval(20*time.Millisecond), outbox.WithLazyMarks())
	r.Flush()
	if n := undelivered(); n != 3 {
		t.Fatalf("%d events unmarked after a round, want 3 (marks come later)", n)
	}
	if backlog, err := r.Backlog(t.Context()); err != nil || backlog != 0 {
		t.Fatalf("backlog %d (%v) after delivery, want 0", backlog, err)
	}
	add(t, gdb, "lazy", "3")
	r.Flush()
	if got := s.events(); len(got) != 4 {
		t.Fatalf("%d deliveries, want each of 4 events once", len(got))
	}
	again := newSink(0)
	outbox.NewRelay(gdb, again.deliver).Flush()
	if got := again.events(); len(got) != 4 {
		t.Fatalf("a fresh relay delivered %d unmarked events again, want 4", len(got))
	}
	run(t, r)
	deadline := time.After(5 * time.Second)
	tick := time.NewTicker(5 * time.Millisecond)
	defer tick.Stop()
	for undelivered() != 0 {
		select {
		case <-deadline:
			t.Fatalf("%d events still unmarked while Run polls", undelivered())
		case <-tick.C:
		}
	}
}

// TestTablesKeepTheirEvents: a relay delivers only the events of its own
// table, and a relay of another table busy delivering (holding its
// delivery lock on PostgreSQL) does not hold it up.
func TestTablesKeepTheirEvents(t *testing.T) {
	side := outbox.Table("side_events")
	dbtest.Engines(t, func(t *testing.T, gdb *gorm.DB) {
		add(t, gdb, "main", "a")
		if err := gdb.Transaction(func(tx *gorm.DB) error {
			if _, err := side.Add(tx, "side", []byte("b")); err != nil {
				return err
			}
			return side.AddAll(tx, "side", [][]byte{[]byte("c")})
		}); err != nil {
			t.Fatal(err)
		}
		if pending, err := side.Undelivered(gdb); err != nil || len(pending) != 2 || pending[0].Topic != "side" {
			t.Fatalf("side events waiting: %+v, %v", pending, err)
		}
		release := make(chan struct{})
		busy := make(chan struct{})
		var sideGot []outbox.Event
		sideRelay := outbox.NewRelay(gdb, func(_ context.Context, evs []outbox.Event) error {
			sideGot = evs
			close(busy)
			<-release
			return nil
		}, outbox.WithTable(side))
		done := make(chan error)
		go func() { _, err := sideRelay.RunOnce(t.Context()); done <- err }()
		<-busy
		s := newSink(0)
		n, err := outbox.NewRelay(gdb, s.deliver).RunOnce(t.Context())
		close(release)
		if err != nil || n != 1 {
			t.Fatalf("default relay beside a busy side relay: %d events, %v; want 1", n, err)
		}
		if err := <-done; err != nil {
			t.Fatal(err)
		}
		if evs := s.events(); len(evs) != 1 || string(evs[0].Payload) != "a" {
			t.Fatalf("default relay delivered %+v, want only a", evs)
		}
		if len(sideGot) != 2 || string(sideGot[0].Payload) != "b" || string(sideGot[1].Payload) != "c" {
			t.Fatalf("side relay delivered %+v, want b and c", sideGot)
		}
		if n, err := sideRelay.Backlog(t.Context()); err != nil || n != 0 {
			t.Fatalf("side backlog after delivery: %d, %v", n, err)
		}
		if pending, err := side.Undelivered(gdb); err != nil || len(pending) != 0 {
			t.Fatalf("side events waiting after delivery: %+v, %v", pending, err)
		}
	}, outbox.Migrations, side.Migrations())
}

// TestFlushJoinsACoveringRound: on SQLite a Flush that finds a round of
// Flush under way which began after its write committed waits for that
// round alone, with no round of its own; a Flush whose write committed
// after the round began waits for a round of its own, which delivers the
// write. Not run without the relay's background loop, so that only Flush
// rounds deliver.
func TestFlushJoinsACoveringRound(t *testing.T) {
	gdb := dbtest.SQLite(t, outbox.Migrations)
	entered, release := make(chan struct{}, 10), make(chan struct{})
	s := newSink(0)
	deliver := func(ctx context.Context, events []outbox.Event) error {
		entered <- struct{}{}
		<-release
		return s.deliver(ctx, events)
	}
	r := outbox.NewRelay(gdb, deliver, outbox.WithLazyMarks())
	add(t, gdb, "edit", "first")
	firstDone := make(chan struct{})
	go func() { defer close(firstDone); r.Flush() }()
	<-entered // the first caller's round is delivering "first"

	joined := make(chan struct{})
	go func() { defer close(joined); r.Flush() }() // nothing written since the round began
	for !outbox.FlushWaiting(r) {                  // it is in, beside the round
		runtime.Gosched()
	}
	add(t, gdb, "edit", "second") // committed after the round began
	secondDone := make(chan struct{})
	go func() { defer close(secondDone); r.Flush() }()

	release <- struct{}{} // the first round ends
	ended := time.Now()
	<-firstDone
	// Without the shared round it would run one of its own, held here
	// until FlushWait gave up on it.
	select {
	case <-joined:
		if d := time.Since(ended); d >= outbox.FlushWait/2 {
			t.Errorf("the Flush beside the round returned %v after it, by its timer", d)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("a Flush with nothing newer than the round under way did not return")
	}
	<-entered // the second write needs a round of its own
	release <- struct{}{}
	<-secondDone
	got := s.events()
	if len(got) != 2 || string(got[0].Payload) != "first" || string(got[1].Payload) != "second" {
		t.Fatalf("delivered %d events, want first and second", len(got))
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.calls != 2 {
		t.Errorf("%d deliveries, want 2 (one round each write)", s.calls)
	}
}
