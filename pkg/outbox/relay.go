package outbox

import (
	"context"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/cenkalti/backoff/v5"
	"gorm.io/gorm"

	"github.com/tmsproject/tms/pkg/db"
)

// Deliverer hands a batch of events, in id order, to their consumer. An
// error means the whole batch is retried later.
type Deliverer func(ctx context.Context, events []Event) error

// Relay delivers committed outbox events. Run one per service process.
type Relay struct {
	db      *gorm.DB
	deliver Deliverer
	opts    options
	wake    chan struct{}

	// One delivery round at a time, Flush's or Run's: two at once would
	// both deliver the same waiting events. Flush callers that arrive
	// while a round runs share the next one (next), so a burst of writes
	// costs a few rounds, not one each behind one another.
	mu      sync.Mutex
	running *round // the round under way, nil when none
	next    *round // the round the Flush callers arriving now wait for

	// With WithLazyMarks on SQLite the relay marks delivered events later
	// (see undelivered).
	lazy   bool
	sent   atomic.Int64 // highest id delivered, marked or not
	marked int64        // highest id markSent stamped; Run's alone
}

// round is one delivery round; done is closed when it ended.
type round struct {
	done chan struct{}
	// from is, for a round of Flush on SQLite, the write generation of
	// the database (db.Generation) when the round began: it delivers every
	// event committed before. Zero: not known, a round of Run or on
	// PostgreSQL.
	from uint64
}

func newRound() *round { return &round{done: make(chan struct{})} }

// NewRelay returns a relay reading the outbox in gdb.
func NewRelay(gdb *gorm.DB, deliver Deliverer, opts ...Option) *Relay {
	o := defaults()
	for _, opt := range opts {
		opt(&o)
	}
	return &Relay{db: gdb, deliver: deliver, opts: o, wake: make(chan struct{}, 1),
		lazy: o.lazyMarks && db.Dialect(gdb) != db.Postgres}
}

// Notify wakes the relay to deliver now. Call it after committing a
// transaction that added events; it never blocks.
func (r *Relay) Notify() {
	select {
	case r.wake <- struct{}{}:
	default: // a wake-up is already pending
	}
}

// FlushWait bounds Flush: a consumer that is down or paused delays a write
// by at most this, and its events go with the background relay.
const FlushWait = time.Second

// Flush delivers the events waiting now and wakes the background relay
// for whatever is left; it returns within FlushWait, waiting included, so
// a consumer that is down or paused delays a write by that at most. Called
// right after a write commits, it makes the write's change records readable
// as soon as the write answers (a client reading the change log next sees
// them), as the reference's synchronous records are. Deliveries are
// idempotent.
//
// A Flush waits for a round that starts after it was called: the one
// waiting to start, shared with every caller that arrived meanwhile (group
// commit), which the first of them runs once the round under way ends.
// On SQLite a round of Flush under way that began after the caller's
// write committed delivers that write's events too: the caller waits for
// it alone. The writes of a group commit wake their callers together, and
// all but the first used to wait for a second round that found nothing.
func (r *Relay) Flush() {
	deadline := time.Now().Add(FlushWait)
	timer := time.NewTimer(FlushWait)
	defer timer.Stop()
	written, _ := db.Generation(r.db) // the caller's write is in it
	r.mu.Lock()
	if r.next == nil {
		r.next = newRound()
	}
	mine := r.next
	for r.running != nil {
		cur := r.running
		r.mu.Unlock()
		if cur.from != 0 && cur.from >= written {
			r.await(cur, timer)
			return
		}
		select {
		case <-mine.done: // another caller ran it
			return
		case <-cur.done:
		case <-timer.C: // the round under way is stuck: leave it to the background relay
			r.Notify()
			return
		}
		r.mu.Lock()
	}
	select {
	case <-mine.done: // ran by another caller meanwhile
		r.mu.Unlock()
		return
	default:
	}
	r.next, r.running = nil, mine // mine is r.next: rounds of Flush start only here
	mine.from, _ = db.Generation(r.db)
	r.mu.Unlock()

	left := r.flushRound(deadline)

	r.mu.Lock()
	r.running = nil
	close(mine.done)
	r.mu.Unlock()
	if left {
		r.Notify()
	}
}

