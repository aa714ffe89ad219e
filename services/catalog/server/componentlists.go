package server

import (
	"context"
	"regexp"
	"slices"
	"strings"

	"github.com/tmsproject/tms/pkg/errs"
	"github.com/tmsproject/tms/pkg/policy"
	catalogv1 "github.com/tmsproject/tms/proto/gen/go/tms/catalog/v1"
	"github.com/tmsproject/tms/services/catalog/store"
)

// Weblate's limits of component lists and of their rules.
const (
	listNameLength = 100
	ruleLength     = 200
)

// componentListDuplicate is Django's unique message for ComponentList.
func componentListDuplicate(field string) string {
	if field == "name" {
		return "Component list with this Component list name already exists."
	}
	return "Component list with this URL slug already exists."
}

// mayEditLists is componentlist.edit, a site-wide permission (superusers).
func mayEditLists(ctx context.Context) error {
	if c, ok := policy.FromContext(ctx); ok && !c.CanGlobal("componentlist.edit") {
		return errs.New(errs.PermissionDenied, "Can not manage component lists")
	}
	return nil
}

// componentListProto renders l with the members the caller may see.
func (s *Server) componentListProto(ctx context.Context, l *store.ComponentList) (*catalogv1.ComponentList, error) {
	out := &catalogv1.ComponentList{Id: l.ID, Name: l.Name, Slug: l.Slug, ShowDashboard: l.ShowDashboard}
	for _, r := range l.Rules {
		out.AutoAssign = append(out.AutoAssign, &catalogv1.AutoAssign{ProjectMatch: r.ProjectMatch, ComponentMatch: r.ComponentMatch})
	}
	v := viewer(ctx)
	for _, id := range l.Members {
		c, err := s.st.GetComponentByID(ctx, id)
		if err != nil {
			return nil, storeErr(err, nil)
		}
		if v.Sees(c.ProjectSlug, c.ProjectAccess) {
			out.Components = append(out.Components, shown(ctx, componentProto(c)))
		}
	}
	return out, nil
}

// ListComponentLists pages the lists the caller may see.
func (s *Server) ListComponentLists(ctx context.Context, req *catalogv1.ListComponentListsRequest) (*catalogv1.ListComponentListsResponse, error) {
	pg, tp, err := listPage(req)
	if err != nil {
		return nil, err
	}
	lists, total, err := s.st.ListComponentLists(ctx, pg, viewer(ctx))
	if err != nil {
		return nil, storeErr(err, nil)
	}
	out := &catalogv1.ListComponentListsResponse{Total: total, NextPageToken: tp.Next(total)}
	for i := range lists {
		l, err := s.componentListProto(ctx, &lists[i])
		if err != nil {
			return nil, err
		}
		out.ComponentLists = append(out.ComponentLists, l)
	}
	return out, nil
}

// GetComponentList reads one list the caller may see.
func (s *Server) GetComponentList(ctx context.Context, req *catalogv1.GetComponentListRequest) (*catalogv1.GetComponentListResponse, error) {
	l, err := s.st.GetComponentList(ctx, req.GetSlug(), viewer(ctx))
	if err != nil {
		return nil, storeErr(err, nil)
	}
	out, err := s.componentListProto(ctx, l)
	return &catalogv1.GetComponentListResponse{ComponentList: out}, err
}

// CreateComponentList adds a list (componentlist.edit).
func (s *Server) CreateComponentList(ctx context.Context, req *catalogv1.CreateComponentListRequest) (*catalogv1.CreateComponentListResponse, error) {
	if err := mayEditLists(ctx); err != nil {
		return nil, err
	}
	in := req.GetComponentList()
	l := &store.ComponentList{Name: strings.TrimSpace(in.GetName()), Slug: in.GetSlug(), ShowDashboard: in.GetShowDashboard()}
	if len(req.GetFields()) > 0 && !slices.Contains(req.GetFields(), "show_dashboard") {
		l.ShowDashboard = true // Weblate's default
	}
	rules, err := checkComponentList(l, in.GetAutoAssign(), fieldSet{"name": true, "slug": true}, true)
	if err != nil {
		return nil, err
	}
	if rules == nil {
		rules = []store.AutoAssign{}
	}
	if err = s.st.SaveComponentList(ctx, l, rules); err != nil {
		return nil, storeErr(err, componentListDuplicate)
	}
	out, err := s.readList(ctx, l.Slug)
	return &catalogv1.CreateComponentListResponse{ComponentList: out}, err
}

