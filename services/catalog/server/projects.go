package server

import (
	"context"
	"errors"
	"slices"

	"github.com/tmsproject/tms/pkg/errs"
	"github.com/tmsproject/tms/pkg/policy"
	"github.com/tmsproject/tms/pkg/resname"
	"github.com/tmsproject/tms/pkg/weblate"
	catalogv1 "github.com/tmsproject/tms/proto/gen/go/tms/catalog/v1"
	changelogv1 "github.com/tmsproject/tms/proto/gen/go/tms/changelog/v1"
	typev1 "github.com/tmsproject/tms/proto/gen/go/tms/type/v1"
	"github.com/tmsproject/tms/services/catalog/store"
)

// projectReadOnly are the Project fields a request cannot set.
var projectReadOnly = effectiveReadOnly(fieldSet{"id": true, "locked": true, "created": true, "resource_name": true})

// projectDuplicate is Django's unique message for the Project model.
func projectDuplicate(field string) string {
	if field == "name" {
		return "Project with this Project name already exists."
	}
	return "Project with this URL slug already exists."
}

// CreateProject validates and stores a project and records "Project
// created". Adding projects is a site-wide permission: a caller acting
// for a user must be a superuser, as in the REST API.
func (s *Server) CreateProject(ctx context.Context, req *catalogv1.CreateProjectRequest) (*catalogv1.CreateProjectResponse, error) {
	if c, ok := policy.FromContext(ctx); ok && !c.CanGlobal("project.add") {
		return nil, errs.New(errs.PermissionDenied, errNoPermission)
	}
	m := defaultProject()
	set, err := applyFields(m, req.GetProject(), req.GetFields(), projectReadOnly, true)
	if err != nil {
		return nil, err
	}
	if err = s.validateProject(ctx, m, set, true); err != nil {
		return nil, err
	}
	createInheritance(m, set, false)
	var p store.Project
	projectRow(m, &p)
	err = s.st.CreateProject(ctx, &p, creator(ctx, req.GetActor()), change(actionCreateProject, req.GetActor(), p.Slug, ""))
	if err != nil {
		return nil, storeErr(err, projectDuplicate)
	}
	s.notify()
	s.lifecycle()
	return &catalogv1.CreateProjectResponse{Project: projectProto(&p)}, nil
}

// GetProject returns a project by slug or resource name.
func (s *Server) GetProject(ctx context.Context, req *catalogv1.GetProjectRequest) (*catalogv1.GetProjectResponse, error) {
	slug := req.GetSlug()
	if req.GetName() != "" {
		fromName, err := resname.ParseProject(req.GetName())
		if err != nil {
			return nil, err
		}
		if slug, err = resname.Agree("slug", slug, fromName); err != nil {
			return nil, err
		}
	}
	p, err := s.st.GetProject(ctx, slug)
	if err != nil {
		return nil, storeErr(err, nil)
	}
	if !viewer(ctx).Sees(p.Slug, p.AccessControl) {
		return nil, notFound()
	}
	return &catalogv1.GetProjectResponse{Project: projectProto(p)}, nil
}

// ListProjects pages through the projects by id.
func (s *Server) ListProjects(ctx context.Context, req *catalogv1.ListProjectsRequest) (*catalogv1.ListProjectsResponse, error) {
	pg, tp, err := listPage(req)
	if err != nil {
		return nil, err
	}
	ps, total, err := s.st.ListProjects(ctx, pg, viewer(ctx))
	if err != nil {
		return nil, storeErr(err, nil)
	}
	resp := &catalogv1.ListProjectsResponse{Total: total, NextPageToken: tp.Next(total)}
	for i := range ps {
		resp.Projects = append(resp.Projects, projectProto(&ps[i]))
	}
	return resp, nil
}

