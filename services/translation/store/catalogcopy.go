package store

import (
	"bytes"
	"context"
	"fmt"
	"slices"

	"google.golang.org/protobuf/proto"
	"gorm.io/gorm"

	catalogv1 "github.com/tmsproject/tms/proto/gen/go/tms/catalog/v1"
	translationv1 "github.com/tmsproject/tms/proto/gen/go/tms/translation/v1"
	typev1 "github.com/tmsproject/tms/proto/gen/go/tms/type/v1"
)

// The service's copy of the catalog: each project and component as the
// catalog last sent them (ApplySnapshot), so that reads and edits ask the
// catalog nothing. The catalog owns the data; this copy is its
// projection, fed by the catalog's outbox in revisions.

// catalogProject is a row of catalog_projects.
type catalogProject struct {
	ID                 int64  `gorm:"column:id;primaryKey"`
	Slug               string `gorm:"column:slug"`
	Revision           int64  `gorm:"column:revision"`
	Removed            bool   `gorm:"column:removed"`
	AccessControl      int32  `gorm:"column:access_control"`
	UseSharedTM        bool   `gorm:"column:use_shared_tm"`
	ContributeSharedTM bool   `gorm:"column:contribute_shared_tm"`
	Payload            []byte `gorm:"column:payload"`
}

func (catalogProject) TableName() string { return "catalog_projects" }

// catalogComponent is a row of catalog_components.
type catalogComponent struct {
	ID          int64  `gorm:"column:id;primaryKey"`
	ProjectID   int64  `gorm:"column:project_id"`
	ProjectSlug string `gorm:"column:project_slug"`
	Slug        string `gorm:"column:slug"`
	Removed     bool   `gorm:"column:removed"`
	Payload     []byte `gorm:"column:payload"`
}

func (catalogComponent) TableName() string { return "catalog_components" }

// ApplySnapshot stores the project's snapshot unless the copy holds its
// revision or a newer one, and reports whether it did. The components of
// the project the snapshot does not list are marked removed: deleted in
// the catalog, their rows here go when ForgetCatalogComponents runs.
func (s *Store) ApplySnapshot(ctx context.Context, snap *translationv1.CatalogSnapshot) (bool, error) {
	row, err := projectRow(snap)
	if err != nil {
		return false, err
	}
	applied := false
	if s.copies != nil {
		s.copies.written()
		defer s.copies.written()
	}
	err = s.q(ctx).Transaction(func(tx *gorm.DB) error {
		res := tx.Exec(`INSERT INTO catalog_projects
			(id, slug, revision, removed, access_control, use_shared_tm, contribute_shared_tm, payload)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?)
			ON CONFLICT (id) DO UPDATE SET slug = excluded.slug, revision = excluded.revision,
				removed = excluded.removed, access_control = excluded.access_control,
				use_shared_tm = excluded.use_shared_tm, contribute_shared_tm = excluded.contribute_shared_tm,
				payload = excluded.payload
			WHERE catalog_projects.revision < excluded.revision`,
			row.ID, row.Slug, row.Revision, row.Removed, row.AccessControl, row.UseSharedTM, row.ContributeSharedTM, row.Payload)
		if res.Error != nil || res.RowsAffected == 0 {
			return res.Error // an older snapshot, or the same again
		}
		applied = true
		return applyComponents(tx, snap)
	})
	return applied, err
}

// projectRow is the catalog_projects row of a snapshot.
func projectRow(snap *translationv1.CatalogSnapshot) (catalogProject, error) {
	row := catalogProject{ID: snap.GetProjectId(), Revision: snap.GetRevision(), Removed: snap.GetRemoved()}
	if p := snap.GetProject(); p != nil && !row.Removed {
		payload, err := proto.Marshal(p)
		if err != nil {
			return row, fmt.Errorf("encode project %d: %w", row.ID, err)
		}
		row.Slug, row.AccessControl, row.Payload = p.GetSlug(), int32(p.GetAccessControl()), payload
		row.UseSharedTM, row.ContributeSharedTM = p.GetUseSharedTm(), p.GetContributeSharedTm()
	}
	return row, nil
}