// readList reads a list after a write: the writer (componentlist.edit)
// sees every list, and of its members those it may see.
func (s *Server) readList(ctx context.Context, slug string) (*catalogv1.ComponentList, error) {
	l, err := s.st.GetComponentList(ctx, slug, store.Viewer{All: true})
	if err != nil {
		return nil, storeErr(err, nil)
	}
	return s.componentListProto(ctx, l)
}

// UpdateComponentList changes the named fields of a list.
func (s *Server) UpdateComponentList(ctx context.Context, req *catalogv1.UpdateComponentListRequest) (*catalogv1.UpdateComponentListResponse, error) {
	if err := mayEditLists(ctx); err != nil {
		return nil, err
	}
	l, err := s.st.GetComponentList(ctx, req.GetSlug(), store.Viewer{All: true})
	if err != nil {
		return nil, storeErr(err, nil)
	}
	in, set := req.GetComponentList(), fieldSet{}
	var rules []store.AutoAssign
	for _, f := range req.GetUpdateMask().GetPaths() {
		switch f {
		case "name":
			l.Name = strings.TrimSpace(in.GetName())
		case "slug":
			l.Slug = in.GetSlug()
		case "show_dashboard":
			l.ShowDashboard = in.GetShowDashboard()
		case "auto_assign":
		default:
			return nil, errs.Invalid(f, "invalid", "Unknown field.")
		}
		set[f] = true
	}
	if rules, err = checkComponentList(l, in.GetAutoAssign(), set, false); err != nil {
		return nil, err
	}
	if err = s.st.SaveComponentList(ctx, l, rules); err != nil {
		return nil, storeErr(err, componentListDuplicate)
	}
	out, err := s.readList(ctx, l.Slug)
	return &catalogv1.UpdateComponentListResponse{ComponentList: out}, err
}

// checkComponentList validates name, slug and, when set names it, the
// rules, which it returns (nil when not to change).
func checkComponentList(l *store.ComponentList, in []*catalogv1.AutoAssign, set fieldSet, create bool) ([]store.AutoAssign, error) {
	c := &checker{set: set, create: create}
	c.name(l.Name, listNameLength)
	c.slug(l.Slug, listNameLength)
	if !set["auto_assign"] && !create {
		return nil, c.err()
	}
	rules := []store.AutoAssign{}
	for _, r := range in {
		for _, re := range []string{r.GetProjectMatch(), r.GetComponentMatch()} {
			if !c.maxLen("auto_assign", re, ruleLength) {
				continue
			}
			if _, err := regexp.Compile(re); err != nil {
				c.add("auto_assign", "invalid", "Compilation failed: "+err.Error())
			}
		}
		rules = append(rules, store.AutoAssign{ProjectMatch: r.GetProjectMatch(), ComponentMatch: r.GetComponentMatch()})
	}
	return rules, c.err()
}

// DeleteComponentList removes a list.
func (s *Server) DeleteComponentList(ctx context.Context, req *catalogv1.DeleteComponentListRequest) (*catalogv1.DeleteComponentListResponse, error) {
	if err := mayEditLists(ctx); err != nil {
		return nil, err
	}
	l, err := s.st.GetComponentList(ctx, req.GetSlug(), store.Viewer{All: true})
	if err != nil {
		return nil, storeErr(err, nil)
	}
	return &catalogv1.DeleteComponentListResponse{}, storeErr(s.st.DeleteComponentList(ctx, l.ID), nil)
}

// ChangeComponentListMember adds a component the caller may see to a
// list, or removes one.
func (s *Server) ChangeComponentListMember(ctx context.Context, req *catalogv1.ChangeComponentListMemberRequest) (*catalogv1.ChangeComponentListMemberResponse, error) {
	if err := mayEditLists(ctx); err != nil {
		return nil, err
	}
	l, err := s.st.GetComponentList(ctx, req.GetSlug(), store.Viewer{All: true})
	if err != nil {
		return nil, storeErr(err, nil)
	}
	c, err := s.st.GetComponentByID(ctx, req.GetComponentId())
	if err != nil || !viewer(ctx).Sees(c.ProjectSlug, c.ProjectAccess) {
		return nil, errs.Invalid("component_id", "does_not_exist", "Component not found.")
	}
	if err = s.st.ChangeListMember(ctx, l.ID, c.ID, req.GetRemove()); err != nil {
		return nil, storeErr(err, nil)
	}
	out, err := s.readList(ctx, l.Slug)
	return &catalogv1.ChangeComponentListMemberResponse{ComponentList: out}, err
}
