package server

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"google.golang.org/protobuf/types/known/timestamppb"

	"github.com/tmsproject/tms/pkg/errs"
	"github.com/tmsproject/tms/pkg/netguard"
	"github.com/tmsproject/tms/pkg/policy"
	"github.com/tmsproject/tms/pkg/weblate"
	notificationv1 "github.com/tmsproject/tms/proto/gen/go/tms/notification/v1"
	typev1 "github.com/tmsproject/tms/proto/gen/go/tms/type/v1"
	"github.com/tmsproject/tms/services/notification/store"
)

// WebhookStore is the storage of webhooks.
type WebhookStore interface {
	CreateWebhook(ctx context.Context, w *store.Webhook) error
	Webhooks(ctx context.Context, project string) ([]store.Webhook, error)
	GetWebhook(ctx context.Context, project string, id int64) (store.Webhook, error)
	SaveWebhook(ctx context.Context, w store.Webhook) error
	DeleteWebhook(ctx context.Context, project string, id int64) error
	Deliveries(ctx context.Context, webhookID int64, offset, limit int) ([]store.Delivery, int64, error)
}

// Webhooks implements notificationv1.WebhookServiceServer.
type Webhooks struct {
	notificationv1.UnimplementedWebhookServiceServer
	store WebhookStore
	// allowLocal admits receivers on local and private addresses.
	allowLocal bool
	projects   *policy.Projects
}

// NewWebhooks returns the webhook server on st.
// projects (nil: superusers only) lets project administrators manage
// their projects' webhooks.
func NewWebhooks(st WebhookStore, allowLocal bool, projects *policy.Projects) *Webhooks {
	return &Webhooks{store: st, allowLocal: allowLocal, projects: projects}
}

// mayManage admits who may edit the project ("project.edit": its
// administrators, superusers) and the services' own calls.
func (s *Webhooks) mayManage(ctx context.Context, project string) error {
	c, ok := policy.FromContext(ctx)
	if !ok || c.Superuser {
		return nil
	}
	if s.projects == nil {
		return errs.New(errs.PermissionDenied, "Only project administrators may manage webhooks.")
	}
	return s.projects.Authorize(ctx, "project.edit", policy.Scope{Project: project},
		"Only project administrators may manage webhooks.")
}

// CreateWebhook validates and stores a webhook.
func (s *Webhooks) CreateWebhook(ctx context.Context, req *notificationv1.CreateWebhookRequest) (*notificationv1.CreateWebhookResponse, error) {
	if err := s.mayManage(ctx, req.GetWebhook().GetProjectSlug()); err != nil {
		return nil, err
	}
	in := req.GetWebhook()
	w := store.Webhook{ProjectSlug: in.GetProjectSlug(), Active: true}
	if err := s.apply(&w, in, []string{"url", "actions", "active", "secret"}); err != nil {
		return nil, err
	}
	if w.Secret == "" {
		w.Secret = newSecret()
	}
	if err := s.store.CreateWebhook(ctx, &w); err != nil {
		return nil, err
	}
	out := webhookProto(w)
	out.Secret = w.Secret
	return &notificationv1.CreateWebhookResponse{Webhook: out}, nil
}

// apply copies the named fields of in into w, validating each.
func (s *Webhooks) apply(w *store.Webhook, in *notificationv1.Webhook, fields []string) error {
	var v errs.Violations
	if w.ProjectSlug == "" {
		v.Add("project_slug", "required", "This field is required.")
	}
	for _, f := range fields {
		switch f {
		case "url":
			// The masked form the caller was shown keeps the stored
			// URL, credentials included.
			if u := strings.TrimSpace(in.GetUrl()); w.URL == "" || u != policy.RedactURL(w.URL, true) {
				w.URL = u
			}
			if msg := s.checkURL(w.URL); msg != "" {
				v.Add("url", "invalid", msg)
			}
		case "actions":
			var list []string
			for _, a := range in.GetActions() {
				n, ok := weblate.ChangeActions.Ref(a)
				if !ok {
					v.Add("actions", "invalid", "\""+strconv.Itoa(int(a))+"\" is not a valid change action.")
				}
				list = append(list, strconv.Itoa(int(n)))
			}
			w.Actions = strings.Join(list, ",")
		case "active":
			w.Active = in.GetActive()
		case "secret":
			if in.GetSecret() != "" && !validSecret(in.GetSecret()) {
				v.Add("secret", "invalid", "A secret is \"whsec_\" followed by 24 to 64 bytes in base64.")
			}
			if in.GetSecret() != "" {
				w.Secret = in.GetSecret()
			}
		default:
			v.Add(f, "read_only", "This field can not be changed.")
		}
	}
	return v.Err()
}

// checkURL is the refusal of a receiver URL, "" when it is fine.
func (s *Webhooks) checkURL(raw string) string {
	u, err := url.Parse(raw)
	switch {
	case raw == "":
		return "This field is required."
	case err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Hostname() == "":
		return "Enter a valid http or https URL."
	case !s.allowLocal && netguard.LocalHost(u.Hostname()):
		return "Webhooks to local or private network addresses are not allowed; the server allows them when TMS_ALLOW_LOCAL_WEBHOOKS=true."
	}
	return ""
}

func newSecret() string {
	b := make([]byte, 24)
	_, _ = rand.Read(b)
	return "whsec_" + base64.StdEncoding.EncodeToString(b)
}

