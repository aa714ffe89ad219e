package store

import (
	"context"
	"database/sql/driver"
	"encoding/json"
	"fmt"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"

	"github.com/tmsproject/tms/pkg/flags"
)

// SettingNames are the settings a component inherits from its category or
// project, and a category from its parent, in the order of Weblate's
// INHERITABLE_COMPONENT_SETTINGS; Settings.ptrs and Inherit.ptrs follow it.
var SettingNames = []string{
	"license", "agreement", "new_lang", "language_code_style", "secondary_language",
	"commit_message", "add_message", "delete_message", "merge_message", "addon_message", "pull_message",
}

// Settings are the inheritable settings of a project, category or
// component. The secondary language is kept by code ("" for none).
type Settings struct {
	License               string `gorm:"column:license" json:"license"`
	Agreement             string `gorm:"column:agreement" json:"agreement"`
	NewLang               string `gorm:"column:new_lang" json:"new_lang"`
	LanguageCodeStyle     string `gorm:"column:language_code_style" json:"language_code_style"`
	SecondaryLanguageCode string `gorm:"column:secondary_language_code" json:"secondary_language_code"`
	CommitMessage         string `gorm:"column:commit_message" json:"commit_message"`
	AddMessage            string `gorm:"column:add_message" json:"add_message"`
	DeleteMessage         string `gorm:"column:delete_message" json:"delete_message"`
	MergeMessage          string `gorm:"column:merge_message" json:"merge_message"`
	AddonMessage          string `gorm:"column:addon_message" json:"addon_message"`
	PullMessage           string `gorm:"column:pull_message" json:"pull_message"`
}

// Ptrs are the settings' fields in SettingNames order.
func (s *Settings) Ptrs() []*string {
	return []*string{&s.License, &s.Agreement, &s.NewLang, &s.LanguageCodeStyle, &s.SecondaryLanguageCode,
		&s.CommitMessage, &s.AddMessage, &s.DeleteMessage, &s.MergeMessage, &s.AddonMessage, &s.PullMessage}
}

// Inherit says, per setting, whether the parent's effective value is in
// effect rather than the object's own (Weblate's inherit_* fields).
type Inherit struct {
	InheritLicense           bool `gorm:"column:inherit_license"`
	InheritAgreement         bool `gorm:"column:inherit_agreement"`
	InheritNewLang           bool `gorm:"column:inherit_new_lang"`
	InheritLanguageCodeStyle bool `gorm:"column:inherit_language_code_style"`
	InheritSecondaryLanguage bool `gorm:"column:inherit_secondary_language"`
	InheritCommitMessage     bool `gorm:"column:inherit_commit_message"`
	InheritAddMessage        bool `gorm:"column:inherit_add_message"`
	InheritDeleteMessage     bool `gorm:"column:inherit_delete_message"`
	InheritMergeMessage      bool `gorm:"column:inherit_merge_message"`
	InheritAddonMessage      bool `gorm:"column:inherit_addon_message"`
	InheritPullMessage       bool `gorm:"column:inherit_pull_message"`
}

// Ptrs are the flags in SettingNames order.
func (i *Inherit) Ptrs() []*bool {
	return []*bool{&i.InheritLicense, &i.InheritAgreement, &i.InheritNewLang, &i.InheritLanguageCodeStyle,
		&i.InheritSecondaryLanguage, &i.InheritCommitMessage, &i.InheritAddMessage, &i.InheritDeleteMessage,
		&i.InheritMergeMessage, &i.InheritAddonMessage, &i.InheritPullMessage}
}

// Effective are the settings in effect after inheritance, and the check
// flags merged from the project down. The store keeps them beside the
// settings they come from (recomputed in the transaction that changes a
// project, a category or a component), so that reads, which are many,
// cost nothing more.
type Effective struct {
	Settings
	CheckFlags string `json:"check_flags"`
}

// Value stores e as JSON.
func (e Effective) Value() (driver.Value, error) {
	b, err := json.Marshal(e)
	return string(b), err
}

// Scan reads e from its JSON; empty (never computed) is the zero value.
func (e *Effective) Scan(src any) error {
	*e = Effective{}
	var raw []byte
	switch v := src.(type) {
	case nil:
		return nil
	case string:
		raw = []byte(v)
	case []byte:
		raw = v
	default:
		return fmt.Errorf("store: effective settings of type %T", src)
	}
	if len(raw) == 0 {
		return nil
	}
	return json.Unmarshal(raw, e)
}

// resolve is the effective settings of an object with own settings and
// inherit flags below parent's effective settings.
func resolve(own Settings, inherit Inherit, parent Effective) Settings {
	out := own
	outs, inherited, parents := out.Ptrs(), inherit.Ptrs(), parent.Ptrs()
	for i := range outs {
		if *inherited[i] {
			*outs[i] = *parents[i]
		}
	}
	return out
}

// projectEffective is the project's effective settings: its own.
func projectEffective(p *Project) Effective {
	return Effective{Settings: p.Settings, CheckFlags: flags.Merged(p.CheckFlags)}
}

// categoryEffective is a category's, below parent (its parent category's
// or its project's effective settings).
func categoryEffective(c *Category, parent Effective) Effective {
	return Effective{Settings: resolve(c.Settings, c.Inherit, parent),
		CheckFlags: flags.Merged(parent.CheckFlags, c.CheckFlags)}
}

// componentEffective is a component's, below parent (its category's or
// project's effective settings); its file format's flags come between the
// parent's and its own, as in Weblate's Component.all_flags.
func componentEffective(c *Component, parent Effective) Effective {
	return Effective{Settings: resolve(c.Settings, c.Inherit, parent),
		CheckFlags: flags.Merged(parent.CheckFlags, flags.OfFormat(c.FileFormat), c.CheckFlags)}
}

