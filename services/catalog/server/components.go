package server

import (
	"context"
	"strings"

	"github.com/tmsproject/tms/pkg/changedetails"
	"github.com/tmsproject/tms/pkg/errs"
	"github.com/tmsproject/tms/pkg/resname"
	catalogv1 "github.com/tmsproject/tms/proto/gen/go/tms/catalog/v1"
	changelogv1 "github.com/tmsproject/tms/proto/gen/go/tms/changelog/v1"
	"github.com/tmsproject/tms/services/catalog/store"
)

// componentReadOnly are the Component fields a request cannot set: ids,
// derived values (license_url, linked_component from repo) and the lock,
// which only SetComponentLock moves.
var componentReadOnly = effectiveReadOnly(fieldSet{
	"id": true, "project_id": true, "project_slug": true, "license_url": true,
	"linked_component": true, "locked": true, "created": true, "category_path": true,
	"resource_name": true,
})

// componentDuplicate is Weblate's message for a taken name or slug.
func componentDuplicate(field string) string {
	if field == "name" {
		return "Component with this name already exists in the project."
	}
	return "Component with this URL slug already exists in the project."
}

// componentRemoved is the "Component removed" record: as in Weblate it
// names the project and, in target, the component that is gone.
func componentRemoved(c store.Component, actor string) *changelogv1.Change {
	ch := change(actionRemoveComponent, actor, c.ProjectSlug, "")
	ch.Target = c.Slug
	return ch
}

// CreateComponent stores a component (project.edit), taking Weblate's
// defaults for every field the request does not set, records "Component
// created" and starts the import of its binding; a binding the
// translation service refuses removes the component again (startImport).
func (s *Server) CreateComponent(ctx context.Context, req *catalogv1.CreateComponentRequest) (*catalogv1.CreateComponentResponse, error) {
	src := req.GetComponent()
	if src == nil {
		src = &catalogv1.Component{}
	}
	project, err := s.editableProject(ctx, src.GetProjectSlug())
	if err != nil {
		return nil, err
	}
	m := defaultComponent()
	set, err := applyFields(m, src, req.GetFields(), componentReadOnly, len(req.GetFields()) == 0)
	if err != nil {
		return nil, err
	}
	createInheritance(m, set, true)
	if m.IsGlossary {
		// Weblate: glossaries manage their strings and get languages
		// added automatically, never on request.
		m.ManageUnits, m.NewLang, m.InheritNewLang = true, "none", false
	}
	linked, err := s.validateComponent(ctx, m, set, nil)
	if err != nil {
		return nil, err
	}
	if err = s.checkComponentCategory(ctx, project.ID, m, set); err != nil {
		return nil, err
	}
	c := store.Component{ProjectID: project.ID}
	componentRow(m, &c)
	c.LicenseURL = licenseURL(c.License)
	c.LinkedComponentID = linked
	if err = s.st.CreateComponent(ctx, &c, change(actionCreateComponent, req.GetActor(), project.Slug, c.Slug)); err != nil {
		return nil, storeErr(err, componentDuplicate)
	}
	s.notify()
	task, err := s.startImport(ctx, &c, req.GetActor(), func() error {
		return s.st.DeleteComponent(ctx, project.Slug, c.Slug, func(c store.Component) *changelogv1.Change {
			return componentRemoved(c, req.GetActor())
		})
	})
	if err != nil {
		return nil, err
	}
	return &catalogv1.CreateComponentResponse{Component: shown(ctx, componentProto(&c)), ImportTaskId: task}, nil
}

// GetComponent returns a component by id, by project and component slug,
// or by resource name.
func (s *Server) GetComponent(ctx context.Context, req *catalogv1.GetComponentRequest) (*catalogv1.GetComponentResponse, error) {
	c, err := s.requestedComponent(ctx, req)
	if err != nil {
		return nil, err
	}
	if !viewer(ctx).Sees(c.ProjectSlug, c.ProjectAccess) {
		return nil, notFound()
	}
	return &catalogv1.GetComponentResponse{Component: shown(ctx, componentProto(c))}, nil
}

// requestedComponent reads the component a GetComponent request names. A
// name is checked against the slugs, or the id, sent beside it; a name
// that disagrees with a visible component's id is a client error, one of
// an invisible component is NotFound as any read of it is.
func (s *Server) requestedComponent(ctx context.Context, req *catalogv1.GetComponentRequest) (*store.Component, error) {
	project, slug := req.GetProjectSlug(), req.GetSlug()
	if req.GetName() != "" {
		p, c, err := resname.ParseComponent(req.GetName())
		if err != nil {
			return nil, err
		}
		if project, err = resname.Agree("project_slug", project, p); err != nil {
			return nil, err
		}
		if slug, err = resname.Agree("slug", slug, c); err != nil {
			return nil, err
		}
	}
	var c *store.Component
	var err error
	if req.GetId() != 0 {
		c, err = s.st.GetComponentByID(ctx, req.GetId())
	} else {
		c, err = s.st.GetComponent(ctx, project, slug)
	}
	if err != nil {
		return nil, storeErr(err, nil)
	}
	if req.GetName() != "" && req.GetId() != 0 && (c.ProjectSlug != project || c.Slug != slug) {
		if !viewer(ctx).Sees(c.ProjectSlug, c.ProjectAccess) {
			return nil, notFound()
		}
		return nil, errs.Invalid(resname.Field, "mismatch", "name and id name different resources.")
	}
	return c, nil
}

