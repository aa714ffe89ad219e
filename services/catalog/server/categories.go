package server

import (
	"context"
	"slices"
	"strings"

	"github.com/tmsproject/tms/pkg/errs"
	"github.com/tmsproject/tms/pkg/policy"
	"github.com/tmsproject/tms/pkg/resname"
	catalogv1 "github.com/tmsproject/tms/proto/gen/go/tms/catalog/v1"
	changelogv1 "github.com/tmsproject/tms/proto/gen/go/tms/changelog/v1"
	"github.com/tmsproject/tms/services/catalog/store"
)

// maxCategoryDepth is the reference's CATEGORY_DEPTH.
const maxCategoryDepth = 3

// categoryNameLength is the reference's category name and slug length.
const categoryNameLength = 100

func categoryDuplicate(field string) string {
	if field == "slug" {
		return "Category with this URL slug already exists in the project."
	}
	return "Category with this name already exists in the project."
}

// categoryReadOnly are the Category fields a request cannot set; a
// category stays in its project.
var categoryReadOnly = effectiveReadOnly(fieldSet{"id": true, "project_slug": true, "path": true, "resource_name": true})

func categoryProto(c *store.Category) *catalogv1.Category {
	m := &catalogv1.Category{Id: c.ID, ProjectSlug: c.ProjectSlug, ParentId: c.ParentID, Name: c.Name,
		Slug: c.Slug, Path: c.Path(), ResourceName: resname.Category(c.ID), CheckFlags: c.CheckFlags}
	putSettings(m, c.Settings, c.Inherit, c.Effective)
	return m
}

// categoryRow copies the writable fields of m into c.
func categoryRow(m *catalogv1.Category, c *store.Category) {
	c.ParentID, c.Name, c.Slug = m.ParentId, strings.TrimSpace(m.Name), m.Slug
	c.CheckFlags = m.CheckFlags
	c.Settings, c.Inherit = takeSettings(m)
}

// ListCategories pages the categories of a project, or of every project
// the caller may see.
func (s *Server) ListCategories(ctx context.Context, req *catalogv1.ListCategoriesRequest) (*catalogv1.ListCategoriesResponse, error) {
	p, tp, err := listPage(req)
	if err != nil {
		return nil, err
	}
	var projectID int64
	if slug := req.GetProjectSlug(); slug != "" {
		project, perr := s.seenProject(ctx, slug)
		if perr != nil {
			return nil, perr
		}
		projectID = project.ID
	}
	cs, total, err := s.st.ListCategories(ctx, projectID, p, viewer(ctx))
	if err != nil {
		return nil, storeErr(err, nil)
	}
	out := &catalogv1.ListCategoriesResponse{Total: total, NextPageToken: tp.Next(total)}
	for i := range cs {
		out.Categories = append(out.Categories, categoryProto(&cs[i]))
	}
	return out, nil
}

// GetCategory reads a category by id, or by its path in a project, with
// the components inside it.
func (s *Server) GetCategory(ctx context.Context, req *catalogv1.GetCategoryRequest) (*catalogv1.GetCategoryResponse, error) {
	c, err := s.findCategory(ctx, req)
	if err != nil {
		return nil, err
	}
	ids, err := s.st.CategoryComponents(ctx, c.ID)
	if err != nil {
		return nil, storeErr(err, nil)
	}
	return &catalogv1.GetCategoryResponse{Category: categoryProto(c), ComponentIds: ids}, nil
}

func (s *Server) findCategory(ctx context.Context, req *catalogv1.GetCategoryRequest) (*store.Category, error) {
	id := req.GetId()
	if req.GetName() != "" {
		fromName, err := resname.ParseCategory(req.GetName())
		if err != nil {
			return nil, err
		}
		if id, err = resname.Agree("id", id, fromName); err != nil {
			return nil, err
		}
	}
	if id != 0 {
		return s.seenCategory(ctx, id)
	}
	project, err := s.seenProject(ctx, req.GetProjectSlug())
	if err != nil {
		return nil, err
	}
	cs, _, err := s.st.ListCategories(ctx, project.ID, store.Page{}, store.Viewer{All: true})
	if err != nil {
		return nil, storeErr(err, nil)
	}
	for i := range cs {
		if cs[i].Path() == req.GetPath() {
			return &cs[i], nil
		}
	}
	return nil, notFound()
}

