package policy

import (
	"context"
	"slices"
	"sync"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/tmsproject/tms/pkg/errs"
	catalogv1 "github.com/tmsproject/tms/proto/gen/go/tms/catalog/v1"
	typev1 "github.com/tmsproject/tms/proto/gen/go/tms/type/v1"
)

// ProjectLister is the part of the catalog that lists projects.
type ProjectLister interface {
	ListProjects(ctx context.Context, in *catalogv1.ListProjectsRequest, opts ...grpc.CallOption) (*catalogv1.ListProjectsResponse, error)
}

// AccessGetter is the part of the catalog that answers every project's
// access level by version (the catalog client has it; a ProjectLister
// without it is asked for the whole list instead).
type AccessGetter interface {
	GetProjectAccess(ctx context.Context, in *catalogv1.GetProjectAccessRequest, opts ...grpc.CallOption) (*catalogv1.GetProjectAccessResponse, error)
}

// Projects knows the access level of every project, read from the catalog
// (which owns them), so that services other than the catalog can filter
// what a caller may see in their own queries.
//
// The levels are asked for once per request a visibility rule restricts,
// never kept across requests by time: a project made private is hidden
// from the next request on. What is kept is the last answer and its
// version, so that an unchanged answer costs the catalog a hash and the
// wire a few bytes.
type Projects struct {
	catalog ProjectLister // nil: access alone
	access  AccessGetter  // nil: the list alone
	mu      sync.Mutex
	last    accessLevels
}

// accessLevels are the projects by slug with the catalog's version of
// them.
type accessLevels struct {
	version string
	bySlug  map[string]project
}

// project is what the catalog tells of a project's access: its level and
// its part in the shared translation memory.
type project struct {
	level                  int32
	useShared, contributes bool
}

// projectOf reads a project's access from the catalog's answer: a
// ProjectAccess, or a whole Project from a catalog that lacks
// GetProjectAccess.
func projectOf(pr interface {
	GetAccessControl() typev1.AccessControl
	GetUseSharedTm() bool
	GetContributeSharedTm() bool
}) project {
	return project{level: Level(pr.GetAccessControl()), useShared: pr.GetUseSharedTm(), contributes: pr.GetContributeSharedTm()}
}

// NewProjects reads access levels through catalog.
func NewProjects(catalog ProjectLister) *Projects {
	access, _ := catalog.(AccessGetter)
	return &Projects{catalog: catalog, access: access}
}

// NewProjectsOf reads access levels from access alone: a service's own
// copy of the catalog's projects, which answers without a call.
func NewProjectsOf(access AccessGetter) *Projects {
	return &Projects{access: access}
}

// System returns ctx acting as the service itself: its calls carry no
// caller and see everything.
func System(ctx context.Context) context.Context {
	return context.WithValue(ctx, ctxKey{}, nil)
}

// Seen lists the slugs of the projects the caller of ctx may see, for
// reads that keep only those: a row of a project the catalog does not list
// (renamed or deleted since the row was written) is then left out too, so
// that no stale slug escapes a rule. restricted is false, and the list
// nil, when the caller sees everything.
func (p *Projects) Seen(ctx context.Context) (slugs []string, restricted bool, err error) {
	c, restricted := Restricted(ctx)
	if !restricted {
		return nil, false, nil
	}
	access, err := p.levels(ctx)
	if err != nil {
		return nil, true, err
	}
	slugs = []string{}
	for slug, pr := range access {
		if c.Sees(slug, pr.level) {
			slugs = append(slugs, slug)
		}
	}
	return slugs, true, nil
}

// Visible tells whether the caller of ctx may see the project slug. A
// project the catalog does not know is not visible to restricted callers.
func (p *Projects) Visible(ctx context.Context, slug string) (bool, error) {
	c, restricted := Restricted(ctx)
	if !restricted {
		return true, nil
	}
	level, ok, err := p.levelOf(ctx, slug)
	if err != nil {
		return false, err
	}
	return ok && c.Sees(slug, level), nil
}

// levelOf is the access level of one project.
func (p *Projects) levelOf(ctx context.Context, slug string) (int32, bool, error) {
	access, err := p.levels(ctx)
	if err != nil {
		return 0, false, err
	}
	pr, ok := access[slug]
	return pr.level, ok, nil
}

