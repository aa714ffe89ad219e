package rest

import (
	"encoding/json"
	"slices"

	"google.golang.org/protobuf/types/known/structpb"

	"github.com/tmsproject/tms/pkg/errs"
	catalogv1 "github.com/tmsproject/tms/proto/gen/go/tms/catalog/v1"
	translationv1 "github.com/tmsproject/tms/proto/gen/go/tms/translation/v1"
)

// listProjects pages the projects the catalog lets the caller see.
func (g *gateway) listProjects(c *call) error {
	render := func(p *catalogv1.Project) (*projectJSON, error) { return c.projectJSON(p, true) }
	return c.servicePage(func(offset, limit int64) (any, int64, error) {
		resp, err := g.cfg.Catalog.ListProjects(c.ctx, &catalogv1.ListProjectsRequest{Offset: offset, Limit: limit})
		return pageRows(resp.GetProjects(), resp.GetTotal(), err, render)
	})
}

func (g *gateway) getProject(c *call) error {
	p, err := c.pathProject()
	if err != nil {
		return err
	}
	return c.okRendered(c.projectJSON(p, true))
}

func (g *gateway) createProject(c *call) error {
	if err := c.requireSuperuser(); err != nil {
		return err
	}
	// Required fields and values are validated by the catalog service, so
	// that one answer names every problem.
	proj := &catalogv1.Project{}
	fields, err := c.bodyInto(proj)
	if err != nil {
		return err
	}
	// The catalog has the notification service set up the project's own
	// teams, its creator administering it, before it answers.
	resp, err := g.cfg.Catalog.CreateProject(c.ctx, &catalogv1.CreateProjectRequest{Project: proj, Fields: fields, Actor: c.actor()})
	if err != nil {
		return err
	}
	j, err := c.projectJSON(resp.GetProject(), true)
	if err != nil {
		return err
	}
	return c.created(j.URL, j)
}

func (g *gateway) updateProject(c *call) error {
	if _, err := c.pathProject(); err != nil {
		return err
	}
	if err := c.authorizeProject("project.edit"); err != nil {
		return err
	}
	proj := &catalogv1.Project{}
	fields, err := c.bodyInto(proj, "name", "slug", "web")
	if err != nil {
		return err
	}
	if slices.Contains(fields, "access_control") {
		if err = c.authorizeProject("project.permissions"); err != nil {
			return err
		}
	}
	if len(fields) == 0 {
		return g.getProject(c)
	}
	resp, err := g.cfg.Catalog.UpdateProject(c.ctx, &catalogv1.UpdateProjectRequest{
		Slug: c.param("project"), Project: proj, UpdateMask: mask(fields), Actor: c.actor()})
	if err != nil {
		return err
	}
	return c.okRendered(c.projectJSON(resp.GetProject(), true))
}

// deleteProject asks the catalog, whose removal of the project reaches
// the translation service (its components) and the notification service
// (its teams, subscriptions and webhooks) by itself.
func (g *gateway) deleteProject(c *call) error {
	slug := c.param("project")
	if _, err := g.cfg.Catalog.DeleteProject(c.ctx, &catalogv1.DeleteProjectRequest{Slug: slug, Actor: c.actor()}); err != nil {
		return err
	}
	g.paths.forget(slug)
	return c.noContent()
}

func (g *gateway) projectComponents(c *call) error {
	if _, err := c.pathProject(); err != nil {
		return err
	}
	return g.componentList(c, c.param("project"))
}

func (g *gateway) projectStatistics(c *call) error {
	p, comps, err := c.pathProjectComponents()
	if err != nil {
		return err
	}
	st, err := c.sumStatistics(componentIDs(comps))
	if err != nil {
		return err
	}
	return c.ok(newStats(st, p.GetTranslationReview(), statsIdentity{Name: p.GetName(),
		URL: c.urls.Web("projects", p.GetSlug()), TranslateURL: c.urls.Web("projects", p.GetSlug())}))
}

