package rest

import (
	"archive/zip"
	"bytes"
	"context"
	"fmt"
	"net/http"
	"time"

	"github.com/tmsproject/tms/pkg/errs"
	catalogv1 "github.com/tmsproject/tms/proto/gen/go/tms/catalog/v1"
	translationv1 "github.com/tmsproject/tms/proto/gen/go/tms/translation/v1"
)

// taskURL is the URL of the component's import task while it runs or when
// it failed (the component says what went wrong until an import succeeds),
// "" otherwise.
//
// A component is catalog data: while the translation service does not
// answer (restarting, paused) the component still renders, within
// taskWait, with no task URL, rather than failing with the service.
func (c *call) taskURL(comp *catalogv1.Component) (string, error) {
	ctx, cancel := context.WithTimeout(c.ctx, taskWait)
	defer cancel()
	resp, err := c.g.cfg.Translation.GetTask(ctx, &translationv1.GetTaskRequest{ComponentId: comp.GetId()})
	if err != nil {
		switch errs.FromStatus(err).Kind {
		case errs.NotFound:
			return "", nil
		case errs.Unavailable, errs.DeadlineExceeded:
			if c.ctx.Err() == nil {
				c.g.log.Warn("component rendered without its task: the translation service does not answer", "err", err)
				return "", nil
			}
		}
		return "", err
	}
	return c.taskLink(resp.GetTask()), nil
}

// taskWait bounds the task lookup of a component's rendering.
const taskWait = time.Second

// taskLink is the URL of task while it runs or after it failed, "" for
// none or one that succeeded.
func (c *call) taskLink(task *translationv1.Task) string {
	if task.GetId() == "" || (task.GetCompleted() && task.GetError() == "") {
		return ""
	}
	return c.urls.API("tasks", task.GetId())
}

// fullComponent renders the full form with the task URL.
func (c *call) fullComponent(comp *catalogv1.Component) (*componentJSON, error) {
	task, err := c.taskURL(comp)
	if err != nil {
		return nil, err
	}
	return c.componentJSON(comp, true, task)
}

// componentList pages the components of one project ("" for all), skipping
// those of projects the caller may not see.
// The catalog lists only what the caller may see. Within a project the
// items carry no project object, as the reference answers.
func (g *gateway) componentList(c *call, project string) error {
	render := c.fullComponent
	if project != "" {
		render = func(comp *catalogv1.Component) (*componentJSON, error) {
			j, err := c.fullComponent(comp)
			if j != nil {
				j.Project = nil
			}
			return j, err
		}
	}
	return c.servicePage(func(offset, limit int64) (any, int64, error) {
		resp, err := g.cfg.Catalog.ListComponents(c.ctx, &catalogv1.ListComponentsRequest{ProjectSlug: project, Offset: offset, Limit: limit})
		return pageRows(resp.GetComponents(), resp.GetTotal(), err, render)
	})
}

func (g *gateway) listComponents(c *call) error { return g.componentList(c, "") }

func (g *gateway) getComponent(c *call) error {
	comp, err := c.pathComponent()
	if err != nil {
		return err
	}
	return c.okRendered(c.fullComponent(comp))
}

// createComponent asks the catalog for the component, which starts its
// import (and refuses a binding the translation service refuses).
func (g *gateway) createComponent(c *call) error {
	slug := c.param("project")
	// The catalog service reports missing required fields with the others.
	comp := &catalogv1.Component{ProjectSlug: slug}
	fields, err := c.bodyInto(comp)
	if err != nil {
		return c.beforeBody("project.edit", err)
	}
	resp, err := g.cfg.Catalog.CreateComponent(c.ctx, &catalogv1.CreateComponentRequest{Component: comp, Fields: fields, Actor: c.actor()})
	if err != nil {
		return err
	}
	g.paths.forget(slug)
	j, err := c.componentJSON(resp.GetComponent(), true, c.taskLink(&translationv1.Task{Id: resp.GetImportTaskId()}))
	if err != nil {
		return err
	}
	return c.created(j.URL, j)
}

