package rest

import (
	"net/http"

	translationv1 "github.com/tmsproject/tms/proto/gen/go/tms/translation/v1"
)

// labelJSON is the reference's LabelSerializer: id, name, description,
// color (no URL of its own there; this service answers one at
// /api/projects/<p>/labels/<id>/ all the same).
type labelJSON struct {
	ID          int64  `json:"id"`
	Name        string `json:"name"`
	Description string `json:"description"`
	Color       string `json:"color"`
}

func newLabelJSON(l *translationv1.Label) labelJSON {
	return labelJSON{ID: l.GetId(), Name: l.GetName(), Description: l.GetDescription(), Color: l.GetColor()}
}

func labelsJSON(ls []*translationv1.Label) []labelJSON {
	out := make([]labelJSON, 0, len(ls))
	for _, l := range ls {
		out = append(out, newLabelJSON(l))
	}
	return out
}

func (g *gateway) listLabels(c *call) error {
	if _, err := c.pathProject(); err != nil {
		return err
	}
	return c.servicePage(func(offset, limit int64) (any, int64, error) {
		resp, err := g.cfg.Translation.ListLabels(c.ctx, &translationv1.ListLabelsRequest{
			ProjectSlug: c.param("project"), Offset: offset, Limit: limit})
		return pageRows(resp.GetLabels(), resp.GetTotal(), err, always(newLabelJSON))
	})
}

func (g *gateway) getLabel(c *call) error {
	if _, err := c.pathProject(); err != nil {
		return err
	}
	n, err := c.pathID()
	if err != nil {
		return err
	}
	resp, err := g.cfg.Translation.GetLabel(c.ctx, &translationv1.GetLabelRequest{ProjectSlug: c.param("project"), Id: n})
	if err != nil {
		return err
	}
	return c.ok(newLabelJSON(resp.GetLabel()))
}

// createLabel: name required, color one of the palette (default gray);
// the service checks project.edit.
func (g *gateway) createLabel(c *call) error {
	p, err := c.pathProject()
	if err != nil {
		return err
	}
	l, _, err := c.labelBody(true)
	if err != nil {
		return err
	}
	resp, err := g.cfg.Translation.CreateLabel(c.ctx, &translationv1.CreateLabelRequest{Label: l})
	if err != nil {
		return err
	}
	return c.created(c.urls.project(p.GetSlug(), "labels", id(resp.GetLabel().GetId())), newLabelJSON(resp.GetLabel()))
}

func (g *gateway) updateLabel(c *call) error {
	if _, err := c.pathProject(); err != nil {
		return err
	}
	n, err := c.pathID()
	if err != nil {
		return err
	}
	l, fields, err := c.labelBody(c.r.Method == http.MethodPut)
	if err != nil {
		return err
	}
	l.Id = n
	resp, err := g.cfg.Translation.UpdateLabel(c.ctx, &translationv1.UpdateLabelRequest{Label: l, UpdateMask: mask(fields)})
	if err != nil {
		return err
	}
	return c.ok(newLabelJSON(resp.GetLabel()))
}

func (g *gateway) deleteLabel(c *call) error {
	if _, err := c.pathProject(); err != nil {
		return err
	}
	n, err := c.pathID()
	if err != nil {
		return err
	}
	if _, err := g.cfg.Translation.DeleteLabel(c.ctx, &translationv1.DeleteLabelRequest{ProjectSlug: c.param("project"), Id: n}); err != nil {
		return err
	}
	return c.noContent()
}

// labelBody reads name, description and color; required is a full
// write (POST, PUT), where name must be there.
func (c *call) labelBody(required bool) (*translationv1.Label, []string, error) {
	b, err := c.readBody()
	if err != nil {
		return nil, nil, err
	}
	if required {
		b.required("name")
	}
	l := &translationv1.Label{ProjectSlug: c.param("project")}
	var fields []string
	if s, ok := b.str("name"); ok {
		l.Name, fields = s, append(fields, "name")
	}
	if s, ok := b.str("description"); ok {
		l.Description, fields = s, append(fields, "description")
	}
	if s, ok := b.str("color"); ok {
		l.Color, fields = s, append(fields, "color")
	}
	return l, fields, b.err()
}