// applyComponents writes the components of a snapshot that changed and
// marks those of its project it does not list removed. A write to one
// component sends its whole project: the others, unchanged, are not
// written again.
func applyComponents(tx *gorm.DB, snap *translationv1.CatalogSnapshot) error {
	var held []catalogComponent
	if err := tx.Select("id", "payload").Where("project_id = ? AND NOT removed", snap.GetProjectId()).Find(&held).Error; err != nil {
		return err
	}
	stored := make(map[int64][]byte, len(held))
	for _, h := range held {
		stored[h.ID] = h.Payload
	}
	ids := make([]int64, 0, len(snap.GetComponents()))
	for _, c := range snap.GetComponents() {
		ids = append(ids, c.GetId())
		payload, err := proto.MarshalOptions{Deterministic: true}.Marshal(c)
		if err != nil {
			return fmt.Errorf("encode component %d: %w", c.GetId(), err)
		}
		if old, ok := stored[c.GetId()]; ok && bytes.Equal(old, payload) {
			continue
		}
		err = tx.Exec(`INSERT INTO catalog_components (id, project_id, project_slug, slug, removed, payload)
			VALUES (?, ?, ?, ?, FALSE, ?)
			ON CONFLICT (id) DO UPDATE SET project_id = excluded.project_id, project_slug = excluded.project_slug,
				slug = excluded.slug, removed = FALSE, payload = excluded.payload`,
			c.GetId(), snap.GetProjectId(), c.GetProjectSlug(), c.GetSlug(), payload).Error
		if err != nil {
			return err
		}
	}
	gone := tx.Model(&catalogComponent{}).Where("project_id = ? AND NOT removed", snap.GetProjectId())
	if len(ids) > 0 {
		gone = gone.Where("id NOT IN ?", ids)
	}
	return gone.Updates(map[string]any{"removed": true, "payload": nil}).Error
}

// CatalogComponent is the component with this id as the catalog last
// sent it: NotFound when the copy holds none or it was deleted.
func (s *Store) CatalogComponent(ctx context.Context, id int64) (*catalogv1.Component, error) {
	c := s.copies
	return cachedMessage(c, func() (*catalogv1.Component, bool) { m, ok := c.comps[id]; return m, ok },
		func() (*catalogv1.Component, error) {
			return s.catalogComponent(s.q(ctx).Where("id = ? AND NOT removed", id))
		},
		func(m *catalogv1.Component) { c.comps[id] = m })
}

// CatalogComponentBySlugs is the component with these slugs (see
// CatalogComponent).
func (s *Store) CatalogComponentBySlugs(ctx context.Context, project, slug string) (*catalogv1.Component, error) {
	c, key := s.copies, [2]string{project, slug}
	return cachedMessage(c, func() (*catalogv1.Component, bool) { m, ok := c.slugs[key]; return m, ok },
		func() (*catalogv1.Component, error) {
			return s.catalogComponent(s.q(ctx).Where("project_slug = ? AND slug = ? AND NOT removed", project, slug))
		},
		func(m *catalogv1.Component) { c.slugs[key] = m })
}

func (s *Store) catalogComponent(q *gorm.DB) (*catalogv1.Component, error) {
	var row catalogComponent
	if err := notFound(q.Take(&row).Error, "component"); err != nil {
		return nil, err
	}
	c := &catalogv1.Component{}
	if err := proto.Unmarshal(row.Payload, c); err != nil {
		return nil, fmt.Errorf("decode component %d: %w", row.ID, err)
	}
	return c, nil
}

// CatalogProject is the project with this slug as the catalog last sent
// it: NotFound when the copy holds none or it was deleted.
func (s *Store) CatalogProject(ctx context.Context, slug string) (*catalogv1.Project, error) {
	c := s.copies
	return cachedMessage(c, func() (*catalogv1.Project, bool) { m, ok := c.projects[slug]; return m, ok },
		func() (*catalogv1.Project, error) { return s.catalogProject(ctx, slug) },
		func(m *catalogv1.Project) { c.projects[slug] = m })
}

