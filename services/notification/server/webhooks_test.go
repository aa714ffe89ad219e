package server_test

import (
	"context"
	"strings"
	"testing"

	"google.golang.org/grpc/codes"
	"google.golang.org/protobuf/types/known/fieldmaskpb"

	"github.com/tmsproject/tms/pkg/dbtest"
	"github.com/tmsproject/tms/pkg/errs"
	"github.com/tmsproject/tms/pkg/policy"
	notificationv1 "github.com/tmsproject/tms/proto/gen/go/tms/notification/v1"
	typev1 "github.com/tmsproject/tms/proto/gen/go/tms/type/v1"
	"github.com/tmsproject/tms/services/notification/server"
	"github.com/tmsproject/tms/services/notification/store"
)

func TestWebhookRules(t *testing.T) {
	st := store.New(dbtest.SQLite(t, store.Migrations))
	strict, lenient := server.NewWebhooks(st, false, nil), server.NewWebhooks(st, true, nil)
	admin := policy.WithCaller(t.Context(), policy.Caller{Username: "admin", Superuser: true})
	user := policy.WithCaller(t.Context(), policy.Caller{Username: "tina"})
	create := func(s *server.Webhooks, ctx context.Context, w *notificationv1.Webhook) (*notificationv1.Webhook, error) {
		resp, err := s.CreateWebhook(ctx, &notificationv1.CreateWebhookRequest{Webhook: w})
		return resp.GetWebhook(), err
	}
	cases := []struct {
		name  string
		s     *server.Webhooks
		ctx   context.Context
		hook  *notificationv1.Webhook
		code  codes.Code
		field string
	}{
		{"not an administrator", strict, user, &notificationv1.Webhook{ProjectSlug: "p", Url: "https://hooks.example/x"}, codes.PermissionDenied, ""},
		{"no url", strict, admin, &notificationv1.Webhook{ProjectSlug: "p"}, codes.InvalidArgument, "url"},
		{"not http", strict, admin, &notificationv1.Webhook{ProjectSlug: "p", Url: "file:///etc/passwd"}, codes.InvalidArgument, "url"},
		{"loopback", strict, admin, &notificationv1.Webhook{ProjectSlug: "p", Url: "http://127.0.0.1:9000/x"}, codes.InvalidArgument, "url"},
		{"metadata service", strict, admin, &notificationv1.Webhook{ProjectSlug: "p", Url: "http://169.254.169.254/"}, codes.InvalidArgument, "url"},
		{"bad secret", strict, admin, &notificationv1.Webhook{ProjectSlug: "p", Url: "https://hooks.example/x", Secret: "hunter2"}, codes.InvalidArgument, "secret"},
		{"bad action", strict, admin, &notificationv1.Webhook{ProjectSlug: "p", Url: "https://hooks.example/x", Actions: []typev1.ChangeAction{typev1.ChangeAction(16)}}, codes.InvalidArgument, "actions"},
		{"no project", strict, admin, &notificationv1.Webhook{Url: "https://hooks.example/x"}, codes.InvalidArgument, "project_slug"},
	}
	for _, c := range cases {
		_, err := create(c.s, c.ctx, c.hook)
		err = errs.ToStatus(err) // called directly, not through gRPC
		if c.field != "" {
			wantErr(t, err, c.code, c.field, "")
		} else {
			wantErr(t, err, c.code, "", "")
		}
	}
	local, err := create(lenient, admin, &notificationv1.Webhook{ProjectSlug: "p", Url: "http://127.0.0.1:9000/x", Actions: []typev1.ChangeAction{typev1.ChangeAction_CHANGE_ACTION_CHANGE, typev1.ChangeAction_CHANGE_ACTION_NEW}, Active: true})
	if err != nil || len(local.GetSecret()) < 30 || local.GetActions()[1] != typev1.ChangeAction_CHANGE_ACTION_NEW {
		t.Fatalf("allowed local webhook: %v %v", local, err)
	}
	got, err := strict.GetWebhook(admin, &notificationv1.GetWebhookRequest{ProjectSlug: "p", Id: local.GetId()})
	if err != nil || got.GetWebhook().GetSecret() != "" || got.GetWebhook().GetUrl() != "http://127.0.0.1:9000/x" {
		t.Errorf("read back: %v %v", got, err)
	}
	if _, err = strict.GetWebhook(admin, &notificationv1.GetWebhookRequest{ProjectSlug: "other", Id: local.GetId()}); err == nil {
		t.Error("a webhook is readable through another project")
	}
	upd, err := strict.UpdateWebhook(admin, &notificationv1.UpdateWebhookRequest{Webhook: &notificationv1.Webhook{
		ProjectSlug: "p", Id: local.GetId(), Active: false}, UpdateMask: &fieldmaskpb.FieldMask{Paths: []string{"active"}}})
	if err != nil || upd.GetWebhook().GetActive() {
		t.Errorf("deactivate: %v %v", upd, err)
	}
	if _, err = strict.DeleteWebhook(user, &notificationv1.DeleteWebhookRequest{ProjectSlug: "p", Id: local.GetId()}); err == nil {
		t.Error("a user deleted a webhook")
	}
	if _, err = strict.DeleteWebhook(admin, &notificationv1.DeleteWebhookRequest{ProjectSlug: "p", Id: local.GetId()}); err != nil {
		t.Fatal(err)
	}
	list, err := strict.ListWebhooks(admin, &notificationv1.ListWebhooksRequest{ProjectSlug: "p"})
	if err != nil || len(list.GetWebhooks()) != 0 {
		t.Errorf("after delete: %v %v", list, err)
	}
}

