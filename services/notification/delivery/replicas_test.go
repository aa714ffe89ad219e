package delivery_test

import (
	"context"
	"encoding/base64"
	"errors"
	"io"
	"log/slog"
	"net/http/httptest"
	"strconv"
	"sync"
	"testing"
	"time"

	"gorm.io/gorm"

	"github.com/tmsproject/tms/pkg/dbtest"
	"github.com/tmsproject/tms/pkg/lease"
	"github.com/tmsproject/tms/pkg/policy"
	"github.com/tmsproject/tms/pkg/weblate"
	typev1 "github.com/tmsproject/tms/proto/gen/go/tms/type/v1"
	"github.com/tmsproject/tms/services/notification/delivery"
	"github.com/tmsproject/tms/services/notification/delivery/smtptest"
	"github.com/tmsproject/tms/services/notification/delivery/webhooktest"
	"github.com/tmsproject/tms/services/notification/store"
)

// TestReplicasDeliverOnce runs three deliverers on one database, as three
// replicas of the service, and stops one in the middle of its deliveries:
// 100 changes give 100 webhook deliveries and 100 instant mails, each
// once, the stopped replica's claims taken over when they lapse.
func TestReplicasDeliverOnce(t *testing.T) {
	dbtest.Engines(t, func(t *testing.T, gdb *gorm.DB) {
		const events = 100
		ctx := t.Context()
		st := store.New(gdb)
		secret := "whsec_" + base64.StdEncoding.EncodeToString([]byte("0123456789abcdef0123456789abcdef"))
		rc := &webhooktest.Receiver{Secret: secret, Delay: 20 * time.Millisecond}
		srv := httptest.NewServer(rc)
		t.Cleanup(srv.Close)
		if err := st.CreateWebhook(ctx, &store.Webhook{ProjectSlug: "p", URL: srv.URL, Secret: secret, Active: true}); err != nil {
			t.Fatal(err)
		}
		if _, err := st.CreateUser(ctx, store.User{Username: "zoe", Email: "zoe@example.org", IsActive: true, IsSuperuser: true},
			[]store.Subscription{{Notification: weblate.NotifyTranslatedString, Scope: weblate.ScopeAll, Frequency: weblate.FrequencyInstant}}); err != nil {
			t.Fatal(err)
		}
		log := &changeLog{}
		sink := smtptest.New(t)
		sink.Allow(t)
		mailer, err := delivery.NewSMTP("smtp://"+sink.Addr, "TMS <tms@example.org>")
		if err != nil {
			t.Fatal(err)
		}
		replica := func(st delivery.Store) *delivery.Deliverer {
			return &delivery.Deliverer{Store: st, ChangeLog: log, Projects: policy.NewProjects(projects{}), Mailer: mailer,
				SiteURL: "https://tms.example", Log: slog.New(slog.NewTextHandler(io.Discard, nil)), AllowLocal: true,
				Lease: lease.New(gdb, ""), ConsumeLease: time.Second, ClaimTTL: 2 * time.Second}
		}
		// The first step places the cursor at the end of the empty log.
		if err := replica(st).Step(ctx); err != nil {
			t.Fatal(err)
		}
		for i := range events {
			log.add(change(int64(i+1), typev1.ChangeAction_CHANGE_ACTION_CHANGE, "p", "alice", "t"+strconv.Itoa(i)))
		}
		var wg sync.WaitGroup
		stops := make([]context.CancelFunc, 3)
		doomed := &dying{Store: st}
		for i := range stops {
			rctx, stop := context.WithCancel(ctx)
			stops[i] = stop
			d := replica(st)
			if i == 0 {
				d = replica(doomed)
			}
			wg.Go(func() { _ = d.Run(rctx, 50*time.Millisecond) })
		}
		defer func() {
			for _, stop := range stops {
				stop()
			}
			wg.Wait()
		}()
		waitFor(t, 10*time.Second, func() bool { _, total, _ := rc.Counts(); return total >= events/4 })
		// One replica dies with deliveries claimed and under way: from
		// now on it reaches its database no more, as after a SIGKILL.
		doomed.kill()
		stops[0]()
		waitFor(t, 30*time.Second, func() bool {
			distinct, _, _ := rc.Counts()
			return distinct == events && len(sink.Received()) >= events
		})
		time.Sleep(3 * time.Second) // time for any second copy to show
		distinct, total, bad := rc.Counts()
		t.Logf("webhook posts: %d distinct, %d in all; mails: %d", distinct, total, len(sink.Received()))
		if distinct != events || bad != 0 {
			t.Errorf("webhooks: %d distinct deliveries, %d bad signatures; want %d, 0", distinct, bad, events)
		}
		// A post under way when its replica died is repeated (with the
		// same webhook-id, for the receiver to recognise): at most one per
		// worker of one endpoint.
		if total-distinct > 16 {
			t.Errorf("webhooks: %d posts for %d deliveries", total, distinct)
		}
		// The payloads, rendered from the change log when sent, carry
		// each record's text; the queue kept ids only.
		if targets := rc.Targets(); len(targets) != events || targets["t0"] == 0 || targets["t"+strconv.Itoa(events-1)] == 0 {
			t.Errorf("webhook payloads carry %d distinct targets, want %d", len(targets), events)
		}
		if ds, _, err := st.Deliveries(ctx, 1, 0, 0); err != nil || len(ds) != events || ds[0].Payload != "" {
			t.Errorf("stored deliveries: %d, %v; want %d without a copy of their payload", len(ds), err, events)
		}
		// Likewise a mail under way: sent again with the same Message-ID.
		mails := map[string]int{}
		for _, m := range sink.Received() {
			mails[m.Header.Get("Message-ID")]++
		}
		if len(mails) != events || len(sink.Received()) > events+1 {
			t.Errorf("mails: %d distinct, %d in all; want %d, at most one more", len(mails), len(sink.Received()), events)
		}
	}, store.Migrations, lease.Migrations)
}

// dying is a store that stops answering once killed, as the database
// does for a process killed with SIGKILL: nothing it had under way gets
// recorded.
type dying struct {
	*store.Store
	mu   sync.Mutex
	dead bool
}

var errDead = errors.New("the replica is dead")

func (d *dying) kill() { d.mu.Lock(); d.dead = true; d.mu.Unlock() }

func (d *dying) alive() bool { d.mu.Lock(); defer d.mu.Unlock(); return !d.dead }

func (d *dying) RecordAttempt(ctx context.Context, id int64, status int, failure string, at *time.Time, retry time.Time) error {
	if !d.alive() {
		return errDead
	}
	return d.Store.RecordAttempt(ctx, id, status, failure, at, retry)
}

func (d *dying) MarkSent(ctx context.Context, ids []int64, at time.Time) error {
	if !d.alive() {
		return errDead
	}
	return d.Store.MarkSent(ctx, ids, at)
}

func (d *dying) ClaimDeliveries(ctx context.Context, c store.Claim, maxAttempts, limit int) ([]store.DueDelivery, error) {
	if !d.alive() {
		return nil, errDead
	}
	return d.Store.ClaimDeliveries(ctx, c, maxAttempts, limit)
}

func (d *dying) ClaimDue(ctx context.Context, c store.Claim, maxAttempts, limit int) ([]store.Pending, error) {
	if !d.alive() {
		return nil, errDead
	}
	return d.Store.ClaimDue(ctx, c, maxAttempts, limit)
}

func waitFor(t *testing.T, limit time.Duration, ok func() bool) {
	t.Helper()
	for end := time.Now().Add(limit); !ok(); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatal("timed out")
		}
	}
}
