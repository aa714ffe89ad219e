package server

import (
	"context"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/tmsproject/tms/pkg/errs"
	catalogv1 "github.com/tmsproject/tms/proto/gen/go/tms/catalog/v1"
	translationv1 "github.com/tmsproject/tms/proto/gen/go/tms/translation/v1"
	"github.com/tmsproject/tms/services/translation/store"
)

// labelColors is the reference's palette (weblate.trans.models.label).
var labelColors = []string{"navy", "blue", "aqua", "teal", "olive", "green", "lime", "yellow",
	"orange", "red", "maroon", "fuchsia", "purple", "black", "gray", "silver"}

// ListLabels pages the labels of a project the caller may see.
func (s *Server) ListLabels(ctx context.Context, req *translationv1.ListLabelsRequest) (*translationv1.ListLabelsResponse, error) {
	pid, err := s.labelProject(ctx, req.GetProjectSlug())
	if err != nil {
		return nil, err
	}
	pg, err := listPage(req)
	if err != nil {
		return nil, err
	}
	ls, total, err := s.cfg.Store.ListLabels(ctx, pid, pg.Offset, pg.Limit)
	if err != nil {
		return nil, err
	}
	out := &translationv1.ListLabelsResponse{Total: total, NextPageToken: pg.Next(total)}
	for _, l := range ls {
		out.Labels = append(out.Labels, labelProto(l))
	}
	return out, nil
}

// GetLabel loads one label of a project the caller may see.
func (s *Server) GetLabel(ctx context.Context, req *translationv1.GetLabelRequest) (*translationv1.GetLabelResponse, error) {
	pid, err := s.labelProject(ctx, req.GetProjectSlug())
	if err != nil {
		return nil, err
	}
	l, err := s.cfg.Store.GetLabel(ctx, pid, req.GetId())
	if err != nil {
		return nil, err
	}
	return &translationv1.GetLabelResponse{Label: labelProto(l)}, nil
}

// CreateLabel adds a label to a project (project.edit).
func (s *Server) CreateLabel(ctx context.Context, req *translationv1.CreateLabelRequest) (*translationv1.CreateLabelResponse, error) {
	in := req.GetLabel()
	pid, err := s.mayEditLabels(ctx, in.GetProjectSlug())
	if err != nil {
		return nil, err
	}
	l := store.Label{ProjectID: pid, ProjectSlug: in.GetProjectSlug(), Name: strings.TrimSpace(in.GetName()),
		Description: in.GetDescription(), Color: in.GetColor()}
	if l.Color == "" {
		l.Color = "gray"
	}
	if err = validateLabel(l, []string{"name", "description", "color"}); err != nil {
		return nil, err
	}
	l, err = s.cfg.Store.CreateLabel(ctx, l)
	if err != nil {
		return nil, err
	}
	return &translationv1.CreateLabelResponse{Label: labelProto(l)}, nil
}

// UpdateLabel changes a label's name, description or color (project.edit).
func (s *Server) UpdateLabel(ctx context.Context, req *translationv1.UpdateLabelRequest) (*translationv1.UpdateLabelResponse, error) {
	in := req.GetLabel()
	pid, err := s.mayEditLabels(ctx, in.GetProjectSlug())
	if err != nil {
		return nil, err
	}
	l := store.Label{ID: in.GetId(), ProjectID: pid, ProjectSlug: in.GetProjectSlug(), Name: strings.TrimSpace(in.GetName()),
		Description: in.GetDescription(), Color: in.GetColor()}
	paths := req.GetUpdateMask().GetPaths()
	for _, f := range paths {
		if !slices.Contains([]string{"name", "description", "color"}, f) {
			return nil, errs.Invalid(f, "invalid", "This field cannot be changed.")
		}
	}
	if err = validateLabel(l, paths); err != nil {
		return nil, err
	}
	l, err = s.cfg.Store.UpdateLabel(ctx, l, paths)
	if err != nil {
		return nil, err
	}
	return &translationv1.UpdateLabelResponse{Label: labelProto(l)}, nil
}

