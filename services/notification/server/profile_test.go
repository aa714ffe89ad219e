package server_test

import (
	"context"
	"testing"

	"google.golang.org/grpc/codes"
	"google.golang.org/protobuf/types/known/fieldmaskpb"

	"github.com/tmsproject/tms/pkg/policy"
	notificationv1 "github.com/tmsproject/tms/proto/gen/go/tms/notification/v1"
)

// TestProfileSettings: a new account has the reference's default
// settings; the account itself and superusers change them through
// UpdateUser's profile.<field> paths, each validated; others may not.
func TestProfileSettings(t *testing.T) {
	c := client(t)
	ctx := t.Context()
	createUser(t, c, "bob")
	p := getUser(t, c, "alice").GetProfile()
	if p.GetTheme() != "auto" || !p.GetSecondaryInZen() || !p.GetAutoWatch() || !p.GetContributePersonalTm() ||
		p.GetNearbyStrings() != 15 || p.GetDashboardView() != 1 || len(p.GetLanguages()) != 0 {
		t.Errorf("defaults: %v", p)
	}
	alice := policy.WithCaller(ctx, policy.NewAccount("alice"))
	update := func(ctx context.Context, p *notificationv1.Profile, fields ...string) (*notificationv1.User, error) {
		t.Helper()
		paths := make([]string, len(fields))
		for i, f := range fields {
			paths[i] = "profile." + f
		}
		resp, err := c.UpdateUser(ctx, &notificationv1.UpdateUserRequest{Username: "alice",
			User: &notificationv1.User{Profile: p}, UpdateMask: &fieldmaskpb.FieldMask{Paths: paths}})
		return resp.GetUser(), err
	}
	u, err := update(alice, &notificationv1.Profile{Theme: "dark", AutoWatch: false, SecondaryLanguages: []string{"cs", "de"},
		Company: "Weblate", Website: "https://example.com/", CommitEmail: "ALICE@example.org", DashboardComponentList: "mine"},
		"theme", "auto_watch", "secondary_languages", "company", "website", "commit_email", "dashboard_component_list")
	if err != nil {
		t.Fatal(err)
	}
	p = u.GetProfile()
	if p.GetTheme() != "dark" || p.GetAutoWatch() || len(p.GetSecondaryLanguages()) != 2 || p.GetCompany() != "Weblate" ||
		p.GetDashboardView() != 4 || !p.GetSecondaryInZen() || p.GetNearbyStrings() != 15 {
		t.Errorf("after update: %v", p)
	}
	if stored := getUser(t, c, "alice").GetProfile(); stored.GetAutoWatch() || stored.GetTheme() != "dark" {
		t.Errorf("stored: %v", stored)
	}
	// A list set to nothing is cleared; clearing the dashboard's list
	// leaves its view.
	if u, err = update(ctx, &notificationv1.Profile{}, "secondary_languages", "dashboard_component_list"); err != nil ||
		len(u.GetProfile().GetSecondaryLanguages()) != 0 || u.GetProfile().GetDashboardView() != 1 {
		t.Errorf("cleared: %v %v", u.GetProfile(), err)
	}
	bad := []struct {
		name, field string
		p           *notificationv1.Profile
		fields      []string
	}{
		{"theme", "profile.theme", &notificationv1.Profile{Theme: "neon"}, []string{"theme"}},
		{"nearby", "profile.nearby_strings", &notificationv1.Profile{NearbyStrings: 51}, []string{"nearby_strings"}},
		{"language", "profile.language", &notificationv1.Profile{Language: "xx"}, []string{"language"}},
		{"website", "profile.website", &notificationv1.Profile{Website: "javascript:alert(1)"}, []string{"website"}},
		{"github", "profile.github", &notificationv1.Profile{Github: "a/b"}, []string{"github"}},
		{"foreign address", "profile.public_email", &notificationv1.Profile{PublicEmail: "bob@example.org"}, []string{"public_email"}},
		{"view without list", "profile.dashboard_view", &notificationv1.Profile{DashboardView: 4}, []string{"dashboard_view"}},
		{"view", "profile.dashboard_view", &notificationv1.Profile{DashboardView: 3}, []string{"dashboard_view"}},
		{"special chars", "profile.special_chars", &notificationv1.Profile{SpecialChars: "0123456789012345678901234567890"}, []string{"special_chars"}},
		{"counts are not settings", "profile.translated", &notificationv1.Profile{}, []string{"translated"}},
	}
	for _, b := range bad {
		_, err = update(alice, b.p, b.fields...)
		wantErr(t, err, codes.InvalidArgument, b.field, "")
	}
	if stored := getUser(t, c, "alice").GetProfile(); stored.GetTheme() != "dark" {
		t.Errorf("a refused update changed the settings: %v", stored)
	}
	// Others may not; the account itself may not make itself a superuser.
	_, err = update(policy.WithCaller(ctx, policy.NewAccount("bob")), &notificationv1.Profile{Theme: "light"}, "theme")
	wantErr(t, err, codes.PermissionDenied, "", "")
	_, err = c.UpdateUser(alice, &notificationv1.UpdateUserRequest{Username: "alice", User: &notificationv1.User{IsSuperuser: true},
		UpdateMask: &fieldmaskpb.FieldMask{Paths: []string{"is_superuser"}}})
	wantErr(t, err, codes.PermissionDenied, "", "")
	_, err = c.UpdateUser(alice, &notificationv1.UpdateUserRequest{Username: "alice", User: &notificationv1.User{Email: "other@example.org"},
		UpdateMask: &fieldmaskpb.FieldMask{Paths: []string{"email"}}})
	wantErr(t, err, codes.InvalidArgument, "email", "This e-mail address has not been verified.")
}

func getUser(t *testing.T, c pb, name string) *notificationv1.User {
	t.Helper()
	resp, err := c.GetUser(t.Context(), &notificationv1.GetUserRequest{Username: name})
	if err != nil {
		t.Fatal(err)
	}
	return resp.GetUser()
}
