package server_test

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/structpb"
	"google.golang.org/protobuf/types/known/timestamppb"

	"github.com/tmsproject/tms/pkg/changedetails"
	"github.com/tmsproject/tms/pkg/dbtest"
	"github.com/tmsproject/tms/pkg/errs"
	"github.com/tmsproject/tms/pkg/grpctest"
	"github.com/tmsproject/tms/pkg/policy"
	catalogv1 "github.com/tmsproject/tms/proto/gen/go/tms/catalog/v1"
	changelogv1 "github.com/tmsproject/tms/proto/gen/go/tms/changelog/v1"
	typev1 "github.com/tmsproject/tms/proto/gen/go/tms/type/v1"
	"github.com/tmsproject/tms/services/changelog/server"
	"github.com/tmsproject/tms/services/changelog/store"
)

// client starts the server over a real in-process gRPC connection with the
// house interceptors, on a fresh SQLite database.
func client(t *testing.T) changelogv1.ChangelogServiceClient {
	return clientSeeing(t, nil)
}

// clientSeeing is client with the projects' access levels of a catalog.
func clientSeeing(t *testing.T, catalog policy.ProjectLister) changelogv1.ChangelogServiceClient {
	t.Helper()
	gdb := dbtest.SQLite(t, store.Migrations)
	var projects server.Visibility
	if catalog != nil {
		projects = policy.NewProjects(catalog)
	}
	conn := grpctest.Serve(t, func(srv grpc.ServiceRegistrar) {
		changelogv1.RegisterChangelogServiceServer(srv, server.New(store.New(gdb), projects))
	})
	return changelogv1.NewChangelogServiceClient(conn)
}

var t0 = time.Date(2025, 3, 4, 5, 6, 7, 890123000, time.UTC)

func rec(id string, action typev1.ChangeAction, lang string, at time.Time) *changelogv1.Change {
	return &changelogv1.Change{EventId: id, Action: action, ProjectSlug: "p", ComponentSlug: "c",
		LanguageCode: lang, Timestamp: timestamppb.New(at)}
}

func TestAppendListGet(t *testing.T) {
	c := client(t)
	ctx := t.Context()
	full := &changelogv1.Change{EventId: "full", Action: typev1.ChangeAction_CHANGE_ACTION_SUGGESTION, ProjectSlug: "p", ComponentSlug: "c",
		LanguageCode: "cs", UnitId: 9, User: "alice", Author: "bob", Target: "t", Old: "o",
		Details: changedetails.FromMap(map[string]any{"state": 10}), Timestamp: timestamppb.New(t0)}
	batch := []*changelogv1.Change{rec("a", 14, "", t0.Add(-time.Hour)), rec("b", 5, "de", t0.Add(time.Hour)), full}
	resp, err := c.AppendChanges(ctx, &changelogv1.AppendChangesRequest{Changes: batch})
	if err != nil || resp.GetStored() != 3 {
		t.Fatalf("append: %v %v", resp, err)
	}
	// Replays and a batch mixing known and new ids.
	resp, err = c.AppendChanges(ctx, &changelogv1.AppendChangesRequest{Changes: append(batch, rec("d", 2, "cs", t0))})
	if err != nil || resp.GetStored() != 1 {
		t.Fatalf("replay: %v %v", resp, err)
	}

	list, err := c.ListChanges(ctx, &changelogv1.ListChangesRequest{ProjectSlug: "p", ComponentSlug: "c", Limit: 2})
	if err != nil || list.GetTotal() != 4 || len(list.GetChanges()) != 2 || list.GetChanges()[0].GetEventId() != "b" {
		t.Fatalf("list: %v %v", list, err)
	}
	list, err = c.ListChanges(ctx, &changelogv1.ListChangesRequest{LanguageCode: "cs", User: "alice",
		Actions: []typev1.ChangeAction{typev1.ChangeAction_CHANGE_ACTION_SUGGESTION, typev1.ChangeAction_CHANGE_ACTION_ACCEPT}, TimestampAfter: timestamppb.New(t0), TimestampBefore: timestamppb.New(t0)})
	if err != nil || list.GetTotal() != 1 {
		t.Fatalf("filtered list: %v %v", list, err)
	}
	for _, actions := range [][]typev1.ChangeAction{{typev1.ChangeAction_CHANGE_ACTION_UNSPECIFIED}, {typev1.ChangeAction(16)}} {
		none, lerr := c.ListChanges(ctx, &changelogv1.ListChangesRequest{Actions: actions})
		if lerr != nil || none.GetTotal() != 0 {
			t.Errorf("filter by %v, which no record has: %v %v", actions, none, lerr)
		}
	}
	got := list.GetChanges()[0]
	if got.GetId() == 0 || got.GetUnitId() != 9 || got.GetAuthor() != "bob" || got.GetDetails().GetFields()["state"].GetNumberValue() != 10 ||
		!got.GetTimestamp().AsTime().Equal(t0) {
		t.Fatalf("record: %v", got)
	}
	one, err := c.GetChange(ctx, &changelogv1.GetChangeRequest{Id: got.GetId()})
	if err != nil || one.GetChange().GetEventId() != "full" {
		t.Fatalf("get: %v %v", one, err)
	}
}

