package delivery

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"net/mail"
	"slices"
	"sync"
	"time"

	"github.com/google/uuid"
	"google.golang.org/grpc"

	"github.com/tmsproject/tms/pkg/errs"
	"github.com/tmsproject/tms/pkg/obs"
	"github.com/tmsproject/tms/pkg/policy"
	"github.com/tmsproject/tms/pkg/weblate"
	changelogv1 "github.com/tmsproject/tms/proto/gen/go/tms/changelog/v1"
	typev1 "github.com/tmsproject/tms/proto/gen/go/tms/type/v1"
	"github.com/tmsproject/tms/services/notification/store"
)

// ChangeLog is the part of the changelog service delivery reads.
type ChangeLog interface {
	ListChanges(ctx context.Context, in *changelogv1.ListChangesRequest, opts ...grpc.CallOption) (*changelogv1.ListChangesResponse, error)
	ListChangesAfter(ctx context.Context, in *changelogv1.ListChangesAfterRequest, opts ...grpc.CallOption) (*changelogv1.ListChangesAfterResponse, error)
}

// Visibility tells whether the caller of ctx may see a project, and what
// it may do in it (policy.Projects).
type Visibility interface {
	Visible(ctx context.Context, slug string) (bool, error)
	Authorize(ctx context.Context, perm string, s policy.Scope, reason string) error
}

// Store is the part of the service's store delivery uses.
type Store interface {
	Subscribers(ctx context.Context, kinds []string) ([]store.Subscriber, error)
	Cursor(ctx context.Context, name string) (int64, error)
	Enqueue(ctx context.Context, cursor string, lastID int64, ns []store.Notification, ds []store.Delivery) error
	Webhooks(ctx context.Context, project string) ([]store.Webhook, error)
	ClaimDeliveries(ctx context.Context, c store.Claim, maxAttempts, limit int) ([]store.DueDelivery, error)
	RecordAttempt(ctx context.Context, id int64, status int, failure string, delivered *time.Time, retryAt time.Time) error
	ClaimDue(ctx context.Context, c store.Claim, maxAttempts, limit int) ([]store.Pending, error)
	MarkSent(ctx context.Context, ids []int64, at time.Time) error
	MarkFailed(ctx context.Context, ids []int64, failure string, retryAt time.Time) error
	Grants(ctx context.Context, memberID int64) ([]policy.Grant, error)
	WatchOnContribution(ctx context.Context, login, project string) error
}

const (
	cursorName  = "mail"
	maxAttempts = 8
	// gapGrace is how long a missing id is waited for: a record committed
	// after a later one (PostgreSQL assigns ids before commit) arrives
	// within it; past it the id is a sequence gap and is skipped.
	gapGrace = 30 * time.Second
)

// Lease is the named lease that makes one replica at a time follow the
// change log (lease.Leases).
type Lease interface {
	Acquire(ctx context.Context, name string, ttl time.Duration) (bool, error)
}

// DefaultConsumeLease is how long a replica follows the change log
// without renewing its lease: when it dies, another takes over after this.
const DefaultConsumeLease = 30 * time.Second

// Deliverer consumes the change log and sends the mail and webhooks. Any
// number of replicas may run one on the same database: one at a time
// follows the log (Lease), and each claims the deliveries and mail it
// sends, so each goes out once.
type Deliverer struct {
	Store     Store
	ChangeLog ChangeLog
	Projects  Visibility
	// Mailer is nil when no mail server is configured: the cursor still
	// follows the log, so that turning mail on later does not mail the
	// past.
	Mailer  Mailer
	SiteURL string
	// AllowLocal lets webhooks reach local and private addresses
	// (TMS_ALLOW_LOCAL_WEBHOOKS).
	AllowLocal bool
	Log        *slog.Logger
	Now        func() time.Time
	// Lease, when set, is taken before following the change log: with
	// several replicas one reads it at a time. Nil: this is the only
	// deliverer of its database.
	Lease Lease
	// ConsumeLease is the length of Lease (zero: DefaultConsumeLease).
	ConsumeLease time.Duration
	// ClaimTTL bounds how long claimed deliveries and mail stay this
	// deliverer's: past it, another replica takes over what a dead one
	// claimed. Zero: DefaultClaimTTL.
	ClaimTTL   time.Duration
	gaps       map[int64]time.Time
	client     *http.Client
	clientOnce sync.Once
}

func (d *Deliverer) now() time.Time {
	if d.Now != nil {
		return d.Now()
	}
	return time.Now()
}

