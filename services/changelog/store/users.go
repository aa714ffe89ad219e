package store

import (
	"context"

	"gorm.io/gorm"

	"github.com/tmsproject/tms/pkg/weblate"
	typev1 "github.com/tmsproject/tms/proto/gen/go/tms/type/v1"
)

// TranslationActions are the records of a translation being set: added,
// changed, approved (the user statistics' "translated" and "languages").
var TranslationActions = []int32{
	weblate.ChangeActions.RefOf(typev1.ChangeAction_CHANGE_ACTION_CHANGE),
	weblate.ChangeActions.RefOf(typev1.ChangeAction_CHANGE_ACTION_NEW),
	weblate.ChangeActions.RefOf(typev1.ChangeAction_CHANGE_ACTION_APPROVE),
}

// ActionCount is how many records of one action a user has.
type ActionCount struct {
	Action int32
	Count  int64
}

// UserActivity counts the user's records per action, and the distinct
// languages of their translation records, of what the caller sees.
func (s *Store) UserActivity(ctx context.Context, user string, seen Seen) ([]ActionCount, int64, error) {
	q := s.filtered(ctx, Filter{User: user, Seen: seen})
	var counts []ActionCount
	if err := q.Select("action, COUNT(*) AS count").Group("action").Order("action").Scan(&counts).Error; err != nil {
		return nil, 0, err
	}
	var languages int64
	err := s.filtered(ctx, Filter{User: user, Seen: seen, Actions: TranslationActions}).
		Where("language_code <> ''").Distinct("language_code").Count(&languages).Error
	return counts, languages, err
}

// Contribution is one translation a user has records in.
type Contribution struct {
	ProjectSlug, ComponentSlug, LanguageCode string
	Changes                                  int64
}

// Contributions pages the translations the user has records in, ordered
// by project, component and language, of what the caller sees. A
// translation removed since (with its component or project) is gone, as
// the reference's records of it are: only the records after its latest
// removal count, and a translation with none is not listed, so that the
// total counts the translations that exist.
func (s *Store) Contributions(ctx context.Context, user string, seen Seen, offset, limit int) ([]Contribution, int64, error) {
	sel := s.filtered(ctx, Filter{User: user, Seen: seen}).Where("language_code <> ''").
		Where("NOT EXISTS (?)", s.removedSince(ctx)).
		Select("project_slug, component_slug, language_code, COUNT(*) AS changes").
		Group("project_slug, component_slug, language_code")
	var total int64
	if err := s.gdb.WithContext(ctx).Table("(?) AS c", sel).Count(&total).Error; err != nil {
		return nil, 0, err
	}
	q := sel.Order("project_slug, component_slug, language_code").Offset(offset)
	if limit > 0 {
		q = q.Limit(limit)
	}
	var out []Contribution
	return out, total, q.Scan(&out).Error
}

// Removals, as the services record them: a translation's names its
// project, component and language; a component's names its project and,
// in target, the component; a project's names the project in target only.
var (
	ActionRemoveTranslation = weblate.ChangeActions.RefOf(typev1.ChangeAction_CHANGE_ACTION_REMOVE_TRANSLATION)
	ActionRemoveComponent   = weblate.ChangeActions.RefOf(typev1.ChangeAction_CHANGE_ACTION_REMOVE_COMPONENT)
	ActionRemoveProject     = weblate.ChangeActions.RefOf(typev1.ChangeAction_CHANGE_ACTION_REMOVE_PROJECT)
)

// removedSince selects a removal, at or after the record of the outer
// query (the changes table), of that record's translation, component or
// project. The removal's own record is at its time, so it is gone too.
func (s *Store) removedSince(ctx context.Context) *gorm.DB {
	return s.gdb.WithContext(ctx).Table("changes AS r").Select("1").
		Where("r.timestamp >= changes.timestamp").
		Where(s.gdb.Where("r.action = ? AND r.project_slug = changes.project_slug AND "+
			"r.component_slug = changes.component_slug AND r.language_code = changes.language_code", ActionRemoveTranslation).
			Or("r.action = ? AND r.project_slug = changes.project_slug AND r.target = changes.component_slug", ActionRemoveComponent).
			Or("r.action = ? AND r.project_slug = '' AND r.target = changes.project_slug", ActionRemoveProject))
}

// Credit is how many records of a language one author is credited with.
type Credit struct {
	LanguageCode, Author string
	Changes              int64
}

// Credits counts the records matching f per language and author, leaving
// out those without either: by language, then most records first, then
// author.
func (s *Store) Credits(ctx context.Context, f Filter) ([]Credit, error) {
	var out []Credit
	err := s.filtered(ctx, f).Where("language_code <> '' AND author <> ''").
		Select("language_code, author, COUNT(*) AS changes").Group("language_code, author").
		Order("language_code, changes DESC, author").Scan(&out).Error
	return out, err
}