// updateComponent asks the catalog for the change, which imports a
// changed binding again (and puts back one the translation service
// refuses).
func (g *gateway) updateComponent(c *call) error {
	comp := &catalogv1.Component{}
	fields, err := c.bodyInto(comp, "name", "slug", "file_format", "filemask", "repo")
	if err == nil && len(fields) == 0 {
		err = c.beforeBody("component.edit", nil) // nothing to change: the component as it is
		if err == nil {
			return g.getComponent(c)
		}
	}
	if err != nil {
		return c.beforeBody("component.edit", err)
	}
	if _, err = c.pathComponent(); err != nil {
		return err
	}
	resp, err := g.cfg.Catalog.UpdateComponent(c.ctx, &catalogv1.UpdateComponentRequest{
		ProjectSlug: c.param("project"), Slug: c.param("component"), Component: comp, UpdateMask: mask(fields), Actor: c.actor()})
	if err != nil {
		return err
	}
	updated := resp.GetComponent()
	g.paths.forget(updated.GetProjectSlug())
	return c.okRendered(c.fullComponent(updated))
}

// beforeBody answers a write the gateway does not send on (a body it
// cannot read, or nothing to change): 401, 404 or 403 when the caller
// lacks perm on the path, as the reference checks permissions before it
// reads the body, else err. Every write sent on is decided by its service.
func (c *call) beforeBody(perm string, err error) error {
	if aerr := c.authorizePath(perm); aerr != nil {
		return aerr
	}
	return err
}

// componentAlerts lists the component's standing alerts.
func (g *gateway) componentAlerts(c *call) error {
	comp, err := c.pathComponent()
	if err != nil {
		return err
	}
	p, err := c.pager(defaultPageSize, maxPageSize)
	if err != nil {
		return err
	}
	resp, err := g.cfg.Translation.ListAlerts(c.ctx, &translationv1.ListAlertsRequest{ComponentId: comp.GetId()})
	if err != nil {
		return err
	}
	out := make([]*alertJSON, 0, len(resp.GetAlerts()))
	for _, a := range resp.GetAlerts() {
		out = append(out, newAlert(a))
	}
	return pageOf(c, p, out)
}

// deleteComponent asks the catalog, whose removal reaches the translation
// service by itself.
func (g *gateway) deleteComponent(c *call) error {
	comp, err := c.pathComponent()
	if err != nil {
		return err
	}
	if _, err := g.cfg.Catalog.DeleteComponent(c.ctx, &catalogv1.DeleteComponentRequest{
		ProjectSlug: comp.GetProjectSlug(), Slug: comp.GetSlug(), Actor: c.actor()}); err != nil {
		return err
	}
	g.paths.forget(comp.GetProjectSlug())
	return c.noContent()
}

func (g *gateway) componentTranslations(c *call) error {
	comp, err := c.pathComponent()
	if err != nil {
		return err
	}
	return g.translationList(c, comp.GetId())
}

// translationList pages translations in list form (component 0: all). The
// service lists only what the caller may see, in its pages and its total.
func (g *gateway) translationList(c *call, componentID int64) error {
	render := func(t *translationv1.Translation) (*translationJSON, error) { return c.translationJSON(t, nil) }
	return c.servicePage(func(offset, limit int64) (any, int64, error) {
		resp, err := g.cfg.Translation.ListTranslations(c.ctx, &translationv1.ListTranslationsRequest{
			ComponentId: componentID, Offset: offset, Limit: limit})
		return pageRows(resp.GetTranslations(), resp.GetTotal(), err, render)
	})
}

type addedTranslationJSON struct {
	Data *translationJSON `json:"data" nullable:"false"`
}

func (g *gateway) addTranslation(c *call) error {
	if err := c.authorizePath("translation.add"); err != nil {
		return err
	}
	comp, err := c.pathComponent()
	if err != nil {
		return err
	}
	b, err := c.readBody()
	if err != nil {
		return err
	}
	b.required("language_code")
	code, _ := b.str("language_code")
	if err = b.err(); err != nil {
		return err
	}
	resp, err := g.cfg.Translation.AddTranslation(c.ctx, &translationv1.AddTranslationRequest{
		ComponentId: comp.GetId(), LanguageCode: code, Actor: c.actor()})
	if err != nil {
		return err
	}
	j, err := c.translationJSON(resp.GetTranslation(), nil)
	if err != nil {
		return err
	}
	return c.write(http.StatusCreated, addedTranslationJSON{Data: j})
}

// componentStatistics is a page of per-translation statistics (wlc reads
// the component statistics_url as a list).
func (g *gateway) componentStatistics(c *call) error {
	comp, err := c.pathComponent()
	if err != nil {
		return err
	}
	return c.servicePage(func(offset, limit int64) (any, int64, error) {
		resp, err := g.cfg.Translation.ListTranslations(c.ctx, &translationv1.ListTranslationsRequest{
			ComponentId: comp.GetId(), Offset: offset, Limit: limit})
		return pageRows(resp.GetTranslations(), resp.GetTotal(), err, c.translationStats)
	})
}