// Run polls until ctx ends.
func (d *Deliverer) Run(ctx context.Context, every time.Duration) error {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		if err := d.Step(ctx); err != nil && ctx.Err() == nil {
			d.Log.Warn("notification delivery", "err", err)
		}
		select {
		case <-ctx.Done():
			return nil
		case <-t.C:
		}
	}
}

// DefaultClaimTTL is the ClaimTTL of a Deliverer that sets none.
const DefaultClaimTTL = time.Minute

func (d *Deliverer) claimTTL() time.Duration {
	if d.ClaimTTL > 0 {
		return d.ClaimTTL
	}
	return DefaultClaimTTL
}

// claim starts a claim of due work at now under a token of its own.
func (d *Deliverer) claim() store.Claim {
	now := d.now()
	return store.Claim{Token: uuid.NewString(), Now: now, Until: now.Add(d.claimTTL())}
}

// Step consumes what the log holds and sends what is due.
func (d *Deliverer) Step(ctx context.Context) error {
	for {
		if d.Lease != nil {
			held, err := d.Lease.Acquire(ctx, "notification.changelog", cmp.Or(d.ConsumeLease, DefaultConsumeLease))
			if err != nil {
				return err
			}
			if !held {
				break // another replica follows the log; send what is due
			}
		}
		more, err := d.consume(ctx)
		if err != nil {
			return err
		}
		if !more {
			break
		}
	}
	if err := d.sendWebhooks(ctx); err != nil {
		return err
	}
	if d.Mailer == nil {
		return nil
	}
	return d.send(ctx)
}

// consume reads one batch after the cursor; more reports a full batch.
func (d *Deliverer) consume(ctx context.Context) (more bool, err error) {
	sys := policy.System(ctx)
	cursor, err := d.Store.Cursor(ctx, cursorName)
	if err != nil {
		return false, err
	}
	if cursor == 0 {
		return false, d.start(ctx)
	}
	const batch = 500
	resp, err := d.ChangeLog.ListChangesAfter(sys, &changelogv1.ListChangesAfterRequest{AfterId: max(cursor, 0), Limit: batch})
	if err != nil || len(resp.GetChanges()) == 0 {
		return false, err
	}
	if err = d.watchOnContribution(ctx, resp.GetChanges()); err != nil {
		return false, err
	}
	var ns []store.Notification
	if d.Mailer != nil {
		if ns, err = d.route(ctx, resp.GetChanges()); err != nil {
			return false, err
		}
	}
	ds, err := d.routeWebhooks(ctx, resp.GetChanges())
	if err != nil {
		return false, err
	}
	next := d.advance(cursor, resp.GetChanges())
	if last := resp.GetChanges()[len(resp.GetChanges())-1]; last.GetTimestamp() != nil {
		obs.DeliveryLag.Set(d.now().Sub(last.GetTimestamp().AsTime()).Seconds())
	}
	if next == cursor && len(ns) == 0 && len(ds) == 0 {
		return false, nil
	}
	return len(resp.GetChanges()) == batch && next > cursor, d.Store.Enqueue(ctx, cursorName, next, ns, ds)
}

// contributions are the actions after which the reference adds the
// project to the contributor's watched projects (Profile.auto_watch): a
// translation saved, a suggestion, a comment.
var contributions = []typev1.ChangeAction{typev1.ChangeAction_CHANGE_ACTION_CHANGE, typev1.ChangeAction_CHANGE_ACTION_NEW,
	typev1.ChangeAction_CHANGE_ACTION_APPROVE, typev1.ChangeAction_CHANGE_ACTION_SUGGESTION, typev1.ChangeAction_CHANGE_ACTION_COMMENT}

// watchOnContribution applies auto_watch for the contributors of changes,
// once per contributor and project of the batch; it is idempotent, so a
// batch read again after a crash changes nothing more.
func (d *Deliverer) watchOnContribution(ctx context.Context, changes []*changelogv1.Change) error {
	seen := map[[2]string]bool{}
	for _, ch := range changes {
		key := [2]string{ch.GetUser(), ch.GetProjectSlug()}
		if key[0] == "" || key[1] == "" || seen[key] || !slices.Contains(contributions, ch.GetAction()) {
			continue
		}
		seen[key] = true
		if err := d.Store.WatchOnContribution(ctx, key[0], key[1]); err != nil {
			return err
		}
	}
	return nil
}

