package policy

import (
	"context"
	"slices"
	"strings"

	"github.com/tmsproject/tms/pkg/weblate"
	typev1 "github.com/tmsproject/tms/proto/gen/go/tms/type/v1"
)

// Level is the access level (the reference's number, which Scope, Sees
// and Visibility take) of a project's access control. Unspecified is the
// default, public, as the catalog's proto documents; a value this service
// does not know is taken as private, visible to superusers only.
func Level(a typev1.AccessControl) int32 {
	if a == typev1.AccessControl_ACCESS_CONTROL_UNSPECIFIED {
		return weblate.AccessPublic
	}
	if n, ok := weblate.AccessControls.Ref(a); ok {
		return n
	}
	return weblate.AccessPrivate
}

// Visibility is what a caller may see, in the form a query filters by:
// every project (All), the projects of the access levels listed, and the
// projects named.
type Visibility struct {
	All    bool
	Levels []int32
	Slugs  []string
}

// Visibility reduces the caller's teams to the projects it may see.
func (c Caller) Visibility() Visibility {
	if c.Superuser {
		return Visibility{All: true}
	}
	var v Visibility
	levels := map[int32]bool{}
	for _, g := range c.Grants {
		switch g.ProjectSelection {
		case SelectAll:
			return Visibility{All: true}
		case SelectAllPublic:
			levels[weblate.AccessPublic] = true
		case SelectAllProtected:
			levels[weblate.AccessPublic], levels[weblate.AccessProtected] = true, true
		case SelectManual:
			v.Slugs = append(v.Slugs, g.Projects...)
		}
		for _, comp := range g.Components {
			if p, _, ok := strings.Cut(comp, "/"); ok {
				v.Slugs = append(v.Slugs, p)
			}
		}
	}
	for l := range levels {
		v.Levels = append(v.Levels, l)
	}
	slices.Sort(v.Levels)
	slices.Sort(v.Slugs)
	v.Slugs = slices.Compact(v.Slugs)
	return v
}

// Sees tells whether a project is within v.
func (v Visibility) Sees(slug string, access int32) bool {
	return v.All || slices.Contains(v.Levels, access) || slices.Contains(v.Slugs, slug)
}

// Restricted tells whether ctx acts for a caller whose view is limited:
// false for the service's own work and for superusers.
func Restricted(ctx context.Context) (Caller, bool) {
	c, ok := FromContext(ctx)
	return c, ok && !c.Superuser
}
