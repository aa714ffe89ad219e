package delivery

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/tmsproject/tms/pkg/changedetails"
	"github.com/tmsproject/tms/pkg/netguard"
	"github.com/tmsproject/tms/pkg/weblate"
	changelogv1 "github.com/tmsproject/tms/proto/gen/go/tms/changelog/v1"
	"github.com/tmsproject/tms/services/notification/store"
)

// webhookTimeout bounds one delivery attempt.
const webhookTimeout = 10 * time.Second

// payload is the JSON posted for a change (the Standard Webhooks
// envelope: type, timestamp, data).
type payload struct {
	Type      string      `json:"type"`
	Timestamp string      `json:"timestamp"`
	Data      payloadData `json:"data"`
}

type payloadData struct {
	ID        int64           `json:"id"`
	Action    int32           `json:"action"`
	Project   string          `json:"project"`
	Component string          `json:"component"`
	Language  string          `json:"language"`
	Unit      int64           `json:"unit"`
	User      string          `json:"user"`
	Author    string          `json:"author"`
	Target    string          `json:"target"`
	Old       string          `json:"old"`
	Details   json.RawMessage `json:"details"`
	Timestamp string          `json:"timestamp"`
}

func payloadOf(ch *changelogv1.Change) string {
	details := changedetails.Object(ch.GetDetails())
	at := ch.GetTimestamp().AsTime().UTC().Format(time.RFC3339Nano)
	b, _ := json.Marshal(payload{Type: "change", Timestamp: at, Data: payloadData{ID: ch.GetId(), Action: weblate.ChangeActions.RefOf(ch.GetAction()),
		Project: ch.GetProjectSlug(), Component: ch.GetComponentSlug(), Language: ch.GetLanguageCode(), Unit: ch.GetUnitId(),
		User: ch.GetUser(), Author: ch.GetAuthor(), Target: ch.GetTarget(), Old: ch.GetOld(), Details: details, Timestamp: at}})
	return string(b)
}

// routeWebhooks makes the deliveries of changes to the webhooks of their
// projects that take their actions.
func (d *Deliverer) routeWebhooks(ctx context.Context, changes []*changelogv1.Change) ([]store.Delivery, error) {
	hooks, err := d.Store.Webhooks(ctx, "")
	if err != nil || len(hooks) == 0 {
		return nil, err
	}
	now := d.now()
	var out []store.Delivery
	for _, ch := range changes {
		for _, w := range hooks {
			if w.Active && w.ProjectSlug == ch.GetProjectSlug() && w.Wants(weblate.ChangeActions.RefOf(ch.GetAction())) {
				// the payload is rendered when sent (loadChanges), not stored
				out = append(out, store.Delivery{WebhookID: w.ID, ChangeID: ch.GetId(), CreatedAt: now, DueAt: now})
			}
		}
	}
	return out, nil
}

// Sign is the Standard Webhooks signature of a message: "v1," and the
// base64 HMAC-SHA256, keyed with the secret's bytes, of id.timestamp.body.
func Sign(secret, id string, timestamp int64, body []byte) (string, error) {
	key, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(secret, "whsec_"))
	if err != nil {
		return "", fmt.Errorf("webhook secret: %w", err)
	}
	mac := hmac.New(sha256.New, key)
	_, _ = fmt.Fprintf(mac, "%s.%d.", id, timestamp) // writes to a hash.Hash never fail
	_, _ = mac.Write(body)
	return "v1," + base64.StdEncoding.EncodeToString(mac.Sum(nil)), nil
}