// DeleteLabel removes a label from a project and its strings (project.edit).
func (s *Server) DeleteLabel(ctx context.Context, req *translationv1.DeleteLabelRequest) (*translationv1.DeleteLabelResponse, error) {
	pid, err := s.mayEditLabels(ctx, req.GetProjectSlug())
	if err != nil {
		return nil, err
	}
	if err := s.cfg.Store.DeleteLabel(ctx, pid, req.GetId()); err != nil {
		return nil, err
	}
	return &translationv1.DeleteLabelResponse{}, nil
}

// labelProject is the catalog id of a project the caller may see.
func (s *Server) labelProject(ctx context.Context, projectSlug string) (int64, error) {
	if err := s.mustSee(ctx, projectSlug); err != nil {
		return 0, err
	}
	p, err := s.project(ctx, &catalogv1.Component{ProjectSlug: projectSlug})
	if err != nil {
		return 0, err
	}
	return p.GetId(), nil
}

// mayEditLabels: labels are the project's settings, managed with
// project.edit; an invisible project is not found. It returns the
// project's id.
func (s *Server) mayEditLabels(ctx context.Context, projectSlug string) (int64, error) {
	pid, err := s.labelProject(ctx, projectSlug)
	if err != nil {
		return 0, err
	}
	ok, err := s.may(ctx, "project.edit", &catalogv1.Component{ProjectSlug: projectSlug}, "", true)
	return pid, orDeniedIf(ok, err, "You do not have permission to manage labels of this project.")
}

func validateLabel(l store.Label, fields []string) error {
	var v errs.Violations
	if slices.Contains(fields, "name") {
		switch {
		case l.Name == "":
			v.Add("name", "blank", "This field may not be blank.")
		case utf8.RuneCountInString(l.Name) > 190:
			v.Add("name", "max_length", "Ensure this field has no more than 190 characters.")
		}
	}
	if slices.Contains(fields, "color") && !slices.Contains(labelColors, l.Color) {
		v.Add("color", "invalid_choice", "\""+l.Color+"\" is not a valid choice.")
	}
	if slices.Contains(fields, "description") && utf8.RuneCountInString(l.Description) > 2000 {
		v.Add("description", "max_length", "Ensure this field has no more than 2000 characters.")
	}
	return v.Err()
}

// checkLabels: setting a string's labels needs source.edit (labels
// describe the source string) and labels of the unit's project.
func (s *Server) checkLabels(ctx context.Context, comp *catalogv1.Component, u store.UnitView, ids []int64) error {
	ok, err := s.may(ctx, "source.edit", comp, u.Translation.LanguageCode, true)
	if err = orDeniedIf(ok, err, "You do not have permission to change labels of this string."); err != nil {
		return err
	}
	pid, err := s.labelProject(ctx, u.Translation.ProjectSlug)
	if err != nil {
		return err
	}
	return s.cfg.Store.CheckLabels(ctx, pid, ids)
}

func (s *Server) setLabels(ctx context.Context, u store.UnitView, req *translationv1.UpdateUnitRequest) (*translationv1.UpdateUnitResponse, error) {
	pid, err := s.labelProject(ctx, u.Translation.ProjectSlug)
	if err != nil {
		return nil, err
	}
	if err := s.cfg.Store.SetUnitLabels(ctx, u, pid, req.GetLabelIds()); err != nil {
		return nil, err
	}
	return &translationv1.UpdateUnitResponse{Unit: s.withLabels(ctx, unitProto(u))}, nil
}

// withLabels fills in the labels of units' strings. A failure to load
// them leaves the units without: labels are not worth failing a read.
func (s *Server) withLabels(ctx context.Context, units ...*translationv1.Unit) *translationv1.Unit {
	views := make([]store.UnitView, len(units))
	for i, u := range units {
		views[i].ID = u.GetId()
		if id := u.GetSourceUnitId(); id != 0 {
			views[i].SourceUnitID = &id
		}
	}
	labels, err := s.cfg.Store.LabelsOf(ctx, views)
	if err != nil {
		s.cfg.Log.Warn("load labels", "err", err)
	}
	for _, u := range units {
		for _, l := range labels[u.GetId()] {
			u.Labels = append(u.Labels, labelProto(l))
		}
	}
	if len(units) == 0 {
		return nil
	}
	return units[0]
}

func labelProto(l store.Label) *translationv1.Label {
	return &translationv1.Label{Id: l.ID, ProjectId: l.ProjectID, ProjectSlug: l.ProjectSlug, Name: l.Name,
		Description: l.Description, Color: l.Color}
}
