package rest

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"

	"github.com/tmsproject/tms/gateway/rest/wire"
	"github.com/tmsproject/tms/pkg/textstat"
	"github.com/tmsproject/tms/pkg/weblate"
	catalogv1 "github.com/tmsproject/tms/proto/gen/go/tms/catalog/v1"
	translationv1 "github.com/tmsproject/tms/proto/gen/go/tms/translation/v1"
)

// webUnitsPerPage is the length of a translate page's list of strings.
const webUnitsPerPage = 50

func (c *call) projectCrumbs(p *catalogv1.Project) []webLink {
	return []webLink{{"Projects", c.urls.API("projects")}, {p.GetName(), c.urls.Web("projects", p.GetSlug())}}
}

func (c *call) componentCrumbs(p *catalogv1.Project, comp *catalogv1.Component) []webLink {
	return append(c.projectCrumbs(p), webLink{comp.GetName(), c.urls.Web("projects", p.GetSlug(), comp.GetSlug())})
}

func percentText(p wire.Percent) string { return strconv.FormatFloat(float64(p), 'f', 1, 64) + "%" }

func (g *gateway) projectPage(c *call, slug string) error {
	p, comps, err := c.projectAndComponents(slug)
	if err != nil {
		return err
	}
	page := &webPage{Title: p.GetName(), Crumbs: c.projectCrumbs(p), RowsTitle: "Components",
		Facts: []webFact{{"Website", p.GetWeb(), p.GetWeb()}},
		API: []webLink{{"Project", c.urls.project(slug)}, {"Components", c.urls.project(slug, "components")},
			{"Statistics", c.urls.project(slug, "statistics")}, {"Languages", c.urls.project(slug, "languages")},
			{"Changes", c.urls.project(slug, "changes")}}}
	if len(comps) > 0 {
		resp, err := g.cfg.Translation.GetStatistics(c.ctx, &translationv1.GetStatisticsRequest{ProjectComponentIds: componentIDs(comps)})
		if err != nil {
			return err
		}
		page.Stats = newStats(resp.GetStats(), p.GetTranslationReview(), statsIdentity{})
	}
	for _, comp := range comps {
		page.Rows = append(page.Rows, webFact{Name: comp.GetName(), URL: c.urls.Web("projects", slug, comp.GetSlug())})
	}
	return c.render(page)
}

func (g *gateway) componentPage(c *call, project, slug string) error {
	comp, err := c.component(project, slug)
	if err != nil {
		return err
	}
	p, err := c.project(project)
	if err != nil {
		return err
	}
	resp, err := g.cfg.Translation.ListTranslations(c.ctx, &translationv1.ListTranslationsRequest{ComponentId: comp.GetId()})
	if err != nil {
		return err
	}
	stats, err := g.cfg.Translation.GetStatistics(c.ctx, &translationv1.GetStatisticsRequest{ComponentId: comp.GetId()})
	if err != nil {
		return err
	}
	page := &webPage{Title: comp.GetName(), Crumbs: c.componentCrumbs(p, comp), RowsTitle: "Translations",
		Stats: newStats(stats.GetStats(), p.GetTranslationReview(), statsIdentity{}),
		Facts: []webFact{{Name: "File mask", Value: comp.GetFilemask()}, {Name: "File format", Value: comp.GetFileFormat()}},
		API: []webLink{{"Component", c.urls.component(project, slug)}, {"Translations", c.urls.component(project, slug, "translations")},
			{"Statistics", c.urls.component(project, slug, "statistics")}, {"Repository", c.urls.component(project, slug, "repository")},
			{"Alerts", c.urls.component(project, slug, "alerts")}}}
	for _, t := range resp.GetTranslations() {
		st := t.GetStats()
		page.Rows = append(page.Rows, webFact{Name: t.GetLanguageCode(), URL: c.urls.Web("projects", project, slug, t.GetLanguageCode()),
			Value: percentText(wire.PercentOf(st.GetTranslated(), st.GetTotal(), translatedWhenEmpty(p.GetTranslationReview())))})
	}
	return c.render(page)
}

