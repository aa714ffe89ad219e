package store

import (
	"context"
	"errors"
	"regexp"
	"slices"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// ComponentList is a named set of components across projects.
type ComponentList struct {
	ID            int64  `gorm:"column:id;primaryKey"`
	Name          string `gorm:"column:name"`
	Slug          string `gorm:"column:slug"`
	ShowDashboard bool   `gorm:"column:show_dashboard"`

	// Rules assign components by slug; Members are the member components'
	// ids, filled by the store's reads.
	Rules   []AutoAssign `gorm:"-"`
	Members []int64      `gorm:"-"`
}

// TableName implements gorm's tabler.
func (ComponentList) TableName() string { return "component_lists" }

// AutoAssign is a rule of a list: regular expressions matched, from their
// start, against a component's project slug and slug.
type AutoAssign struct {
	ListID         int64  `gorm:"column:list_id;primaryKey"`
	Position       int    `gorm:"column:position;primaryKey"`
	ProjectMatch   string `gorm:"column:project_match"`
	ComponentMatch string `gorm:"column:component_match"`
}

// TableName implements gorm's tabler.
func (AutoAssign) TableName() string { return "component_list_rules" }

type listMember struct {
	ListID      int64 `gorm:"column:list_id;primaryKey"`
	ComponentID int64 `gorm:"column:component_id;primaryKey"`
}

func (listMember) TableName() string { return "component_list_members" }

// ListComponentLists pages the lists by id with their members v may see:
// all lists when v sees all, else those with a member v may see.
func (s *Store) ListComponentLists(ctx context.Context, page Page, v Viewer) ([]ComponentList, int64, error) {
	q := func() *gorm.DB {
		q := s.db.WithContext(ctx).Model(&ComponentList{})
		if !v.All {
			q = q.Where("id IN (?)", visibleMembers(s.db, v).Select("list_id"))
		}
		return q
	}
	var total int64
	if err := q().Count(&total).Error; err != nil {
		return nil, 0, err
	}
	var out []ComponentList
	if err := page.apply(q().Order("id")).Find(&out).Error; err != nil {
		return nil, 0, err
	}
	return out, total, s.fillLists(ctx, out, v)
}

// visibleMembers selects the member rows whose component v may see.
func visibleMembers(db *gorm.DB, v Viewer) *gorm.DB {
	q := db.Model(&listMember{})
	if v.All {
		return q
	}
	comps := db.Model(&Component{}).Select("id").Where("project_id IN (?)", visibleProjects(db.Model(&Project{}).Select("id"), v))
	return q.Where("component_id IN (?)", comps)
}

// fillLists reads the rules and the members v may see of lists.
func (s *Store) fillLists(ctx context.Context, lists []ComponentList, v Viewer) error {
	if len(lists) == 0 {
		return nil
	}
	ids, index := make([]int64, len(lists)), map[int64]int{}
	for i, l := range lists {
		ids[i], index[l.ID] = l.ID, i
	}
	db := s.db.WithContext(ctx)
	var rules []AutoAssign
	if err := db.Where("list_id IN ?", ids).Order("list_id, position").Find(&rules).Error; err != nil {
		return err
	}
	for _, r := range rules {
		l := &lists[index[r.ListID]]
		l.Rules = append(l.Rules, r)
	}
	var members []listMember
	if err := visibleMembers(db, v).Where("list_id IN ?", ids).Order("list_id, component_id").Find(&members).Error; err != nil {
		return err
	}
	for _, m := range members {
		l := &lists[index[m.ListID]]
		l.Members = append(l.Members, m.ComponentID)
	}
	return nil
}

// GetComponentList reads the list with this slug and its members v may
// see; a list v may not see is ErrNotFound.
func (s *Store) GetComponentList(ctx context.Context, slug string, v Viewer) (*ComponentList, error) {
	var l ComponentList
	if err := s.db.WithContext(ctx).Where("slug = ?", slug).Take(&l).Error; err != nil {
		return nil, notFound(err)
	}
	out := []ComponentList{l}
	if err := s.fillLists(ctx, out, v); err != nil {
		return nil, err
	}
	if !v.All && len(out[0].Members) == 0 {
		return nil, ErrNotFound
	}
	return &out[0], nil
}

// SaveComponentList creates l (ID 0) or updates its name, slug and
// dashboard flag, and, when rules is not nil, replaces its rules and
// assigns the components they match. A taken name or slug yields
// *DuplicateError.
func (s *Store) SaveComponentList(ctx context.Context, l *ComponentList, rules []AutoAssign) error {
	return s.transaction(ctx, func(tx *gorm.DB) error {
		if err := listUnique(tx, l); err != nil {
			return err
		}
		var err error
		if l.ID == 0 {
			err = tx.Create(l).Error
		} else {
			err = tx.Model(&ComponentList{}).Where("id = ?", l.ID).Select("name", "slug", "show_dashboard").Updates(l).Error
		}
		if err != nil {
			return duplicateOr(err, func() error { return listUnique(tx, l) })
		}
		if err := saveRules(tx, l.ID, rules); err != nil {
			return err
		}
		return listChanged(tx, l.ID)
	})
}

// saveRules replaces a list's rules, unless rules is nil, and assigns the
// components they match.
func saveRules(tx *gorm.DB, listID int64, rules []AutoAssign) error {
	if rules == nil {
		return nil
	}
	if err := tx.Where("list_id = ?", listID).Delete(&AutoAssign{}).Error; err != nil {
		return err
	}
	for i := range rules {
		rules[i].ListID, rules[i].Position = listID, i
	}
	if len(rules) > 0 {
		if err := tx.Create(&rules).Error; err != nil {
			return err
		}
	}
	return assignAll(tx, listID, rules)
}

// listUnique checks slug, then name, against the other lists.
func listUnique(tx *gorm.DB, l *ComponentList) error {
	return unique(tx.Model(&ComponentList{}), l.ID, l.Slug, l.Name)
}

// DeleteComponentList removes a list with its members and rules.
func (s *Store) DeleteComponentList(ctx context.Context, id int64) error {
	return s.transaction(ctx, func(tx *gorm.DB) error {
		for _, m := range []any{&listMember{}, &AutoAssign{}} {
			if err := tx.Where("list_id = ?", id).Delete(m).Error; err != nil {
				return err
			}
		}
		res := tx.Delete(&ComponentList{}, id)
		if res.Error == nil && res.RowsAffected == 0 {
			return ErrNotFound
		}
		if res.Error != nil {
			return res.Error
		}
		return listChanged(tx, id)
	})
}

// ChangeListMember adds a component to a list (kept when there) or
// removes it (ErrNotFound when it is not a member).
func (s *Store) ChangeListMember(ctx context.Context, listID, componentID int64, remove bool) error {
	return s.transaction(ctx, func(tx *gorm.DB) error {
		if !remove {
			if err := addMember(tx, listID, componentID); err != nil {
				return err
			}
			return listChanged(tx, listID)
		}
		res := tx.Where("list_id = ? AND component_id = ?", listID, componentID).Delete(&listMember{})
		if res.Error == nil && res.RowsAffected == 0 {
			return ErrNotFound
		}
		if res.Error != nil {
			return res.Error
		}
		return listChanged(tx, listID)
	})
}

// matcher is a rule compiled: its expressions anchored at the start, as
// Python's re.match reads them; nil when one does not compile (the
// server refuses such rules, so only a rule stored otherwise is skipped).
type matcher struct {
	listID             int64
	project, component *regexp.Regexp
}

// compile compiles each rule once, for all the components it is tried on.
func compile(rules []AutoAssign) []matcher {
	out := make([]matcher, 0, len(rules))
	for _, r := range rules {
		pm, err1 := regexp.Compile(`^(?:` + r.ProjectMatch + `)`)
		cm, err2 := regexp.Compile(`^(?:` + r.ComponentMatch + `)`)
		if errors.Join(err1, err2) == nil {
			out = append(out, matcher{listID: r.ListID, project: pm, component: cm})
		}
	}
	return out
}

// matches tells whether the rule assigns the component slug of project.
func (m matcher) matches(project, slug string) bool {
	return m.project.MatchString(project) && m.component.MatchString(slug)
}

// addMember adds a component to a list, keeping one that is there.
func addMember(tx *gorm.DB, listID, componentID int64) error {
	return tx.Clauses(clause.OnConflict{DoNothing: true}).Create(&listMember{ListID: listID, ComponentID: componentID}).Error
}

// assignAll adds to list every component one of rules matches.
func assignAll(tx *gorm.DB, listID int64, rules []AutoAssign) error {
	ms := compile(rules)
	if len(ms) == 0 {
		return nil
	}
	var comps []struct {
		ID                int64
		ProjectSlug, Slug string
	}
	if err := tx.Table("components").Select("components.id, p.slug AS project_slug, components.slug").
		Joins("JOIN projects p ON p.id = components.project_id").Find(&comps).Error; err != nil {
		return err
	}
	for _, c := range comps {
		if slices.ContainsFunc(ms, func(m matcher) bool { return m.matches(c.ProjectSlug, c.Slug) }) {
			if err := addMember(tx, listID, c.ID); err != nil {
				return err
			}
		}
	}
	return nil
}

// autoAssign adds component c (its slugs read) to every list whose rules
// match it, as Weblate's AutoComponentList does when a component is saved.
func autoAssign(tx *gorm.DB, c *Component) error {
	var rules []AutoAssign
	if err := tx.Find(&rules).Error; err != nil {
		return err
	}
	for _, m := range compile(rules) {
		if !m.matches(c.ProjectSlug, c.Slug) {
			continue
		}
		res := tx.Clauses(clause.OnConflict{DoNothing: true}).Create(&listMember{ListID: m.listID, ComponentID: c.ID})
		if res.Error != nil {
			return res.Error
		}
		if res.RowsAffected > 0 { // a new member: the teams using the list follow
			if err := listChanged(tx, m.listID); err != nil {
				return err
			}
		}
	}
	return nil
}