// SharedMemory lists the projects whose translation memory a lookup for
// project reads besides its own: when project uses the shared memory,
// every other project contributing to it that the caller of ctx may see,
// by slug. Contributing opens a project's memory to the other projects,
// not to callers who may not see the project.
func (p *Projects) SharedMemory(ctx context.Context, slug string) ([]string, error) {
	access, err := p.levels(ctx)
	if err != nil || !access[slug].useShared {
		return nil, err
	}
	c, restricted := Restricted(ctx)
	var out []string
	for other, pr := range access {
		if other != slug && pr.contributes && (!restricted || c.Sees(other, pr.level)) {
			out = append(out, other)
		}
	}
	slices.Sort(out)
	return out, nil
}

// Contributes tells whether project contributes to the shared memory (a
// project the catalog does not know does not).
func (p *Projects) Contributes(ctx context.Context, slug string) (bool, error) {
	access, err := p.levels(ctx)
	return access[slug].contributes, err
}

// levels are the access levels by slug as the catalog answers them now,
// asked once per request (see WithRequestMemo). The map is shared: read
// only.
func (p *Projects) levels(ctx context.Context) (map[string]project, error) {
	m, _ := ctx.Value(memoKey{}).(*requestMemo)
	if m != nil {
		m.mu.Lock()
		defer m.mu.Unlock()
		if m.levels != nil {
			return m.levels, nil
		}
	}
	access, err := p.fetch(System(ctx))
	if err == nil && m != nil {
		m.levels = access
	}
	return access, err
}

// fetch asks the catalog for the levels, passing the version last seen.
func (p *Projects) fetch(ctx context.Context) (map[string]project, error) {
	getter := p.access
	if getter == nil {
		return p.list(ctx)
	}
	p.mu.Lock()
	known := p.last
	p.mu.Unlock()
	resp, err := getter.GetProjectAccess(ctx, &catalogv1.GetProjectAccessRequest{KnownVersion: known.version})
	switch {
	case status.Code(err) == codes.Unimplemented && p.catalog != nil: // a catalog of an older release, during a rollout
		return p.list(ctx)
	case err != nil:
		return nil, err
	case resp.GetUnchanged():
		return known.bySlug, nil
	}
	got := accessLevels{version: resp.GetVersion(), bySlug: make(map[string]project, len(resp.GetProjects()))}
	for _, pr := range resp.GetProjects() {
		got.bySlug[pr.GetSlug()] = projectOf(pr)
	}
	p.mu.Lock()
	p.last = got
	p.mu.Unlock()
	return got.bySlug, nil
}

// list reads the levels of every project page by page.
func (p *Projects) list(ctx context.Context) (map[string]project, error) {
	access := map[string]project{}
	for offset := int64(0); ; {
		resp, err := p.catalog.ListProjects(ctx, &catalogv1.ListProjectsRequest{Offset: offset, Limit: 1000})
		if err != nil {
			return nil, err
		}
		for _, pr := range resp.GetProjects() {
			access[pr.GetSlug()] = projectOf(pr)
		}
		offset += int64(len(resp.GetProjects()))
		if len(resp.GetProjects()) == 0 || offset >= resp.GetTotal() {
			return access, nil
		}
	}
}

// Authorize fails unless the caller of ctx holds perm on s (whose Access
// is looked up here): NotFound when it may not see the project, so a write
// reveals no more than a read, else PermissionDenied with reason. The
// service's own calls pass.
func (p *Projects) Authorize(ctx context.Context, perm string, s Scope, reason string) error {
	c, restricted := Restricted(ctx)
	if !restricted {
		return nil
	}
	level, ok, err := p.levelOf(ctx, s.Project)
	if err != nil {
		return err
	}
	if !ok || !c.Sees(s.Project, level) {
		return errs.NotFoundf("Not found.")
	}
	s.Access = level
	if c.Can(perm, s) {
		return nil
	}
	if c.Username == "" {
		// gRPC's rule, and the REST API's 401: a caller without
		// credentials is told to bring some, not that it lacks a right.
		return errs.New(errs.Unauthenticated, "Authentication credentials were not provided.")
	}
	if reason == "" {
		reason = "You do not have permission to perform this action."
	}
	return errs.New(errs.PermissionDenied, "%s", reason)
}

// requestMemo holds what one request learnt of the project levels, so
// that the several checks of a request (the unit's project, then the
// permission to edit it) ask the catalog once.
type requestMemo struct {
	mu     sync.Mutex
	levels map[string]project
}

type memoKey struct{}

// WithRequestMemo returns ctx for one request: the access levels are
// asked for at most once under it. The server interceptors call it for
// every request that carries a caller.
func WithRequestMemo(ctx context.Context) context.Context {
	return context.WithValue(ctx, memoKey{}, &requestMemo{})
}
