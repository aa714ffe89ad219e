package server

import (
	"context"
	"fmt"
	"strings"

	"google.golang.org/protobuf/types/known/timestamppb"

	"github.com/tmsproject/tms/pkg/errs"
	translationv1 "github.com/tmsproject/tms/proto/gen/go/tms/translation/v1"
	"github.com/tmsproject/tms/services/translation/store"
)

// Comment scopes: a translation comment stays on the unit; global remarks
// and source-string reports go to the source string, as in Weblate.
const (
	scopeGlobal      = "global"
	scopeTranslation = "translation"
	scopeReport      = "report"
)

// CreateComment adds a comment to a unit or to its source string; a caller
// acting for a user needs comment.add on the unit's translation. As in the
// REST API, the unit and the permission are checked before the request.
func (s *Server) CreateComment(ctx context.Context, req *translationv1.CreateCommentRequest) (*translationv1.CreateCommentResponse, error) {
	u, err := s.visibleUnit(ctx, req.GetUnitId())
	if err != nil {
		return nil, err
	}
	if err = s.require(ctx, "comment.add", scopeOf(u.Translation), u.Translation.LanguageCode); err != nil {
		return nil, err
	}
	var v errs.Violations
	switch req.GetScope() {
	case scopeGlobal, scopeTranslation, scopeReport:
	case "":
		v.Add("scope", "required", "This field is required.")
	default:
		v.Add("scope", "invalid_choice", fmt.Sprintf("\"%s\" is not a valid choice.", req.GetScope()))
	}
	if strings.TrimSpace(req.GetComment()) == "" {
		v.Add("comment", "blank", "This field may not be blank.")
	}
	if err = v.Err(); err != nil {
		return nil, err
	}
	target := u.ID
	if req.GetScope() != scopeTranslation && u.SourceUnitID != nil {
		target = *u.SourceUnitID
	}
	c, err := s.cfg.Store.AddComment(ctx, target, req.GetScope(), req.GetComment(), req.GetActor())
	if err != nil {
		return nil, err
	}
	s.cfg.Notify()
	return &translationv1.CreateCommentResponse{Comment: commentProto(c)}, nil
}

// ResolveComment marks a comment resolved: its author may, and a caller
// holding comment.resolve on its translation.
func (s *Server) ResolveComment(ctx context.Context, req *translationv1.ResolveCommentRequest) (*translationv1.ResolveCommentResponse, error) {
	if err := s.ownComment(ctx, req.GetId(), "comment.resolve"); err != nil {
		return nil, err
	}
	c, err := s.cfg.Store.ResolveComment(ctx, req.GetId(), req.GetActor())
	if err != nil {
		return nil, err
	}
	s.cfg.Notify()
	return &translationv1.ResolveCommentResponse{Comment: commentProto(c)}, nil
}

// DeleteComment removes a comment: its author may, and a caller holding
// comment.delete on its translation.
func (s *Server) DeleteComment(ctx context.Context, req *translationv1.DeleteCommentRequest) (*translationv1.DeleteCommentResponse, error) {
	if err := s.ownComment(ctx, req.GetId(), "comment.delete"); err != nil {
		return nil, err
	}
	if err := s.cfg.Store.DeleteComment(ctx, req.GetId(), req.GetActor()); err != nil {
		return nil, err
	}
	s.cfg.Notify()
	return &translationv1.DeleteCommentResponse{}, nil
}

// ListComments pages the comments concerning a unit by id.
func (s *Server) ListComments(ctx context.Context, req *translationv1.ListCommentsRequest) (*translationv1.ListCommentsResponse, error) {
	if _, err := s.visibleUnit(ctx, req.GetUnitId()); err != nil {
		return nil, err
	}
	pg, err := listPage(req)
	if err != nil {
		return nil, err
	}
	list, total, err := s.cfg.Store.ListComments(ctx, req.GetUnitId(), pg.Offset, pg.Limit)
	if err != nil {
		return nil, err
	}
	out := &translationv1.ListCommentsResponse{Total: total, NextPageToken: pg.Next(total)}
	for _, c := range list {
		out.Comments = append(out.Comments, commentProto(c))
	}
	return out, nil
}

// GetComment loads one comment.
func (s *Server) GetComment(ctx context.Context, req *translationv1.GetCommentRequest) (*translationv1.GetCommentResponse, error) {
	c, err := s.cfg.Store.GetComment(ctx, req.GetId())
	if err != nil {
		return nil, err
	}
	if err := s.mustSeeTranslation(ctx, c.Translation); err != nil {
		return nil, err
	}
	return &translationv1.GetCommentResponse{Comment: commentProto(c)}, nil
}

// ownComment fails unless the caller of ctx may see comment id and act on
// it: NotFound, else PermissionDenied unless it wrote the comment or holds
// perm.
func (s *Server) ownComment(ctx context.Context, id int64, perm string) error {
	c, err := s.cfg.Store.GetComment(ctx, id)
	if err == nil {
		err = s.mustSeeTranslation(ctx, c.Translation)
	}
	if err != nil {
		return err
	}
	return s.requireOwn(ctx, perm, c.Translation, c.UserName)
}

func commentProto(c store.CommentView) *translationv1.Comment {
	return &translationv1.Comment{Id: c.ID, UnitId: c.UnitID, Scope: c.Scope, Comment: c.Comment.Comment,
		User: c.UserName, Timestamp: timestamppb.New(c.CreatedAt), Resolved: c.Resolved,
		ProjectSlug: c.Translation.ProjectSlug, ComponentSlug: c.Translation.ComponentSlug,
		LanguageCode: c.Translation.LanguageCode}
}