// lockProject takes the project's row lock on PostgreSQL before a write of
// settings in it: the effective settings below are then computed from
// parents no other transaction is changing (SQLite has one writer).
func lockProject(tx *gorm.DB, id int64) error {
	touch(tx, id) // a write in the project: its snapshot follows
	if tx.Dialector.Name() != "postgres" {
		return nil
	}
	var ids []int64
	return tx.Model(&Project{}).Clauses(clause.Locking{Strength: "UPDATE"}).Where("id = ?", id).Pluck("id", &ids).Error
}

// parentEffective reads the stored effective settings a component below
// category (0: none) of project inherits from.
func parentEffective(tx *gorm.DB, project, category int64) (Effective, error) {
	q := tx.Model(&Project{}).Where("id = ?", project)
	if category != 0 {
		q = tx.Model(&Category{}).Where("id = ? AND project_id = ?", category, project)
	}
	var found []Effective
	if err := q.Pluck("effective", &found).Error; err != nil {
		return Effective{}, err
	}
	if len(found) != 1 {
		return Effective{}, ErrNotFound
	}
	return found[0], nil
}

// refreshProject recomputes, within tx and under the project's lock, the
// effective settings of the project, its categories and its components,
// writes those that changed, and records a recheck of the components whose
// effective check flags changed.
func refreshProject(tx *gorm.DB, id int64) error {
	if err := lockProject(tx, id); err != nil {
		return err
	}
	var p Project
	if err := tx.Where("id = ?", id).Take(&p).Error; err != nil {
		return notFound(err)
	}
	top := projectEffective(&p)
	if top != p.Effective { // stored by the project's own writes, so new only to Backfill
		if err := tx.Model(&Project{}).Where("id = ?", id).Update("effective", top).Error; err != nil {
			return err
		}
	}
	cats, err := refreshCategories(tx, id, top)
	if err != nil {
		return err
	}
	var comps []Component
	if err := tx.Table("components").Where("project_id = ?", id).Order("id").Find(&comps).Error; err != nil {
		return err
	}
	var recheck []int64
	for i := range comps {
		c := &comps[i]
		parent, ok := cats[c.CategoryID]
		if !ok {
			parent = top
		}
		eff := componentEffective(c, parent)
		if eff == c.Effective {
			continue
		}
		if eff.CheckFlags != c.Effective.CheckFlags {
			recheck = append(recheck, c.ID)
		}
		if err := tx.Model(&Component{}).Where("id = ?", c.ID).Update("effective", eff).Error; err != nil {
			return err
		}
	}
	return recordRecheck(tx, recheck, false)
}

// refreshCategories recomputes the effective settings of the project's
// categories, parents first, writes those that changed and answers them
// by id.
func refreshCategories(tx *gorm.DB, project int64, top Effective) (map[int64]Effective, error) {
	var cats []Category
	if err := tx.Table("categories").Where("project_id = ?", project).Find(&cats).Error; err != nil {
		return nil, err
	}
	byID := make(map[int64]*Category, len(cats))
	for i := range cats {
		byID[cats[i].ID] = &cats[i]
	}
	out := make(map[int64]Effective, len(cats))
	var eff func(c *Category, depth int) Effective
	eff = func(c *Category, depth int) Effective {
		if e, ok := out[c.ID]; ok {
			return e
		}
		parent := top
		if p, ok := byID[c.ParentID]; ok && depth < len(cats) {
			parent = eff(p, depth+1)
		}
		out[c.ID] = categoryEffective(c, parent)
		return out[c.ID]
	}
	for i := range cats {
		c := &cats[i]
		if e := eff(c, 0); e != c.Effective {
			if err := tx.Model(&Category{}).Where("id = ?", c.ID).Update("effective", e).Error; err != nil {
				return nil, err
			}
		}
	}
	return out, nil
}

// Backfill gives the projects and categories stored before they had
// settings (their effective settings never computed) the defaults for
// the settings they lack, and computes the effective settings of them and
// their components. Starting replicas may run it at once: each project is
// done under its lock, and doing one twice writes the same values.
func (s *Store) Backfill(ctx context.Context, defaults Settings) error {
	var ids []int64
	if err := s.db.WithContext(ctx).Model(&Project{}).Where("effective = ''").Order("id").Pluck("id", &ids).Error; err != nil {
		return err
	}
	for _, id := range ids {
		err := s.transaction(ctx, func(tx *gorm.DB) error {
			if err := lockProject(tx, id); err != nil {
				return err
			}
			if err := fillDefaults(tx.Table("projects").Where("id = ?", id), defaults); err != nil {
				return err
			}
			if err := fillDefaults(tx.Table("categories").Where("project_id = ?", id), defaults); err != nil {
				return err
			}
			return refreshProject(tx, id)
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// fillDefaults sets the empty commit message templates of the rows of q
// whose effective settings were never computed to the defaults.
func fillDefaults(q *gorm.DB, defaults Settings) error {
	for col, v := range map[string]string{
		"commit_message": defaults.CommitMessage, "add_message": defaults.AddMessage,
		"delete_message": defaults.DeleteMessage, "merge_message": defaults.MergeMessage,
		"addon_message": defaults.AddonMessage, "pull_message": defaults.PullMessage,
	} {
		if err := q.Session(&gorm.Session{}).Where("effective = '' AND "+col+" = ''").Update(col, v).Error; err != nil {
			return err
		}
	}
	return nil
}