// await waits for the round under way that delivers the caller's events,
// or for the timer of its Flush; a round still running then is left to
// the background relay.
func (r *Relay) await(cur *round, timer *time.Timer) {
	select {
	case <-cur.done:
	case <-timer.C:
		r.Notify()
	}
}

// flushRound delivers batches until none is full, until deadline; it
// reports whether events may be left (a failure, or out of time).
func (r *Relay) flushRound(deadline time.Time) bool {
	ctx, cancel := context.WithDeadline(context.Background(), deadline)
	defer cancel()
	for ctx.Err() == nil {
		n, err := r.RunOnce(ctx)
		if err != nil {
			return true
		}
		if n < r.opts.batchSize {
			return false
		}
	}
	return true
}

// runExclusive is RunOnce as a round of its own, after any under way.
func (r *Relay) runExclusive(ctx context.Context) (int, error) {
	r.mu.Lock()
	for r.running != nil {
		cur := r.running
		r.mu.Unlock()
		select {
		case <-cur.done:
		case <-ctx.Done():
			return 0, ctx.Err()
		}
		r.mu.Lock()
	}
	own := newRound()
	r.running = own
	r.mu.Unlock()
	defer func() {
		r.mu.Lock()
		r.running = nil
		close(own.done)
		r.mu.Unlock()
	}()
	return r.RunOnce(ctx)
}

// Run delivers events until ctx ends, then returns nil. Failures are
// retried with exponential backoff, with jitter so that the replicas of a
// service whose consumer went down do not come back at it in step; during
// a backoff Notify does not shorten the wait, so a consumer that is down
// is not hammered.
func (r *Relay) Run(ctx context.Context) error {
	retry := r.backoff()
	nextPrune := time.Now()
	defer r.markAtStop(ctx)
	for {
		n, err := r.runExclusive(ctx)
		if ctx.Err() != nil {
			return nil
		}
		wait, wakeable := r.opts.pollInterval, true
		switch {
		case err != nil:
			wait, wakeable = retry.NextBackOff(), false
			r.opts.logger.WarnContext(ctx, "outbox: delivery failed, will retry", "err", err, "retry_in", wait)
		case n == r.opts.batchSize:
			retry.Reset()
			wait = 0 // more may be waiting
		default:
			retry.Reset()
		}
		if err := r.markSent(ctx); err != nil && ctx.Err() == nil {
			r.opts.logger.WarnContext(ctx, "outbox: mark delivered events", "err", err)
		}
		if now := time.Now(); now.After(nextPrune) {
			nextPrune = now.Add(r.opts.pruneEvery)
			if err := r.Prune(ctx); err != nil && ctx.Err() == nil {
				r.opts.logger.WarnContext(ctx, "outbox: prune failed", "err", err)
			}
		}
		if wait > 0 && !r.sleep(ctx, wait, wakeable) {
			return nil
		}
	}
}

// backoff is the wait after each failed delivery in a row: from
// minBackoff, doubling up to maxBackoff, each wait 25% either side of it.
func (r *Relay) backoff() *backoff.ExponentialBackOff {
	b := &backoff.ExponentialBackOff{InitialInterval: r.opts.minBackoff, RandomizationFactor: 0.25,
		Multiplier: 2, MaxInterval: r.opts.maxBackoff}
	b.Reset()
	return b
}

// markAtStop marks what was delivered since the last markSent, so that
// a clean stop delivers nothing twice at the next start.
func (r *Relay) markAtStop(ctx context.Context) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 2*time.Second)
	defer cancel()
	if err := r.markSent(ctx); err != nil {
		r.opts.logger.WarnContext(ctx, "outbox: mark delivered events at stop", "err", err)
	}
}

// sleep waits d, or less when woken; it reports false when ctx ended.
func (r *Relay) sleep(ctx context.Context, d time.Duration, wakeable bool) bool {
	timer := time.NewTimer(d)
	defer timer.Stop()
	wake := r.wake
	if !wakeable {
		wake = nil // a nil channel never fires
	}
	select {
	case <-ctx.Done():
		return false
	case <-timer.C:
	case <-wake:
	}
	return true
}

