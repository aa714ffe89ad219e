package store

import (
	"time"

	"google.golang.org/protobuf/types/known/structpb"
	"gorm.io/gorm"

	"github.com/tmsproject/tms/pkg/changedetails"
	changelogv1 "github.com/tmsproject/tms/proto/gen/go/tms/changelog/v1"
	typev1 "github.com/tmsproject/tms/proto/gen/go/tms/type/v1"
)

// Change actions the store records on its own (COMPAT.md §7).
const (
	actionCompleted         = typev1.ChangeAction_CHANGE_ACTION_COMPLETE
	ActionComment           = typev1.ChangeAction_CHANGE_ACTION_COMMENT
	ActionSuggestion        = typev1.ChangeAction_CHANGE_ACTION_SUGGESTION
	ActionAccept            = typev1.ChangeAction_CHANGE_ACTION_ACCEPT
	ActionSuggestionDelete  = typev1.ChangeAction_CHANGE_ACTION_SUGGESTION_DELETE
	ActionSuggestionCleanup = typev1.ChangeAction_CHANGE_ACTION_SUGGESTION_CLEANUP
	ActionNewUnit           = typev1.ChangeAction_CHANGE_ACTION_NEW_UNIT
	ActionStringRemove      = typev1.ChangeAction_CHANGE_ACTION_STRING_REMOVE
	ActionCommentDelete     = typev1.ChangeAction_CHANGE_ACTION_COMMENT_DELETE
	ActionCommentResolve    = typev1.ChangeAction_CHANGE_ACTION_COMMENT_RESOLVE
)

// AnonymousUser is the author credited with automatic cleanups.
const AnonymousUser = "anonymous"

// Suggestion is a proposed target for a unit.
type Suggestion struct {
	ID        int64 `gorm:"primaryKey"`
	UnitID    int64
	Target    string
	UserName  string
	Votes     int64
	CreatedAt time.Time
}

// TableName is the suggestions table.
func (Suggestion) TableName() string { return "suggestions" }

// suggestionVote is one user's vote on a suggestion.
type suggestionVote struct {
	SuggestionID int64  `gorm:"primaryKey"`
	UserName     string `gorm:"primaryKey"`
	Value        int64
}

func (suggestionVote) TableName() string { return "suggestion_votes" }

// Comment is a remark on a unit.
type Comment struct {
	ID        int64 `gorm:"primaryKey"`
	UnitID    int64
	Scope     string
	Comment   string
	UserName  string
	Resolved  bool
	CreatedAt time.Time
}

// TableName is the comments table.
func (Comment) TableName() string { return "comments" }

// refreshUnitFlags recomputes has_suggestion (any suggestion) and
// has_comment (any unresolved comment) of u, stores them when they moved,
// and returns the move of the translation's suggestions/comments counters.
func refreshUnitFlags(tx *gorm.DB, u *Unit) (Stats, error) {
	var nSugg, nComm int64
	if err := tx.Model(&Suggestion{}).Where("unit_id = ?", u.ID).Count(&nSugg).Error; err != nil {
		return Stats{}, err
	}
	if err := tx.Model(&Comment{}).Where("unit_id = ? AND resolved = ?", u.ID, false).Count(&nComm).Error; err != nil {
		return Stats{}, err
	}
	var d Stats
	d.Suggestions = flagMove(u.HasSuggestion, nSugg > 0)
	d.Comments = flagMove(u.HasComment, nComm > 0)
	if d.Suggestions == 0 && d.Comments == 0 {
		return d, nil
	}
	u.HasSuggestion, u.HasComment = nSugg > 0, nComm > 0
	err := tx.Model(&Unit{}).Where("id = ?", u.ID).
		Updates(map[string]any{"has_suggestion": u.HasSuggestion, "has_comment": u.HasComment}).Error
	return d, err
}

func flagMove(was, is bool) int64 {
	switch {
	case was == is:
		return 0
	case is:
		return 1
	}
	return -1
}

// countAnnotations sets the suggestions and comments counters of a
// translation from its units' flags.
func countAnnotations(tx *gorm.DB, translationID int64, st *Stats) error {
	q := func(col string, n *int64) error {
		return tx.Model(&Unit{}).Where("translation_id = ? AND "+col+" = ?", translationID, true).Count(n).Error
	}
	if err := q("has_suggestion", &st.Suggestions); err != nil {
		return err
	}
	return q("has_comment", &st.Comments)
}

// unitChange is a change record about a unit of t.
func unitChange(action typev1.ChangeAction, u Unit, t Translation, user, author string) *changelogv1.Change {
	return &changelogv1.Change{Action: action, ProjectSlug: t.ProjectSlug, ComponentSlug: t.ComponentSlug,
		LanguageCode: t.LanguageCode, UnitId: u.ID, User: user, Author: author}
}

// details are the change details holding m.
func details(m map[string]any) *structpb.Struct { return changedetails.FromMap(m) }

// UnitDetails are the details of a unit content change:
// state, old_state, source and context.
func UnitDetails(state, oldState int, u Unit) *structpb.Struct {
	return details(map[string]any{"state": state, "old_state": oldState, "source": u.Source, "context": u.Context})
}

// cleanupSuggestions deletes the suggestions of u equal to its target,
// returning one "Suggestion removed during cleanup" record each.
func cleanupSuggestions(tx *gorm.DB, u Unit, t Translation) ([]*changelogv1.Change, error) {
	var gone []Suggestion
	if err := tx.Where("unit_id = ? AND target = ?", u.ID, u.Target).Order("id").Find(&gone).Error; err != nil {
		return nil, err
	}
	return dropSuggestions(tx, gone, t, map[int64]Unit{u.ID: u})
}