// TestDetailsText: details come back with the JSON text they had when
// they were carried as text, the bytes the REST API answers.
func TestDetailsText(t *testing.T) {
	c := client(t)
	cases := []struct {
		name    string
		details *structpb.Struct
		want    string
	}{
		{"unit change", changedetails.FromMap(map[string]any{"state": 20, "old_state": 10, "source": "<b>Hi</b> & bye", "context": ""}),
			`{"context":"","old_state":10,"source":"\u003cb\u003eHi\u003c/b\u003e \u0026 bye","state":20}`},
		{"none", nil, ""},
	}
	for i, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := rec(fmt.Sprintf("d%d", i), typev1.ChangeAction_CHANGE_ACTION_CHANGE, "cs", t0)
			r.Details = tc.details
			if _, err := c.AppendChanges(t.Context(), &changelogv1.AppendChangesRequest{Changes: []*changelogv1.Change{r}}); err != nil {
				t.Fatal(err)
			}
			list, err := c.ListChanges(t.Context(), &changelogv1.ListChangesRequest{})
			if err != nil {
				t.Fatal(err)
			}
			got, err := changedetails.JSON(list.GetChanges()[0].GetDetails())
			if err != nil {
				t.Fatal(err)
			}
			if got != tc.want {
				t.Errorf("details = %s, want %s", got, tc.want)
			}
		})
	}
}

func TestMissingTimestampIsArrivalTime(t *testing.T) {
	c := client(t)
	before := time.Now().Add(-time.Second)
	_, err := c.AppendChanges(t.Context(), &changelogv1.AppendChangesRequest{Changes: []*changelogv1.Change{{EventId: "x", Action: typev1.ChangeAction_CHANGE_ACTION_UPDATE}}})
	if err != nil {
		t.Fatal(err)
	}
	list, err := c.ListChanges(t.Context(), &changelogv1.ListChangesRequest{})
	if err != nil || len(list.GetChanges()) != 1 {
		t.Fatalf("list: %v %v", list, err)
	}
	if ts := list.GetChanges()[0].GetTimestamp().AsTime(); ts.Before(before) || ts.After(time.Now().Add(time.Second)) {
		t.Fatalf("timestamp %v not the arrival time", ts)
	}
}

