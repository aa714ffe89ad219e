package policy

import (
	"context"
	"sync"
	"time"

	"github.com/tmsproject/tms/pkg/errs"

	"google.golang.org/grpc"

	catalogv1 "github.com/tmsproject/tms/proto/gen/go/tms/catalog/v1"
)

// projectsTTL bounds how stale the access levels may be: a project made
// private disappears from the other services' lists this long after at most.
const projectsTTL = 2 * time.Second

// minReload is the least time between two reads of the levels.
const minReload = 200 * time.Millisecond

// ProjectLister is the part of the catalog that lists projects.
type ProjectLister interface {
	ListProjects(ctx context.Context, in *catalogv1.ListProjectsRequest, opts ...grpc.CallOption) (*catalogv1.ListProjectsResponse, error)
}

// Projects knows the access level of every project, read from the catalog
// (which owns them) and kept for a moment, so that services other than the
// catalog can filter what a caller may see in their own queries.
type Projects struct {
	catalog ProjectLister
	now     func() time.Time
	mu      sync.Mutex
	access  map[string]int32 // by slug
	loaded  time.Time
	expires time.Time
}

// NewProjects reads access levels through catalog.
func NewProjects(catalog ProjectLister) *Projects {
	return &Projects{catalog: catalog, now: time.Now}
}

// System returns ctx acting as the service itself: its calls carry no
// caller and see everything.
func System(ctx context.Context) context.Context {
	return context.WithValue(ctx, ctxKey{}, nil)
}

// Hidden lists the slugs of the projects the caller of ctx may not see;
// nil when nothing is hidden from it.
func (p *Projects) Hidden(ctx context.Context) ([]string, error) {
	c, restricted := Restricted(ctx)
	if !restricted {
		return nil, nil
	}
	access, err := p.levels(ctx, false)
	if err != nil {
		return nil, err
	}
	var out []string
	for slug, level := range access {
		if !c.Sees(slug, level) {
			out = append(out, slug)
		}
	}
	return out, nil
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

// levelOf is the access level of one project; a project missing from the
// cached levels makes them read again, as it may have just been created.
func (p *Projects) levelOf(ctx context.Context, slug string) (int32, bool, error) {
	access, err := p.levels(ctx, false)
	if err == nil {
		if _, ok := access[slug]; !ok {
			access, err = p.levels(ctx, true)
		}
	}
	if err != nil {
		return 0, false, err
	}
	level, ok := access[slug]
	return level, ok, nil
}

func (p *Projects) levels(ctx context.Context, refresh bool) (map[string]int32, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	fresh := p.now().Before(p.loaded.Add(minReload)) // bounds reloads for unknown slugs
	if p.access != nil && (fresh || !refresh && p.now().Before(p.expires)) {
		return p.access, nil
	}
	access := map[string]int32{}
	sys := System(ctx)
	for offset := int64(0); ; {
		resp, err := p.catalog.ListProjects(sys, &catalogv1.ListProjectsRequest{Offset: offset, Limit: 1000})
		if err != nil {
			return nil, err
		}
		for _, pr := range resp.GetProjects() {
			access[pr.GetSlug()] = Level(pr.GetAccessControl())
		}
		offset += int64(len(resp.GetProjects()))
		if len(resp.GetProjects()) == 0 || offset >= resp.GetTotal() {
			break
		}
	}
	p.access, p.loaded, p.expires = access, p.now(), p.now().Add(projectsTTL)
	return access, nil
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
	if reason == "" {
		reason = "You do not have permission to perform this action."
	}
	return errs.New(errs.PermissionDenied, "%s", reason)
}
