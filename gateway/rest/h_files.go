package rest

import (
	"archive/zip"
	"fmt"
	"net/http"

	"github.com/tmsproject/tms/pkg/errs"
	catalogv1 "github.com/tmsproject/tms/proto/gen/go/tms/catalog/v1"
	translationv1 "github.com/tmsproject/tms/proto/gen/go/tms/translation/v1"
)

// projectFile streams a zip of the translation files of every component of
// the project the caller may see; on .../languages/<code>/file/ only that
// language's. Entries are named <component>/<path in its repository>, as
// Weblate's project downloads name them below the component's directory.
// The zip is written as it is read, so a large project never sits in
// memory; a failure half-way aborts the connection, so that the client
// sees an error rather than a truncated archive.
func (g *gateway) projectFile(c *call) error {
	p, comps, err := c.pathProjectComponents()
	if err != nil {
		return err
	}
	lang, name := c.param("language"), p.GetSlug()
	if lang != "" {
		l, err := c.language(lang)
		if err != nil {
			return err
		}
		lang = l.GetCode()
		name += "-" + lang
	}
	format := fileFormat(c.r.URL.Query().Get("format"))
	h := c.w.Header()
	h.Set("Content-Type", "application/zip")
	h.Set("Content-Disposition", fmt.Sprintf("attachment; filename=%q", name+".zip"))
	c.w.WriteHeader(http.StatusOK)
	zw := zip.NewWriter(c.w)
	for _, comp := range comps {
		if err := g.zipProjectComponent(c, zw, comp, lang, format); err != nil {
			c.g.log.WarnContext(c.ctx, "project download failed", "project", p.GetSlug(), "error", err)
			panic(http.ErrAbortHandler)
		}
	}
	if err := zw.Close(); err != nil {
		panic(http.ErrAbortHandler)
	}
	return nil
}

// zipProjectComponent adds comp's files (of language lang, or all) below
// its slug.
func (g *gateway) zipProjectComponent(c *call, zw *zip.Writer, comp *catalogv1.Component, lang, format string) error {
	dir := comp.GetSlug() + "/"
	if lang == "" {
		return g.zipComponent(c, zw, comp, dir, format)
	}
	resp, err := g.cfg.Translation.GetTranslation(c.ctx, &translationv1.GetTranslationRequest{ComponentId: comp.GetId(), LanguageCode: lang})
	if err != nil {
		if errs.FromStatus(err).Kind == errs.NotFound {
			return nil // the component has no such translation
		}
		return err
	}
	return g.zipFile(c, zw, comp, resp.GetTranslation(), dir, format)
}

// componentTemplate answers a component's monolingual base
// (monolingual_base/) or new-translation template (new_template/); 404
// when it has none.
func (g *gateway) componentTemplate(which translationv1.ComponentFile) handlerFunc {
	return func(c *call) error {
		comp, err := c.pathComponent()
		if err != nil {
			return err
		}
		head, content, err := c.downloadFile(&translationv1.DownloadFileRequest{ComponentId: comp.GetId(), File: which})
		if err != nil {
			return err
		}
		return c.attachment(baseName(head.GetFilename()), head.GetContentType(), content)
	}
}
