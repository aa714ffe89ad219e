package policy

import (
	"context"
	"crypto/sha256"
	"fmt"
	"maps"
	"slices"
	"sync"
	"testing"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/tmsproject/tms/pkg/errs"
	"github.com/tmsproject/tms/pkg/weblate"
	catalogv1 "github.com/tmsproject/tms/proto/gen/go/tms/catalog/v1"
)

// fakeCatalog answers the levels it holds, counting the calls; without
// access it is a catalog of a release that lacks GetProjectAccess.
type fakeCatalog struct {
	mu        sync.Mutex
	levels    map[string]int32
	sharing   map[string]sharing
	noAccess  bool
	fail      error
	gets      int
	lists     int
	unchanged int
}

func (c *fakeCatalog) set(slug string, level int32) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.levels[slug] = level
}

// sharing is a project's part in the shared memory.
type sharing struct{ use, contribute bool }

func (c *fakeCatalog) version() string {
	h := sha256.New()
	for _, slug := range slices.Sorted(maps.Keys(c.levels)) {
		_, _ = fmt.Fprintf(h, "%s=%d,%v;", slug, c.levels[slug], c.sharing[slug])
	}
	return fmt.Sprintf("%x", h.Sum(nil))
}

func (c *fakeCatalog) GetProjectAccess(_ context.Context, in *catalogv1.GetProjectAccessRequest, _ ...grpc.CallOption) (*catalogv1.GetProjectAccessResponse, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.gets++
	if c.fail != nil {
		return nil, c.fail
	}
	if c.noAccess {
		return nil, status.Error(codes.Unimplemented, "unknown method")
	}
	out := &catalogv1.GetProjectAccessResponse{Version: c.version()}
	if out.Version == in.GetKnownVersion() {
		c.unchanged++
		out.Unchanged = true
		return out, nil
	}
	for slug, level := range c.levels {
		out.Projects = append(out.Projects, &catalogv1.ProjectAccess{Slug: slug, AccessControl: weblate.AccessControls.EnumOf(level),
			UseSharedTm: c.sharing[slug].use, ContributeSharedTm: c.sharing[slug].contribute})
	}
	return out, nil
}

func (c *fakeCatalog) ListProjects(_ context.Context, in *catalogv1.ListProjectsRequest, _ ...grpc.CallOption) (*catalogv1.ListProjectsResponse, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.lists++
	out := &catalogv1.ListProjectsResponse{Total: int64(len(c.levels))}
	if in.GetOffset() > 0 {
		return out, nil
	}
	for slug, level := range c.levels {
		out.Projects = append(out.Projects, &catalogv1.Project{Slug: slug, AccessControl: weblate.AccessControls.EnumOf(level),
			UseSharedTm: c.sharing[slug].use, ContributeSharedTm: c.sharing[slug].contribute})
	}
	return out, nil
}

// request is the context of one anonymous request as a service receives it.
func request(t *testing.T) context.Context {
	return WithRequestMemo(WithCaller(t.Context(), Anonymous))
}

// TestProjectsExact checks that a change of access shows in the very next
// request, with or without GetProjectAccess.
func TestProjectsExact(t *testing.T) {
	for _, noAccess := range []bool{false, true} {
		t.Run(fmt.Sprintf("noAccess=%v", noAccess), func(t *testing.T) {
			cat := &fakeCatalog{levels: map[string]int32{"p": weblate.AccessPublic, "q": weblate.AccessPrivate}, noAccess: noAccess}
			p := NewProjects(cat)
			visible := func(slug string) bool {
				t.Helper()
				ok, err := p.Visible(request(t), slug)
				if err != nil {
					t.Fatal(err)
				}
				return ok
			}
			if !visible("p") || visible("q") {
				t.Fatalf("p, q visible = %v, %v; want true, false", visible("p"), visible("q"))
			}
			cat.set("p", weblate.AccessPrivate)
			if visible("p") {
				t.Error("p is visible after it was made private")
			}
			cat.set("new", weblate.AccessPublic)
			if !visible("new") {
				t.Error("a new public project is not visible")
			}
			seen, restricted, err := p.Seen(request(t))
			if err != nil {
				t.Fatal(err)
			}
			if slices.Sort(seen); !restricted || !slices.Equal(seen, []string{"new"}) {
				t.Errorf("seen = %v (restricted %v), want [new]", seen, restricted)
			}
		})
	}
}

// TestProjectsOncePerRequest checks that the checks of one request ask
// the catalog once, that an unchanged answer reuses the levels held, and
// that the service's own calls ask nothing.
func TestProjectsOncePerRequest(t *testing.T) {
	cat := &fakeCatalog{levels: map[string]int32{"p": weblate.AccessPublic}}
	p := NewProjects(cat)
	ctx := request(t)
	for range 3 {
		if ok, err := p.Visible(ctx, "p"); !ok || err != nil {
			t.Fatalf("Visible = %v, %v", ok, err)
		}
	}
	if err := p.Authorize(ctx, "suggestion.add", Scope{Project: "p"}, ""); err != nil {
		t.Fatal(err)
	}
	if cat.gets != 1 {
		t.Errorf("one request asked the catalog %d times, want 1", cat.gets)
	}
	if ok, err := p.Visible(request(t), "p"); !ok || err != nil {
		t.Fatalf("second request: Visible = %v, %v", ok, err)
	}
	if cat.gets != 2 || cat.unchanged != 1 {
		t.Errorf("two requests: %d calls, %d unchanged; want 2, 1", cat.gets, cat.unchanged)
	}
	if ok, err := p.Visible(System(t.Context()), "p"); !ok || err != nil {
		t.Fatalf("system: Visible = %v, %v", ok, err)
	}
	if cat.gets != 2 || cat.lists != 0 {
		t.Errorf("the service's own call asked the catalog (%d gets, %d lists)", cat.gets, cat.lists)
	}
}