// webTranslation looks up what a translation page shows.
func (c *call) webTranslation(project, component, lang string) (*catalogv1.Project, *catalogv1.Component, *translationv1.Translation, *catalogv1.Language, error) {
	c.params = map[string]string{"project": project, "component": component, "language": lang}
	comp, t, err := c.pathTranslation()
	if err != nil {
		return nil, nil, nil, nil, err
	}
	p, err := c.project(project)
	if err != nil {
		return nil, nil, nil, nil, err
	}
	l, err := c.language(t.GetLanguageCode())
	return p, comp, t, l, err
}

func (g *gateway) translationPage(c *call, project, component, lang string) error {
	p, comp, t, l, err := c.webTranslation(project, component, lang)
	if err != nil {
		return err
	}
	page := &webPage{Title: comp.GetName() + " — " + l.GetName(), Crumbs: append(c.componentCrumbs(p, comp),
		webLink{l.GetName(), c.urls.Web("projects", project, component, lang)}),
		Stats: newStats(t.GetStats(), p.GetTranslationReview(), statsIdentity{}),
		Facts: []webFact{{Name: "Language", Value: l.GetName(), URL: c.urls.Web("languages", l.GetCode())},
			{Name: "File", Value: t.GetFilename()}, {Name: "Strings", Value: "translate", URL: c.urls.Web("translate", project, component, lang)}},
		API: []webLink{{"Translation", c.urls.translation(project, component, lang)},
			{"Units", c.urls.translation(project, component, lang, "units")},
			{"Statistics", c.urls.translation(project, component, lang, "statistics")},
			{"File", c.urls.translation(project, component, lang, "file")},
			{"Changes", c.urls.translation(project, component, lang, "changes")}}}
	return c.render(page)
}

// translatePage lists a translation's strings, or shows the one whose
// checksum the reference's unit web link names.
func (g *gateway) translatePage(c *call, project, component, lang string) error {
	p, comp, t, l, err := c.webTranslation(project, component, lang)
	if err != nil {
		return err
	}
	self := c.urls.Web("translate", project, component, lang)
	page := &webPage{Title: "Translate " + comp.GetName() + " — " + l.GetName(),
		Crumbs: append(c.componentCrumbs(p, comp), webLink{l.GetName(), c.urls.Web("projects", project, component, lang)})}
	if sum := c.r.URL.Query().Get("checksum"); sum != "" {
		return g.unitPage(c, page, t, sum)
	}
	n := int64(1)
	if v := c.r.URL.Query().Get("page"); v != "" {
		if n, err = strconv.ParseInt(v, 10, 64); err != nil || n < 1 {
			return notFound()
		}
	}
	resp, err := g.cfg.Translation.ListUnits(c.ctx, &translationv1.ListUnitsRequest{TranslationId: t.GetId(),
		Offset: (n - 1) * webUnitsPerPage, Limit: webUnitsPerPage})
	if err != nil {
		return err
	}
	if n > 1 && len(resp.GetUnits()) == 0 {
		return notFound()
	}
	page.RowsTitle = fmt.Sprintf("Strings %d–%d of %d", (n-1)*webUnitsPerPage+1, (n-1)*webUnitsPerPage+int64(len(resp.GetUnits())), resp.GetTotal())
	for _, u := range resp.GetUnits() {
		page.Rows = append(page.Rows, webFact{Name: firstOf(u.GetSource()), Value: stateName(restState(u.GetState())),
			URL: c.urls.Web("translate", project, component, lang) + "?checksum=" + textstat.Checksum(u.GetIdHash())})
	}
	if n > 1 {
		page.Prev = self + "?page=" + strconv.FormatInt(n-1, 10)
	}
	if n*webUnitsPerPage < resp.GetTotal() {
		page.Next = self + "?page=" + strconv.FormatInt(n+1, 10)
	}
	page.API = []webLink{{"Units", c.urls.translation(project, component, lang, "units")}}
	return c.render(page)
}