// CreateCategory adds a category to a project, under a parent of the same
// project at most two levels deep (project.edit). Its settings take
// Weblate's defaults, and those the request does not set are inherited.
func (s *Server) CreateCategory(ctx context.Context, req *catalogv1.CreateCategoryRequest) (*catalogv1.CreateCategoryResponse, error) {
	in := req.GetCategory()
	project, err := s.editableProject(ctx, in.GetProjectSlug())
	if err != nil {
		return nil, err
	}
	m := withDefaultSettings(&catalogv1.Category{})
	set, err := applyFields(m, in, req.GetFields(), categoryReadOnly, len(req.GetFields()) == 0)
	if err != nil {
		return nil, err
	}
	createInheritance(m, set, true)
	c := &store.Category{ProjectID: project.ID}
	if err := s.saveCategory(ctx, m, c, fieldSet{"name": true, "slug": true}, true); err != nil {
		return nil, err
	}
	return &catalogv1.CreateCategoryResponse{Category: categoryProto(c)}, nil
}

// UpdateCategory changes the named fields of a category: its names, its
// place within its project and its settings (project.edit).
func (s *Server) UpdateCategory(ctx context.Context, req *catalogv1.UpdateCategoryRequest) (*catalogv1.UpdateCategoryResponse, error) {
	c, err := s.seenCategory(ctx, req.GetId())
	if err != nil {
		return nil, err
	}
	if err = mayEditProject(ctx, &store.Project{Slug: c.ProjectSlug, AccessControl: c.ProjectAccess}); err != nil {
		return nil, err
	}
	paths := req.GetUpdateMask().GetPaths()
	if len(paths) == 0 {
		return &catalogv1.UpdateCategoryResponse{Category: categoryProto(c)}, nil
	}
	m := categoryProto(c)
	in := req.GetCategory()
	if in == nil {
		in = &catalogv1.Category{}
	}
	set, err := applyFields(m, in, paths, categoryReadOnly, false)
	if err != nil {
		return nil, err
	}
	updateInheritance(m, c.Settings)
	if err = s.saveCategory(ctx, m, c, set, false); err != nil {
		return nil, err
	}
	return &catalogv1.UpdateCategoryResponse{Category: categoryProto(c)}, nil
}

// saveCategory validates m, whose fields in set the request supplied,
// copies it into c and stores c.
func (s *Server) saveCategory(ctx context.Context, m *catalogv1.Category, c *store.Category, set fieldSet, create bool) error {
	categoryRow(m, c)
	ch := &checker{set: set, create: create}
	if err := s.checkInheritable(ctx, ch, m); err != nil {
		return err
	}
	c.SecondaryLanguageCode = m.SecondaryLanguageCode // canonical
	if err := ch.err(); err != nil {
		return err
	}
	if err := s.checkCategory(ctx, c, set, create); err != nil {
		return err
	}
	return storeErr(s.st.SaveCategory(ctx, c), categoryDuplicate)
}

// DeleteCategory removes a category with what it holds, recording
// "Component removed" for each component; the translation service learns
// of their removal from store.Removals.
func (s *Server) DeleteCategory(ctx context.Context, req *catalogv1.DeleteCategoryRequest) (*catalogv1.DeleteCategoryResponse, error) {
	c, err := s.seenCategory(ctx, req.GetId())
	if err != nil {
		return nil, err
	}
	if err = mayEditProject(ctx, &store.Project{Slug: c.ProjectSlug, AccessControl: c.ProjectAccess}); err != nil {
		return nil, err
	}
	removed, err := s.st.DeleteCategory(ctx, c.ID, func(comp store.Component) *changelogv1.Change {
		return componentRemoved(comp, req.GetActor())
	})
	if err != nil {
		return nil, storeErr(err, nil)
	}
	s.notify()
	s.removed()
	s.lifecycle()
	out := &catalogv1.DeleteCategoryResponse{}
	for i := range removed {
		out.Removed = append(out.Removed, componentProto(&removed[i]))
	}
	return out, nil
}

