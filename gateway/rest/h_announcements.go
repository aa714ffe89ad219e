package rest

import (
	"strconv"

	catalogv1 "github.com/tmsproject/tms/proto/gen/go/tms/catalog/v1"
)

// announcementJSON is the reference's announcement form: message
// (Markdown), severity (info, warning, danger or success: the colour;
// Weblate before 2026 called it category), expiry (a date or null),
// notify.
type announcementJSON struct {
	ID       int64   `json:"id"`
	Message  string  `json:"message"`
	Severity string  `json:"severity"`
	Expiry   *string `json:"expiry"`
	Notify   bool    `json:"notify"`
}

func newAnnouncementJSON(a *catalogv1.Announcement) announcementJSON {
	return announcementJSON{ID: a.GetId(), Message: a.GetMessage(), Severity: a.GetCategory(),
		Expiry: optional(a.GetExpiry()), Notify: a.GetNotify()}
}

// announcementScope is the context of the path: a project, a category, a
// component, a translation (whose language is the translation's code) or
// a language of a project.
func (c *call) announcementScope() (*catalogv1.ListAnnouncementsRequest, error) {
	req := &catalogv1.ListAnnouncementsRequest{ProjectSlug: c.param("project")}
	switch {
	case c.param("id") != "": // a category's
		cat, err := c.pathCategory()
		if err != nil {
			return nil, err
		}
		req.ProjectSlug, req.CategoryId = cat.GetCategory().GetProjectSlug(), cat.GetCategory().GetId()
	case c.param("language") != "" && c.param("component") == "":
		if _, err := c.pathProject(); err != nil {
			return nil, err
		}
		l, err := c.language(c.param("language"))
		if err != nil {
			return nil, err
		}
		req.LanguageCode = l.GetCode()
	case c.param("language") != "":
		comp, tr, err := c.pathTranslation()
		if err != nil {
			return nil, err
		}
		req.ComponentSlug, req.LanguageCode = comp.GetSlug(), tr.GetLanguageCode()
	case c.param("component") != "":
		comp, err := c.pathComponent()
		if err != nil {
			return nil, err
		}
		req.ComponentSlug = comp.GetSlug()
	default:
		if _, err := c.pathProject(); err != nil {
			return nil, err
		}
	}
	return req, nil
}

func (g *gateway) listAnnouncements(c *call) error {
	at, err := c.announcementScope()
	if err != nil {
		return err
	}
	return c.servicePage(func(offset, limit int64) (any, int64, error) {
		at.Offset, at.Limit = offset, limit
		resp, err := g.cfg.Catalog.ListAnnouncements(c.ctx, at)
		return pageRows(resp.GetAnnouncements(), resp.GetTotal(), err, always(newAnnouncementJSON))
	})
}

// createAnnouncement posts {message, severity, expiry, notify}; notify
// defaults to true, as in the reference. An older client's category
// stands for severity.
func (g *gateway) createAnnouncement(c *call) error {
	at, err := c.announcementScope()
	if err != nil {
		return err
	}
	b, err := c.readBody()
	if err != nil {
		return err
	}
	b.required("message")
	a := &catalogv1.Announcement{ProjectSlug: at.GetProjectSlug(), ComponentSlug: at.GetComponentSlug(),
		LanguageCode: at.GetLanguageCode(), CategoryId: at.GetCategoryId(), Notify: true}
	a.Message, _ = b.str("message")
	a.Category, _ = b.str("category")
	if b.has("severity") {
		a.Category, _ = b.str("severity")
	}
	if b.has("expiry") && b.fields["expiry"] != nil {
		a.Expiry, _ = b.str("expiry")
	}
	if v, ok := b.boolean("notify"); ok {
		a.Notify = v
	}
	if err = b.err(); err != nil {
		return err
	}
	resp, err := g.cfg.Catalog.CreateAnnouncement(c.ctx, &catalogv1.CreateAnnouncementRequest{Announcement: a, Actor: c.actor()})
	if err != nil {
		return err
	}
	return c.write(201, newAnnouncementJSON(resp.GetAnnouncement()))
}

func (g *gateway) deleteAnnouncement(c *call) error {
	at, err := c.announcementScope()
	if err != nil {
		return err
	}
	n, err := strconv.ParseInt(c.param("announcement"), 10, 64)
	if err != nil {
		return notFound()
	}
	if _, err := g.cfg.Catalog.DeleteAnnouncement(c.ctx, &catalogv1.DeleteAnnouncementRequest{ProjectSlug: at.GetProjectSlug(),
		ComponentSlug: at.GetComponentSlug(), LanguageCode: at.GetLanguageCode(), CategoryId: at.GetCategoryId(), Id: n}); err != nil {
		return err
	}
	return c.noContent()
}