// RunOnce delivers at most one batch and returns how many events it
// delivered. On PostgreSQL it delivers nothing while another relay of the
// same schema holds the delivery lock.
func (r *Relay) RunOnce(ctx context.Context) (int, error) {
	gdb := r.db.WithContext(ctx)
	if db.Dialect(gdb) != db.Postgres {
		// SQLite has a single connection: holding a transaction open
		// during delivery would stall every writer of the service.
		return r.batch(ctx, gdb)
	}
	var (
		n          int
		deliverErr error
	)
	err := gdb.Transaction(func(tx *gorm.DB) error {
		var leader bool
		err := tx.Raw(`SELECT pg_try_advisory_xact_lock(hashtext(? || current_schema()))`, r.lockKey()).Scan(&leader).Error
		if err != nil || !leader {
			return err
		}
		// Failures are recorded and committed; the delivery error goes
		// to the caller outside the transaction.
		n, deliverErr = r.batch(ctx, tx)
		return nil
	})
	if err != nil {
		return 0, err
	}
	return n, deliverErr
}

// batch delivers the oldest undelivered events and records the outcome.
func (r *Relay) batch(ctx context.Context, q *gorm.DB) (int, error) {
	recs, err := r.readUndelivered(q)
	if err != nil || len(recs) == 0 {
		return 0, err
	}
	events := make([]Event, len(recs))
	ids := make([]int64, len(recs))
	for i, rec := range recs {
		events[i], ids[i] = rec.event(), rec.ID
	}
	if err := r.deliver(ctx, events); err != nil {
		if ferr := recordFailure(q, r.opts.table.name(), ids, err); ferr != nil {
			r.opts.logger.WarnContext(ctx, "outbox: record failed attempt", "err", ferr)
		}
		return 0, err
	}
	if r.lazy {
		r.sent.Store(ids[len(ids)-1])
		return len(recs), nil
	}
	if _, err := markDelivered(q, r.opts.table.name(), ids, time.Now().UTC()); err != nil {
		return 0, err
	}
	return len(recs), nil
}

// readUndelivered reads the oldest batch of undelivered events with a
// statement of its own, not the ORM's building and reflection: every
// edit waits for a delivery round (Flush), which reads them.
func (r *Relay) readUndelivered(q *gorm.DB) ([]record, error) {
	where, args := r.undeliveredWhere()
	rows, err := q.Raw(`SELECT id, event_id, topic, payload, created_at FROM `+r.opts.table.name()+` WHERE `+where+
		` ORDER BY id LIMIT ?`, append(args, r.opts.batchSize)...).Rows()
	if err != nil {
		return nil, err
	}
	defer func() { _ = rows.Close() }() // read-only; Err reports what matters
	var recs []record
	for rows.Next() {
		var rec record
		if err := rows.Scan(&rec.ID, &rec.EventID, &rec.Topic, &rec.Payload, &rec.CreatedAt); err != nil {
			return nil, err
		}
		recs = append(recs, rec)
	}
	return recs, rows.Err()
}

// undelivered selects the events not delivered yet.
//
// Lazy marks: on SQLite the events' ids commit in order (one writer, ids
// AUTOINCREMENT), so every undelivered event has an id above the last one
// delivered. The relay reads past that id and stamps delivered_at later,
// from Run (markSent), in one statement for everything delivered since:
// a delivery round, which a write waits for (Flush), then writes nothing
// to the service's database. Events delivered but not yet marked when the
// process stops are delivered again at the next start; consumers
// deduplicate by event id, as after any crash between delivery and mark.
// PostgreSQL commits concurrent transactions in any order and may run
// several relays: there each delivery is marked at once.
func (r *Relay) undelivered(q *gorm.DB) *gorm.DB {
	where, args := r.undeliveredWhere()
	return q.Table(r.opts.table.name()).Where(where, args...)
}

// undeliveredWhere is the condition undelivered selects by.
func (r *Relay) undeliveredWhere() (string, []any) {
	if r.lazy {
		return "delivered_at IS NULL AND id > ?", []any{r.sent.Load()}
	}
	return "delivered_at IS NULL", nil
}

