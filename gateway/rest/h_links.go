package rest

import (
	catalogv1 "github.com/tmsproject/tms/proto/gen/go/tms/catalog/v1"
)

// componentLinks lists the projects a component is shared with, in the
// project's full form, as the reference's links action.
func (g *gateway) componentLinks(c *call) error {
	comp, err := c.pathComponent()
	if err != nil {
		return err
	}
	render := func(p *catalogv1.Project) (*projectJSON, error) { return c.projectJSON(p, true) }
	return c.servicePage(func(offset, limit int64) (any, int64, error) {
		resp, err := g.cfg.Catalog.ListComponentLinks(c.ctx, &catalogv1.ListComponentLinksRequest{
			ProjectSlug: comp.GetProjectSlug(), Slug: comp.GetSlug(), Offset: offset, Limit: limit})
		return pageRows(resp.GetProjects(), resp.GetTotal(), err, render)
	})
}

// addComponentLink shares the component with {"project_slug": ...} and
// answers 201 {"data": <the component>}, as the reference does.
func (g *gateway) addComponentLink(c *call) error {
	comp, err := c.pathComponent()
	if err != nil {
		return err
	}
	b, err := c.readBody()
	if err != nil {
		return err
	}
	target, _ := b.str("project_slug")
	if err = b.err(); err != nil {
		return err
	}
	resp, err := g.cfg.Catalog.AddComponentLink(c.ctx, &catalogv1.AddComponentLinkRequest{
		ProjectSlug: comp.GetProjectSlug(), Slug: comp.GetSlug(), LinkProjectSlug: target})
	if err != nil {
		return err
	}
	j, err := c.componentJSON(resp.GetComponent(), true, "")
	if err != nil {
		return err
	}
	return c.write(201, linkAddedJSON{Data: j})
}

func (g *gateway) removeComponentLink(c *call) error {
	comp, err := c.pathComponent()
	if err != nil {
		return err
	}
	if _, err := g.cfg.Catalog.RemoveComponentLink(c.ctx, &catalogv1.RemoveComponentLinkRequest{
		ProjectSlug: comp.GetProjectSlug(), Slug: comp.GetSlug(), LinkProjectSlug: c.param("link")}); err != nil {
		return err
	}
	return c.noContent()
}
