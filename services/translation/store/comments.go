package store

import (
	"context"

	"google.golang.org/protobuf/types/known/structpb"
	"gorm.io/gorm"
)

// CommentView is a comment with its unit and the unit's translation.
type CommentView struct {
	Comment
	Unit        Unit
	Translation Translation
}

func commentDetails(cm Comment) *structpb.Struct {
	return details(map[string]any{"comment": cm.Comment})
}

// AddComment stores a comment on a unit (the caller picks the source unit
// for global and report scopes), flags the unit and records "Comment added".
func (s *Store) AddComment(ctx context.Context, unitID int64, scope, text, user string) (CommentView, error) {
	var out CommentView
	err := s.q(ctx).Transaction(func(tx *gorm.DB) error {
		u, t, err := s.lockUnit(tx, unitID)
		if err != nil {
			return err
		}
		at := now()
		cm := Comment{UnitID: u.ID, Scope: scope, Comment: text, UserName: user, CreatedAt: at}
		if err := tx.Create(&cm).Error; err != nil {
			return err
		}
		if err := s.refreshCounters(tx, &u, &t); err != nil {
			return err
		}
		c := unitChange(ActionComment, u, t, user, user)
		c.Details = commentDetails(cm)
		out = CommentView{Comment: cm, Unit: u, Translation: t}
		return record(tx, at, c)
	})
	return out, err
}

// GetComment loads a comment with its unit.
func (s *Store) GetComment(ctx context.Context, id int64) (CommentView, error) {
	var cm Comment
	if err := notFound(s.q(ctx).Where("id = ?", id).Take(&cm).Error, "comment"); err != nil {
		return CommentView{}, err
	}
	views, err := s.commentViews(ctx, []Comment{cm})
	if err != nil {
		return CommentView{}, err
	}
	return views[0], nil
}

// ListComments pages, by id, the comments that concern a unit, as Weblate
// shows them: a translation's unit sees its own comments and those on its
// source string; a source unit sees its own and those on every translation.
func (s *Store) ListComments(ctx context.Context, unitID, offset, limit int64) ([]CommentView, int64, error) {
	var u Unit
	if err := notFound(s.q(ctx).Where("id = ?", unitID).Take(&u).Error, "unit"); err != nil {
		return nil, 0, err
	}
	q := s.q(ctx).Model(&Comment{})
	if u.SourceUnitID == nil || *u.SourceUnitID == u.ID {
		sub := s.q(ctx).Model(&Unit{}).Select("id").Where("source_unit_id = ?", u.ID)
		q = q.Where("unit_id = ? OR unit_id IN (?)", u.ID, sub)
	} else {
		q = q.Where("unit_id IN ?", []int64{u.ID, *u.SourceUnitID})
	}
	var total int64
	if err := q.Count(&total).Error; err != nil {
		return nil, 0, err
	}
	var list []Comment
	q = page(q, offset, limit)
	if err := q.Find(&list).Error; err != nil {
		return nil, 0, err
	}
	views, err := s.commentViews(ctx, list)
	return views, total, err
}

func (s *Store) commentViews(ctx context.Context, list []Comment) ([]CommentView, error) {
	ids := make([]int64, len(list))
	for i, cm := range list {
		ids[i] = cm.UnitID
	}
	units, err := s.unitsByID(ctx, ids)
	if err != nil {
		return nil, err
	}
	out := make([]CommentView, len(list))
	for i, cm := range list {
		v := units[cm.UnitID]
		out[i] = CommentView{Comment: cm, Unit: v.Unit, Translation: v.Translation}
	}
	return out, nil
}

// ResolveComment marks a comment resolved and records "Comment resolved";
// resolving a resolved comment changes and records nothing.
func (s *Store) ResolveComment(ctx context.Context, id int64, user string) (CommentView, error) {
	var out CommentView
	err := s.q(ctx).Transaction(func(tx *gorm.DB) error {
		cm, u, t, err := s.lockComment(tx, id)
		if err != nil {
			return err
		}
		out = CommentView{Comment: cm, Unit: u, Translation: t}
		if cm.Resolved {
			return nil
		}
		if err := tx.Model(&Comment{}).Where("id = ?", id).Update("resolved", true).Error; err != nil {
			return err
		}
		out.Resolved = true
		if err := s.refreshCounters(tx, &out.Unit, &out.Translation); err != nil {
			return err
		}
		c := unitChange(ActionCommentResolve, u, t, user, user)
		c.Details = commentDetails(cm)
		return record(tx, now(), c)
	})
	return out, err
}

// DeleteComment removes a comment and records "Comment removed".
func (s *Store) DeleteComment(ctx context.Context, id int64, user string) error {
	return s.q(ctx).Transaction(func(tx *gorm.DB) error {
		cm, u, t, err := s.lockComment(tx, id)
		if err != nil {
			return err
		}
		if err := tx.Delete(&Comment{}, id).Error; err != nil {
			return err
		}
		if err := s.refreshCounters(tx, &u, &t); err != nil {
			return err
		}
		c := unitChange(ActionCommentDelete, u, t, user, user)
		c.Details = commentDetails(cm)
		return record(tx, now(), c)
	})
}

func (s *Store) lockComment(tx *gorm.DB, id int64) (Comment, Unit, Translation, error) {
	var cm Comment
	if err := notFound(s.forUpdate(tx).Where("id = ?", id).Take(&cm).Error, "comment"); err != nil {
		return cm, Unit{}, Translation{}, err
	}
	u, t, err := s.lockUnit(tx, cm.UnitID)
	return cm, u, t, err
}