// httpClient posts webhooks, refusing local addresses unless allowed.
// It is made once; posts run in parallel.
func (d *Deliverer) httpClient() *http.Client {
	d.clientOnce.Do(func() {
		tr := http.DefaultTransport.(*http.Transport).Clone()
		tr.DialContext = netguard.DialContext(&net.Dialer{Timeout: webhookTimeout}, func() bool { return d.AllowLocal })
		d.client = &http.Client{Transport: tr, Timeout: webhookTimeout,
			CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	})
	return d.client
}

// Webhook delivery runs this many posts at once in all, and at most
// perEndpoint of them to one webhook, so that a slow receiver neither
// holds back the others nor gets more than a few requests at a time.
// Change events need no order between them: each carries its id and
// timestamp, and a retried one arrives after later ones anyway.
const (
	postWorkers  = 32
	perEndpoint  = 16
	webhookClaim = 4 * postWorkers
)

// sendWebhooks claims the due deliveries, a batch at a time, and attempts
// them. A batch's posts end within two webhook timeouts of their claim
// (webhookClaim is four posts per worker, perEndpoint half the workers),
// well inside DefaultClaimTTL.
func (d *Deliverer) sendWebhooks(ctx context.Context) error {
	for {
		due, err := d.Store.ClaimDeliveries(ctx, d.claim(), maxAttempts, webhookClaim)
		if err != nil || len(due) == 0 {
			return err
		}
		if err := d.postAll(ctx, due); err != nil {
			return err
		}
		if len(due) < webhookClaim {
			return nil
		}
	}
}

// postAll attempts the deliveries, postWorkers at a time and perEndpoint
// per webhook, and records each outcome as it comes. Each webhook has
// workers of its own, so a slow receiver never keeps the dispatch of
// another's deliveries waiting.
func (d *Deliverer) postAll(ctx context.Context, due []store.DueDelivery) error {
	if err := d.payloads(ctx, due); err != nil {
		return err
	}
	queues := map[int64]chan store.DueDelivery{}
	var order []int64
	for _, dd := range due {
		if _, ok := queues[dd.WebhookID]; !ok {
			queues[dd.WebhookID] = make(chan store.DueDelivery, len(due))
			order = append(order, dd.WebhookID)
		}
		queues[dd.WebhookID] <- dd
	}
	all := make(chan struct{}, postWorkers)
	var (
		wg     sync.WaitGroup
		mu     sync.Mutex
		failed error
	)
	for _, id := range order {
		q := queues[id]
		close(q)
		for range min(perEndpoint, len(q)) {
			wg.Go(func() {
				for dd := range q {
					if ctx.Err() != nil {
						continue // stopping: the claim lapses and another replica takes it
					}
					all <- struct{}{}
					err := d.attempt(ctx, dd)
					<-all
					if err != nil {
						mu.Lock()
						failed = errors.Join(failed, err)
						mu.Unlock()
					}
				}
			})
		}
	}
	wg.Wait()
	return failed
}

// payloads renders the payload of each delivery from its record; one
// whose record left the log keeps none, and fails.
func (d *Deliverer) payloads(ctx context.Context, due []store.DueDelivery) error {
	var ids []int64
	for _, dd := range due {
		if dd.Payload == "" {
			ids = append(ids, dd.ChangeID)
		}
	}
	if len(ids) == 0 {
		return nil
	}
	changes, err := d.loadChanges(ctx, ids)
	if err != nil {
		return err
	}
	for i := range due {
		if ch := changes[due[i].ChangeID]; due[i].Payload == "" && ch != nil {
			due[i].Payload = payloadOf(ch)
		}
	}
	return nil
}

// attempt posts one delivery and records the outcome: delivered, or due
// again after a backoff. A post under way finishes, and is recorded, when
// the deliverer is stopped, so that a clean stop sends nothing twice.
func (d *Deliverer) attempt(ctx context.Context, dd store.DueDelivery) error {
	ctx = context.WithoutCancel(ctx)
	status, failure := d.post(ctx, dd)
	now := d.now()
	if failure == "" {
		return d.Store.RecordAttempt(ctx, dd.ID, status, "", &now, now)
	}
	d.Log.Warn("webhook not delivered", "webhook", dd.WebhookID, "attempt", dd.Attempts+1, "err", failure)
	return d.Store.RecordAttempt(ctx, dd.ID, status, failure, nil, now.Add(retryDelay(5*time.Second, int(dd.Attempts))))
}

// post sends one delivery: a 2xx answer delivers it; anything else is the
// failure, without the receiver's body (it is not ours to store).
func (d *Deliverer) post(ctx context.Context, dd store.DueDelivery) (status int, failure string) {
	if dd.Payload == "" {
		return 0, "the change is no longer in the change log"
	}
	id, ts, body := "msg_"+strconv.FormatInt(dd.ID, 10), d.now().Unix(), []byte(dd.Payload)
	sig, err := Sign(dd.Secret, id, ts, body)
	if err != nil {
		return 0, err.Error()
	}
	ctx, cancel := context.WithTimeout(ctx, webhookTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, dd.URL, bytes.NewReader(body))
	if err != nil {
		return 0, err.Error()
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "TMS-Webhooks")
	req.Header.Set("webhook-id", id)
	req.Header.Set("webhook-timestamp", strconv.FormatInt(ts, 10))
	req.Header.Set("webhook-signature", sig)
	resp, err := d.httpClient().Do(req)
	if err != nil {
		return 0, err.Error()
	}
	defer func() { _ = resp.Body.Close() }()
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<16))
	if resp.StatusCode/100 != 2 {
		return resp.StatusCode, "the receiver answered " + resp.Status
	}
	return resp.StatusCode, ""
}
