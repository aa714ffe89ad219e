package policy

import (
	"context"
	"sync"
	"time"

	catalogv1 "github.com/tmsproject/tms/proto/gen/go/tms/catalog/v1"
	"google.golang.org/grpc"
)

// projectsTTL bounds how stale the access levels may be: a project made
// private disappears from the other services' lists this long after at most.
const projectsTTL = 2 * time.Second

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
	access, err := p.levels(ctx)
	if err != nil {
		return nil, err
	}
	var out []string
	for slug, level := range access {
		if !CanView(c, level) {
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
	access, err := p.levels(ctx)
	if err != nil {
		return false, err
	}
	level, ok := access[slug]
	return ok && CanView(c, level), nil
}

func (p *Projects) levels(ctx context.Context) (map[string]int32, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.access != nil && p.now().Before(p.expires) {
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
			access[pr.GetSlug()] = pr.GetAccessControl()
		}
		offset += int64(len(resp.GetProjects()))
		if len(resp.GetProjects()) == 0 || offset >= resp.GetTotal() {
			break
		}
	}
	p.access, p.expires = access, p.now().Add(projectsTTL)
	return access, nil
}
