package delivery

import (
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/mail"
	"time"

	"google.golang.org/grpc"

	"github.com/tmsproject/tms/pkg/errs"
	"github.com/tmsproject/tms/pkg/obs"
	"github.com/tmsproject/tms/pkg/policy"
	"github.com/tmsproject/tms/pkg/weblate"
	changelogv1 "github.com/tmsproject/tms/proto/gen/go/tms/changelog/v1"
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
	DueDeliveries(ctx context.Context, now time.Time, maxAttempts, limit int) ([]store.DueDelivery, error)
	RecordAttempt(ctx context.Context, id int64, status int, failure string, delivered *time.Time, retryAt time.Time) error
	Due(ctx context.Context, now time.Time, maxAttempts, limit int) ([]store.Pending, error)
	MarkSent(ctx context.Context, ids []int64, at time.Time) error
	MarkFailed(ctx context.Context, ids []int64, failure string, retryAt time.Time) error
	Grants(ctx context.Context, memberID int64) ([]policy.Grant, error)
}

const (
	cursorName  = "mail"
	maxAttempts = 8
	// gapGrace is how long a missing id is waited for: a record committed
	// after a later one (PostgreSQL assigns ids before commit) arrives
	// within it; past it the id is a sequence gap and is skipped.
	gapGrace = 30 * time.Second
)

// Deliverer consumes the change log and sends the mail.
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
	gaps       map[int64]time.Time
	client     *http.Client
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

// Step consumes what the log holds and sends what is due.
func (d *Deliverer) Step(ctx context.Context) error {
	for {
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
		ch := Change{ID: pc.GetId(), Action: pc.GetAction(), Project: pc.GetProjectSlug(), Component: pc.GetComponentSlug(),
			Language: pc.GetLanguageCode(), Author: pc.GetUser(), Target: pc.GetTarget()}
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
			data, _ := json.Marshal(ch)
			out = append(out, store.Notification{ChangeID: ch.ID, UserID: uid, Kind: s.Notification,
				Frequency: s.Frequency, ChangeJSON: string(data), CreatedAt: now, DueAt: dueAt(s.Frequency, now)})
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

// send mails what is due, retrying failures with backoff.
func (d *Deliverer) send(ctx context.Context) error {
	due, err := d.Store.Due(ctx, d.now(), maxAttempts, 500)
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
		if err := d.mail(ctx, groups[k]); err != nil {
			return err
		}
	}
	return nil
}

// mail sends one mail of ps (same recipient) and records the outcome.
func (d *Deliverer) mail(ctx context.Context, ps []store.Pending) error {
	items := make([]item, 0, len(ps))
	ids := make([]int64, 0, len(ps))
	for _, p := range ps {
		var ch Change
		_ = json.Unmarshal([]byte(p.ChangeJSON), &ch)
		items = append(items, newItem(p.Kind, ch, d.SiteURL))
		ids = append(ids, p.ID)
	}
	to := ps[0]
	subject, text, html, err := render(to.Username, d.SiteURL, to.Frequency, items)
	if err != nil {
		return err
	}
	sendCtx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	err = d.Mailer.Send(sendCtx, Message{To: mail.Address{Name: to.FullName, Address: to.Email}, Subject: subject, Text: text, HTML: html})
	if err == nil {
		return d.Store.MarkSent(ctx, ids, d.now())
	}
	d.Log.Warn("mail not sent", "to", to.Username, "attempt", to.Attempts+1, "err", err)
	retry := d.now().Add(time.Minute << min(to.Attempts, 10))
	return d.Store.MarkFailed(ctx, ids, policy.ScrubText(err.Error()), retry)
}
