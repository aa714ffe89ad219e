package store

import (
	"slices"

	"gorm.io/gorm"
)

// propagate gives the copies of u (as edit e leaves it) in the
// components that take propagated translations its target and state,
// each as e.Propagate decides (the caller's right to edit it, the copy
// not read-only or its component locked), recorded as the copy's own
// edit. It reports whether any copy was edited. The copies are locked in
// id order.
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
		if m.Target == u.Target && m.State == u.State {
			continue
		}
		cu, ct, err := s.lockUnit(tx, m.ID)
		if err != nil {
			return false, err
		}
		ce, ok := e.Propagate(UnitView{Unit: cu, Translation: ct}, u.Target, u.State)
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
