package delivery_test

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"testing"
	"time"

	"google.golang.org/protobuf/types/known/timestamppb"

	"github.com/tmsproject/tms/pkg/dbtest"
	"github.com/tmsproject/tms/pkg/policy"
	typev1 "github.com/tmsproject/tms/proto/gen/go/tms/type/v1"
	"github.com/tmsproject/tms/services/notification/delivery"
	"github.com/tmsproject/tms/services/notification/store"
)

// BenchmarkWebhookDelivery: one deliverer (one notification replica, its
// production poll interval) follows a change log that grows by 50 changes
// a second for 10 s, posting each to a receiver that takes 150 ms per
// POST. It reports the delivered events per second and the lag from a
// change's timestamp to its arrival (goal: 50/s, median under 2 s).
func BenchmarkWebhookDelivery(b *testing.B) {
	const rate, seconds, receiverDelay = 50, 10, 150 * time.Millisecond
	for b.Loop() {
		gdb := dbtest.SQLite(b, store.Migrations)
		st := store.New(gdb)
		var (
			mu   sync.Mutex
			lags []time.Duration
			last time.Time
		)
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			var p struct {
				Timestamp time.Time `json:"timestamp"`
			}
			_ = json.NewDecoder(r.Body).Decode(&p)
			time.Sleep(receiverDelay)
			mu.Lock()
			last = time.Now()
			lags = append(lags, last.Sub(p.Timestamp))
			mu.Unlock()
			w.WriteHeader(http.StatusNoContent)
		}))
		if err := st.CreateWebhook(b.Context(), &store.Webhook{ProjectSlug: "p", URL: srv.URL, Secret: "whsec_MDEyMzQ1Njc4OWFiY2RlZg==", Active: true}); err != nil {
			b.Fatal(err)
		}
		log := &changeLog{}
		d := &delivery.Deliverer{Store: st, ChangeLog: log, Projects: policy.NewProjects(projects{}), AllowLocal: true,
			Log: slog.New(slog.NewTextHandler(io.Discard, nil))}
		if err := d.Step(b.Context()); err != nil { // the cursor at the end of the empty log
			b.Fatal(err)
		}
		ctx, stop := context.WithCancel(b.Context())
		done := make(chan struct{})
		go func() { defer close(done); _ = d.Run(ctx, time.Second) }()
		start := time.Now()
		for i := range rate * seconds {
			time.Sleep(time.Until(start.Add(time.Duration(i) * time.Second / rate)))
			ch := change(int64(i+1), typev1.ChangeAction_CHANGE_ACTION_CHANGE, "p", "alice", "x")
			ch.Timestamp = timestamppb.Now()
			log.add(ch)
		}
		for deadline := time.Now().Add(2 * time.Minute); ; time.Sleep(50 * time.Millisecond) {
			mu.Lock()
			n := len(lags)
			mu.Unlock()
			if n >= rate*seconds || time.Now().After(deadline) {
				break
			}
		}
		stop()
		<-done
		srv.Close()
		mu.Lock()
		slices.Sort(lags)
		if len(lags) < rate*seconds {
			b.Fatalf("%d of %d events delivered", len(lags), rate*seconds)
		}
		b.ReportMetric(float64(len(lags))/last.Sub(start).Seconds(), "events/s")
		b.ReportMetric(lags[len(lags)/2].Seconds(), "median-lag-s")
		b.ReportMetric(lags[len(lags)-1].Seconds(), "max-lag-s")
		mu.Unlock()
	}
}
