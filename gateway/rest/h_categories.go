package rest

import (
	"net/http"
	"strconv"
	"strings"

	"github.com/tmsproject/tms/pkg/errs"
	catalogv1 "github.com/tmsproject/tms/proto/gen/go/tms/catalog/v1"
	translationv1 "github.com/tmsproject/tms/proto/gen/go/tms/translation/v1"
)

// categoryJSON is the reference's CategorySerializer.
type categoryJSON struct {
	ID            int64   `json:"id"`
	Name          string  `json:"name"`
	Slug          string  `json:"slug"`
	Project       string  `json:"project"`
	Category      *string `json:"category"`
	URL           string  `json:"url"`
	StatisticsURL string  `json:"statistics_url"`
	// AnnouncementsURL lists the category's announcements (Weblate 2026.8).
	AnnouncementsURL string `json:"announcements_url"`
	ownSettingsJSON
	CheckFlags        string `json:"check_flags"`
	SecondaryLanguage *int64 `json:"secondary_language" doc:"Id of the category's own secondary language; null for none."`
	inheritedJSON
}

func (u urls) category(n int64, sub ...string) string {
	return u.API(append([]string{"categories", id(n)}, sub...)...)
}

// categoryRef is the URL of a category, nil for none.
func (u urls) categoryRef(n int64) *string {
	if n == 0 {
		return nil
	}
	s := u.category(n)
	return &s
}

func (c *call) categoryJSON(x *catalogv1.Category) (categoryJSON, error) {
	u := c.urls
	out := categoryJSON{ID: x.GetId(), Name: x.GetName(), Slug: x.GetSlug(), Project: u.project(x.GetProjectSlug()),
		Category: u.categoryRef(x.GetParentId()), URL: u.category(x.GetId()),
		StatisticsURL: u.category(x.GetId(), "statistics"), AnnouncementsURL: u.category(x.GetId(), "announcements"),
		ownSettingsJSON: *newOwnSettings(x), CheckFlags: x.GetCheckFlags()}
	var err error
	if out.SecondaryLanguage, err = c.languageID(x.GetSecondaryLanguageCode()); err != nil {
		return out, err
	}
	inh, err := c.inheritedJSON(x)
	if err != nil {
		return out, err
	}
	out.inheritedJSON = *inh
	return out, nil
}

// categoryOK answers the category x.
func (c *call) categoryOK(x *catalogv1.Category) error {
	j, err := c.categoryJSON(x)
	if err != nil {
		return err
	}
	return c.ok(j)
}

func (g *gateway) listCategories(c *call) error {
	return g.categoryPage(c, "")
}

func (g *gateway) projectCategories(c *call) error {
	if _, err := c.pathProject(); err != nil {
		return err
	}
	return g.categoryPage(c, c.param("project"))
}

func (g *gateway) categoryPage(c *call, project string) error {
	return c.servicePage(func(offset, limit int64) (any, int64, error) {
		resp, err := g.cfg.Catalog.ListCategories(c.ctx, &catalogv1.ListCategoriesRequest{
			ProjectSlug: project, Offset: offset, Limit: limit})
		return pageRows(resp.GetCategories(), resp.GetTotal(), err, c.categoryJSON)
	})
}

// pathCategory reads the category of the {id} path with its components.
func (c *call) pathCategory() (*catalogv1.GetCategoryResponse, error) {
	n, err := c.pathID()
	if err != nil {
		return nil, err
	}
	return c.g.cfg.Catalog.GetCategory(c.ctx, &catalogv1.GetCategoryRequest{Id: n})
}

func (g *gateway) getCategory(c *call) error {
	resp, err := c.pathCategory()
	if err != nil {
		return err
	}
	return c.categoryOK(resp.GetCategory())
}

// createCategory: name, slug and project required; category (a parent)
// optional. The catalog checks project.edit and the nesting.
func (g *gateway) createCategory(c *call) error {
	x, fields, err := c.categoryBody(true)
	if err != nil {
		return err
	}
	resp, err := g.cfg.Catalog.CreateCategory(c.ctx, &catalogv1.CreateCategoryRequest{Category: x, Fields: fields})
	if err != nil {
		return err
	}
	g.paths.forget(x.GetProjectSlug())
	j, err := c.categoryJSON(resp.GetCategory())
	if err != nil {
		return err
	}
	return c.created(j.URL, j)
}