func (g *gateway) unitPage(c *call, page *webPage, t *translationv1.Translation, sum string) error {
	idHash, ok := parseChecksum(sum)
	if !ok {
		return notFound()
	}
	resp, err := g.cfg.Translation.FindUnit(c.ctx, &translationv1.FindUnitRequest{TranslationId: t.GetId(), IdHash: idHash})
	if err != nil {
		return err
	}
	u := resp.GetUnit()
	page.Unit = &webUnit{Context: u.GetContext(), Source: u.GetSource(), Target: u.GetTarget(), State: stateName(restState(u.GetState()))}
	page.API = []webLink{{"Unit", c.urls.unit(u.GetId())}, {"Suggestions", c.urls.API("units", id(u.GetId()), "suggestions")},
		{"Comments", c.urls.API("units", id(u.GetId()), "comments")}}
	return c.render(page)
}

func (g *gateway) engagePage(c *call, project, lang string) error {
	p, comps, err := c.projectAndComponents(project)
	if err != nil {
		return err
	}
	page := &webPage{Title: "Get involved in " + p.GetName(), Crumbs: c.projectCrumbs(p),
		Notice: "Help translate " + p.GetName() + ": the strings are open to translators through the API.",
		API:    []webLink{{"Project", c.urls.project(project)}, {"Languages", c.urls.project(project, "languages")}}}
	req := &translationv1.GetStatisticsRequest{ProjectComponentIds: componentIDs(comps)}
	if lang != "" {
		l, err := c.language(lang)
		if err != nil {
			return err
		}
		page.Title += " — " + l.GetName()
		return g.projectLanguageStats(c, page, p, comps, l)
	}
	if len(comps) > 0 {
		resp, err := g.cfg.Translation.GetStatistics(c.ctx, req)
		if err != nil {
			return err
		}
		page.Stats = newStats(resp.GetStats(), p.GetTranslationReview(), statsIdentity{})
	}
	return c.render(page)
}

// projectLanguageStats renders page with the project's statistics in one
// language.
func (g *gateway) projectLanguageStats(c *call, page *webPage, p *catalogv1.Project, comps []*catalogv1.Component, l *catalogv1.Language) error {
	if len(comps) > 0 {
		resp, err := g.cfg.Translation.ListLanguageStatistics(c.ctx, &translationv1.ListLanguageStatisticsRequest{ComponentIds: componentIDs(comps)})
		if err != nil {
			return err
		}
		for _, st := range resp.GetStats() {
			if st.GetLanguageCode() == l.GetCode() {
				page.Stats = newStats(st, p.GetTranslationReview(), statsIdentity{})
			}
		}
	}
	page.Facts = append(page.Facts, webFact{Name: "Language", Value: l.GetName(), URL: c.urls.Web("languages", l.GetCode())})
	return c.render(page)
}

func (g *gateway) languagePage(c *call, code, project string) error {
	l, err := c.language(code)
	if err != nil {
		return err
	}
	page := &webPage{Title: l.GetName(), Crumbs: []webLink{{"Languages", c.urls.API("languages")}, {l.GetName(), c.urls.Web("languages", code)}},
		Facts: []webFact{{Name: "Code", Value: l.GetCode()}, {Name: "Direction", Value: l.GetDirection()}},
		API:   []webLink{{"Language", c.urls.language(code)}, {"Statistics", c.urls.language(code, "statistics")}}}
	if project == "" {
		return c.render(page)
	}
	p, comps, err := c.projectAndComponents(project)
	if err != nil {
		return err
	}
	page.Title = p.GetName() + " — " + l.GetName()
	page.Crumbs = c.projectCrumbs(p)
	return g.projectLanguageStats(c, page, p, comps, l)
}

func firstOf(s []string) string {
	if len(s) == 0 {
		return ""
	}
	return s[0]
}

// parseChecksum reverses textstat.Checksum, the query of unit web links.
func parseChecksum(s string) (int64, bool) {
	if len(s) != 16 {
		return 0, false
	}
	v, err := strconv.ParseUint(s, 16, 64)
	if err != nil {
		return 0, false
	}
	return int64(v ^ (1 << 63)), true //nolint:gosec // G115: a reinterpretation of the 64 bits is the point
}

