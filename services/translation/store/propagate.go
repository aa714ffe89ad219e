package store

import (
	"slices"

	"gorm.io/gorm"
)

// propagate gives the copies of u in the components that take
// propagated translations the target and state of its edit e, each as
// e.Propagate decides (the caller's right to edit it, the copy not
// read-only or its component locked), recorded as the copy's own edit.
// It reports whether any copy was edited. The copies are locked in id
// order.
func (s *Store) propagate(tx *gorm.DB, c *checker, u Unit, e Edit, marks *editMarks) (bool, error) {
	if e.Propagate == nil || e.propagated || c == nil || len(c.copyTs) == 0 {
		return false, nil
	}
	ms, err := members(tx, translationIDs(c.copyTs), []int64{u.IDHash})
	if err != nil {
		return false, err
	}
	group := groupCopies(ms)[keyOf(&u)]
	slices.SortFunc(group, func(a, b *member) int { return int(a.ID - b.ID) })
	edited := false
	for _, m := range group {
		if m.Target == e.Target && m.State == e.State {
			continue
		}
		cu, ct, err := s.lockUnit(tx, m.ID)
		if err != nil {
			return false, err
		}
		ce, ok := e.Propagate(UnitView{Unit: cu, Translation: ct}, e.Target, e.State)
		if !ok {
			continue
		}
		ce.Propagate, ce.propagated = nil, true
		if _, err = s.applyEdit(tx, cu, ct, ce, marks); err != nil {
			return false, err
		}
		edited = true
	}
	return edited, nil
}

// lockCopies locks, in id order, the translation of unit id and those
// holding its copies, before its edit locks anything else. An edit that
// propagates locks the copies' translations after its own; two edits
// propagating each way would wait on each other until PostgreSQL gave
// one up (after a second). Taken in one order, one waits for the other.
// SQLite has a single writer.
func (s *Store) lockCopies(tx *gorm.DB, id int64) error {
	if !s.postgres {
		return nil
	}
	var ts []Translation
	err := tx.Raw("SELECT t.* FROM translations t JOIN units u ON u.translation_id = t.id WHERE u.id = ?", id).Scan(&ts).Error
	if err != nil || len(ts) == 0 || ts[0].IsSource { // none: the edit says NotFound
		return err
	}
	var src []string
	err = tx.Model(&Translation{}).Where("component_id = ? AND is_source = ?", ts[0].ComponentID, true).Limit(1).Pluck("language_code", &src).Error
	if err != nil || len(src) == 0 {
		return err
	}
	copyTs, err := copyTranslations(tx, ts[0], src[0])
	if err != nil || len(copyTs) == 0 {
		return err
	}
	ids := append(translationIDs(copyTs), ts[0].ID)
	slices.Sort(ids)
	return tx.Exec("SELECT id FROM translations WHERE id IN ? ORDER BY id FOR UPDATE", ids).Error
}
