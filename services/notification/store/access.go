package store

import (
	"context"
	"errors"
	"slices"
	"strconv"
	"strings"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"

	"github.com/tmsproject/tms/pkg/errs"
)

// Link kinds of a team (team_links.kind).
const (
	LinkRole      = 1
	LinkProject   = 2
	LinkComponent = 3
	LinkLanguage  = 4
	LinkMember    = 5
	LinkAdmin     = 6 // an administrator, who is also a member
	// LinkComponentList names a component list by its id: the team's
	// roles apply to the list's components instead of its selection.
	LinkComponentList = 7
)

// AnonymousName is the built-in account that stands for the caller
// without one: the teams it is a member of are the anonymous caller's.
const AnonymousName = "anonymous"

// Role is a named set of permissions.
type Role struct {
	ID          int64
	Name        string
	Permissions []string
	Builtin     bool
}

type roleRow struct {
	ID          int64 `gorm:"primaryKey"`
	Name        string
	Permissions string
	Builtin     bool
}

func (roleRow) TableName() string { return "roles" }

func (r roleRow) role() Role {
	var perms []string
	if r.Permissions != "" {
		perms = strings.Split(r.Permissions, ",")
	}
	return Role{ID: r.ID, Name: r.Name, Permissions: perms, Builtin: r.Builtin}
}

func roleRowOf(r Role) roleRow {
	perms := slices.Clone(r.Permissions)
	slices.Sort(perms)
	return roleRow{ID: r.ID, Name: r.Name, Permissions: strings.Join(slices.Compact(perms), ","), Builtin: r.Builtin}
}

// Team is a group of accounts given roles on projects and languages.
type Team struct {
	ID                int64
	Name              string
	DefiningProject   string
	ProjectSelection  int32
	LanguageSelection int32
	Auto              bool // every new account joins
	Roles             []int64
	Projects          []string
	Components        []string
	Languages         []string
	Members           []int64
	Admins            []int64
	ComponentLists    []int64
}

type teamRow struct {
	ID                int64 `gorm:"primaryKey"`
	Name              string
	DefiningProject   string
	ProjectSelection  int32
	LanguageSelection int32
	Auto              bool
}

func (teamRow) TableName() string { return "teams" }

type linkRow struct {
	TeamID int64 `gorm:"primaryKey"`
	Kind   int   `gorm:"primaryKey"`
	Value  string
}

func (linkRow) TableName() string { return "team_links" }

func errTeamName() error {
	return errs.Invalid("name", "unique", "Team with this Name and Defining project already exists.")
}

// ListRoles pages the roles by id; ids limits them when not nil.
func (s *Store) ListRoles(ctx context.Context, ids []int64, offset, limit int) ([]Role, int64, error) {
	if err := checkPage(offset, limit); err != nil {
		return nil, 0, err
	}
	q := func() *gorm.DB {
		q := s.gdb.WithContext(ctx).Model(&roleRow{})
		if ids != nil {
			q = q.Where("id IN ?", append(ids, -1))
		}
		return q
	}
	var total int64
	if err := q().Count(&total).Error; err != nil {
		return nil, 0, err
	}
	var rows []roleRow
	if err := page(q().Order("id"), offset, limit).Find(&rows).Error; err != nil {
		return nil, 0, err
	}
	out := make([]Role, len(rows))
	for i, r := range rows {
		out[i] = r.role()
	}
	return out, total, nil
}

// GetRole returns one role.
func (s *Store) GetRole(ctx context.Context, id int64) (Role, error) {
	var r roleRow
	if err := s.gdb.WithContext(ctx).Take(&r, "id = ?", id).Error; err != nil {
		return Role{}, lookupErr(err)
	}
	return r.role(), nil
}