func validSecret(s string) bool {
	rest, ok := strings.CutPrefix(s, "whsec_")
	b, err := base64.StdEncoding.DecodeString(rest)
	return ok && err == nil && len(b) >= 24 && len(b) <= 64
}

// ListWebhooks lists a project's webhooks.
func (s *Webhooks) ListWebhooks(ctx context.Context, req *notificationv1.ListWebhooksRequest) (*notificationv1.ListWebhooksResponse, error) {
	if err := s.mayManage(ctx, req.GetProjectSlug()); err != nil {
		return nil, err
	}
	if req.GetProjectSlug() == "" {
		return nil, errs.Invalid("project_slug", "required", "This field is required.")
	}
	ws, err := s.store.Webhooks(ctx, req.GetProjectSlug())
	if err != nil {
		return nil, err
	}
	out := &notificationv1.ListWebhooksResponse{}
	for _, w := range ws {
		out.Webhooks = append(out.Webhooks, webhookProto(w))
	}
	return out, nil
}

// GetWebhook reads a webhook.
func (s *Webhooks) GetWebhook(ctx context.Context, req *notificationv1.GetWebhookRequest) (*notificationv1.GetWebhookResponse, error) {
	if err := s.mayManage(ctx, req.GetProjectSlug()); err != nil {
		return nil, err
	}
	w, err := s.store.GetWebhook(ctx, req.GetProjectSlug(), req.GetId())
	if err != nil {
		return nil, err
	}
	return &notificationv1.GetWebhookResponse{Webhook: webhookProto(w)}, nil
}

// UpdateWebhook changes the named fields.
func (s *Webhooks) UpdateWebhook(ctx context.Context, req *notificationv1.UpdateWebhookRequest) (*notificationv1.UpdateWebhookResponse, error) {
	if err := s.mayManage(ctx, req.GetWebhook().GetProjectSlug()); err != nil {
		return nil, err
	}
	in := req.GetWebhook()
	w, err := s.store.GetWebhook(ctx, in.GetProjectSlug(), in.GetId())
	if err != nil {
		return nil, err
	}
	if err := s.apply(&w, in, slices.Compact(slices.Sorted(slices.Values(req.GetUpdateMask().GetPaths())))); err != nil {
		return nil, err
	}
	if err := s.store.SaveWebhook(ctx, w); err != nil {
		return nil, err
	}
	return &notificationv1.UpdateWebhookResponse{Webhook: webhookProto(w)}, nil
}

// DeleteWebhook removes a webhook.
func (s *Webhooks) DeleteWebhook(ctx context.Context, req *notificationv1.DeleteWebhookRequest) (*notificationv1.DeleteWebhookResponse, error) {
	if err := s.mayManage(ctx, req.GetProjectSlug()); err != nil {
		return nil, err
	}
	return &notificationv1.DeleteWebhookResponse{}, s.store.DeleteWebhook(ctx, req.GetProjectSlug(), req.GetId())
}

// ListDeliveries pages a webhook's delivery log.
func (s *Webhooks) ListDeliveries(ctx context.Context, req *notificationv1.ListDeliveriesRequest) (*notificationv1.ListDeliveriesResponse, error) {
	if err := s.mayManage(ctx, req.GetProjectSlug()); err != nil {
		return nil, err
	}
	pg, perr := listPage(req)
	if perr != nil {
		return nil, perr
	}
	if _, err := s.store.GetWebhook(ctx, req.GetProjectSlug(), req.GetWebhookId()); err != nil {
		return nil, err
	}
	ds, total, err := s.store.Deliveries(ctx, req.GetWebhookId(), int(pg.Offset), int(pg.Limit))
	if err != nil {
		return nil, err
	}
	out := &notificationv1.ListDeliveriesResponse{Total: total, NextPageToken: pg.Next(total)}
	for _, d := range ds {
		p := &notificationv1.WebhookDelivery{Id: d.ID, ChangeId: d.ChangeID, Attempts: int32(d.Attempts), //nolint:gosec // G115: at most the delivery's maxAttempts
			StatusCode: int32(d.StatusCode), Error: d.Error, CreateTime: timestamppb.New(d.CreatedAt)} //nolint:gosec // G115: an HTTP status
		if d.DeliveredAt != nil {
			p.DeliveryTime = timestamppb.New(*d.DeliveredAt)
		}
		out.Deliveries = append(out.Deliveries, p)
	}
	return out, nil
}

// actionsProto are the enums of stored actions (the reference's numbers).
func actionsProto(stored []int32) []typev1.ChangeAction {
	out := make([]typev1.ChangeAction, len(stored))
	for i, n := range stored {
		out[i] = weblate.ChangeActions.EnumOf(n)
	}
	return out
}

// webhookProto is a webhook as callers see it: the receiver URL's
// credentials ("https://user:secret@host/") masked as "***", as
// repository URLs are; only deliveries use them.
func webhookProto(w store.Webhook) *notificationv1.Webhook {
	return &notificationv1.Webhook{Id: w.ID, ProjectSlug: w.ProjectSlug, Url: policy.RedactURL(w.URL, true), Actions: actionsProto(w.ActionList()),
		Active: w.Active, CreateTime: timestamppb.New(w.CreatedAt)}
}
