package rest

import (
	"bytes"
	"embed"
	htmltemplate "html/template"
	"net/http"
	"strings"
	texttemplate "text/template"

	"github.com/tmsproject/tms/pkg/errs"
)

// The web pages: every web_url, share_url and translate_url the API hands
// out, the Language-Team URL written into PO headers and the URLs of commit
// messages answer with a small read-only HTML page at the reference's web
// paths. Each page links to the API objects it shows; visibility is the
// API's (what the caller may not see is a 404 page).

//go:embed webpages/page.html
var pageHTML string

//go:embed webpages/badge.svg
var badgeSVG string

var _ embed.FS // the directives above embed files

var (
	pageTemplate  = htmltemplate.Must(htmltemplate.New("page").Parse(pageHTML))
	badgeTemplate = texttemplate.Must(texttemplate.New("badge").Parse(badgeSVG))
)

// webPrefixes are the first path segments of the web pages.
var webPrefixes = []string{"/projects/", "/translate/", "/engage/", "/languages/", "/widget/"}

func isWebPath(path string) bool {
	for _, p := range webPrefixes {
		if strings.HasPrefix(path, p) {
			return true
		}
	}
	return false
}

// webLink is a link of a page.
type webLink struct {
	Text, URL string
}

// webFact is one line of a page's facts table.
type webFact struct {
	Name, Value, URL string
}

// webUnit is a string shown on a translate page.
type webUnit struct {
	Context        string
	Source, Target []string
	State          string
}

// webPage is what the page template renders.
type webPage struct {
	Title      string
	Crumbs     []webLink
	Notice     string
	Facts      []webFact
	Stats      *statsJSON
	RowsTitle  string
	Rows       []webFact
	Unit       *webUnit
	Prev, Next string
	API        []webLink
}

// serveWeb answers a web path: GET and HEAD only, HTML errors.
func (g *gateway) serveWeb(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	c := &call{g: g, w: w, r: r, ctx: ctx, urls: newURLs(r, g.cfg.TrustForwarded), lookups: newLookups()}
	c.urls.paths = g.paths
	if r.Method == http.MethodHead {
		c.w = headWriter{w}
	} else if r.Method != http.MethodGet {
		w.Header().Set("Allow", "GET, HEAD")
		g.writeWebError(w, r, methodNotAllowed(r.Method))
		return
	}
	user, caller, err := g.auth.fromRequest(ctx, r)
	if err == nil {
		c.setUser(user, caller)
		// Pages and badges count against the caller's API rate limit:
		// they cost the services the same reads.
		err = g.throttle(c)
	}
	if err == nil {
		err = g.routeWeb(c, strings.Split(strings.Trim(r.URL.Path, "/"), "/"))
	}
	if err != nil {
		g.writeWebError(c.w, r, err)
	}
}

// routeWeb dispatches the segments of a web path.
func (g *gateway) routeWeb(c *call, seg []string) error {
	if seg[0] == "widget" {
		return g.widget(c, seg[1:])
	}
	if !strings.HasSuffix(c.r.URL.Path, "/") {
		return notFound()
	}
	switch {
	case seg[0] == "projects" && len(seg) == 2:
		return g.projectPage(c, seg[1])
	case seg[0] == "projects" && len(seg) == 3:
		err := g.componentPage(c, seg[1], seg[2])
		if err != nil && errs.FromStatus(err).Kind == errs.NotFound {
			return g.categoryWebPage(c, seg[1], seg[2:]) // a top-level category
		}
		return err
	case seg[0] == "projects" && len(seg) == 4 && seg[2] == "-":
		return g.languagePage(c, seg[3], seg[1]) // the reference's project-language page
	case seg[0] == "projects" && len(seg) == 4:
		err := g.translationPage(c, seg[1], seg[2], seg[3])
		if err != nil && errs.FromStatus(err).Kind == errs.NotFound {
			return g.categoryWebPage(c, seg[1], seg[2:]) // a nested category
		}
		return err
	case seg[0] == "projects" && len(seg) == 5:
		return g.categoryWebPage(c, seg[1], seg[2:])
	case seg[0] == "translate" && len(seg) == 4 && seg[2] == "-":
		return g.languagePage(c, seg[3], seg[1])
	case seg[0] == "translate" && len(seg) == 4:
		return g.translatePage(c, seg[1], seg[2], seg[3])
	case seg[0] == "engage" && len(seg) == 2:
		return g.engagePage(c, seg[1], "")
	case seg[0] == "engage" && len(seg) == 4 && seg[2] == "-":
		return g.engagePage(c, seg[1], seg[3])
	case seg[0] == "languages" && len(seg) == 2:
		return g.languagePage(c, seg[1], "")
	case seg[0] == "languages" && len(seg) == 3:
		return g.languagePage(c, seg[1], seg[2])
	}
	return notFound()
}

// render writes a page.
func (c *call) render(p *webPage) error {
	var buf bytes.Buffer
	if err := pageTemplate.Execute(&buf, p); err != nil {
		return err
	}
	c.w.Header().Set("Content-Type", "text/html; charset=utf-8")
	c.w.WriteHeader(http.StatusOK)
	_, err := c.w.Write(buf.Bytes())
	return err
}

// writeWebError renders an error as a small HTML page with its status.
func (g *gateway) writeWebError(w http.ResponseWriter, r *http.Request, err error) {
	ae := toAPIError(err)
	if ae.status >= 500 {
		g.log.Error("web page failed", "path", r.URL.Path, "err", err)
	}
	detail := http.StatusText(ae.status)
	if len(ae.entries) > 0 && ae.status < 500 {
		detail = ae.entries[0].Detail
	}
	var buf bytes.Buffer
	_ = pageTemplate.Execute(&buf, &webPage{Title: http.StatusText(ae.status), Notice: detail})
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(ae.status)
	_, _ = w.Write(buf.Bytes())
}