// SaveRole creates (ID 0) or replaces a role; a name in use is an
// InvalidArgument on name.
func (s *Store) SaveRole(ctx context.Context, r Role) (Role, error) {
	row := roleRowOf(r)
	err := s.gdb.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		var n int64
		if err := tx.Model(&roleRow{}).Where("name = ? AND id <> ?", row.Name, row.ID).Count(&n).Error; err != nil {
			return err
		}
		if n > 0 {
			return errs.Invalid("name", "unique", "Role with this Name already exists.")
		}
		if row.ID == 0 {
			return tx.Create(&row).Error
		}
		return tx.Save(&row).Error
	})
	if err != nil {
		return Role{}, wrap("save role", err)
	}
	return row.role(), nil
}

// DeleteRole removes a role and every team's link to it.
func (s *Store) DeleteRole(ctx context.Context, id int64) error {
	return s.gdb.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		res := tx.Delete(&roleRow{}, "id = ?", id)
		if res.Error != nil {
			return res.Error
		}
		if res.RowsAffected == 0 {
			return notFound()
		}
		return tx.Delete(&linkRow{}, "kind = ? AND value = ?", LinkRole, strconv.FormatInt(id, 10)).Error
	})
}

func lookupErr(err error) error {
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return notFound()
	}
	return err
}

// linkValue is the stored form of an id link.
func linkValue(id int64) string { return strconv.FormatInt(id, 10) }

// TeamFilter narrows ListTeams; zero fields do not.
type TeamFilter struct {
	// IDs, when not nil, are the only teams listed.
	IDs             []int64
	DefiningProject string
	Member          *int64
}

func (f TeamFilter) apply(q *gorm.DB) *gorm.DB {
	if f.IDs != nil {
		q = q.Where("id IN ?", append(f.IDs, -1))
	}
	if f.DefiningProject != "" {
		q = q.Where("defining_project = ?", f.DefiningProject)
	}
	if f.Member != nil {
		q = q.Where("id IN (?)", q.Session(&gorm.Session{NewDB: true}).Model(&linkRow{}).
			Select("team_id").Where("kind = ? AND value = ?", LinkMember, linkValue(*f.Member)))
	}
	return q
}

// ListTeams pages the teams by id with their links.
func (s *Store) ListTeams(ctx context.Context, f TeamFilter, offset, limit int) ([]Team, int64, error) {
	if err := checkPage(offset, limit); err != nil {
		return nil, 0, err
	}
	q := func() *gorm.DB { return f.apply(s.gdb.WithContext(ctx).Model(&teamRow{})) }
	var total int64
	if err := q().Count(&total).Error; err != nil {
		return nil, 0, err
	}
	var rows []teamRow
	if err := page(q().Order("id"), offset, limit).Find(&rows).Error; err != nil {
		return nil, 0, err
	}
	out, err := s.withLinks(s.gdb.WithContext(ctx), rows)
	return out, total, err
}

// withLinks reads the links of the teams of rows.
func (s *Store) withLinks(q *gorm.DB, rows []teamRow) ([]Team, error) {
	out := make([]Team, len(rows))
	index := map[int64]int{}
	ids := make([]int64, len(rows))
	for i, r := range rows {
		out[i] = Team{ID: r.ID, Name: r.Name, DefiningProject: r.DefiningProject,
			ProjectSelection: r.ProjectSelection, LanguageSelection: r.LanguageSelection, Auto: r.Auto}
		index[r.ID], ids[i] = i, r.ID
	}
	var links []linkRow
	if err := q.Where("team_id IN ?", append(ids, -1)).Order("kind, value").Find(&links).Error; err != nil {
		return nil, err
	}
	for _, l := range links {
		t := &out[index[l.TeamID]]
		switch l.Kind {
		case LinkRole:
			id, _ := strconv.ParseInt(l.Value, 10, 64)
			t.Roles = append(t.Roles, id)
		case LinkProject:
			t.Projects = append(t.Projects, l.Value)
		case LinkComponent:
			t.Components = append(t.Components, l.Value)
		case LinkLanguage:
			t.Languages = append(t.Languages, l.Value)
		case LinkMember:
			id, _ := strconv.ParseInt(l.Value, 10, 64)
			t.Members = append(t.Members, id)
		case LinkAdmin:
			id, _ := strconv.ParseInt(l.Value, 10, 64)
			t.Admins = append(t.Admins, id)
		case LinkComponentList:
			id, _ := strconv.ParseInt(l.Value, 10, 64)
			t.ComponentLists = append(t.ComponentLists, id)
		}
	}
	for i := range out {
		slices.Sort(out[i].Roles)
		slices.Sort(out[i].Members)
		slices.Sort(out[i].Admins)
		slices.Sort(out[i].ComponentLists)
	}
	return out, nil
}