// TestProjectsUnknownHidden checks that a project the catalog does not
// know is not visible, and that a failing catalog is an error, not a
// default.
func TestProjectsUnknownHidden(t *testing.T) {
	cat := &fakeCatalog{levels: map[string]int32{}}
	p := NewProjects(cat)
	if ok, err := p.Visible(request(t), "ghost"); ok || err != nil {
		t.Errorf("unknown project: Visible = %v, %v; want false, nil", ok, err)
	}
	if err := p.Authorize(request(t), "unit.edit", Scope{Project: "ghost"}, ""); !errs.Is(err, errs.NotFound) {
		t.Errorf("unknown project: Authorize = %v, want NotFound", err)
	}
	cat.fail = status.Error(codes.Unavailable, "catalog down")
	if ok, err := p.Visible(request(t), "ghost"); ok || status.Code(err) != codes.Unavailable {
		t.Errorf("catalog down: Visible = %v, %v; want false, Unavailable", ok, err)
	}
}

// TestAuthorizeRefusals checks how a refusal reads: a project the caller
// may not see is NotFound, a right it lacks is PermissionDenied, and the
// anonymous caller lacking one is Unauthenticated (told to sign in, as
// gRPC's codes and the REST API's 401 say).
func TestAuthorizeRefusals(t *testing.T) {
	p := NewProjects(&fakeCatalog{levels: map[string]int32{"open": weblate.AccessPublic, "secret": weblate.AccessPrivate}})
	user := WithRequestMemo(WithCaller(t.Context(), NewAccount("olga")))
	anonymous := WithRequestMemo(WithCaller(t.Context(), Anonymous))
	for _, tc := range []struct {
		name    string
		ctx     context.Context
		perm    string
		project string
		want    codes.Code
	}{
		{"user, private project", user, "unit.edit", "secret", codes.NotFound},
		{"user, missing right", user, "project.edit", "open", codes.PermissionDenied},
		{"user, held right", user, "suggestion.add", "open", codes.OK},
		{"anonymous, private project", anonymous, "unit.edit", "secret", codes.NotFound},
		{"anonymous, missing right", anonymous, "unit.edit", "open", codes.Unauthenticated},
	} {
		err := p.Authorize(tc.ctx, tc.perm, Scope{Project: tc.project}, "")
		if got := status.Code(errs.ToStatus(err)); got != tc.want {
			t.Errorf("%s: %v, want %v", tc.name, err, tc.want)
		}
	}
}

// TestSharedMemory checks whose memory a lookup for a project reads: the
// contributing projects the caller may see, when the project uses the
// shared memory, by either way of asking the catalog, and a change of
// sharing in the very next request.
func TestSharedMemory(t *testing.T) {
	for _, noAccess := range []bool{false, true} {
		cat := &fakeCatalog{noAccess: noAccess,
			levels: map[string]int32{"p": weblate.AccessPublic, "open": weblate.AccessPublic, "secret": weblate.AccessPrivate,
				"closed": weblate.AccessPublic, "alone": weblate.AccessPublic},
			sharing: map[string]sharing{"p": {use: true, contribute: true}, "open": {contribute: true},
				"secret": {contribute: true}, "alone": {use: true}}}
		p := NewProjects(cat)
		member := WithRequestMemo(WithCaller(t.Context(), Caller{Username: "mia", Grants: append(DefaultGrants(false),
			Grant{ProjectSelection: SelectManual, Projects: []string{"secret"}})}))
		for _, tc := range []struct {
			name    string
			ctx     context.Context
			project string
			want    []string
		}{
			{"anonymous", request(t), "p", []string{"open"}},
			{"member of the private project", member, "p", []string{"open", "secret"}},
			{"the service", System(t.Context()), "p", []string{"open", "secret"}},
			{"a project that contributes but does not use", request(t), "open", nil},
			{"a project that uses but does not contribute", request(t), "alone", []string{"open", "p"}},
			{"unknown project", request(t), "ghost", nil},
		} {
			got, err := p.SharedMemory(tc.ctx, tc.project)
			if err != nil || !slices.Equal(got, tc.want) {
				t.Errorf("noAccess=%v %s: SharedMemory(%s) = %v, %v; want %v", noAccess, tc.name, tc.project, got, err, tc.want)
			}
		}
		for slug, want := range map[string]bool{"open": true, "closed": false, "ghost": false} {
			if got, err := p.Contributes(request(t), slug); got != want || err != nil {
				t.Errorf("noAccess=%v: Contributes(%s) = %v, %v", noAccess, slug, got, err)
			}
		}
		cat.mu.Lock()
		cat.sharing["open"] = sharing{}
		cat.mu.Unlock()
		if got, err := p.SharedMemory(request(t), "p"); len(got) != 0 || err != nil {
			t.Errorf("noAccess=%v: after open stopped contributing: %v, %v", noAccess, got, err)
		}
	}
}