func (g *gateway) updateCategory(c *call) error {
	cur, err := c.pathCategory()
	if err != nil {
		return err
	}
	x, fields, err := c.categoryBody(c.r.Method == http.MethodPut)
	if err != nil {
		return err
	}
	if x.GetProjectSlug() != "" && x.GetProjectSlug() != cur.GetCategory().GetProjectSlug() {
		return errs.Invalid("project", "invalid", "A category cannot move to another project.")
	}
	resp, err := g.cfg.Catalog.UpdateCategory(c.ctx, &catalogv1.UpdateCategoryRequest{
		Id: cur.GetCategory().GetId(), Category: x, UpdateMask: mask(fields)})
	if err != nil {
		return err
	}
	g.paths.forget(cur.GetCategory().GetProjectSlug())
	return c.categoryOK(resp.GetCategory())
}

// deleteCategory removes the category with its subcategories and their
// components (the catalog's removal of them reaches the translation
// service by itself).
func (g *gateway) deleteCategory(c *call) error {
	cur, err := c.pathCategory()
	if err != nil {
		return err
	}
	if _, err := g.cfg.Catalog.DeleteCategory(c.ctx, &catalogv1.DeleteCategoryRequest{Id: cur.GetCategory().GetId(), Actor: c.actor()}); err != nil {
		return err
	}
	g.paths.forget(cur.GetCategory().GetProjectSlug())
	return c.noContent()
}

// categoryStatistics sums the components inside the category.
func (g *gateway) categoryStatistics(c *call) error {
	cur, err := c.pathCategory()
	if err != nil {
		return err
	}
	proj, err := c.project(cur.GetCategory().GetProjectSlug())
	if err != nil {
		return err
	}
	st, err := c.sumStatistics(cur.GetComponentIds())
	if err != nil {
		return err
	}
	x := cur.GetCategory()
	page := c.urls.categoryPage(x.GetProjectSlug(), x.GetPath())
	return c.ok(newStats(st, proj.GetTranslationReview(), statsIdentity{Name: x.GetName(), URL: page, TranslateURL: page}))
}

// categoryPage is the web page of a category: its path below the project.
func (u urls) categoryPage(project, path string) string {
	return u.Web(append([]string{"projects", project}, strings.Split(path, "/")...)...)
}

// sumStatistics adds up the statistics of components (zero for none).
func (c *call) sumStatistics(componentIDs []int64) (*translationv1.Statistics, error) {
	if len(componentIDs) == 0 {
		return &translationv1.Statistics{}, nil
	}
	resp, err := c.g.cfg.Translation.GetStatistics(c.ctx, &translationv1.GetStatisticsRequest{ProjectComponentIds: componentIDs})
	return resp.GetStats(), err
}

// categoryBody reads name, slug, project, category (the parent; the
// references are URLs of this API or plain slugs and ids) and the
// settings, and names the fields it set.
func (c *call) categoryBody(required bool) (*catalogv1.Category, []string, error) {
	b, err := c.readBody()
	if err != nil {
		return nil, nil, err
	}
	if required {
		b.required("name", "slug", "project")
	}
	x := &catalogv1.Category{}
	fields := applyBody(b, x)
	if s, ok := b.str("project"); ok {
		x.ProjectSlug = lastSegment(s)
	}
	return x, fields, b.err()
}

// categoryRef reads a category reference: its API URL, its id, or null.
func (b *body) categoryRef(key string) (int64, bool) {
	v, ok := b.fields[key]
	if !ok {
		return 0, false
	}
	if v == nil {
		return 0, true
	}
	s, _ := b.str(key)
	if s == "" {
		if n, ok := b.integer(key); ok {
			return n, true
		}
		return 0, false
	}
	n, err := strconv.ParseInt(lastSegment(s), 10, 64)
	if err != nil || n <= 0 {
		b.errs.Add(key, "does_not_exist", "Invalid hyperlink - Object does not exist.")
		return 0, false
	}
	return n, true
}
