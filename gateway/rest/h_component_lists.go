package rest

import (
	"net/http"

	"github.com/tmsproject/tms/pkg/errs"
	catalogv1 "github.com/tmsproject/tms/proto/gen/go/tms/catalog/v1"
)

// componentListJSON is Weblate's ComponentListSerializer: the member
// components the caller may see, by URL, and the assignment rules.
type componentListJSON struct {
	Name          string           `json:"name"`
	Slug          string           `json:"slug"`
	ID            int64            `json:"id"`
	ShowDashboard bool             `json:"show_dashboard"`
	Components    []string         `json:"components"`
	AutoAssign    []autoAssignJSON `json:"auto_assign"`
	URL           string           `json:"url"`
}

// autoAssignJSON is one rule: regular expressions matched from the start
// of a component's project slug and slug.
type autoAssignJSON struct {
	ProjectMatch   string `json:"project_match"`
	ComponentMatch string `json:"component_match"`
}

func (c *call) componentListJSON(l *catalogv1.ComponentList) componentListJSON {
	out := componentListJSON{Name: l.GetName(), Slug: l.GetSlug(), ID: l.GetId(), ShowDashboard: l.GetShowDashboard(),
		Components: []string{}, AutoAssign: []autoAssignJSON{}, URL: c.urls.API("component-lists", l.GetSlug())}
	for _, comp := range l.GetComponents() {
		out.Components = append(out.Components, c.urls.component(comp.GetProjectSlug(), comp.GetSlug()))
	}
	for _, r := range l.GetAutoAssign() {
		out.AutoAssign = append(out.AutoAssign, autoAssignJSON{ProjectMatch: r.GetProjectMatch(), ComponentMatch: r.GetComponentMatch()})
	}
	return out
}

func (g *gateway) listComponentLists(c *call) error {
	return c.servicePage(func(offset, limit int64) (any, int64, error) {
		resp, err := g.cfg.Catalog.ListComponentLists(c.ctx, &catalogv1.ListComponentListsRequest{Offset: offset, Limit: limit})
		return pageRows(resp.GetComponentLists(), resp.GetTotal(), err, always(c.componentListJSON))
	})
}

// pathComponentList reads the list of the {slug} path.
func (c *call) pathComponentList() (*catalogv1.ComponentList, error) {
	resp, err := c.g.cfg.Catalog.GetComponentList(c.ctx, &catalogv1.GetComponentListRequest{Slug: c.param("slug")})
	return resp.GetComponentList(), err
}

func (g *gateway) getComponentList(c *call) error {
	l, err := c.pathComponentList()
	if err != nil {
		return err
	}
	return c.ok(c.componentListJSON(l))
}

// componentListBody reads name, slug, show_dashboard and auto_assign (a
// list of {project_match, component_match}; read-only in Weblate's API,
// which sets rules in its admin interface) and names the fields set.
func (c *call) componentListBody(required bool) (*catalogv1.ComponentList, []string, error) {
	b, err := c.readBody()
	if err != nil {
		return nil, nil, err
	}
	if required {
		b.required("name", "slug")
	}
	l := &catalogv1.ComponentList{}
	fields := applyBody(b, l)
	if rules, ok := b.fields["auto_assign"]; ok {
		list, isList := rules.([]any)
		if !isList {
			b.errs.Add("auto_assign", "not_a_list", "Expected a list of items.")
		}
		for _, r := range list {
			m, _ := r.(map[string]any)
			pm, _ := m["project_match"].(string)
			cm, _ := m["component_match"].(string)
			l.AutoAssign = append(l.AutoAssign, &catalogv1.AutoAssign{ProjectMatch: pm, ComponentMatch: cm})
		}
		fields = append(fields, "auto_assign")
	}
	return l, fields, b.err()
}

func (g *gateway) createComponentList(c *call) error {
	l, fields, err := c.componentListBody(true)
	if err != nil {
		return err
	}
	resp, err := g.cfg.Catalog.CreateComponentList(c.ctx, &catalogv1.CreateComponentListRequest{ComponentList: l, Fields: fields})
	if err != nil {
		return err
	}
	j := c.componentListJSON(resp.GetComponentList())
	return c.created(j.URL, j)
}

func (g *gateway) updateComponentList(c *call) error {
	if _, err := c.pathComponentList(); err != nil {
		return err
	}
	l, fields, err := c.componentListBody(c.r.Method == http.MethodPut)
	if err != nil {
		return err
	}
	resp, err := g.cfg.Catalog.UpdateComponentList(c.ctx, &catalogv1.UpdateComponentListRequest{
		Slug: c.param("slug"), ComponentList: l, UpdateMask: mask(fields)})
	if err != nil {
		return err
	}
	return c.ok(c.componentListJSON(resp.GetComponentList()))
}

func (g *gateway) deleteComponentList(c *call) error {
	if _, err := c.pathComponentList(); err != nil {
		return err
	}
	if _, err := g.cfg.Catalog.DeleteComponentList(c.ctx, &catalogv1.DeleteComponentListRequest{Slug: c.param("slug")}); err != nil {
		return err
	}
	return c.noContent()
}

// componentListComponents pages the list's components the caller may see
// (GET), or adds one by id (POST {"component_id": N}).
func (g *gateway) componentListComponents(c *call) error {
	l, err := c.pathComponentList()
	if err != nil {
		return err
	}
	if c.r.Method == http.MethodGet {
		comps := l.GetComponents()
		return c.servicePage(func(offset, limit int64) (any, int64, error) {
			end := min(offset+limit, int64(len(comps)))
			if limit <= 0 {
				end = int64(len(comps))
			}
			return pageRows(comps[min(offset, end):end], int64(len(comps)), nil, c.fullComponent)
		})
	}
	b, err := c.readBody()
	if err != nil {
		return err
	}
	b.required("component_id")
	id, _ := b.integer("component_id")
	if err = b.err(); err != nil {
		return err
	}
	resp, err := g.cfg.Catalog.ChangeComponentListMember(c.ctx, &catalogv1.ChangeComponentListMemberRequest{Slug: l.GetSlug(), ComponentId: id})
	if err != nil {
		return err
	}
	return c.ok(c.componentListJSON(resp.GetComponentList()))
}

// removeComponentListComponent takes the component of that slug out of
// the list; a slug two of its components share is a client error.
func (g *gateway) removeComponentListComponent(c *call) error {
	l, err := c.pathComponentList()
	if err != nil {
		return err
	}
	var match []*catalogv1.Component
	for _, comp := range l.GetComponents() {
		if comp.GetSlug() == c.param("component") {
			match = append(match, comp)
		}
	}
	switch len(match) {
	case 0:
		return notFound()
	case 1:
	default:
		return errs.Invalid("component_slug", "invalid", "Several components of the list have this slug.")
	}
	_, err = g.cfg.Catalog.ChangeComponentListMember(c.ctx, &catalogv1.ChangeComponentListMemberRequest{
		Slug: l.GetSlug(), ComponentId: match[0].GetId(), Remove: true})
	if err != nil {
		return err
	}
	return c.noContent()
}
