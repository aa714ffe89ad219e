package stacktest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"google.golang.org/grpc/status"

	"github.com/tmsproject/tms/gateway/stack"
	"github.com/tmsproject/tms/pkg/policy"
	"github.com/tmsproject/tms/pkg/weblate"
	catalogv1 "github.com/tmsproject/tms/proto/gen/go/tms/catalog/v1"
	changelogv1 "github.com/tmsproject/tms/proto/gen/go/tms/changelog/v1"
	notificationv1 "github.com/tmsproject/tms/proto/gen/go/tms/notification/v1"
	translationv1 "github.com/tmsproject/tms/proto/gen/go/tms/translation/v1"
	typev1 "github.com/tmsproject/tms/proto/gen/go/tms/type/v1"
)

// api is what a case does, as one caller over one transport. Errors are
// the gRPC code's name (NotFound, ...), a REST status as its code.
type api interface {
	projects(ctx context.Context) ([]string, error)
	translation(ctx context.Context, project string) (stats, error)
	units(ctx context.Context, project, query string) (int, []unit, error)
	unit(ctx context.Context, id int64) (unit, error)
	// edit answers the unit's new target and state (the REST API's PATCH
	// answers no source, as the reference's does).
	edit(ctx context.Context, id int64, target string, state int32) (unit, error)
	// changes counts the project's "Translation added" records.
	changes(ctx context.Context, project string) (int, error)
}

// stats are a translation's counts of strings.
type stats struct{ Total, Translated, Fuzzy int64 }

// unit is what a case compares of a unit.
type unit struct {
	Source, Target []string
	State          int32
}

// kindError is an error by kind, the same over both transports.
type kindError string

func (k kindError) Error() string { return string(k) }

// restKinds are the gRPC codes the gateway answers with these statuses.
var restKinds = map[int]string{400: "InvalidArgument", 401: "Unauthenticated", 403: "PermissionDenied",
	404: "NotFound", 409: "FailedPrecondition", 423: "FailedPrecondition"}

// overREST is a caller of the REST API; token "" is the anonymous one.
type overREST struct {
	api, token string
}

