package store

import (
	"context"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"

	"github.com/tmsproject/tms/pkg/errs"
)

type rateCounter struct {
	Key         string `gorm:"primaryKey"`
	WindowStart int64  `gorm:"primaryKey"`
	Used        int64
}

func (rateCounter) TableName() string { return "rate_limit_counters" }

// casAttempts bounds the compare-and-swap loop of TakeQuota: each failed
// attempt means another replica took quota of the same key in between.
const casAttempts = 20

// TakeQuota takes up to want requests of key's window that starts at
// windowStart, never more than limit in all, and reports how many it
// granted and how many the window has used now. The grant is a
// compare-and-swap on the counter, so replicas racing for one key never
// take more than limit together, on either engine.
func (s *Store) TakeQuota(ctx context.Context, key string, windowStart, limit, want int64) (granted, used int64, err error) {
	db := s.gdb.WithContext(ctx)
	row := rateCounter{Key: key, WindowStart: windowStart}
	if err := db.Clauses(clause.OnConflict{DoNothing: true}).Create(&row).Error; err != nil {
		return 0, 0, wrap("rate counter", err)
	}
	for range casAttempts {
		var cur int64
		if err := db.Model(&rateCounter{}).Where("key = ? AND window_start = ?", key, windowStart).
			Pluck("used", &cur).Error; err != nil {
			return 0, 0, wrap("read rate counter", err)
		}
		g := min(want, limit-cur)
		if g <= 0 {
			return 0, cur, nil
		}
		res := db.Model(&rateCounter{}).Where("key = ? AND window_start = ? AND used = ?", key, windowStart, cur).
			Update("used", cur+g)
		if res.Error != nil {
			return 0, 0, wrap("take quota", res.Error)
		}
		if res.RowsAffected == 1 {
			return g, cur + g, s.dropOldWindows(db, key, windowStart)
		}
	}
	return 0, 0, errs.New(errs.Internal, "rate limit counter of %s kept changing under %d attempts", key, casAttempts)
}

// dropOldWindows deletes the key's finished windows.
func (s *Store) dropOldWindows(db *gorm.DB, key string, current int64) error {
	return wrap("drop old windows", db.Where("key = ? AND window_start < ?", key, current).Delete(&rateCounter{}).Error)
}