func (s *Store) catalogProject(ctx context.Context, slug string) (*catalogv1.Project, error) {
	var row catalogProject
	if err := notFound(s.q(ctx).Where("slug = ? AND NOT removed", slug).Take(&row).Error, "project"); err != nil {
		return nil, err
	}
	p := &catalogv1.Project{}
	if err := proto.Unmarshal(row.Payload, p); err != nil {
		return nil, fmt.Errorf("decode project %d: %w", row.ID, err)
	}
	return p, nil
}

// ProjectAccess lists every project's access as GetProjectAccess answers
// it, with a version that changes whenever one of them does: revisions
// only grow, so their sum and count name the copy's state.
func (s *Store) ProjectAccess(ctx context.Context, known string) (*catalogv1.GetProjectAccessResponse, error) {
	c := s.copies
	all, err := cachedMessage(c, func() (*catalogv1.GetProjectAccessResponse, bool) { return c.access, c.access != nil },
		func() (*catalogv1.GetProjectAccessResponse, error) { return s.projectAccess(ctx, "") },
		func(m *catalogv1.GetProjectAccessResponse) { c.access = m })
	if err != nil || all.GetVersion() != known {
		return all, err
	}
	return &catalogv1.GetProjectAccessResponse{Version: known, Unchanged: true}, nil
}

func (s *Store) projectAccess(ctx context.Context, known string) (*catalogv1.GetProjectAccessResponse, error) {
	var v struct{ N, Sum int64 }
	if err := s.q(ctx).Model(&catalogProject{}).Select("COUNT(*) AS n, COALESCE(SUM(revision), 0) AS sum").Scan(&v).Error; err != nil {
		return nil, err
	}
	version := fmt.Sprintf("%d:%d", v.N, v.Sum)
	if version == known {
		return &catalogv1.GetProjectAccessResponse{Version: version, Unchanged: true}, nil
	}
	var rows []catalogProject
	if err := s.q(ctx).Select("slug", "access_control", "use_shared_tm", "contribute_shared_tm").
		Where("NOT removed").Find(&rows).Error; err != nil {
		return nil, err
	}
	out := &catalogv1.GetProjectAccessResponse{Version: version, Projects: make([]*catalogv1.ProjectAccess, len(rows))}
	for i, r := range rows {
		out.Projects[i] = &catalogv1.ProjectAccess{Slug: r.Slug, AccessControl: typev1.AccessControl(r.AccessControl),
			UseSharedTm: r.UseSharedTM, ContributeSharedTm: r.ContributeSharedTM}
	}
	return out, nil
}

// RemovedComponents lists the components the catalog deleted whose rows
// ForgetCatalogComponents has not dropped yet: every read leaves them out.
func (s *Store) RemovedComponents(ctx context.Context) ([]int64, error) {
	c := s.copies
	return cachedValue(c, slices.Clone[[]int64], func() ([]int64, bool) { return c.removed, c.removed != nil },
		func() ([]int64, error) {
			ids := []int64{}
			err := s.q(ctx).Model(&catalogComponent{}).Where("removed").Order("id").Pluck("id", &ids).Error
			return ids, err
		},
		func(ids []int64) { c.removed = ids })
}

// ForgetCatalogComponents drops the copy's rows of deleted components,
// once what the service held of them is gone.
func (s *Store) ForgetCatalogComponents(ctx context.Context, ids []int64) error {
	if len(ids) == 0 {
		return nil
	}
	if s.copies != nil {
		s.copies.written()
		defer s.copies.written()
	}
	// Removed or not: the removal may overtake the snapshot that marks
	// them, which then finds no row to mark.
	return s.q(ctx).Where("id IN ?", ids).Delete(&catalogComponent{}).Error
}
