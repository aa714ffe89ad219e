package store_test

import (
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/tmsproject/tms/pkg/weblate"
	"github.com/tmsproject/tms/services/notification/store"
)

var claimAt = time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)

// enqueueDeliveries stores n due deliveries of a new webhook of p.
func enqueueDeliveries(t *testing.T, s *store.Store, n int) {
	t.Helper()
	w := store.Webhook{ProjectSlug: "p", URL: "https://hooks.example/c", Secret: "whsec_x", Active: true}
	if err := s.CreateWebhook(t.Context(), &w); err != nil {
		t.Fatal(err)
	}
	ds := make([]store.Delivery, n)
	for i := range ds {
		ds[i] = store.Delivery{WebhookID: w.ID, ChangeID: int64(i + 1), Payload: "{}", CreatedAt: claimAt, DueAt: claimAt}
	}
	if err := s.Enqueue(t.Context(), "mail", int64(n), nil, ds); err != nil {
		t.Fatal(err)
	}
}

func ids(ds []store.DueDelivery) []int64 {
	out := make([]int64, len(ds))
	for i, d := range ds {
		out[i] = d.ChangeID
	}
	return out
}

// testDeliveryClaims: a claimed delivery is nobody else's until its claim
// lapses, then anyone's; an attempt recorded frees it.
func testDeliveryClaims(t *testing.T, s *store.Store) {
	ctx := t.Context()
	enqueueDeliveries(t, s, 3)
	claim := func(token string, at time.Time, limit int) []int64 {
		t.Helper()
		got, err := s.ClaimDeliveries(ctx, store.Claim{Token: token, Now: at, Until: at.Add(time.Minute)}, 8, limit)
		if err != nil {
			t.Fatal(err)
		}
		return ids(got)
	}
	steps := []struct {
		token string
		after time.Duration
		limit int
		want  string
	}{
		{"a", 0, 2, "[1 2]"},
		{"b", time.Second, 5, "[3]"},
		{"c", 2 * time.Second, 5, "[]"},
		{"d", 61 * time.Second, 5, "[1 2]"}, // a's claim lapsed; b's not yet
		{"e", 62 * time.Second, 5, "[3]"},
	}
	for _, st := range steps {
		if got := fmt.Sprint(claim(st.token, claimAt.Add(st.after), st.limit)); got != st.want {
			t.Fatalf("claim %s: %s, want %s", st.token, got, st.want)
		}
	}
	// Released claims are anyone's at once.
	if err := s.ReleaseClaims(ctx); err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(claim("e2", claimAt.Add(63*time.Second), 5)); got != "[1 2 3]" {
		t.Fatalf("after ReleaseClaims: %s, want [1 2 3]", got)
	}
	due, err := s.ClaimDeliveries(ctx, store.Claim{Token: "f", Now: claimAt.Add(3 * time.Minute), Until: claimAt.Add(4 * time.Minute)}, 8, 1)
	if err != nil || len(due) != 1 {
		t.Fatalf("claim f: %v %v", due, err)
	}
	delivered := claimAt.Add(3 * time.Minute)
	if err := s.RecordAttempt(ctx, due[0].ID, 200, "", &delivered, delivered); err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(claim("g", claimAt.Add(10*time.Minute), 5)); got != "[2 3]" {
		t.Fatalf("after delivery: %s, want [2 3]", got)
	}
}

// testDeliveryClaimRace has replicas claim small batches at once until
// nothing is left: each delivery is claimed by exactly one.
func testDeliveryClaimRace(t *testing.T, s *store.Store) {
	const n, replicas = 300, 6
	enqueueDeliveries(t, s, n)
	var (
		mu   sync.Mutex
		seen = map[int64]int{}
		wg   sync.WaitGroup
	)
	for r := range replicas {
		wg.Go(func() {
			for i := 0; ; i++ {
				c := store.Claim{Token: fmt.Sprintf("r%d-%d", r, i), Now: claimAt, Until: claimAt.Add(time.Hour)}
				got, err := s.ClaimDeliveries(t.Context(), c, 8, 7)
				if err != nil {
					t.Error(err)
					return
				}
				if len(got) == 0 {
					return
				}
				mu.Lock()
				for _, d := range got {
					seen[d.ChangeID]++
				}
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	if len(seen) != n {
		t.Errorf("%d deliveries claimed, want %d", len(seen), n)
	}
	for id, k := range seen {
		if k != 1 {
			t.Errorf("delivery of change %d claimed %d times", id, k)
		}
	}
}

// testMailClaims: a claim that takes one row of a digest takes the whole
// digest; instant mail is claimed row by row.
func testMailClaims(t *testing.T, s *store.Store) {
	ctx := t.Context()
	u, err := s.CreateUser(ctx, store.User{Username: "mia", Email: "mia@example.org", IsActive: true, DateJoined: claimAt}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var ns []store.Notification
	add := func(change int64, freq int32, due time.Time) {
		ns = append(ns, store.Notification{ChangeID: change, UserID: u.ID, Kind: weblate.NotifyTranslatedString,
			Frequency: freq, ChangeJSON: "{}", CreatedAt: claimAt, DueAt: due})
	}
	add(1, weblate.FrequencyDaily, claimAt)
	add(2, weblate.FrequencyInstant, claimAt.Add(time.Second))
	add(3, weblate.FrequencyInstant, claimAt.Add(time.Second))
	add(4, weblate.FrequencyDaily, claimAt)
	add(5, weblate.FrequencyDaily, claimAt)
	if err := s.Enqueue(ctx, "mail", 5, ns, nil); err != nil {
		t.Fatal(err)
	}
	at := claimAt.Add(time.Minute)
	changes := func(token string, limit int) string {
		t.Helper()
		got, err := s.ClaimDue(ctx, store.Claim{Token: token, Now: at, Until: at.Add(time.Minute)}, 8, limit)
		if err != nil {
			t.Fatal(err)
		}
		out := make([]int64, len(got))
		for i, p := range got {
			out[i] = p.ChangeID
			if p.Email != "mia@example.org" {
				t.Errorf("recipient %+v", p)
			}
		}
		return fmt.Sprint(out)
	}
	for _, st := range []struct{ token, want string }{{"a", "[1 4 5]"}, {"b", "[2]"}, {"c", "[3]"}, {"d", "[]"}} {
		if got := changes(st.token, 1); got != st.want {
			t.Fatalf("claim %s: %s, want %s", st.token, got, st.want)
		}
	}
}