func (g *gateway) componentLock(c *call) error {
	comp, err := c.pathComponent()
	if err != nil {
		return err
	}
	return c.ok(lockJSON{Locked: comp.GetLocked()})
}

func (g *gateway) setComponentLock(c *call) error {
	if err := c.authorizePath("component.lock"); err != nil {
		return err
	}
	comp, err := c.pathComponent()
	if err != nil {
		return err
	}
	lock, err := c.lockBody()
	if err != nil {
		return err
	}
	resp, err := g.cfg.Catalog.SetComponentLock(c.ctx, &catalogv1.SetComponentLockRequest{
		ProjectSlug: comp.GetProjectSlug(), Slug: comp.GetSlug(), Locked: lock, Actor: c.actor()})
	if err != nil {
		return err
	}
	return c.ok(lockJSON{Locked: resp.GetComponent().GetLocked()})
}

// componentFile answers a zip of every translation file of the component.
func (g *gateway) componentFile(c *call) error {
	comp, err := c.pathComponent()
	if err != nil {
		return err
	}
	data, err := g.componentZip(c, comp, fileFormat(c.r.URL.Query().Get("format")))
	if err != nil {
		return err
	}
	return c.attachment(fmt.Sprintf("%s-%s.zip", comp.GetProjectSlug(), comp.GetSlug()), "application/zip", data)
}

// componentZip zips the file of every translation of comp in format.
func (g *gateway) componentZip(c *call, comp *catalogv1.Component, format string) ([]byte, error) {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	err := g.zipComponent(c, zw, comp, "", format)
	if err == nil {
		err = zw.Close()
	}
	return buf.Bytes(), err
}

// zipComponent adds the file of every translation of comp in format,
// their names below dir.
func (g *gateway) zipComponent(c *call, zw *zip.Writer, comp *catalogv1.Component, dir, format string) error {
	return eachPage(func(offset, limit int64) (int, int64, error) {
		resp, err := g.cfg.Translation.ListTranslations(c.ctx, &translationv1.ListTranslationsRequest{
			ComponentId: comp.GetId(), Offset: offset, Limit: limit})
		if err != nil {
			return 0, 0, err
		}
		for _, t := range resp.GetTranslations() {
			if err := g.zipFile(c, zw, comp, t, dir, format); err != nil {
				return 0, 0, err
			}
		}
		return len(resp.GetTranslations()), resp.GetTotal(), nil
	})
}

// zipFile adds the file of translation t below dir (none when it has no
// name).
func (g *gateway) zipFile(c *call, zw *zip.Writer, comp *catalogv1.Component, t *translationv1.Translation, dir, format string) error {
	if t.GetFilename() == "" && format != "" {
		return nil // a bilingual source has no file to convert either
	}
	f, content, err := c.download(comp.GetId(), t.GetLanguageCode(), format)
	if err != nil {
		return err
	}
	name := or(f.GetFilename(), t.GetFilename())
	if name == "" {
		return nil
	}
	// Entries carry the time of the commit holding the file (zip.Create
	// would stamp them 1980-01-01).
	hdr := &zip.FileHeader{Name: dir + name, Method: zip.Deflate}
	if ts := f.GetCommitTime(); ts != nil {
		hdr.Modified = ts.AsTime()
	}
	w, err := zw.CreateHeader(hdr)
	if err != nil {
		return err
	}
	_, err = w.Write(content)
	return err
}

// fileFormat maps ?format= of a download: api (the browsable API's
// parameter) means "as stored"; json is a conversion, as in the reference,
// whose file views skip the usual format negotiation.
func fileFormat(f string) string {
	if f == "api" {
		return ""
	}
	return f
}

// attachment sends a file download.
func (c *call) attachment(name, contentType string, data []byte) error {
	h := c.w.Header()
	h.Set("Content-Type", or(contentType, "application/octet-stream"))
	h.Set("Content-Disposition", fmt.Sprintf("attachment; filename=%q", name))
	h.Set("Content-Length", fmt.Sprint(len(data)))
	c.w.WriteHeader(http.StatusOK)
	_, _ = c.w.Write(data)
	return nil
}