func (r overREST) call(ctx context.Context, method, path string, body, out any) error {
	var rd io.Reader
	if body != nil {
		raw, _ := json.Marshal(body)
		rd = bytes.NewReader(raw)
	}
	req, err := http.NewRequestWithContext(ctx, method, r.api+path, rd)
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	if r.token != "" {
		req.Header.Set("Authorization", "Token "+r.token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer func() { _ = resp.Body.Close() }()
	data, _ := io.ReadAll(resp.Body)
	if resp.StatusCode >= 300 {
		if k, ok := restKinds[resp.StatusCode]; ok {
			return kindError(k)
		}
		return fmt.Errorf("%s %s: %d %s", method, path, resp.StatusCode, data)
	}
	return json.Unmarshal(data, out)
}

func (r overREST) projects(ctx context.Context) ([]string, error) {
	var page struct{ Results []struct{ Slug string } }
	err := r.call(ctx, "GET", "projects/", nil, &page)
	var slugs []string
	for _, p := range page.Results {
		slugs = append(slugs, p.Slug)
	}
	slices.Sort(slugs)
	return slugs, err
}

func (r overREST) translation(ctx context.Context, project string) (stats, error) {
	var s stats
	var tr struct{ Total, Translated, Fuzzy int64 }
	err := r.call(ctx, "GET", "translations/"+project+"/app/de/", nil, &tr)
	s.Total, s.Translated, s.Fuzzy = tr.Total, tr.Translated, tr.Fuzzy
	return s, err
}

// restUnit is a unit as the REST API answers it.
type restUnit struct {
	ID     int64
	Source []string
	Target []string
	State  int32
}

func (u restUnit) unit() unit { return unit{Source: u.Source, Target: u.Target, State: u.State} }

func (r overREST) units(ctx context.Context, project, query string) (int, []unit, error) {
	var page struct {
		Count   int
		Results []restUnit
	}
	err := r.call(ctx, "GET", "translations/"+project+"/app/de/units/?q="+strings.ReplaceAll(query, " ", "+"), nil, &page)
	var out []unit
	for _, u := range page.Results {
		out = append(out, u.unit())
	}
	return page.Count, out, err
}

func (r overREST) unit(ctx context.Context, id int64) (unit, error) {
	var u restUnit
	err := r.call(ctx, "GET", "units/"+strconv.FormatInt(id, 10)+"/", nil, &u)
	return u.unit(), err
}

func (r overREST) edit(ctx context.Context, id int64, target string, state int32) (unit, error) {
	var u restUnit
	err := r.call(ctx, "PATCH", "units/"+strconv.FormatInt(id, 10)+"/",
		map[string]any{"target": []string{target}, "state": state}, &u)
	return u.unit(), err
}

func (r overREST) changes(ctx context.Context, project string) (int, error) {
	var page struct{ Count int }
	err := r.call(ctx, "GET", "projects/"+project+"/changes/?action="+strconv.Itoa(added), nil, &page)
	return page.Count, err
}

// added is the reference's number of "Translation added".
const added = 5

// overGRPC is an internal caller of the services, acting for the user of
// a token ("" the anonymous one) as the gateway does: it authenticates
// the token with the notification service and sends the caller with
// every call.
type overGRPC struct {
	catalog      catalogv1.CatalogServiceClient
	translations translationv1.TranslationServiceClient
	changelog    changelogv1.ChangelogServiceClient
	caller       policy.Caller
}

func newOverGRPC(ctx context.Context, s *Stack, token string) (overGRPC, error) {
	g := overGRPC{catalog: catalogv1.NewCatalogServiceClient(s.Conn(stack.Catalog)),
		translations: translationv1.NewTranslationServiceClient(s.Conn(stack.Translation)),
		changelog:    changelogv1.NewChangelogServiceClient(s.Conn(stack.Changelog))}
	conn := s.Conn(stack.Notification)
	if token == "" {
		resp, err := notificationv1.NewAccessServiceClient(conn).GetGrants(ctx, &notificationv1.GetGrantsRequest{})
		g.caller = policy.Caller{Grants: policy.GrantsFromProto(resp.GetGrants())}
		return g, err
	}
	resp, err := notificationv1.NewNotificationServiceClient(conn).Authenticate(ctx, &notificationv1.AuthenticateRequest{Token: token})
	g.caller = policy.Caller{Username: resp.GetUser().GetUsername(), Superuser: resp.GetUser().GetIsSuperuser(),
		Grants: policy.GrantsFromProto(resp.GetGrants())}
	return g, err
}

// as is ctx acting for the caller.
func (g overGRPC) as(ctx context.Context) context.Context { return policy.WithCaller(ctx, g.caller) }

// kind turns a status into its code's name.
func kind(err error) error {
	if err == nil {
		return nil
	}
	return kindError(status.Code(err).String())
}

func (g overGRPC) projects(ctx context.Context) ([]string, error) {
	resp, err := g.catalog.ListProjects(g.as(ctx), &catalogv1.ListProjectsRequest{PageSize: 1000})
	var slugs []string
	for _, p := range resp.GetProjects() {
		slugs = append(slugs, p.GetSlug())
	}
	slices.Sort(slugs)
	return slugs, kind(err)
}

func (g overGRPC) translation(ctx context.Context, project string) (stats, error) {
	resp, err := g.translations.GetTranslation(g.as(ctx), &translationv1.GetTranslationRequest{
		Name: "projects/" + project + "/components/app/translations/de"})
	st := resp.GetTranslation().GetStats()
	return stats{Total: st.GetTotal(), Translated: st.GetTranslated(), Fuzzy: st.GetFuzzy()}, kind(err)
}

func grpcUnit(u *translationv1.Unit) unit {
	return unit{Source: u.GetSource(), Target: u.GetTarget(), State: weblate.UnitStates.RefOf(u.GetState())}
}

func (g overGRPC) units(ctx context.Context, project, query string) (int, []unit, error) {
	tr, err := g.translations.GetTranslation(g.as(ctx), &translationv1.GetTranslationRequest{
		Name: "projects/" + project + "/components/app/translations/de"})
	if err != nil {
		return 0, nil, kind(err)
	}
	resp, err := g.translations.ListUnits(g.as(ctx), &translationv1.ListUnitsRequest{
		TranslationId: tr.GetTranslation().GetId(), Query: query, PageSize: 50})
	var out []unit
	for _, u := range resp.GetUnits() {
		out = append(out, grpcUnit(u))
	}
	return int(resp.GetTotal()), out, kind(err)
}

func (g overGRPC) unit(ctx context.Context, id int64) (unit, error) {
	resp, err := g.translations.GetUnit(g.as(ctx), &translationv1.GetUnitRequest{Id: id})
	return grpcUnit(resp.GetUnit()), kind(err)
}

func (g overGRPC) edit(ctx context.Context, id int64, target string, state int32) (unit, error) {
	resp, err := g.translations.UpdateUnit(g.as(ctx), &translationv1.UpdateUnitRequest{Id: id, Target: []string{target},
		State: weblate.UnitStates.EnumOf(state), Actor: g.caller.Username})
	u := grpcUnit(resp.GetUnit())
	u.Source = nil
	return u, kind(err)
}

func (g overGRPC) changes(ctx context.Context, project string) (int, error) {
	resp, err := g.changelog.ListChanges(g.as(ctx), &changelogv1.ListChangesRequest{ProjectSlug: project, PageSize: 1,
		Actions: []typev1.ChangeAction{weblate.ChangeActions.EnumOf(added)}})
	return int(resp.GetTotal()), kind(err)
}
