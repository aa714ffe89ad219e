package server

import (
	"context"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"google.golang.org/protobuf/types/known/timestamppb"

	"github.com/tmsproject/tms/pkg/errs"
	"github.com/tmsproject/tms/pkg/policy"
	catalogv1 "github.com/tmsproject/tms/proto/gen/go/tms/catalog/v1"
	typev1 "github.com/tmsproject/tms/proto/gen/go/tms/type/v1"
	"github.com/tmsproject/tms/services/catalog/store"
)

// actionAnnouncement is the reference's "Announcement posted".
const actionAnnouncement = typev1.ChangeAction_CHANGE_ACTION_ANNOUNCEMENT

// announcementCategories are the reference's announcement severities
// (its API's severity; category before).
var announcementCategories = []string{"info", "warning", "danger", "success"}

// maxAnnouncementLength bounds a message (the reference's is a TextField;
// a bound keeps a mail from growing without end).
const maxAnnouncementLength = 20000

// ListAnnouncements pages the announcements of a context the caller may see.
func (s *Server) ListAnnouncements(ctx context.Context, req *catalogv1.ListAnnouncementsRequest) (*catalogv1.ListAnnouncementsResponse, error) {
	p, tp, err := listPage(req)
	if err != nil {
		return nil, err
	}
	at, err := s.announcementContext(ctx, announcementPlace{req.GetProjectSlug(), req.GetComponentSlug(), req.GetLanguageCode(), req.GetCategoryId()}, false)
	if err != nil {
		return nil, err
	}
	as, total, err := s.st.ListAnnouncements(ctx, at.AnnouncementContext, p)
	if err != nil {
		return nil, storeErr(err, nil)
	}
	out := &catalogv1.ListAnnouncementsResponse{Total: total, NextPageToken: tp.Next(total)}
	for i := range as {
		out.Announcements = append(out.Announcements, announcementProto(&as[i], at))
	}
	return out, nil
}

// CreateAnnouncement posts an announcement; with notify it records
// "Announcement posted" for the subscribers.
func (s *Server) CreateAnnouncement(ctx context.Context, req *catalogv1.CreateAnnouncementRequest) (*catalogv1.CreateAnnouncementResponse, error) {
	in := req.GetAnnouncement()
	at, err := s.announcementContext(ctx, announcementPlace{in.GetProjectSlug(), in.GetComponentSlug(), in.GetLanguageCode(), in.GetCategoryId()}, true)
	if err != nil {
		return nil, err
	}
	a := &store.Announcement{ProjectID: at.ProjectID, CategoryID: at.CategoryID, ComponentID: at.ComponentID, LanguageCode: at.LanguageCode,
		Message: strings.TrimSpace(in.GetMessage()), Category: in.GetCategory(), Expiry: in.GetExpiry(),
		Notify: in.GetNotify(), Username: req.GetActor()}
	if a.Category == "" {
		a.Category = "info"
	}
	if err := validateAnnouncement(a); err != nil {
		return nil, err
	}
	var ch = change(actionAnnouncement, req.GetActor(), at.project, at.component)
	ch.LanguageCode, ch.Target = at.LanguageCode, a.Message
	if !a.Notify {
		ch = nil
	}
	if err := s.st.CreateAnnouncement(ctx, a, ch); err != nil {
		return nil, storeErr(err, nil)
	}
	s.notify()
	return &catalogv1.CreateAnnouncementResponse{Announcement: announcementProto(a, at)}, nil
}

// DeleteAnnouncement removes an announcement of its context.
func (s *Server) DeleteAnnouncement(ctx context.Context, req *catalogv1.DeleteAnnouncementRequest) (*catalogv1.DeleteAnnouncementResponse, error) {
	at, err := s.announcementContext(ctx, announcementPlace{req.GetProjectSlug(), req.GetComponentSlug(), req.GetLanguageCode(), req.GetCategoryId()}, true)
	if err != nil {
		return nil, err
	}
	if err := s.st.DeleteAnnouncement(ctx, at.AnnouncementContext, req.GetId()); err != nil {
		return nil, storeErr(err, nil)
	}
	return &catalogv1.DeleteAnnouncementResponse{}, nil
}

// announcementAt is a resolved context with its slugs.
type announcementAt struct {
	store.AnnouncementContext
	project, component string
}

// announcementPlace is where a request says an announcement is.
type announcementPlace struct {
	project, component, lang string
	category                 int64
}

// announcementContext resolves a context the caller may see: a project, a
// category of it, a component, a translation, or a language of the
// project. Writing needs project.edit, and component.edit below a
// component.
func (s *Server) announcementContext(ctx context.Context, at announcementPlace, write bool) (announcementAt, error) {
	out := announcementAt{project: at.project, component: at.component}
	p, err := s.seenProject(ctx, at.project)
	if err != nil {
		return out, err
	}
	out.ProjectID, out.LanguageCode = p.ID, at.lang
	scope, perm := policy.Scope{Project: p.Slug, Access: p.AccessControl, Language: at.lang}, "project.edit"
	switch {
	case at.category != 0:
		if at.component != "" || at.lang != "" {
			return out, errs.Invalid("category", "invalid", "A category's announcement has no component or language.")
		}
		c, err := s.st.GetCategory(ctx, at.category)
		if err != nil || c.ProjectID != p.ID {
			return out, errs.NotFoundf("Not found.")
		}
		out.CategoryID = c.ID
	case at.component != "":
		c, err := s.st.GetComponent(ctx, at.project, at.component)
		if err != nil {
			return out, storeErr(err, nil)
		}
		out.ComponentID, scope.Component, perm = c.ID, c.Slug, "component.edit"
	case at.lang != "":
		if _, err := s.st.GetLanguage(ctx, at.lang); err != nil {
			return out, storeErr(err, nil)
		}
	}
	if write {
		if caller, restricted := policy.Restricted(ctx); restricted && !caller.Can(perm, scope) {
			return out, errs.New(errs.PermissionDenied, "You do not have permission to post announcements here.")
		}
	}
	return out, nil
}

func validateAnnouncement(a *store.Announcement) error {
	var v errs.Violations
	switch {
	case a.Message == "":
		v.Add("message", "blank", "This field may not be blank.")
	case utf8.RuneCountInString(a.Message) > maxAnnouncementLength:
		v.Add("message", "max_length", "Ensure this field has no more than 20000 characters.")
	}
	if !slices.Contains(announcementCategories, a.Category) {
		v.Add("severity", "invalid_choice", "\""+a.Category+"\" is not a valid choice.")
	}
	if a.Expiry != "" {
		if _, err := time.Parse("2006-01-02", a.Expiry); err != nil {
			v.Add("expiry", "invalid", "Date has wrong format. Use one of these formats instead: YYYY-MM-DD.")
		}
	}
	return v.Err()
}

func announcementProto(a *store.Announcement, at announcementAt) *catalogv1.Announcement {
	return &catalogv1.Announcement{Id: a.ID, ProjectSlug: at.project, ComponentSlug: at.component, CategoryId: a.CategoryID,
		LanguageCode: a.LanguageCode, Message: a.Message, Category: a.Category, Expiry: a.Expiry,
		Notify: a.Notify, Created: timestamppb.New(a.Created), User: a.Username}
}