// TestWebhookCredentialsMasked: a receiver URL's credentials never come
// back to callers; sending the masked URL back keeps them, and the stored
// URL (used for deliveries) has them.
func TestWebhookCredentialsMasked(t *testing.T) {
	st := store.New(dbtest.SQLite(t, store.Migrations))
	s := server.NewWebhooks(st, false, nil)
	admin := policy.WithCaller(t.Context(), policy.Caller{Username: "admin", Superuser: true})
	created, err := s.CreateWebhook(admin, &notificationv1.CreateWebhookRequest{Webhook: &notificationv1.Webhook{
		ProjectSlug: "p", Url: "https://u:secret@hooks.example/x", Active: true}})
	if err != nil {
		t.Fatal(err)
	}
	const masked = "https://***@hooks.example/x"
	id := created.GetWebhook().GetId()
	if got := created.GetWebhook().GetUrl(); got != masked {
		t.Errorf("created: %q, want %q", got, masked)
	}
	for _, upd := range []struct{ url, stored string }{
		{masked, "https://u:secret@hooks.example/x"},
		{"https://v:other@hooks.example/y", "https://v:other@hooks.example/y"},
	} {
		resp, uerr := s.UpdateWebhook(admin, &notificationv1.UpdateWebhookRequest{Webhook: &notificationv1.Webhook{
			ProjectSlug: "p", Id: id, Url: upd.url}, UpdateMask: &fieldmaskpb.FieldMask{Paths: []string{"url"}}})
		if uerr != nil || strings.Contains(resp.GetWebhook().GetUrl(), "secret") || strings.Contains(resp.GetWebhook().GetUrl(), "other") {
			t.Fatalf("update to %q: %v %v", upd.url, resp, uerr)
		}
		stored, serr := st.GetWebhook(t.Context(), "p", id)
		if serr != nil || stored.URL != upd.stored {
			t.Errorf("stored after update to %q: %q %v, want %q", upd.url, stored.URL, serr, upd.stored)
		}
	}
	list, err := s.ListWebhooks(admin, &notificationv1.ListWebhooksRequest{ProjectSlug: "p"})
	if err != nil || len(list.GetWebhooks()) != 1 || list.GetWebhooks()[0].GetUrl() != "https://***@hooks.example/y" {
		t.Errorf("list: %v %v", list, err)
	}
}