func TestErrors(t *testing.T) {
	c := client(t)
	ctx := t.Context()
	bad := timestamppb.New(t0)
	bad.Nanos = -1
	cases := []struct {
		name  string
		call  func() error
		code  codes.Code
		field string
	}{
		{"get unknown", func() error {
			_, err := c.GetChange(ctx, &changelogv1.GetChangeRequest{Id: 12345})
			return err
		}, codes.NotFound, ""},
		{"get zero", func() error {
			_, err := c.GetChange(ctx, &changelogv1.GetChangeRequest{})
			return err
		}, codes.NotFound, ""},
		{"negative offset", func() error {
			_, err := c.ListChanges(ctx, &changelogv1.ListChangesRequest{Offset: -1})
			return err
		}, codes.InvalidArgument, "offset"},
		{"negative limit", func() error {
			_, err := c.ListChanges(ctx, &changelogv1.ListChangesRequest{Limit: -5})
			return err
		}, codes.InvalidArgument, "limit"},
		{"bad timestamp filter", func() error {
			_, err := c.ListChanges(ctx, &changelogv1.ListChangesRequest{TimestampAfter: bad})
			return err
		}, codes.InvalidArgument, "timestamp_after"},
		{"missing event id", func() error {
			_, err := c.AppendChanges(ctx, &changelogv1.AppendChangesRequest{Changes: []*changelogv1.Change{rec("ok", 1, "", t0), {Action: typev1.ChangeAction_CHANGE_ACTION_COMPLETE}}})
			return err
		}, codes.InvalidArgument, "changes.1.event_id"},
		{"unspecified action", func() error {
			_, err := c.AppendChanges(ctx, &changelogv1.AppendChangesRequest{Changes: []*changelogv1.Change{rec("n", typev1.ChangeAction_CHANGE_ACTION_UNSPECIFIED, "", t0)}})
			return err
		}, codes.InvalidArgument, "changes.0.action"},
		{"action the reference retired", func() error {
			_, err := c.AppendChanges(ctx, &changelogv1.AppendChangesRequest{Changes: []*changelogv1.Change{rec("n", typev1.ChangeAction(16), "", t0)}})
			return err
		}, codes.InvalidArgument, "changes.0.action"},
		{"details without a JSON form", func() error {
			r := rec("j", 1, "", t0)
			r.Details = &structpb.Struct{Fields: map[string]*structpb.Value{"n": structpb.NewNumberValue(math.Inf(-1))}}
			_, err := c.AppendChanges(ctx, &changelogv1.AppendChangesRequest{Changes: []*changelogv1.Change{r}})
			return err
		}, codes.InvalidArgument, "changes.0.details"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.call()
			if status.Code(err) != tc.code {
				t.Fatalf("got %v, want %v", err, tc.code)
			}
			if tc.field != "" {
				e := errs.FromStatus(err)
				if len(e.Fields) == 0 || e.Fields[0].Field != tc.field {
					t.Fatalf("fields %+v, want %s", e.Fields, tc.field)
				}
			}
		})
	}
	// A rejected batch stores nothing, not even its valid records.
	list, err := c.ListChanges(ctx, &changelogv1.ListChangesRequest{})
	if err != nil || list.GetTotal() != 0 {
		t.Fatalf("after rejected batches: %v %v", list, err)
	}
}

// projectList is a catalog that lists fixed projects.
type projectList map[string]typev1.AccessControl

func (l projectList) ListProjects(context.Context, *catalogv1.ListProjectsRequest, ...grpc.CallOption) (*catalogv1.ListProjectsResponse, error) {
	out := &catalogv1.ListProjectsResponse{Total: int64(len(l))}
	for slug, access := range l {
		out.Projects = append(out.Projects, &catalogv1.Project{Slug: slug, AccessControl: access})
	}
	return out, nil
}

