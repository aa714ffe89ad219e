package rest

import (
	"encoding/json"
	"net/http"
	"strconv"

	"github.com/tmsproject/tms/gateway/rest/wire"
	"github.com/tmsproject/tms/pkg/weblate"
	notificationv1 "github.com/tmsproject/tms/proto/gen/go/tms/notification/v1"
	typev1 "github.com/tmsproject/tms/proto/gen/go/tms/type/v1"
)

// webhookJSON is a webhook: its receiver is target_url (url is the
// object's own, as everywhere in the API); secret only when created.
type webhookJSON struct {
	ID            int64      `json:"id"`
	URL           string     `json:"url"`
	TargetURL     string     `json:"target_url"`
	Actions       []int32    `json:"actions"`
	Active        bool       `json:"active"`
	Created       *wire.Time `json:"created"`
	DeliveriesURL string     `json:"deliveries_url"`
	Secret        string     `json:"secret,omitempty"`
}

func (c *call) webhookJSON(w *notificationv1.Webhook) *webhookJSON {
	self := c.urls.project(w.GetProjectSlug(), "webhooks", id(w.GetId()))
	return &webhookJSON{ID: w.GetId(), URL: self, TargetURL: w.GetUrl(), Actions: restActions(w.GetActions()),
		Active: w.GetActive(), Created: wire.TimeOf(w.GetCreateTime()), Secret: w.GetSecret(),
		DeliveriesURL: c.urls.project(w.GetProjectSlug(), "webhooks", id(w.GetId()), "deliveries")}
}

// restActions are a webhook's actions as the REST API numbers them,
// never null.
func restActions(actions []typev1.ChangeAction) []int32 {
	out := make([]int32, len(actions))
	for i, a := range actions {
		out[i] = weblate.ChangeActions.RefOf(a)
	}
	return out
}

// webhookScope checks the project of the path and the caller's right to
// manage its webhooks (project administrators: superusers for now).
func (c *call) webhookScope() error {
	if _, err := c.pathProject(); err != nil {
		return err
	}
	return c.authorizeProject("project.edit")
}

// webhookBody reads target_url, actions, active and secret.
func (c *call) webhookBody(required bool) (*notificationv1.Webhook, []string, error) {
	b, err := c.readBody()
	if err != nil {
		return nil, nil, err
	}
	if required {
		b.required("target_url")
	}
	w := &notificationv1.Webhook{ProjectSlug: c.param("project")}
	var fields []string
	if s, ok := b.str("target_url"); ok {
		w.Url, fields = s, append(fields, "url")
	}
	if b.has("actions") {
		list, ok := b.fields["actions"].([]any)
		if !ok {
			b.errs.Add("actions", "not_a_list", "Expected a list of items.")
		}
		for i, x := range list {
			num, _ := x.(json.Number)
			n, err := strconv.ParseInt(num.String(), 10, 32)
			if err != nil {
				b.errs.Add("actions."+strconv.Itoa(i), "invalid", "A valid integer is required.")
				continue
			}
			action, ok := weblate.ChangeActions.Enum(int32(n))
			if !ok {
				b.errs.Add("actions", "invalid", "\""+num.String()+"\" is not a valid change action.")
				continue
			}
			w.Actions = append(w.Actions, action)
		}
		fields = append(fields, "actions")
	}
	if v, ok := b.boolean("active"); ok {
		w.Active, fields = v, append(fields, "active")
	} else if required {
		w.Active = true
	}
	if s, ok := b.str("secret"); ok {
		w.Secret, fields = s, append(fields, "secret")
	}
	return w, fields, b.err()
}

func (g *gateway) listWebhooks(c *call) error {
	if err := c.webhookScope(); err != nil {
		return err
	}
	p, err := c.pager(defaultPageSize, maxPageSize)
	if err != nil {
		return err
	}
	resp, err := g.cfg.Webhooks.ListWebhooks(c.ctx, &notificationv1.ListWebhooksRequest{ProjectSlug: c.param("project")})
	if err != nil {
		return err
	}
	out := make([]*webhookJSON, 0, len(resp.GetWebhooks()))
	for _, w := range resp.GetWebhooks() {
		out = append(out, c.webhookJSON(w))
	}
	return pageOf(c, p, out)
}

func (g *gateway) createWebhook(c *call) error {
	if err := c.webhookScope(); err != nil {
		return err
	}
	w, _, err := c.webhookBody(true)
	if err != nil {
		return err
	}
	resp, err := g.cfg.Webhooks.CreateWebhook(c.ctx, &notificationv1.CreateWebhookRequest{Webhook: w})
	if err != nil {
		return err
	}
	j := c.webhookJSON(resp.GetWebhook())
	return c.created(j.URL, j)
}

func (g *gateway) getWebhook(c *call) error {
	if err := c.webhookScope(); err != nil {
		return err
	}
	n, err := c.pathID()
	if err != nil {
		return err
	}
	resp, err := g.cfg.Webhooks.GetWebhook(c.ctx, &notificationv1.GetWebhookRequest{ProjectSlug: c.param("project"), Id: n})
	if err != nil {
		return err
	}
	return c.ok(c.webhookJSON(resp.GetWebhook()))
}

func (g *gateway) updateWebhook(c *call) error {
	if err := c.webhookScope(); err != nil {
		return err
	}
	n, err := c.pathID()
	if err != nil {
		return err
	}
	w, fields, err := c.webhookBody(c.r.Method == http.MethodPut)
	if err != nil {
		return err
	}
	w.Id = n
	resp, err := g.cfg.Webhooks.UpdateWebhook(c.ctx, &notificationv1.UpdateWebhookRequest{Webhook: w, UpdateMask: mask(fields)})
	if err != nil {
		return err
	}
	return c.ok(c.webhookJSON(resp.GetWebhook()))
}

func (g *gateway) deleteWebhook(c *call) error {
	if err := c.webhookScope(); err != nil {
		return err
	}
	n, err := c.pathID()
	if err != nil {
		return err
	}
	if _, err := g.cfg.Webhooks.DeleteWebhook(c.ctx, &notificationv1.DeleteWebhookRequest{ProjectSlug: c.param("project"), Id: n}); err != nil {
		return err
	}
	return c.noContent()
}

// deliveryJSON is one entry of a webhook's delivery log.
type deliveryJSON struct {
	ID         int64      `json:"id"`
	Change     string     `json:"change"`
	Attempts   int32      `json:"attempts"`
	StatusCode int32      `json:"status_code"`
	Error      string     `json:"error"`
	Created    *wire.Time `json:"created"`
	Delivered  *wire.Time `json:"delivered"`
}

func (g *gateway) webhookDeliveries(c *call) error {
	if err := c.webhookScope(); err != nil {
		return err
	}
	n, err := c.pathID()
	if err != nil {
		return err
	}
	render := func(d *notificationv1.WebhookDelivery) deliveryJSON {
		return deliveryJSON{ID: d.GetId(), Change: c.urls.change(d.GetChangeId()), Attempts: d.GetAttempts(),
			StatusCode: d.GetStatusCode(), Error: d.GetError(), Created: wire.TimeOf(d.GetCreateTime()),
			Delivered: wire.TimeOf(d.GetDeliveryTime())}
	}
	return c.servicePage(func(offset, limit int64) (any, int64, error) {
		resp, err := g.cfg.Webhooks.ListDeliveries(c.ctx, &notificationv1.ListDeliveriesRequest{
			ProjectSlug: c.param("project"), WebhookId: n, Offset: offset, Limit: limit})
		return pageRows(resp.GetDeliveries(), resp.GetTotal(), err, always(render))
	})
}
