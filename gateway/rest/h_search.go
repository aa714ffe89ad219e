package rest

import (
	catalogv1 "github.com/tmsproject/tms/proto/gen/go/tms/catalog/v1"
	notificationv1 "github.com/tmsproject/tms/proto/gen/go/tms/notification/v1"
)

// searchResultJSON is one hit of the site-wide search (Weblate's
// SearchResultSerializer): the object's page, its name and its kind.
type searchResultJSON struct {
	URL      string `json:"url" doc:"The object's web page; a user's API URL (users have no page here)."`
	Name     string `json:"name" doc:"A category's or component's name follows its parents': Project/Category/Component."`
	Category string `json:"category" doc:"Project, Category, Component, User or Language."`
}

// search answers GET /api/search/?q=: up to five projects, categories,
// components, users and languages whose name (or slug, code, full name)
// contains q, as Weblate's site-wide search. Only what the caller may see:
// the catalog searches the projects it may see, and users are searched
// for signed-in callers by the account list's rules (a superuser finds
// everyone, anybody else their own account).
func (g *gateway) search(c *call) error {
	out := []searchResultJSON{}
	q := c.r.URL.Query().Get("q")
	if q == "" {
		return c.ok(out)
	}
	found, err := g.cfg.Catalog.Search(c.ctx, &catalogv1.SearchRequest{Text: q})
	if err != nil {
		return err
	}
	for _, p := range found.GetProjects() {
		out = append(out, searchResultJSON{URL: c.urls.Web("projects", p.GetSlug()), Name: p.GetName(), Category: "Project"})
	}
	for _, cat := range found.GetCategories() {
		name, err := c.categoryName(cat)
		if err != nil {
			return err
		}
		out = append(out, searchResultJSON{URL: c.urls.categoryPage(cat.GetProjectSlug(), cat.GetPath()), Name: name, Category: "Category"})
	}
	for _, comp := range found.GetComponents() {
		name, err := c.componentName(comp)
		if err != nil {
			return err
		}
		out = append(out, searchResultJSON{URL: c.urls.Web("projects", comp.GetProjectSlug(), comp.GetSlug()), Name: name, Category: "Component"})
	}
	if c.user != nil {
		users, err := g.cfg.Notification.ListUsers(c.ctx, &notificationv1.ListUsersRequest{Search: q, Limit: 5})
		if err != nil {
			return err
		}
		for _, u := range users.GetUsers() {
			out = append(out, searchResultJSON{URL: c.urls.user(u.GetUsername()), Name: u.GetUsername(), Category: "User"})
		}
	}
	for _, l := range found.GetLanguages() {
		out = append(out, searchResultJSON{URL: c.urls.Web("languages", l.GetCode()), Name: l.GetName(), Category: "Language"})
	}
	return c.ok(out)
}

// categoryName is a category's name after its parents' and its project's
// (Hello/Docs/API), as Weblate prints a category.
func (c *call) categoryName(cat *catalogv1.Category) (string, error) {
	name := cat.GetName()
	for parent, depth := cat.GetParentId(), 0; parent != 0 && depth < 32; depth++ {
		resp, err := c.g.cfg.Catalog.GetCategory(c.ctx, &catalogv1.GetCategoryRequest{Id: parent})
		if err != nil {
			return "", err
		}
		name = resp.GetCategory().GetName() + "/" + name
		parent = resp.GetCategory().GetParentId()
	}
	p, err := c.project(cat.GetProjectSlug())
	if err != nil {
		return "", err
	}
	return p.GetName() + "/" + name, nil
}

// componentName is a component's name after its category's or project's.
func (c *call) componentName(comp *catalogv1.Component) (string, error) {
	if id := comp.GetCategoryId(); id != 0 {
		resp, err := c.g.cfg.Catalog.GetCategory(c.ctx, &catalogv1.GetCategoryRequest{Id: id})
		if err != nil {
			return "", err
		}
		parent, err := c.categoryName(resp.GetCategory())
		return parent + "/" + comp.GetName(), err
	}
	p, err := c.project(comp.GetProjectSlug())
	if err != nil {
		return "", err
	}
	return p.GetName() + "/" + comp.GetName(), nil
}
