package store

import (
	"context"
	"encoding/json"
	"errors"
	"slices"

	"gorm.io/gorm"
)

// profileRow is the part of a users row that names projects in the
// account's settings (User.Profile): the JSON key "watched", a list of
// project slugs, which project events keep up to date.
type profileRow struct {
	ID      int64
	Profile string
}

// rewriteWatched applies edit to the watched projects of every account
// whose settings mention project, and stores the lists that changed.
func rewriteWatched(tx *gorm.DB, project string, edit func([]string) []string) error {
	var rows []profileRow
	if err := tx.Model(&userRow{}).Select("id, profile").Where("profile LIKE ? ESCAPE '\\'", "%"+likePrefix(`"`+project+`"`)+"%").
		Find(&rows).Error; err != nil {
		return err
	}
	for _, r := range rows {
		watched := readSettings(r.Profile).Watched
		next := edit(slices.Clone(watched))
		if slices.Equal(next, watched) {
			continue
		}
		if err := r.setWatched(tx, next); err != nil {
			return err
		}
	}
	return nil
}

// setWatched stores the account's settings with watched as its watched
// projects, the other settings as they are.
func (r profileRow) setWatched(tx *gorm.DB, watched []string) error {
	m := map[string]json.RawMessage{}
	if r.Profile != "" {
		if err := json.Unmarshal([]byte(r.Profile), &m); err != nil {
			return err
		}
	}
	raw, err := json.Marshal(watched)
	if err != nil {
		return err
	}
	m["watched"] = raw
	out, err := json.Marshal(m)
	if err != nil {
		return err
	}
	return tx.Model(&userRow{}).Where("id = ?", r.ID).Update("profile", string(out)).Error
}

// settings are the parts of an account's settings the service acts on.
type settings struct {
	Watched   []string `json:"watched"`
	Languages []string `json:"languages"`
	// AutoWatch is nil when never written: on, the default.
	AutoWatch *bool `json:"auto_watch"`
}

func readSettings(raw string) settings {
	var st settings
	if raw != "" {
		_ = json.Unmarshal([]byte(raw), &st) // unreadable settings are the defaults
	}
	return st
}

// WatchOnContribution adds project to the watched projects of the account
// login when its settings ask for it (auto_watch, on by default), as the
// reference does when someone translates, suggests or comments. It is
// idempotent, so a contribution seen twice changes nothing more.
func (s *Store) WatchOnContribution(ctx context.Context, login, project string) error {
	return s.gdb.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		var r profileRow
		err := tx.Model(&userRow{}).Select("id, profile").Where("username = ? AND is_active AND NOT is_bot", login).Take(&r).Error
		if errors.Is(err, gorm.ErrRecordNotFound) {
			return nil // the anonymous account, a removed one, a bot
		}
		if err != nil {
			return err
		}
		st := readSettings(r.Profile)
		if (st.AutoWatch != nil && !*st.AutoWatch) || slices.Contains(st.Watched, project) {
			return nil
		}
		return r.setWatched(tx, append(st.Watched, project))
	})
}

// renameWatched files the watches of project under newSlug.
func renameWatched(tx *gorm.DB, project, newSlug string) error {
	return rewriteWatched(tx, project, func(w []string) []string {
		out := make([]string, 0, len(w))
		for _, s := range w {
			if s == project {
				s = newSlug
			}
			if !slices.Contains(out, s) {
				out = append(out, s)
			}
		}
		return out
	})
}

// dropWatched forgets the watches of a removed project.
func dropWatched(tx *gorm.DB, project string) error {
	return rewriteWatched(tx, project, func(w []string) []string {
		return slices.DeleteFunc(w, func(s string) bool { return s == project })
	})
}