// start places the cursor at the end of the log the first time delivery
// runs: notifications are about what happens from then on.
func (d *Deliverer) start(ctx context.Context) error {
	resp, err := d.ChangeLog.ListChanges(policy.System(ctx), &changelogv1.ListChangesRequest{Limit: 1})
	if err != nil {
		return err
	}
	last := int64(-1) // an empty log: start before the first record
	if cs := resp.GetChanges(); len(cs) > 0 {
		last = cs[0].GetId()
	}
	if last <= 0 {
		last = -1
	}
	return d.Store.Enqueue(ctx, cursorName, last, nil, nil)
}

// advance moves the cursor over the records read, stopping at a missing
// id until gapGrace has passed for it.
func (d *Deliverer) advance(cursor int64, changes []*changelogv1.Change) int64 {
	if d.gaps == nil {
		d.gaps = map[int64]time.Time{}
	}
	next := max(cursor, 0)
	for _, ch := range changes {
		for next+1 < ch.GetId() && cursor >= 0 {
			first, seen := d.gaps[next+1]
			if !seen {
				d.gaps[next+1] = d.now()
				return next
			}
			if d.now().Sub(first) < gapGrace {
				return next
			}
			delete(d.gaps, next+1)
			next++
		}
		next = ch.GetId()
	}
	return next
}

// route makes the notifications of changes, at most one per change and
// recipient.
func (d *Deliverer) route(ctx context.Context, changes []*changelogv1.Change) ([]store.Notification, error) {
	subs, err := d.Store.Subscribers(ctx, allKinds())
	if err != nil || len(subs) == 0 {
		return nil, err
	}
	now := d.now()
	var out []store.Notification
	grants := map[int64][]policy.Grant{} // per recipient, for this batch
	for _, pc := range changes {
		ch := changeOf(pc)
		var failed error
		administers := func(s store.Subscriber) bool {
			ok, err := d.may(ctx, s, "project.edit", ch.Project, grants)
			if err != nil {
				failed = err
			}
			return ok
		}
		chosen := recipients(ch, subs, administers)
		if failed != nil {
			return nil, failed
		}
		for uid, s := range chosen {
			ok, err := d.visible(ctx, s, ch.Project, grants)
			if err != nil {
				return nil, err
			}
			if !ok {
				continue
			}
			out = append(out, store.Notification{ChangeID: ch.ID, UserID: uid, Kind: s.Notification,
				Frequency: s.Frequency, CreatedAt: now, DueAt: dueAt(s.Frequency, now)})
		}
	}
	return out, nil
}

// visible tells whether the recipient may see the project, by its teams.
func (d *Deliverer) visible(ctx context.Context, s store.Subscriber, project string, grants map[int64][]policy.Grant) (bool, error) {
	if project == "" || d.Projects == nil {
		return true, nil
	}
	c, err := d.caller(ctx, s, grants)
	if err != nil {
		return false, err
	}
	return d.Projects.Visible(policy.WithCaller(ctx, c), project)
}

// may tells whether the recipient holds perm on the project.
func (d *Deliverer) may(ctx context.Context, s store.Subscriber, perm, project string, grants map[int64][]policy.Grant) (bool, error) {
	if d.Projects == nil {
		return s.IsSuperuser, nil
	}
	c, err := d.caller(ctx, s, grants)
	if err != nil {
		return false, err
	}
	err = d.Projects.Authorize(policy.WithCaller(ctx, c), perm, policy.Scope{Project: project}, "")
	if errs.Is(err, errs.PermissionDenied) || errs.Is(err, errs.NotFound) {
		return false, nil
	}
	return err == nil, err
}

// caller is the recipient as a policy caller, its grants read once per
// batch.
func (d *Deliverer) caller(ctx context.Context, s store.Subscriber, grants map[int64][]policy.Grant) (policy.Caller, error) {
	c := policy.Caller{Username: s.Login, Superuser: s.IsSuperuser}
	if s.IsSuperuser {
		return c, nil
	}
	g, ok := grants[s.UserID]
	if !ok {
		var err error
		if g, err = d.Store.Grants(ctx, s.UserID); err != nil {
			return c, err
		}
		grants[s.UserID] = g
	}
	c.Grants = g
	return c, nil
}

