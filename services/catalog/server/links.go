package server

import (
	"context"

	"github.com/tmsproject/tms/pkg/errs"
	"github.com/tmsproject/tms/pkg/policy"
	catalogv1 "github.com/tmsproject/tms/proto/gen/go/tms/catalog/v1"
	"github.com/tmsproject/tms/services/catalog/store"
)

// ListComponentLinks pages the projects a component is shared with (those
// the caller may see).
func (s *Server) ListComponentLinks(ctx context.Context, req *catalogv1.ListComponentLinksRequest) (*catalogv1.ListComponentLinksResponse, error) {
	p, tp, err := listPage(req)
	if err != nil {
		return nil, err
	}
	c, err := s.seenComponent(ctx, req.GetProjectSlug(), req.GetSlug())
	if err != nil {
		return nil, err
	}
	ps, total, err := s.st.ComponentLinks(ctx, c.ID, p, viewer(ctx))
	if err != nil {
		return nil, storeErr(err, nil)
	}
	out := &catalogv1.ListComponentLinksResponse{Total: total, NextPageToken: tp.Next(total)}
	for i := range ps {
		out.Projects = append(out.Projects, projectProto(&ps[i]))
	}
	return out, nil
}

// AddComponentLink shares a component with another project the caller
// may see (component.edit), as the reference's add_link.
func (s *Server) AddComponentLink(ctx context.Context, req *catalogv1.AddComponentLinkRequest) (*catalogv1.AddComponentLinkResponse, error) {
	c, err := s.editableComponent(ctx, req.GetProjectSlug(), req.GetSlug(), "Can not edit component")
	if err != nil {
		return nil, err
	}
	target := req.GetLinkProjectSlug()
	if target == "" {
		return nil, errs.Invalid("project_slug", "required", "Missing 'project_slug' parameter")
	}
	p, err := s.st.GetProject(ctx, target)
	if err != nil || p.ID == c.ProjectID || !viewer(ctx).Sees(p.Slug, p.AccessControl) {
		return nil, errs.Invalid("project_slug", "invalid", "No project slug '"+target+"' found!")
	}
	if err := s.st.LinkComponent(ctx, c.ID, p.ID); err != nil {
		return nil, storeErr(err, nil)
	}
	s.notify()
	return &catalogv1.AddComponentLinkResponse{Component: shown(ctx, componentProto(c))}, nil
}

// RemoveComponentLink stops sharing a component with a project.
func (s *Server) RemoveComponentLink(ctx context.Context, req *catalogv1.RemoveComponentLinkRequest) (*catalogv1.RemoveComponentLinkResponse, error) {
	c, err := s.editableComponent(ctx, req.GetProjectSlug(), req.GetSlug(), "Can not edit component")
	if err != nil {
		return nil, err
	}
	p, err := s.st.GetProject(ctx, req.GetLinkProjectSlug())
	if err != nil || !viewer(ctx).Sees(p.Slug, p.AccessControl) {
		return nil, errs.NotFoundf("Project not found")
	}
	if err := s.st.UnlinkComponent(ctx, c.ID, p.ID); err != nil {
		if errs.Is(storeErr(err, nil), errs.NotFound) {
			return nil, errs.NotFoundf("Project not found")
		}
		return nil, storeErr(err, nil)
	}
	s.notify()
	return &catalogv1.RemoveComponentLinkResponse{}, nil
}

// seenComponent reads a component of a project the caller may see.
func (s *Server) seenComponent(ctx context.Context, project, slug string) (*store.Component, error) {
	c, err := s.st.GetComponent(ctx, project, slug)
	if err != nil {
		return nil, storeErr(err, nil)
	}
	if !viewer(ctx).Sees(c.ProjectSlug, c.ProjectAccess) {
		return nil, notFound()
	}
	return c, nil
}

// editableComponent is seenComponent for a caller holding component.edit;
// others are denied with reason (empty: the default).
func (s *Server) editableComponent(ctx context.Context, project, slug, reason string) (*store.Component, error) {
	return s.permittedComponent(ctx, project, slug, "component.edit", reason)
}

// permittedComponent is seenComponent for a caller holding perm on it;
// others are denied with reason (empty: the default).
func (s *Server) permittedComponent(ctx context.Context, project, slug, perm, reason string) (*store.Component, error) {
	c, err := s.seenComponent(ctx, project, slug)
	if err != nil {
		return nil, err
	}
	caller, restricted := policy.Restricted(ctx)
	if restricted && !caller.Can(perm, policy.Scope{Project: c.ProjectSlug, Access: c.ProjectAccess, Component: c.Slug}) {
		return nil, errs.New(errs.PermissionDenied, "%s", or(reason, errNoPermission))
	}
	return c, nil
}