// UpdateProject replaces the named fields (all when none are named). A
// caller acting for a user needs project.edit, and project.permissions to
// name or change access_control, checked as the REST API does: the first
// before the request is read, the second after.
func (s *Server) UpdateProject(ctx context.Context, req *catalogv1.UpdateProjectRequest) (*catalogv1.UpdateProjectResponse, error) {
	p, err := s.editableProject(ctx, req.GetSlug())
	if err != nil {
		return nil, err
	}
	m := projectProto(p)
	src := req.GetProject()
	if src == nil {
		src = &catalogv1.Project{}
	}
	set, err := applyFields(m, src, req.GetUpdateMask().GetPaths(), projectReadOnly, false)
	if err != nil {
		return nil, err
	}
	projectEnumDefaults(m)
	if slices.Contains(req.GetUpdateMask().GetPaths(), "access_control") || m.GetAccessControl() != weblate.AccessControls.EnumOf(p.AccessControl) {
		if err := mayOnProject(ctx, p, "project.permissions"); err != nil {
			return nil, err
		}
	}
	if err := s.validateProject(ctx, m, set, false); err != nil {
		return nil, err
	}
	updateInheritance(m, p.Settings)
	renamed := renameRecord(actionRenameProject, req.GetActor(), p.Slug, m.GetSlug(), m.GetSlug(), "")
	projectRow(m, p)
	if err := s.st.SaveProject(ctx, p, renamed); err != nil {
		return nil, storeErr(err, projectDuplicate)
	}
	if renamed != nil {
		s.lifecycle()
	}
	return &catalogv1.UpdateProjectResponse{Project: projectProto(p)}, nil
}

// DeleteProject removes a project with its components (project.edit) and
// records "Project removed" (and "Component removed" for components of
// other projects that shared a removed repository); the translation
// service learns of the removal from store.Removals.
func (s *Server) DeleteProject(ctx context.Context, req *catalogv1.DeleteProjectRequest) (*catalogv1.DeleteProjectResponse, error) {
	if _, err := s.editableProject(ctx, req.GetSlug()); err != nil {
		return nil, err
	}
	// As Weblate, the removal record names the project in target only: the
	// project it would point at is gone.
	rec := change(actionRemoveProject, req.GetActor(), "", "")
	rec.Target = req.GetSlug()
	err := s.st.DeleteProject(ctx, req.GetSlug(), rec, func(c store.Component) *changelogv1.Change {
		return componentRemoved(c, req.GetActor())
	})
	if err != nil {
		return nil, storeErr(err, nil)
	}
	s.notify()
	s.removed()
	s.lifecycle()
	return &catalogv1.DeleteProjectResponse{}, nil
}

// renameRecord is the record of a rename from old to slug (project and
// component name the renamed object afterwards), as Weblate writes it: the
// new slug in target, the former in old; nil when the slug stays.
func renameRecord(action typev1.ChangeAction, actor, old, slug, project, component string) *changelogv1.Change {
	if old == slug {
		return nil
	}
	rec := change(action, actor, project, component)
	rec.Target, rec.Old = slug, old
	return rec
}

// projectEnumDefaults gives the enum fields left unspecified their
// defaults, as the proto documents (an update may name them unset).
func projectEnumDefaults(m *catalogv1.Project) {
	d := defaultProject()
	if m.AccessControl == typev1.AccessControl_ACCESS_CONTROL_UNSPECIFIED {
		m.AccessControl = d.AccessControl
	}
	if m.CommitPolicy == typev1.CommitPolicy_COMMIT_POLICY_UNSPECIFIED {
		m.CommitPolicy = d.CommitPolicy
	}
}

// validateProject checks m, whose fields in set the request supplied.
func (s *Server) validateProject(ctx context.Context, m *catalogv1.Project, set fieldSet, create bool) error {
	c := &checker{set: set, create: create}
	c.name(m.Name, projectNameLength)
	c.slug(m.Slug, projectNameLength)
	if c.present("web", "web", m.Web) {
		c.webURL("web", m.Web)
	}
	enumChoice(c, "access_control", m.AccessControl, weblate.AccessControls)
	enumChoice(c, "commit_policy", m.CommitPolicy, weblate.CommitPolicies)
	if !languageAliasesOK(m.LanguageAliases) {
		c.add("language_aliases", "invalid", "Syntax error in language aliases.")
	}
	if err := s.checkInheritable(ctx, c, m); err != nil {
		return err
	}
	return c.err()
}

// languageField resolves *code to a stored language's canonical code,
// recording a violation when it names none. Empty is fine when optional.
func (s *Server) languageField(ctx context.Context, c *checker, attr string, code *string, optional bool) error {
	if *code == "" && optional {
		return nil
	}
	l, err := s.findLanguage(ctx, *code)
	switch {
	case errors.Is(err, store.ErrNotFound):
		c.add(attr, "does_not_exist", "Object with code="+*code+" does not exist.")
		return nil
	case err != nil:
		return errs.Wrap(errs.Internal, err, "Internal server error.")
	}
	*code = l.Code
	return nil
}

// creator is the account that administers a new project: the user the
// call acts for, else (a service's own call) the request's actor.
func creator(ctx context.Context, actor string) string {
	if c, ok := policy.FromContext(ctx); ok && c.Username != "" {
		return c.Username
	}
	return actor
}