// ListComponents pages through the components of one project or of all.
func (s *Server) ListComponents(ctx context.Context, req *catalogv1.ListComponentsRequest) (*catalogv1.ListComponentsResponse, error) {
	pg, tp, err := listPage(req)
	if err != nil {
		return nil, err
	}
	cs, total, err := s.st.ListComponents(ctx, req.GetProjectSlug(), pg, viewer(ctx))
	if err != nil {
		return nil, storeErr(err, nil)
	}
	resp := &catalogv1.ListComponentsResponse{Total: total, NextPageToken: tp.Next(total)}
	for i := range cs {
		resp.Components = append(resp.Components, shown(ctx, componentProto(&cs[i])))
	}
	return resp, nil
}

// UpdateComponent replaces the named fields (all when none are named;
// component.edit). A new binding is imported again, and put back as it
// was when the translation service refuses it (startImport).
func (s *Server) UpdateComponent(ctx context.Context, req *catalogv1.UpdateComponentRequest) (*catalogv1.UpdateComponentResponse, error) {
	c, err := s.editableComponent(ctx, req.GetProjectSlug(), req.GetSlug(), "")
	if err != nil {
		return nil, err
	}
	before := *c
	src := req.GetComponent()
	if src == nil {
		src = &catalogv1.Component{}
	}
	m := componentProto(c)
	keepSecrets(ctx, m, src)
	set, err := applyFields(m, src, req.GetUpdateMask().GetPaths(), componentReadOnly, false)
	if err != nil {
		return nil, err
	}
	linked, err := s.validateComponent(ctx, m, set, c)
	if err != nil {
		return nil, err
	}
	if err = s.checkComponentCategory(ctx, c.ProjectID, m, set); err != nil {
		return nil, err
	}
	updateInheritance(m, c.Settings)
	renamed := renameRecord(actionRenameComponent, req.GetActor(), c.Slug, m.GetSlug(), c.ProjectSlug, m.GetSlug())
	componentRow(m, c)
	c.LicenseURL = licenseURL(c.License)
	c.LinkedComponentID = linked
	if err = s.st.SaveComponent(ctx, c, renamed); err != nil {
		return nil, storeErr(err, componentDuplicate)
	}
	if renamed != nil {
		s.lifecycle()
	}
	out := &catalogv1.UpdateComponentResponse{}
	if rebinds(&before, c) {
		out.ImportTaskId, err = s.startImport(ctx, c, req.GetActor(), func() error {
			return s.st.SaveComponent(ctx, &before, renameRecord(actionRenameComponent, req.GetActor(), c.Slug, before.Slug, before.ProjectSlug, before.Slug))
		})
		if err != nil {
			return nil, err
		}
	}
	out.Component = shown(ctx, componentProto(c))
	return out, nil
}

// DeleteComponent removes a component (component.edit), and the
// components sharing its repository, recording "Component removed" for
// each; the translation service learns of their removal from
// store.Removals, and other services' reads leave them out meanwhile
// (ListRemovedComponents).
func (s *Server) DeleteComponent(ctx context.Context, req *catalogv1.DeleteComponentRequest) (*catalogv1.DeleteComponentResponse, error) {
	if _, err := s.editableComponent(ctx, req.GetProjectSlug(), req.GetSlug(), ""); err != nil {
		return nil, err
	}
	err := s.st.DeleteComponent(ctx, req.GetProjectSlug(), req.GetSlug(), func(c store.Component) *changelogv1.Change {
		return componentRemoved(c, req.GetActor())
	})
	if err != nil {
		return nil, storeErr(err, nil)
	}
	s.notify()
	s.removed()
	s.lifecycle()
	return &catalogv1.DeleteComponentResponse{}, nil
}

// SetComponentLock locks or unlocks a component, recording "Component
// locked" (14) or "Component unlocked" (15) with details {"auto": bool}.
// Asking for the state the component is already in records nothing. A
// caller acting for a user needs component.lock on the component.
func (s *Server) SetComponentLock(ctx context.Context, req *catalogv1.SetComponentLockRequest) (*catalogv1.SetComponentLockResponse, error) {
	if _, err := s.permittedComponent(ctx, req.GetProjectSlug(), req.GetSlug(), "component.lock", ""); err != nil {
		return nil, err
	}
	action := actionUnlock
	if req.GetLocked() {
		action = actionLock
	}
	c, changed, err := s.st.SetComponentLock(ctx, req.GetProjectSlug(), req.GetSlug(), req.GetLocked(),
		func(c store.Component) *changelogv1.Change {
			ch := change(action, req.GetActor(), c.ProjectSlug, c.Slug)
			ch.Details = changedetails.FromMap(map[string]bool{"auto": req.GetAuto()})
			return ch
		})
	if err != nil {
		return nil, storeErr(err, nil)
	}
	if changed {
		s.notify()
	}
	return &catalogv1.SetComponentLockResponse{Component: shown(ctx, componentProto(c))}, nil
}

// parseLink splits "weblate://project/component".
func parseLink(repo string) (project, component string, ok bool) {
	rest, found := strings.CutPrefix(repo, "weblate://")
	if !found {
		return "", "", false
	}
	project, component, ok = strings.Cut(rest, "/")
	return project, component, ok && project != "" && component != "" && !strings.Contains(component, "/")
}
