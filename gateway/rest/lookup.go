package rest

import (
	"strconv"

	"github.com/tmsproject/tms/pkg/errs"
	"github.com/tmsproject/tms/pkg/policy"
	catalogv1 "github.com/tmsproject/tms/proto/gen/go/tms/catalog/v1"
	translationv1 "github.com/tmsproject/tms/proto/gen/go/tms/translation/v1"
)

// memo remembers one kind of lookup for the length of a request, so that
// a list renders each project, component or language once. Failures are
// remembered too.
type memo[T any] map[string]memoEntry[T]

type memoEntry[T any] struct {
	v   T
	err error
}

// get answers the remembered lookup of key, or runs fetch once.
func (m memo[T]) get(key string, fetch func() (T, error)) (T, error) {
	if e, ok := m[key]; ok {
		return e.v, e.err
	}
	v, err := fetch()
	m[key] = memoEntry[T]{v: v, err: err}
	return v, err
}

// lookups are the memos of one request.
type lookups struct {
	projects   memo[*catalogv1.Project]
	components memo[*catalogv1.Component] // by "project/component"
	langs      memo[*catalogv1.Language]
	alerts     memo[[]*translationv1.Alert] // a component's standing alerts, by "project/component"
	listSlugs  map[int64]string             // component lists by id, read once (componentListSlugs)
}

func newLookups() lookups {
	return lookups{projects: memo[*catalogv1.Project]{}, components: memo[*catalogv1.Component]{},
		langs: memo[*catalogv1.Language]{}, alerts: memo[[]*translationv1.Alert]{}}
}

// visible tells whether the caller may see the project at all. What the
// caller may not see answers 404, never 403 (COMPAT.md §4).
func (c *call) visible(p *catalogv1.Project) bool {
	return c.caller.Sees(p.GetSlug(), policy.Level(p.GetAccessControl()))
}

// project fetches a visible project by slug, once per request.
func (c *call) project(slug string) (*catalogv1.Project, error) {
	return c.projects.get(slug, func() (*catalogv1.Project, error) {
		resp, err := c.g.cfg.Catalog.GetProject(c.ctx, &catalogv1.GetProjectRequest{Slug: slug})
		p := resp.GetProject()
		if err == nil && !c.visible(p) {
			p, err = nil, notFound()
		}
		return p, err
	})
}

// pathProject is the visible project named by the {project} path.
func (c *call) pathProject() (*catalogv1.Project, error) {
	return c.project(c.param("project"))
}

// pathProjectComponents is the project of the path with its components.
func (c *call) pathProjectComponents() (*catalogv1.Project, []*catalogv1.Component, error) {
	return c.projectAndComponents(c.param("project"))
}

// projectAndComponents is a visible project with its components.
func (c *call) projectAndComponents(slug string) (*catalogv1.Project, []*catalogv1.Component, error) {
	p, err := c.project(slug)
	if err != nil {
		return nil, nil, err
	}
	comps, err := c.projectComponents(p.GetSlug())
	return p, comps, err
}

// pathID is the number of the {id} path; anything else is not found.
func (c *call) pathID() (int64, error) {
	n, err := strconv.ParseInt(c.param("id"), 10, 64)
	if err != nil {
		return 0, notFound()
	}
	return n, nil
}

// pathObject fetches the object of the {id} path with get and admits it
// only within a project the caller may see.
func pathObject[T interface{ GetProjectSlug() string }](c *call, get func(id int64) (T, error)) (T, error) {
	var none T
	n, err := c.pathID()
	if err != nil {
		return none, err
	}
	x, err := get(n)
	if err != nil {
		return none, err
	}
	if _, err := c.project(x.GetProjectSlug()); err != nil {
		return none, err
	}
	return x, nil
}

// component fetches a component of a visible project, once per request.
func (c *call) component(project, slug string) (*catalogv1.Component, error) {
	// The catalog answers NotFound for a component of a project the
	// caller may not see, as GetProject does: no project lookup first.
	return c.components.get(project+"/"+slug, func() (*catalogv1.Component, error) {
		resp, err := c.g.cfg.Catalog.GetComponent(c.ctx, &catalogv1.GetComponentRequest{ProjectSlug: project, Slug: slug})
		if err != nil {
			return nil, err
		}
		return resp.GetComponent(), nil
	})
}

// pathComponent is the component named by the {project}/{component} path.
// A category path in it ("docs%252Fusage") must be the component's; the
// slug alone also names a component in a category (slugs are unique in a
// project here).
func (c *call) pathComponent() (*catalogv1.Component, error) {
	comp, err := c.component(c.param("project"), c.param("component"))
	if err != nil {
		return nil, err
	}
	if path, ok := c.params["category_path"]; ok && path != comp.GetCategoryPath() {
		return nil, errs.NotFoundf("Not found.")
	}
	return comp, nil
}

// pathTranslation is the translation named by the path, with its component.
func (c *call) pathTranslation() (*catalogv1.Component, *translationv1.Translation, error) {
	comp, err := c.pathComponent()
	if err != nil {
		return nil, nil, err
	}
	resp, err := c.g.cfg.Translation.GetTranslation(c.ctx, &translationv1.GetTranslationRequest{
		ComponentId: comp.GetId(), LanguageCode: c.param("language")})
	if err != nil {
		return nil, nil, err
	}
	return comp, resp.GetTranslation(), nil
}

// language fetches a language by code, once per request.
func (c *call) language(code string) (*catalogv1.Language, error) {
	return c.langs.get(code, func() (*catalogv1.Language, error) {
		resp, err := c.g.cfg.Catalog.GetLanguage(c.ctx, &catalogv1.GetLanguageRequest{Code: code})
		return resp.GetLanguage(), err
	})
}

// projectComponents lists every component of a project ("" for all
// projects), for sums and project-wide operations.
func (c *call) projectComponents(project string) ([]*catalogv1.Component, error) {
	var out []*catalogv1.Component
	err := eachPage(func(offset, limit int64) (int, int64, error) {
		resp, err := c.g.cfg.Catalog.ListComponents(c.ctx, &catalogv1.ListComponentsRequest{
			ProjectSlug: project, Offset: offset, Limit: limit})
		out = append(out, resp.GetComponents()...)
		return len(resp.GetComponents()), resp.GetTotal(), err
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

func componentIDs(comps []*catalogv1.Component) []int64 {
	ids := make([]int64, len(comps))
	for i, c := range comps {
		ids[i] = c.GetId()
	}
	return ids
}

// componentListSlugs maps the ids of the component lists to their slugs,
// read from the catalog once per request.
func (c *call) componentListSlugs() (map[int64]string, error) {
	if c.listSlugs != nil {
		return c.listSlugs, nil
	}
	out := map[int64]string{}
	err := eachPage(func(offset, limit int64) (int, int64, error) {
		resp, err := c.g.cfg.Catalog.ListComponentLists(c.ctx, &catalogv1.ListComponentListsRequest{Offset: offset, Limit: limit})
		for _, l := range resp.GetComponentLists() {
			out[l.GetId()] = l.GetSlug()
		}
		return len(resp.GetComponentLists()), resp.GetTotal(), err
	})
	if err != nil {
		return nil, err
	}
	c.listSlugs = out
	return out, nil
}