// dueAt is when a notification is mailed: at once, or at the end of the
// day, week (Monday 00:00 UTC) or month of now.
func dueAt(frequency int32, now time.Time) time.Time {
	now = now.UTC()
	day := time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, time.UTC)
	switch frequency {
	case weblate.FrequencyDaily:
		return day.AddDate(0, 0, 1)
	case weblate.FrequencyWeekly:
		return day.AddDate(0, 0, 7-(int(now.Weekday())+6)%7)
	case weblate.FrequencyMonthly:
		return time.Date(now.Year(), now.Month()+1, 1, 0, 0, 0, 0, time.UTC)
	}
	return now
}

// mailKey groups due notifications into mails: each instant one alone,
// a digest per user, frequency and period.
type mailKey struct {
	user      int64
	frequency int32
	due       time.Time
	single    int64
}

// mailClaim is how many due notifications one claim takes (with the
// rest of their digests).
const mailClaim = 50

// mailTimeout bounds the sending of one mail: 30 seconds, or a quarter
// of a shorter claim.
func (d *Deliverer) mailTimeout() time.Duration { return min(30*time.Second, d.claimTTL()/4) }

// send mails what is due, retrying failures with backoff. It claims the
// due notifications first, so that of several replicas one mails each,
// and leaves a mail it could not finish before its claim lapses to the
// next claim instead of risking a second copy.
func (d *Deliverer) send(ctx context.Context) error {
	c := d.claim()
	due, err := d.Store.ClaimDue(ctx, c, maxAttempts, mailClaim)
	if err != nil {
		return err
	}
	groups := map[mailKey][]store.Pending{}
	var order []mailKey
	for _, p := range due {
		k := mailKey{user: p.UserID, frequency: p.Frequency, due: p.DueAt.UTC()}
		if p.Frequency == weblate.FrequencyInstant {
			k.single = p.ID
		}
		if _, ok := groups[k]; !ok {
			order = append(order, k)
		}
		groups[k] = append(groups[k], p)
	}
	for _, k := range order {
		if ctx.Err() != nil || d.now().Add(d.mailTimeout()).After(c.Until) {
			return nil // the claim lapses before another mail surely ends
		}
		if err := d.mail(ctx, groups[k]); err != nil {
			return err
		}
	}
	return nil
}

// mailID names the mail of the notifications ids, the same at every
// attempt.
func mailID(ids []int64) string {
	h := sha256.New()
	for _, id := range ids {
		_, _ = fmt.Fprintf(h, "%d,", id) // writes to a hash.Hash never fail
	}
	return "tms-" + hex.EncodeToString(h.Sum(nil)[:12])
}

// mail sends one mail of ps (same recipient) and records the outcome.
func (d *Deliverer) mail(ctx context.Context, ps []store.Pending) error {
	items := make([]item, 0, len(ps))
	ids, changeIDs := make([]int64, 0, len(ps)), make([]int64, 0, len(ps))
	for _, p := range ps {
		changeIDs = append(changeIDs, p.ChangeID)
	}
	changes, err := d.loadChanges(ctx, changeIDs)
	if err != nil {
		return err
	}
	var gone []int64 // of records no longer in the log: nothing to tell
	for _, p := range ps {
		var ch Change
		if p.ChangeJSON != "" { // queued by an earlier version, with a copy
			_ = json.Unmarshal([]byte(p.ChangeJSON), &ch)
		} else if pc := changes[p.ChangeID]; pc != nil {
			ch = changeOf(pc)
		} else {
			gone = append(gone, p.ID)
			continue
		}
		items = append(items, newItem(p.Kind, ch, d.SiteURL))
		ids = append(ids, p.ID)
	}
	if len(gone) > 0 {
		if err = d.Store.MarkSent(ctx, gone, d.now()); err != nil {
			return err
		}
	}
	if len(items) == 0 {
		return nil
	}
	to := ps[0]
	subject, text, html, err := render(to.Username, d.SiteURL, to.Frequency, items)
	if err != nil {
		return err
	}
	sendCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), d.mailTimeout())
	defer cancel()
	err = d.Mailer.Send(sendCtx, Message{ID: mailID(ids), To: mail.Address{Name: to.FullName, Address: to.Email}, Subject: subject, Text: text, HTML: html})
	if err == nil {
		return d.Store.MarkSent(ctx, ids, d.now())
	}
	d.Log.Warn("mail not sent", "to", to.Username, "attempt", to.Attempts+1, "err", err)
	retry := d.now().Add(retryDelay(time.Minute, int(to.Attempts)))
	return d.Store.MarkFailed(ctx, ids, policy.ScrubText(err.Error()), retry)
}