// stateName is how a unit's state reads on a page.
func stateName(state int32) string {
	switch {
	case state >= weblate.StateReadOnly:
		return "read-only"
	case state >= weblate.StateApproved:
		return "approved"
	case state >= weblate.StateTranslated:
		return "translated"
	case state >= weblate.StateFuzzy:
		return "needs editing"
	}
	return "untranslated"
}

// widget answers the reference's status badge of a component or project
// (/widget/<p>/<c>/svg-badge.svg, /widget/<p>/svg-badge.svg), which commit
// messages may link to: the translated percent, as SVG.
func (g *gateway) widget(c *call, seg []string) error {
	if len(seg) < 2 || len(seg) > 3 || seg[len(seg)-1] != "svg-badge.svg" {
		return notFound()
	}
	p, err := c.project(seg[0])
	if err != nil {
		return err
	}
	req := &translationv1.GetStatisticsRequest{}
	if len(seg) == 3 {
		comp, compErr := c.component(seg[0], seg[1])
		if compErr != nil {
			return compErr
		}
		req.ComponentId = comp.GetId()
	} else {
		comps, compsErr := c.projectComponents(seg[0])
		if compsErr != nil {
			return compsErr
		}
		req.ProjectComponentIds = componentIDs(comps)
	}
	st := &translationv1.Statistics{}
	if req.ComponentId != 0 || len(req.ProjectComponentIds) > 0 {
		resp, respErr := g.cfg.Translation.GetStatistics(c.ctx, req)
		if respErr != nil {
			return respErr
		}
		st = resp.GetStats()
	}
	pct := wire.PercentOf(st.GetTranslated(), st.GetTotal(), translatedWhenEmpty(p.GetTranslationReview()))
	color := "#e05d44"
	switch {
	case pct >= 90:
		color = "#4c1"
	case pct >= 50:
		color = "#dfb317"
	}
	text := strconv.FormatFloat(float64(pct), 'f', -1, 64)
	var buf bytes.Buffer
	if err = badgeTemplate.Execute(&buf, map[string]any{"Percent": text, "Color": color,
		"Width": 70 + 14 + 7*len(text), "Right": 14 + 7*len(text)}); err != nil {
		return err
	}
	c.w.Header().Set("Content-Type", "image/svg+xml")
	c.w.Header().Set("Cache-Control", "max-age=300")
	_, err = c.w.Write(buf.Bytes())
	return err
}

// categoryWebPage is the page of a category of a project (its path of
// slugs): its components and the sum of their statistics.
func (g *gateway) categoryWebPage(c *call, project string, path []string) error {
	p, err := c.project(project)
	if err != nil {
		return err
	}
	resp, err := g.cfg.Catalog.GetCategory(c.ctx, &catalogv1.GetCategoryRequest{ProjectSlug: project, Path: strings.Join(path, "/")})
	if err != nil {
		return err
	}
	cat := resp.GetCategory()
	st, err := c.sumStatistics(resp.GetComponentIds())
	if err != nil {
		return err
	}
	page := &webPage{Title: cat.GetName(), Crumbs: append(c.projectCrumbs(p), webLink{cat.GetName(), c.urls.categoryPage(project, cat.GetPath())}),
		RowsTitle: "Components", Stats: newStats(st, p.GetTranslationReview(), statsIdentity{}),
		API: []webLink{{"Category", c.urls.category(cat.GetId())}, {"Statistics", c.urls.category(cat.GetId(), "statistics")}}}
	comps, err := c.projectComponentsByID(project)
	if err != nil {
		return err
	}
	for _, id := range resp.GetComponentIds() {
		if comp, ok := comps[id]; ok {
			page.Rows = append(page.Rows, webFact{Name: comp.GetName(), URL: c.urls.Web("projects", project, comp.GetSlug())})
		}
	}
	return c.render(page)
}

// projectComponentsByID indexes a project's visible components by id.
func (c *call) projectComponentsByID(project string) (map[int64]*catalogv1.Component, error) {
	_, comps, err := c.projectAndComponents(project)
	if err != nil {
		return nil, err
	}
	out := make(map[int64]*catalogv1.Component, len(comps))
	for _, comp := range comps {
		out[comp.GetId()] = comp
	}
	return out, nil
}