// TestVisibility puts records of a private project beside public ones: a
// caller who may not see the project finds none of them, in lists, counts
// or single reads; superusers and the services' own calls see all.
func TestVisibility(t *testing.T) {
	c := clientSeeing(t, projectList{"p": typev1.AccessControl_ACCESS_CONTROL_PUBLIC, "secret": typev1.AccessControl_ACCESS_CONTROL_PRIVATE})
	secret := rec("s1", 3, "de", t0)
	secret.ProjectSlug, secret.Target = "secret", "unique secret comment"
	if _, err := c.AppendChanges(t.Context(), &changelogv1.AppendChangesRequest{Changes: []*changelogv1.Change{
		rec("p1", 2, "de", t0), rec("p2", 5, "de", t0.Add(time.Second)), secret}}); err != nil {
		t.Fatal(err)
	}
	all, err := c.ListChanges(t.Context(), &changelogv1.ListChangesRequest{})
	if err != nil || all.GetTotal() != 3 {
		t.Fatalf("service's own view: %v %v", all.GetTotal(), err)
	}
	var secretID int64
	for _, ch := range all.GetChanges() {
		if ch.GetProjectSlug() == "secret" {
			secretID = ch.GetId()
		}
	}
	cases := []struct {
		name   string
		caller policy.Caller
		total  int64
	}{
		{"anonymous", policy.Anonymous, 2},
		{"outsider", policy.NewAccount("olga"), 2},
		{"superuser", policy.Caller{Username: "admin", Superuser: true}, 3},
	}
	for _, tc := range cases {
		ctx := policy.WithCaller(t.Context(), tc.caller)
		list, err := c.ListChanges(ctx, &changelogv1.ListChangesRequest{})
		if err != nil || list.GetTotal() != tc.total || int64(len(list.GetChanges())) != tc.total {
			t.Errorf("%s: %d records listed, total %d, %v; want %d", tc.name, len(list.GetChanges()), list.GetTotal(), err, tc.total)
		}
		for _, ch := range list.GetChanges() {
			if tc.total == 2 && ch.GetProjectSlug() == "secret" {
				t.Errorf("%s sees %v", tc.name, ch)
			}
		}
		_, err = c.GetChange(ctx, &changelogv1.GetChangeRequest{Id: secretID})
		if visible := err == nil; visible != (tc.total == 3) {
			t.Errorf("%s reads the private record: %v", tc.name, err)
		}
		if err != nil && status.Code(err) != codes.NotFound {
			t.Errorf("%s: %v, want NotFound", tc.name, err)
		}
		// The private project's records, by its slug: NotFound for whom
		// it is hidden from, as every service answers for it.
		list, err = c.ListChanges(ctx, &changelogv1.ListChangesRequest{ProjectSlug: "secret"})
		if want := map[bool]codes.Code{true: codes.OK, false: codes.NotFound}[tc.total == 3]; status.Code(err) != want ||
			err == nil && list.GetTotal() != 1 {
			t.Errorf("%s lists the private project's records: %v %v, want %v", tc.name, list.GetTotal(), err, want)
		}
	}
}

// TestCredits: the credits a caller is shown count only what it may see,
// and only its own unless it holds reports.view, as the reference rules;
// the anonymous caller gets none; naming a project it may not see answers
// NotFound, and bad time bounds are a validation error.
func TestCredits(t *testing.T) {
	c := clientSeeing(t, projectList{"p": typev1.AccessControl_ACCESS_CONTROL_PUBLIC, "secret": typev1.AccessControl_ACCESS_CONTROL_PRIVATE})
	authored := func(id, project, author string) *changelogv1.Change {
		ch := rec(id, 5, "de", t0)
		ch.ProjectSlug, ch.Author = project, author
		return ch
	}
	if _, err := c.AppendChanges(t.Context(), &changelogv1.AppendChangesRequest{Changes: []*changelogv1.Change{
		authored("p1", "p", "alice"), authored("p2", "p", "alice"), authored("s1", "secret", "alice"), authored("s2", "secret", "eve"),
		authored("p3", "p", "olga")}}); err != nil {
		t.Fatal(err)
	}
	credits := func(caller policy.Caller, project string) (string, error) {
		resp, err := c.ListCredits(policy.WithCaller(t.Context(), caller), &changelogv1.ListCreditsRequest{ProjectSlug: project, Actions: []typev1.ChangeAction{typev1.ChangeAction_CHANGE_ACTION_NEW}})
		var out []string
		for _, cr := range resp.GetCredits() {
			out = append(out, fmt.Sprintf("%s/%s/%d", cr.GetLanguageCode(), cr.GetAuthor(), cr.GetChanges()))
		}
		return strings.Join(out, " "), err
	}
	root := policy.Caller{Username: "admin", Superuser: true}
	reporter := policy.Caller{Username: "rita", Grants: []policy.Grant{{ProjectSelection: policy.SelectManual,
		Projects: []string{"p"}, Permissions: []string{"reports.view"}}}}
	for _, tc := range []struct {
		name    string
		caller  policy.Caller
		project string
		want    string
	}{
		{"user, everything: its own", policy.NewAccount("olga"), "", "de/olga/1"},
		{"user, the public project: its own", policy.NewAccount("olga"), "p", "de/olga/1"},
		{"reports.view on the project", reporter, "p", "de/alice/2 de/olga/1"},
		{"reports.view elsewhere: its own, none", reporter, "", ""},
		{"superuser, everything", root, "", "de/alice/3 de/eve/1 de/olga/1"},
		{"superuser, the private project", root, "secret", "de/alice/1 de/eve/1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := credits(tc.caller, tc.project)
			if err != nil {
				t.Fatal(err)
			}
			if got != tc.want {
				t.Errorf("%q, want %q", got, tc.want)
			}
		})
	}
	for _, project := range []string{"", "p"} {
		if _, err := credits(policy.Anonymous, project); status.Code(err) != codes.Unauthenticated {
			t.Errorf("anonymous, project %q: %v, want Unauthenticated", project, err)
		}
	}
	for _, caller := range []policy.Caller{policy.Anonymous, policy.NewAccount("olga")} {
		if _, err := credits(caller, "secret"); status.Code(err) != codes.NotFound {
			t.Errorf("%s, the private project: %v, want NotFound", caller.Username, err)
		}
	}
	_, err := c.ListCredits(t.Context(), &changelogv1.ListCreditsRequest{TimestampAfter: &timestamppb.Timestamp{Seconds: -1 << 40}})
	if status.Code(err) != codes.InvalidArgument {
		t.Errorf("a bad time bound: %v, want InvalidArgument", err)
	}
}

