package store

import (
	"context"
	"fmt"
	"slices"

	"google.golang.org/protobuf/proto"
	"gorm.io/gorm"

	"github.com/tmsproject/tms/pkg/outbox"
	changelogv1 "github.com/tmsproject/tms/proto/gen/go/tms/changelog/v1"
	translationv1 "github.com/tmsproject/tms/proto/gen/go/tms/translation/v1"
)

// Removals is the outbox table of the deletes the translation service has
// to follow: each delete of components (alone, with a category or with
// their project) writes, in its transaction, one event whose payload is
// the ForgetComponents request that drops what the translation service
// holds of them. A table of its own, so that only the relay that delivers
// to the translation service takes these events (outbox.Table); migrate it
// with Removals.Migrations().
var Removals = outbox.Table("removal_events")

// Topics of the events in Removals: removals carry a ForgetComponents
// request, renames a RenameComponents request, rechecks (a change of the
// flags the quality checks read) a RecheckComponents request. They share
// the table so that the translation service takes them in the order they
// committed.
const (
	RemovalTopic = "translation.forget"
	RenameTopic  = "translation.rename"
	RecheckTopic = "translation.recheck"
)

// recordRecheck writes, within tx, that the checks of the components ids
// must run again; with enforce, that their enforced checks apply to the
// strings already translated.
func recordRecheck(tx *gorm.DB, ids []int64, enforce bool) error {
	if len(ids) == 0 {
		return nil
	}
	payload, err := proto.Marshal(&translationv1.RecheckComponentsRequest{ComponentIds: ids, Enforce: enforce})
	if err != nil {
		return fmt.Errorf("encode recheck: %w", err)
	}
	_, err = Removals.Add(tx, RecheckTopic, payload)
	return err
}

// checksChanged reports whether c's effective flags for the quality checks (or its
// allow_translation_propagation) differ from those stored, and whether its enforced checks changed to some
// (Weblate then applies them to the strings already translated).
func checksChanged(tx *gorm.DB, c *Component) (changed, enforce bool, err error) {
	var old Component
	err = tx.Select("effective", "enforced_checks", "allow_translation_propagation").Where("id = ?", c.ID).Take(&old).Error
	if err != nil {
		return false, false, err
	}
	enforce = !slices.Equal(old.EnforcedChecks, c.EnforcedChecks) && len(c.EnforcedChecks) > 0
	// Whether the component takes propagated translations decides which
	// strings are copies, compared by the inconsistent check.
	return old.Effective.CheckFlags != c.Effective.CheckFlags || !slices.Equal(old.EnforcedChecks, c.EnforcedChecks) ||
		old.AllowTranslationPropagation != c.AllowTranslationPropagation, enforce, nil
}

// recordRemoval writes the removal of the components (and the projects)
// into Removals within tx.
func recordRemoval(tx *gorm.DB, removed []Component, projects ...*Project) error {
	if len(removed) == 0 && len(projects) == 0 {
		return nil
	}
	req := &translationv1.ForgetComponentsRequest{}
	for _, p := range projects {
		req.ProjectIds = append(req.ProjectIds, p.ID)
		req.ProjectSlugs = append(req.ProjectSlugs, p.Slug)
	}
	for _, c := range removed {
		req.ComponentIds = append(req.ComponentIds, c.ID)
	}
	payload, err := proto.Marshal(req)
	if err != nil {
		return fmt.Errorf("encode removal: %w", err)
	}
	_, err = Removals.Add(tx, RemovalTopic, payload)
	return err
}

// recordProjectRename writes, within tx and before p's new slug is
// stored, the new names of the project's components into Removals, and
// renamed (when not nil).
func recordProjectRename(tx *gorm.DB, p *Project, renamed *changelogv1.Change) error {
	var comps []struct {
		ID   int64
		Slug string
	}
	if err := tx.Model(&Component{}).Select("id", "slug").Where("project_id = ?", p.ID).Order("id").Scan(&comps).Error; err != nil {
		return err
	}
	req := &translationv1.RenameComponentsRequest{}
	for _, c := range comps {
		req.Components = append(req.Components, &translationv1.ComponentName{ComponentId: c.ID, ProjectSlug: p.Slug, ComponentSlug: c.Slug})
	}
	return recordRename(tx, req, renamed)
}

// recordComponentRename writes, within tx and before c is stored, c's new
// name into Removals and renamed (when not nil), if its slug changes.
func recordComponentRename(tx *gorm.DB, c *Component, renamed *changelogv1.Change) error {
	var old []string
	if err := tx.Model(&Component{}).Where("id = ?", c.ID).Pluck("slug", &old).Error; err != nil {
		return err
	}
	if len(old) != 1 || old[0] == c.Slug {
		return nil
	}
	var project []string
	if err := tx.Model(&Project{}).Where("id = ?", c.ProjectID).Pluck("slug", &project).Error; err != nil {
		return err
	}
	if len(project) != 1 {
		return ErrNotFound
	}
	req := &translationv1.RenameComponentsRequest{Components: []*translationv1.ComponentName{
		{ComponentId: c.ID, ProjectSlug: project[0], ComponentSlug: c.Slug}}}
	if err := recordLifecycle(tx, componentRenamed(project[0], old[0], c.Slug)); err != nil {
		return err
	}
	return recordRename(tx, req, renamed)
}

func recordRename(tx *gorm.DB, req *translationv1.RenameComponentsRequest, renamed *changelogv1.Change) error {
	if err := record(tx, renamed); err != nil {
		return err
	}
	if len(req.GetComponents()) == 0 {
		return nil
	}
	payload, err := proto.Marshal(req)
	if err != nil {
		return fmt.Errorf("encode rename: %w", err)
	}
	_, err = Removals.Add(tx, RenameTopic, payload)
	return err
}

// RemovedComponents lists the deleted components whose removal the
// translation service has not taken yet, by id.
func (s *Store) RemovedComponents(ctx context.Context) ([]int64, error) {
	return cached(s.db, &s.cache.removed, struct{}{}, func() ([]int64, error) {
		events, err := Removals.Undelivered(s.db.WithContext(ctx))
		if err != nil {
			return nil, err
		}
		var ids []int64
		for _, ev := range events {
			if ev.Topic != RemovalTopic {
				continue
			}
			req, err := DecodeRemoval(ev)
			if err != nil {
				return nil, err
			}
			ids = append(ids, req.GetComponentIds()...)
		}
		return ids, nil
	})
}

// DecodeRemoval reads the ForgetComponents request an event of Removals
// carries.
func DecodeRemoval(ev outbox.Event) (*translationv1.ForgetComponentsRequest, error) {
	req := &translationv1.ForgetComponentsRequest{}
	if err := proto.Unmarshal(ev.Payload, req); err != nil {
		return nil, fmt.Errorf("decode removal %s: %w", ev.EventID, err)
	}
	return req, nil
}
