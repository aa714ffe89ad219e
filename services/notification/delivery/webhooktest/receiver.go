// Package webhooktest is a webhook receiver for tests: it counts the posts
// it gets by their webhook-id and checks each signature, as a receiver
// following the Standard Webhooks specification would.
package webhooktest

import (
	"encoding/json"
	"io"
	"maps"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/tmsproject/tms/services/notification/delivery"
)

// Receiver counts webhook posts. Set Secret (the webhook's) before the
// first post; Delay is how long it takes to answer each.
type Receiver struct {
	Secret string
	Delay  time.Duration
	mu     sync.Mutex
	posts  map[string]int
	bad    int
	// targets are the data.target of the posts' payloads, counted
	targets map[string]int
	// changes are the data.id (change record ids) of the posts' payloads
	changes map[int64]bool
}

// ServeHTTP takes one post: counted by its webhook-id, its signature
// checked, answered 204 after Delay.
func (rc *Receiver) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	time.Sleep(rc.Delay) //nolint:forbidigo // a slow receiver is what the tests need
	id := r.Header.Get("webhook-id")
	ts, _ := strconv.ParseInt(r.Header.Get("webhook-timestamp"), 10, 64)
	rc.mu.Lock()
	defer rc.mu.Unlock()
	want, err := delivery.Sign(rc.Secret, id, ts, body)
	if err != nil || want != r.Header.Get("webhook-signature") {
		rc.bad++
	}
	if rc.posts == nil {
		rc.posts = map[string]int{}
	}
	rc.posts[id]++
	var p struct {
		Data struct {
			ID     int64  `json:"id"`
			Target string `json:"target"`
		} `json:"data"`
	}
	if json.Unmarshal(body, &p) != nil {
		rc.bad++
	}
	if rc.targets == nil {
		rc.targets = map[string]int{}
	}
	rc.targets[p.Data.Target]++
	if rc.changes == nil {
		rc.changes = map[int64]bool{}
	}
	rc.changes[p.Data.ID] = true
	w.WriteHeader(http.StatusNoContent)
}

// Missing are the change record ids of ids that no post carried.
func (rc *Receiver) Missing(ids []int64) []int64 {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	var out []int64
	for _, id := range ids {
		if !rc.changes[id] {
			out = append(out, id)
		}
	}
	return out
}

// SetSecret sets the secret signatures are checked with.
func (rc *Receiver) SetSecret(secret string) {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	rc.Secret = secret
}

// Targets are the data.target values of the payloads received, with how
// many posts carried each.
func (rc *Receiver) Targets() map[string]int {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return maps.Clone(rc.targets)
}

// Counts reports the distinct events (webhook-ids) received, the posts in
// all, and the posts whose signature did not verify.
func (rc *Receiver) Counts() (distinct, total, bad int) {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	for _, n := range rc.posts {
		total += n
	}
	return len(rc.posts), total, rc.bad
}