// markSent stamps the events delivered so far that are not marked yet
// (lazy marking, SQLite).
func (r *Relay) markSent(ctx context.Context) error {
	sent := r.sent.Load()
	if !r.lazy || sent == r.marked {
		return nil
	}
	err := r.db.WithContext(ctx).Exec(`UPDATE `+r.opts.table.name()+` SET delivered_at = ? WHERE id <= ? AND delivered_at IS NULL`,
		time.Now().UTC(), sent).Error
	if err == nil {
		r.marked = sent
	}
	return err
}

// markDelivered stamps the events that are still undelivered, so a repeated
// mark keeps the first delivery time, and reports how many it stamped.
func markDelivered(q *gorm.DB, table string, ids []int64, at time.Time) (int64, error) {
	res := q.Exec(`UPDATE `+table+` SET delivered_at = ? WHERE id IN ? AND delivered_at IS NULL`, at, ids)
	return res.RowsAffected, res.Error
}

// recordFailure counts a failed attempt for operators to see.
func recordFailure(q *gorm.DB, table string, ids []int64, cause error) error {
	msg := cause.Error()
	if len(msg) > 1000 {
		msg = msg[:1000]
	}
	return q.Exec(`UPDATE `+table+` SET attempts = attempts + 1, last_error = ? WHERE id IN ? AND delivered_at IS NULL`,
		msg, ids).Error
}

// retention is how long delivered events are kept for operators to inspect.
const retention = time.Hour

// Prune deletes events delivered longer ago than the retention.
// Undelivered events are never deleted.
func (r *Relay) Prune(ctx context.Context) error {
	cutoff := time.Now().UTC().Add(-retention)
	return r.db.WithContext(ctx).
		Exec(`DELETE FROM `+r.opts.table.name()+` WHERE delivered_at IS NOT NULL AND delivered_at < ?`, cutoff).Error
}

// options tune a Relay.
type options struct {
	batchSize    int
	pollInterval time.Duration
	minBackoff   time.Duration
	maxBackoff   time.Duration
	pruneEvery   time.Duration
	logger       *slog.Logger
	table        Table
	lazyMarks    bool
}

func defaults() options {
	return options{
		batchSize:    500,
		pollInterval: time.Second,
		minBackoff:   50 * time.Millisecond,
		maxBackoff:   5 * time.Second,
		pruneEvery:   time.Minute,
		logger:       slog.Default(),
		table:        Events,
	}
}

// Option configures a Relay.
type Option func(*options)

// WithBatchSize sets how many events one delivery carries (default 500).
func WithBatchSize(n int) Option {
	return func(o *options) {
		if n > 0 {
			o.batchSize = n
		}
	}
}

// WithPollInterval sets how often the relay looks for events without a
// Notify (default 1s).
func WithPollInterval(d time.Duration) Option {
	return func(o *options) {
		if d > 0 {
			o.pollInterval = d
		}
	}
}

// WithBackoff sets the first and the longest wait after a failed delivery
// (default 50ms and 5s).
func WithBackoff(first, longest time.Duration) Option {
	return func(o *options) {
		if first > 0 && longest >= first {
			o.minBackoff, o.maxBackoff = first, longest
		}
	}
}

// WithLazyMarks lets the relay stamp delivered events later, on SQLite
// (see undelivered): for a busy outbox whose writes wait for their
// delivery. Until stamped, the events still look undelivered to
// Table.Undelivered; the relay itself never delivers them twice.
func WithLazyMarks() Option {
	return func(o *options) { o.lazyMarks = true }
}

// WithLogger sets the logger for delivery failures (default slog.Default).
func WithLogger(l *slog.Logger) Option {
	return func(o *options) {
		if l != nil {
			o.logger = l
		}
	}
}

// WithTable makes the relay deliver the events of t instead of Events.
func WithTable(t Table) Option {
	return func(o *options) {
		o.table = Table(t.name())
	}
}

// lockKey names the delivery lock of the relay's table (hashed with the
// schema): one delivering relay per table and schema. The default table
// keeps the key of the releases before tables had names, so that old and
// new replicas elect one leader between them.
func (r *Relay) lockKey() string {
	if r.opts.table == Events {
		return "tms.outbox."
	}
	return "tms.outbox." + r.opts.table.name() + "."
}

// Backlog counts the events not yet delivered.
func (r *Relay) Backlog(ctx context.Context) (int64, error) {
	var n int64
	err := r.undelivered(r.db.WithContext(ctx)).Count(&n).Error
	return n, err
}