// projectLanguages is a plain array (not paginated) of per-language sums.
func (g *gateway) projectLanguages(c *call) error {
	p, comps, err := c.pathProjectComponents()
	if err != nil {
		return err
	}
	out := []*statsJSON{}
	if len(comps) > 0 {
		resp, err := g.cfg.Translation.ListLanguageStatistics(c.ctx, &translationv1.ListLanguageStatisticsRequest{ComponentIds: componentIDs(comps)})
		if err != nil {
			return err
		}
		for _, st := range resp.GetStats() {
			lang, err := c.language(st.GetLanguageCode())
			if err != nil {
				return err
			}
			out = append(out, newStats(st, p.GetTranslationReview(), statsIdentity{Code: lang.GetCode(), Name: lang.GetName(),
				URL: c.urls.Web("projects", p.GetSlug(), "-", lang.GetCode()), TranslateURL: c.urls.Web("translate", p.GetSlug(), "-", lang.GetCode())}))
		}
	}
	return c.ok(out)
}

type lockJSON struct {
	Locked bool `json:"locked"`
}

func (g *gateway) projectLock(c *call) error {
	p, err := c.pathProject()
	if err != nil {
		return err
	}
	return c.ok(lockJSON{Locked: p.GetLocked()})
}

// lockBody reads {"lock": bool} (1/0 too).
func (c *call) lockBody() (bool, error) {
	b, err := c.readBody()
	if err != nil {
		return false, err
	}
	b.required("lock")
	lock, _ := b.boolean("lock")
	return lock, b.err()
}

// setProjectLock locks or unlocks every component of the project.
func (g *gateway) setProjectLock(c *call) error {
	slug := c.param("project")
	if _, err := c.pathProject(); err != nil {
		return err
	}
	if err := c.authorizeProject("component.lock"); err != nil {
		return err
	}
	lock, err := c.lockBody()
	if err != nil {
		return err
	}
	comps, err := c.projectComponents(slug)
	if err != nil {
		return err
	}
	for _, comp := range comps {
		if comp.GetLocked() == lock {
			continue
		}
		if _, err := g.cfg.Catalog.SetComponentLock(c.ctx, &catalogv1.SetComponentLockRequest{
			ProjectSlug: slug, Slug: comp.GetSlug(), Locked: lock, Actor: c.actor()}); err != nil {
			return err
		}
	}
	return c.ok(lockJSON{Locked: lock && len(comps) > 0})
}

// machinerySettings: no machine translation service is configured.
func (g *gateway) machinerySettings(c *call) error {
	if _, err := c.pathProject(); err != nil {
		return err
	}
	resp, err := g.cfg.Catalog.GetMachinerySettings(c.ctx, &catalogv1.GetMachinerySettingsRequest{ProjectSlug: c.param("project")})
	if err != nil {
		return err
	}
	out := map[string]any{}
	for id, cfg := range resp.GetServices() {
		out[id] = cfg.AsMap()
	}
	return c.ok(out)
}

// setMachinerySettings installs one service: {"service": id,
// "configuration": {...}}, answered as the reference does.
func (g *gateway) setMachinerySettings(c *call) error {
	if _, err := c.pathProject(); err != nil {
		return err
	}
	b, err := c.readBody()
	if err != nil {
		return err
	}
	b.required("service", "configuration")
	service, _ := b.str("service")
	cfg, isObj := b.fields["configuration"].(map[string]any)
	if b.has("configuration") && !isObj {
		b.errs.Add("configuration", "not_a_dict", "Expected a dictionary of items.")
	}
	if err = b.err(); err != nil {
		return err
	}
	st, err := structpb.NewStruct(jsonNumbersAsFloats(cfg))
	if err != nil {
		return errs.Invalid("configuration", "invalid", "Invalid configuration.")
	}
	resp, err := g.cfg.Catalog.SetMachinerySettings(c.ctx, &catalogv1.SetMachinerySettingsRequest{
		ProjectSlug: c.param("project"), Service: service, Configuration: st})
	if err != nil {
		return err
	}
	return c.write(201, map[string]string{"message": "Service installed: " + resp.GetName()})
}

// jsonNumbersAsFloats turns the body's json.Number values into float64,
// which structpb takes.
func jsonNumbersAsFloats(m map[string]any) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		if n, ok := v.(json.Number); ok {
			f, _ := n.Float64()
			v = f
		}
		out[k] = v
	}
	return out
}