// GetTeam returns one team with its links.
func (s *Store) GetTeam(ctx context.Context, id int64) (Team, error) {
	ts, _, err := s.ListTeams(ctx, TeamFilter{IDs: []int64{id}}, 0, 1)
	if err != nil {
		return Team{}, err
	}
	if len(ts) == 0 {
		return Team{}, notFound()
	}
	return ts[0], nil
}

// SaveTeam creates (ID 0) or updates the name and selections of a team;
// links are changed with Link and Unlink.
func (s *Store) SaveTeam(ctx context.Context, t Team) (Team, error) {
	row := teamRow{ID: t.ID, Name: t.Name, DefiningProject: t.DefiningProject,
		ProjectSelection: t.ProjectSelection, LanguageSelection: t.LanguageSelection, Auto: t.Auto}
	err := s.gdb.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		var n int64
		if err := tx.Model(&teamRow{}).Where("name = ? AND defining_project = ? AND id <> ?",
			row.Name, row.DefiningProject, row.ID).Count(&n).Error; err != nil {
			return err
		}
		if n > 0 {
			return errTeamName()
		}
		if row.ID == 0 {
			return tx.Create(&row).Error
		}
		return tx.Model(&teamRow{}).Where("id = ?", row.ID).Select("name", "project_selection", "language_selection").
			Updates(&row).Error
	})
	if err != nil {
		return Team{}, wrap("save team", err)
	}
	return s.GetTeam(ctx, row.ID)
}

// DeleteTeam removes a team and its links.
func (s *Store) DeleteTeam(ctx context.Context, id int64) error {
	return s.gdb.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		res := tx.Delete(&teamRow{}, "id = ?", id)
		if res.Error != nil {
			return res.Error
		}
		if res.RowsAffected == 0 {
			return notFound()
		}
		return tx.Delete(&linkRow{}, "team_id = ?", id).Error
	})
}

// Link adds a link to a team; an existing one is kept. An administrator
// is made a member too.
func (s *Store) Link(ctx context.Context, teamID int64, kind int, value string) error {
	return s.gdb.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		var n int64
		if err := tx.Model(&teamRow{}).Where("id = ?", teamID).Count(&n).Error; err != nil {
			return err
		}
		if n == 0 {
			return notFound()
		}
		add := func(kind int) error {
			return tx.Clauses(clause.OnConflict{DoNothing: true}).Create(&linkRow{TeamID: teamID, Kind: kind, Value: value}).Error
		}
		if kind == LinkAdmin {
			if err := add(LinkMember); err != nil {
				return err
			}
		}
		return add(kind)
	})
}

// Unlink removes a link of a team; NotFound when it has none such. A
// member who leaves stops administering the team too.
func (s *Store) Unlink(ctx context.Context, teamID int64, kind int, value string) error {
	return s.gdb.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		res := tx.Delete(&linkRow{}, "team_id = ? AND kind = ? AND value = ?", teamID, kind, value)
		if res.Error != nil {
			return res.Error
		}
		if res.RowsAffected == 0 {
			return notFound()
		}
		if kind != LinkMember {
			return nil
		}
		return tx.Delete(&linkRow{}, "team_id = ? AND kind = ? AND value = ?", teamID, LinkAdmin, value).Error
	})
}
