package rest

import (
	"net/http"

	translationv1 "github.com/tmsproject/tms/proto/gen/go/tms/translation/v1"
)

// Quality checks over the API: an extension. Weblate shows a string's
// checks, and dismisses them, in its web pages only; its API has the
// counts (has_failing_check, failing_checks, statistics "failing").
//
//   GET  /api/units/<id>/checks/                         the string's checks
//   GET  /api/units/<id>/checks/<check>/                 one of them
//   POST /api/units/<id>/checks/<check>/dismiss/         dismiss one
//   POST /api/units/<id>/checks/<check>/restore/         restore one
//   GET  /api/{translations,components,projects}/…/checks/   counts per check
//   POST /api/{translations,components,projects}/…/checks/   bulk, as a task

// checkJSON is a check of a string.
type checkJSON struct {
	Check     string `json:"check"`
	Name      string `json:"name"`
	Message   string `json:"message"`
	Dismissed bool   `json:"dismissed"`
	URL       string `json:"url"`
}

func (c *call) checkJSON(unitID string, x *translationv1.Check) checkJSON {
	return checkJSON{Check: x.GetId(), Name: x.GetName(), Message: x.GetMessage(), Dismissed: x.GetDismissed(),
		URL: c.urls.API("units", unitID, "checks", x.GetId())}
}

func (g *gateway) unitChecks(c *call) error {
	id, err := c.pathID()
	if err != nil {
		return err
	}
	p, err := c.pager(defaultPageSize, maxPageSize)
	if err != nil {
		return err
	}
	resp, err := g.cfg.Translation.ListUnitChecks(c.ctx, &translationv1.ListUnitChecksRequest{UnitId: id})
	if err != nil {
		return err
	}
	out := make([]checkJSON, len(resp.GetChecks()))
	for i, x := range resp.GetChecks() {
		out[i] = c.checkJSON(c.param("id"), x)
	}
	return pageOf(c, p, out)
}

// unitCheck is one check of a string: 404 when the string does not fail
// it.
func (g *gateway) unitCheck(c *call) error {
	id, err := c.pathID()
	if err != nil {
		return err
	}
	resp, err := g.cfg.Translation.ListUnitChecks(c.ctx, &translationv1.ListUnitChecksRequest{UnitId: id})
	if err != nil {
		return err
	}
	for _, x := range resp.GetChecks() {
		if x.GetId() == c.param("check") {
			return c.ok(c.checkJSON(c.param("id"), x))
		}
	}
	return notFound()
}

// dismissCheck is POST …/dismiss/ (restore false) or …/restore/.
func (g *gateway) dismissCheck(restore bool) handlerFunc {
	return func(c *call) error {
		id, err := c.pathID()
		if err != nil {
			return err
		}
		resp, err := g.cfg.Translation.DismissCheck(c.ctx, &translationv1.DismissCheckRequest{UnitId: id,
			Check: c.param("check"), Restore: restore, Actor: c.actor()})
		if err != nil {
			return err
		}
		return c.ok(c.checkJSON(c.param("id"), resp.GetCheck()))
	}
}

// checkCountJSON counts the strings of a scope failing one check.
type checkCountJSON struct {
	Check     string `json:"check"`
	Name      string `json:"name"`
	Failing   int64  `json:"failing"`
	Dismissed int64  `json:"dismissed"`
}

// checksSummaryJSON is the answer of GET …/checks/.
type checksSummaryJSON struct {
	// Failing sums the failing checks of every check id: zero is the
	// gate a release passes.
	Failing int64            `json:"failing"`
	Checks  []checkCountJSON `json:"checks"`
}

// pathCheckScope is the scope of a …/checks/ path: a translation, a
// component or a project.
func (c *call) pathCheckScope() (*translationv1.CheckScope, error) {
	switch {
	case c.param("language") != "":
		comp, t, err := c.pathTranslation()
		if err != nil {
			return nil, err
		}
		return &translationv1.CheckScope{ComponentIds: []int64{comp.GetId()}, LanguageCode: t.GetLanguageCode()}, nil
	case c.param("component") != "":
		comp, err := c.pathComponent()
		if err != nil {
			return nil, err
		}
		return &translationv1.CheckScope{ComponentIds: []int64{comp.GetId()}}, nil
	}
	_, comps, err := c.pathProjectComponents()
	if err != nil {
		return nil, err
	}
	return &translationv1.CheckScope{ComponentIds: componentIDs(comps)}, nil
}

func (g *gateway) checksSummary(c *call) error {
	sc, err := c.pathCheckScope()
	if err != nil {
		return err
	}
	out := checksSummaryJSON{Checks: []checkCountJSON{}}
	if len(sc.GetComponentIds()) == 0 { // a project without components
		return c.ok(out)
	}
	resp, err := g.cfg.Translation.SummarizeChecks(c.ctx, &translationv1.SummarizeChecksRequest{Scope: sc})
	if err != nil {
		return err
	}
	for _, x := range resp.GetChecks() {
		out.Failing += x.GetFailing()
		out.Checks = append(out.Checks, checkCountJSON{Check: x.GetId(), Name: x.GetName(), Failing: x.GetFailing(), Dismissed: x.GetDismissed()})
	}
	return c.ok(out)
}

// bulkChecksJSON is the answer of POST …/checks/: the task doing it.
type bulkChecksJSON struct {
	TaskURL string `json:"task_url"`
}

// bulkChecks is POST …/checks/ {"check": id, "q": query, "dismiss": bool
// (default true)}: dismiss (or restore) check on every string of the
// scope the query finds, in the background.
func (g *gateway) bulkChecks(c *call) error {
	sc, err := c.pathCheckScope()
	if err != nil {
		return err
	}
	b, err := c.readBody()
	if err != nil {
		return err
	}
	b.required("check")
	check, _ := b.str("check")
	q, _ := b.str("q")
	dismiss, set := b.boolean("dismiss")
	if err = b.err(); err != nil {
		return err
	}
	resp, err := g.cfg.Translation.DismissChecks(c.ctx, &translationv1.DismissChecksRequest{Scope: sc, Check: check, Q: q,
		Restore: set && !dismiss, Actor: c.actor()})
	if err != nil {
		return err
	}
	return c.write(http.StatusAccepted, bulkChecksJSON{TaskURL: c.urls.API("tasks", resp.GetTask().GetId())})
}