// checkCategory validates name, slug and parent: a parent of the same
// project, not the category itself or below it, and no deeper than the
// reference allows (counting what hangs below a moved category).
func (s *Server) checkCategory(ctx context.Context, c *store.Category, set fieldSet, create bool) error {
	ch := &checker{set: set, create: create}
	ch.name(c.Name, categoryNameLength)
	ch.slug(c.Slug, categoryNameLength)
	if err := ch.err(); err != nil || c.ParentID == 0 {
		return err
	}
	parent, err := s.st.GetCategory(ctx, c.ParentID)
	if err != nil || parent.ProjectID != c.ProjectID {
		return errs.Invalid("category", "does_not_exist", "Invalid hyperlink - Object does not exist.")
	}
	below := 0
	if c.ID != 0 {
		tree, err := s.st.CategoryTree(ctx, c.ID)
		if err != nil {
			return storeErr(err, nil)
		}
		if slices.Contains(tree, parent.ID) {
			return errs.Invalid("category", "invalid", "A category cannot be placed inside itself.")
		}
		below = s.height(ctx, c.ID) - 1
	}
	if parent.Depth()+1+below > maxCategoryDepth {
		return errs.Invalid("category", "invalid", "Too deep nesting of categories.")
	}
	return nil
}

// height is 1 for a category without subcategories, 2 with children only,
// 3 with grandchildren.
func (s *Server) height(ctx context.Context, id int64) int {
	cs, _, err := s.st.ListCategories(ctx, 0, store.Page{}, store.Viewer{All: true})
	if err != nil {
		return maxCategoryDepth
	}
	children := map[int64][]int64{}
	for _, c := range cs {
		children[c.ParentID] = append(children[c.ParentID], c.ID)
	}
	var walk func(int64) int
	walk = func(id int64) int {
		h := 1
		for _, k := range children[id] {
			h = max(h, 1+walk(k))
		}
		return h
	}
	return walk(id)
}

// seenProject reads a project the caller may see.
func (s *Server) seenProject(ctx context.Context, slug string) (*store.Project, error) {
	p, err := s.st.GetProject(ctx, slug)
	if err != nil {
		return nil, storeErr(err, nil)
	}
	if !viewer(ctx).Sees(p.Slug, p.AccessControl) {
		return nil, notFound()
	}
	return p, nil
}

// seenCategory reads a category of a project the caller may see.
func (s *Server) seenCategory(ctx context.Context, id int64) (*store.Category, error) {
	c, err := s.st.GetCategory(ctx, id)
	if err != nil {
		return nil, storeErr(err, nil)
	}
	if !viewer(ctx).Sees(c.ProjectSlug, c.ProjectAccess) {
		return nil, notFound()
	}
	return c, nil
}

// editableProject is seenProject for a caller holding project.edit.
func (s *Server) editableProject(ctx context.Context, slug string) (*store.Project, error) {
	p, err := s.seenProject(ctx, slug)
	if err != nil {
		return nil, err
	}
	return p, mayEditProject(ctx, p)
}

// mayEditProject answers PermissionDenied unless the caller holds
// project.edit on the project (the service's own calls may).
func mayEditProject(ctx context.Context, p *store.Project) error {
	return mayOnProject(ctx, p, "project.edit")
}

// mayOnProject answers PermissionDenied unless the caller holds perm on
// the project (the service's own calls may).
func mayOnProject(ctx context.Context, p *store.Project, perm string) error {
	c, restricted := policy.Restricted(ctx)
	if !restricted || c.Can(perm, policy.Scope{Project: p.Slug, Access: p.AccessControl}) {
		return nil
	}
	return errs.New(errs.PermissionDenied, errNoPermission)
}

// errNoPermission is the reason of a refusal that gives none.
const errNoPermission = "You do not have permission to perform this action."

// or is s, or else when s is empty.
func or(s, otherwise string) string {
	if s == "" {
		return otherwise
	}
	return s
}

// checkComponentCategory: a component's category is one of its project.
func (s *Server) checkComponentCategory(ctx context.Context, projectID int64, m *catalogv1.Component, set fieldSet) error {
	if !set["category_id"] || m.GetCategoryId() == 0 {
		return nil
	}
	c, err := s.st.GetCategory(ctx, m.GetCategoryId())
	if err != nil || c.ProjectID != projectID {
		return errs.Invalid("category", "does_not_exist", "Invalid hyperlink - Object does not exist.")
	}
	return nil
}