// TestAppendChangesRefusesUsers: a caller acting for a user, superusers
// aside, may not append records (it could forge any author and action);
// nothing of a refused request is stored.
func TestAppendChangesRefusesUsers(t *testing.T) {
	c := clientSeeing(t, projectList{"p": 0})
	for _, caller := range []policy.Caller{policy.Anonymous, policy.NewAccount("olga"),
		{Username: "ada", Grants: []policy.Grant{{ProjectSelection: policy.SelectManual, Projects: []string{"p"}, Permissions: policy.Permissions}}}} {
		_, err := c.AppendChanges(policy.WithCaller(t.Context(), caller), &changelogv1.AppendChangesRequest{Changes: []*changelogv1.Change{rec("forged-"+caller.Username, 5, "de", t0)}})
		if status.Code(err) != codes.PermissionDenied {
			t.Errorf("%q: %v, want PermissionDenied", caller.Username, err)
		}
	}
	root := policy.WithCaller(t.Context(), policy.Caller{Username: "admin", Superuser: true})
	if _, err := c.AppendChanges(root, &changelogv1.AppendChangesRequest{Changes: []*changelogv1.Change{rec("by-admin", 5, "de", t0)}}); err != nil {
		t.Fatalf("superuser: %v", err)
	}
	list, err := c.ListChanges(t.Context(), &changelogv1.ListChangesRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if len(list.GetChanges()) != 1 {
		t.Errorf("%d records stored, want the superuser's only", len(list.GetChanges()))
	}
}

// TestContributionsVisibility: a user's contributions and activity count
// only the translations of projects the caller sees, and only those that
// still exist, page by page with an exact total; a member of the private
// project sees its share.
func TestContributionsVisibility(t *testing.T) {
	c := clientSeeing(t, projectList{"p": typev1.AccessControl_ACCESS_CONTROL_PUBLIC, "secret": typev1.AccessControl_ACCESS_CONTROL_PRIVATE})
	by := func(id, project, lang string, action typev1.ChangeAction, at time.Time) *changelogv1.Change {
		ch := rec(id, action, lang, at)
		ch.ProjectSlug, ch.User = project, "alice"
		return ch
	}
	removed := by("r1", "p", "it", typev1.ChangeAction_CHANGE_ACTION_REMOVE_TRANSLATION, t0.Add(time.Hour))
	removed.User = "admin"
	if _, err := c.AppendChanges(t.Context(), &changelogv1.AppendChangesRequest{Changes: []*changelogv1.Change{
		by("p1", "p", "de", 5, t0), by("p2", "p", "fr", 5, t0), by("p3", "p", "it", 5, t0),
		by("s1", "secret", "de", 5, t0), by("s2", "secret", "cs", 5, t0), removed}}); err != nil {
		t.Fatal(err)
	}
	member := policy.Caller{Username: "mia", Grants: append(policy.DefaultGrants(false),
		policy.Grant{ProjectSelection: policy.SelectManual, Projects: []string{"secret"}})}
	for _, tc := range []struct {
		name   string
		caller policy.Caller
		want   []string
	}{
		{"anonymous", policy.Anonymous, []string{"p/c/de", "p/c/fr"}},
		{"outsider", policy.NewAccount("olga"), []string{"p/c/de", "p/c/fr"}},
		{"member", member, []string{"p/c/de", "p/c/fr", "secret/c/cs", "secret/c/de"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := policy.WithCaller(t.Context(), tc.caller)
			var got []string
			for offset := int64(0); offset < 10; offset++ { // a page of one at a time
				resp, err := c.ListContributions(ctx, &changelogv1.ListContributionsRequest{User: "alice", Offset: offset, Limit: 1})
				if err != nil {
					t.Fatal(err)
				}
				if resp.GetTotal() != int64(len(tc.want)) {
					t.Errorf("offset %d: total %d, want %d", offset, resp.GetTotal(), len(tc.want))
				}
				if len(resp.GetContributions()) == 0 {
					break
				}
				for _, x := range resp.GetContributions() {
					got = append(got, x.GetProjectSlug()+"/"+x.GetComponentSlug()+"/"+x.GetLanguageCode())
				}
			}
			if strings.Join(got, " ") != strings.Join(tc.want, " ") {
				t.Errorf("contributions %v, want %v", got, tc.want)
			}
			act, err := c.GetUserActivity(ctx, &changelogv1.GetUserActivityRequest{User: "alice"})
			if err != nil {
				t.Fatal(err)
			}
			var n int64
			for _, a := range act.GetActions() {
				n += a.GetCount()
			}
			// p's records but the removed translation's (gone with it, as
			// in Weblate), and secret's when seen
			if wantN := int64(2 + len(tc.want) - 2); n != wantN {
				t.Errorf("activity counts %d records, want %d", n, wantN)
			}
		})
	}
}

// TestActivityAndCreditRules: the change log owns which actions make the
// REST API's user statistics and which earn credit, so every caller counts
// alike.
func TestActivityAndCreditRules(t *testing.T) {
	c := client(t)
	var changes []*changelogv1.Change
	for i, a := range []typev1.ChangeAction{
		typev1.ChangeAction_CHANGE_ACTION_NEW, typev1.ChangeAction_CHANGE_ACTION_NEW, typev1.ChangeAction_CHANGE_ACTION_CHANGE,
		typev1.ChangeAction_CHANGE_ACTION_APPROVE, typev1.ChangeAction_CHANGE_ACTION_SUGGESTION,
		typev1.ChangeAction_CHANGE_ACTION_SUGGESTION, typev1.ChangeAction_CHANGE_ACTION_UPLOAD,
		typev1.ChangeAction_CHANGE_ACTION_COMMENT, typev1.ChangeAction_CHANGE_ACTION_LOCK,
		typev1.ChangeAction_CHANGE_ACTION_AUTO,
	} {
		ch := rec(fmt.Sprintf("a%d", i), a, "de", t0)
		ch.User, ch.Author = "alice", "alice"
		changes = append(changes, ch)
	}
	if _, err := c.AppendChanges(t.Context(), &changelogv1.AppendChangesRequest{Changes: changes}); err != nil {
		t.Fatal(err)
	}
	act, err := c.GetUserActivity(t.Context(), &changelogv1.GetUserActivityRequest{User: "alice"})
	if err != nil {
		t.Fatal(err)
	}
	if got := []int64{act.GetTranslated(), act.GetSuggested(), act.GetUploaded(), act.GetCommented()}; !slices.Equal(got, []int64{4, 2, 1, 1}) {
		t.Errorf("translated, suggested, uploaded, commented = %v, want [4 2 1 1]", got)
	}
	credits, err := c.ListCredits(t.Context(), &changelogv1.ListCreditsRequest{ContentChanges: true})
	if err != nil {
		t.Fatal(err)
	}
	// NEW ×2, CHANGE, APPROVE, UPLOAD and AUTO; not the suggestions, the
	// comment or the lock.
	if len(credits.GetCredits()) != 1 || credits.GetCredits()[0].GetChanges() != 6 {
		t.Errorf("content credits: %v, want alice with 6", credits.GetCredits())
	}
	_, err = c.ListCredits(t.Context(), &changelogv1.ListCreditsRequest{ContentChanges: true,
		Actions: []typev1.ChangeAction{typev1.ChangeAction_CHANGE_ACTION_NEW}})
	if status.Code(err) != codes.InvalidArgument {
		t.Errorf("content_changes with actions: %v, want InvalidArgument", err)
	}
}
