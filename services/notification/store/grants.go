package store

import (
	"context"
	"errors"
	"slices"
	"strconv"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"

	"github.com/tmsproject/tms/pkg/policy"
)

// AccessVersion is the access version: one more after every change to
// what a caller is granted (migration 0011's triggers keep it).
func (s *Store) AccessVersion(ctx context.Context) (int64, error) {
	var v []int64
	if err := s.gdb.WithContext(ctx).Table("access_version").Where("id = 1").Pluck("version", &v).Error; err != nil {
		return 0, err
	}
	if len(v) != 1 {
		return 0, errors.New("store: no access version")
	}
	return v[0], nil
}

// Grants returns one grant per team of the account: its selections and
// its roles' permissions.
func (s *Store) Grants(ctx context.Context, memberID int64) ([]policy.Grant, error) {
	ts, _, err := s.ListTeams(ctx, TeamFilter{Member: &memberID}, 0, 0)
	if err != nil || len(ts) == 0 {
		return nil, err
	}
	var roleIDs []int64
	for _, t := range ts {
		roleIDs = append(roleIDs, t.Roles...)
	}
	roles, _, err := s.ListRoles(ctx, roleIDs, 0, 0)
	if err != nil {
		return nil, err
	}
	perms := map[int64][]string{}
	for _, r := range roles {
		perms[r.ID] = r.Permissions
	}
	lists, err := s.teamComponentLists(ctx, ts)
	if err != nil {
		return nil, err
	}
	out := make([]policy.Grant, 0, len(ts))
	for _, t := range ts {
		g := policy.Grant{ProjectSelection: t.ProjectSelection, Projects: t.Projects, Components: t.Components,
			LanguageSelection: t.LanguageSelection, Languages: t.Languages}
		if len(t.ComponentLists) > 0 {
			// As the reference: a team with component lists acts on their
			// components only, whatever its selection.
			g.ProjectSelection, g.Projects, g.Components = policy.SelectComponentList, nil, nil
			for _, id := range t.ComponentLists {
				g.Components = append(g.Components, lists[id].Components...)
			}
			slices.Sort(g.Components)
			g.Components = slices.Compact(g.Components)
		}
		for _, id := range t.Roles {
			g.Permissions = append(g.Permissions, perms[id]...)
		}
		slices.Sort(g.Permissions)
		g.Permissions = slices.Compact(g.Permissions)
		out = append(out, g)
	}
	return out, nil
}

// teamComponentLists reads the component lists the teams link.
func (s *Store) teamComponentLists(ctx context.Context, ts []Team) (map[int64]ComponentList, error) {
	var ids []int64
	for _, t := range ts {
		ids = append(ids, t.ComponentLists...)
	}
	if len(ids) == 0 {
		return nil, nil
	}
	return s.ComponentLists(ctx, ids)
}

// EnsureBuiltins writes the built-in roles (their permissions brought up
// to date, as the reference does on upgrade) and creates the built-in
// teams that are missing, with the anonymous caller in its teams and every
// account in the teams new accounts join. Teams an administrator changed
// are left as they are.
func (s *Store) EnsureBuiltins(ctx context.Context) error {
	return s.gdb.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		roleIDs, err := ensureRoles(tx)
		if err != nil {
			return err
		}
		for _, bt := range policy.BuiltinTeams {
			row := teamRow{Name: bt.Name, ProjectSelection: bt.Selection, LanguageSelection: policy.LanguagesAll, Auto: bt.Auto}
			res := tx.Clauses(clause.OnConflict{DoNothing: true}).Create(&row)
			if res.Error != nil {
				return res.Error
			}
			if res.RowsAffected == 0 {
				continue
			}
			if err := linkRoles(tx, row.ID, bt.Roles, roleIDs); err != nil {
				return err
			}
			if err := seedMembers(tx, row.ID, bt); err != nil {
				return err
			}
		}
		return nil
	})
}

func ensureRoles(tx *gorm.DB) (map[string]int64, error) {
	ids := map[string]int64{}
	for _, br := range policy.BuiltinRoles {
		row := roleRowOf(Role{Name: br.Name, Permissions: br.Permissions, Builtin: true})
		err := tx.Clauses(clause.OnConflict{Columns: []clause.Column{{Name: "name"}},
			DoUpdates: clause.AssignmentColumns([]string{"permissions", "builtin"})}).Create(&row).Error
		if err != nil {
			return nil, err
		}
		var stored roleRow
		if err := tx.Take(&stored, "name = ?", br.Name).Error; err != nil {
			return nil, err
		}
		ids[br.Name] = stored.ID
	}
	return ids, nil
}

func linkRoles(tx *gorm.DB, teamID int64, names []string, ids map[string]int64) error {
	for _, name := range names {
		if err := tx.Create(&linkRow{TeamID: teamID, Kind: LinkRole, Value: linkValue(ids[name])}).Error; err != nil {
			return err
		}
	}
	return nil
}

// seedMembers puts the anonymous caller and, for a team new accounts
// join, every existing account into a just-created built-in team.
func seedMembers(tx *gorm.DB, teamID int64, bt policy.Team) error {
	var ids []int64
	q := tx.Model(&userRow{})
	switch {
	case bt.Anonymous && bt.Auto:
	case bt.Anonymous:
		q = q.Where("username = ?", AnonymousName)
	case bt.Auto:
		q = q.Where("username <> ?", AnonymousName)
	default:
		return nil
	}
	if err := q.Pluck("id", &ids).Error; err != nil {
		return err
	}
	for _, id := range ids {
		if err := tx.Create(&linkRow{TeamID: teamID, Kind: LinkMember, Value: linkValue(id)}).Error; err != nil {
			return err
		}
	}
	return nil
}

// joinAutoTeams puts a new account into the teams every account joins;
// the anonymous account joins those when the built-in teams are created.
func joinAutoTeams(tx *gorm.DB, userID int64, username string) error {
	if username == AnonymousName {
		return nil
	}
	var teams []int64
	if err := tx.Model(&teamRow{}).Where("auto = ?", true).Pluck("id", &teams).Error; err != nil {
		return err
	}
	for _, t := range teams {
		err := tx.Clauses(clause.OnConflict{DoNothing: true}).
			Create(&linkRow{TeamID: t, Kind: LinkMember, Value: linkValue(userID)}).Error
		if err != nil {
			return err
		}
	}
	return nil
}

// SetupProjectTeams creates the project's own teams that are missing,
// each selecting the project and holding its built-in role, and puts
// creatorID (when not nil) into its Administration team.
func (s *Store) SetupProjectTeams(ctx context.Context, project string, creatorID *int64) error {
	return s.gdb.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		return setupProjectTeams(tx, project, creatorID)
	})
}

func setupProjectTeams(tx *gorm.DB, project string, creatorID *int64) error {
	roleIDs, err := ensureRoles(tx)
	if err != nil {
		return err
	}
	for _, pt := range policy.ProjectTeams {
		row := teamRow{Name: pt.Name, DefiningProject: project, ProjectSelection: policy.SelectManual,
			LanguageSelection: policy.LanguagesAll}
		res := tx.Clauses(clause.OnConflict{DoNothing: true}).Create(&row)
		if res.Error != nil {
			return res.Error
		}
		if res.RowsAffected == 0 {
			if err := tx.Take(&row, "name = ? AND defining_project = ?", pt.Name, project).Error; err != nil {
				return err
			}
		} else if err := setupProjectTeam(tx, row.ID, project, pt, roleIDs); err != nil {
			return err
		}
		if creatorID != nil && pt.Name == "Administration" {
			err := tx.Clauses(clause.OnConflict{DoNothing: true}).
				Create(&linkRow{TeamID: row.ID, Kind: LinkMember, Value: linkValue(*creatorID)}).Error
			if err != nil {
				return err
			}
		}
	}
	return nil
}

func setupProjectTeam(tx *gorm.DB, teamID int64, project string, pt policy.Team, roleIDs map[string]int64) error {
	if err := tx.Create(&linkRow{TeamID: teamID, Kind: LinkProject, Value: project}).Error; err != nil {
		return err
	}
	return linkRoles(tx, teamID, pt.Roles, roleIDs)
}

// DeleteProjectTeams removes the project's own teams, the project and its
// components from every other team, and the project's subscriptions and
// webhooks (as the reference's foreign keys cascade): a new project taking
// the slug inherits nothing.
func (s *Store) DeleteProjectTeams(ctx context.Context, project string) error {
	return s.gdb.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		return deleteProjectTeams(tx, project)
	})
}

func deleteProjectTeams(tx *gorm.DB, project string) error {
	if err := dropWatched(tx, project); err != nil {
		return err
	}
	if err := listsFollowProject(tx, project, ""); err != nil {
		return err
	}
	if err := tx.Where("project_slug = ?", project).Delete(&Subscription{}).Error; err != nil {
		return err
	}
	if err := tx.Where("project_slug = ?", project).Delete(&Webhook{}).Error; err != nil {
		return err
	}
	own := tx.Session(&gorm.Session{NewDB: true}).Model(&teamRow{}).Select("id").Where("defining_project = ?", project)
	if err := tx.Where("team_id IN (?)", own).Delete(&linkRow{}).Error; err != nil {
		return err
	}
	if err := tx.Where("defining_project = ?", project).Delete(&teamRow{}).Error; err != nil {
		return err
	}
	if err := tx.Where("kind = ? AND value = ?", LinkProject, project).Delete(&linkRow{}).Error; err != nil {
		return err
	}
	return tx.Where("kind = ? AND value LIKE ? ESCAPE '\\'", LinkComponent, likePrefix(project)+"/%").Delete(&linkRow{}).Error
}

// RenameProject files the project's teams, the links naming it or its
// components, its subscriptions and its webhooks under slug newSlug.
func (s *Store) RenameProject(ctx context.Context, project, newSlug string) error {
	return s.gdb.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		return renameProject(tx, project, newSlug)
	})
}

func renameProject(tx *gorm.DB, project, newSlug string) error {
	if err := renameWatched(tx, project, newSlug); err != nil {
		return err
	}
	if err := listsFollowProject(tx, project, newSlug); err != nil {
		return err
	}
	if err := mergeClashingTeams(tx, project, newSlug); err != nil {
		return err
	}
	steps := []func() *gorm.DB{
		func() *gorm.DB {
			return tx.Model(&teamRow{}).Where("defining_project = ?", project).Update("defining_project", newSlug)
		},
		func() *gorm.DB {
			return tx.Model(&linkRow{}).Where("kind = ? AND value = ?", LinkProject, project).Update("value", newSlug)
		},
		func() *gorm.DB {
			return tx.Model(&linkRow{}).Where("kind = ? AND value LIKE ? ESCAPE '\\'", LinkComponent, likePrefix(project)+"/%").
				Update("value", gorm.Expr("? || SUBSTR(value, ?)", newSlug+"/", len(project)+2))
		},
		func() *gorm.DB {
			return tx.Model(&Subscription{}).Where("project_slug = ?", project).Update("project_slug", newSlug)
		},
		func() *gorm.DB {
			return tx.Model(&Webhook{}).Where("project_slug = ?", project).Update("project_slug", newSlug)
		},
	}
	for _, st := range steps {
		if err := st().Error; err != nil {
			return err
		}
	}
	return nil
}

// mergeClashingTeams gives the members of project's own teams to the
// teams of the same name newSlug already defines, and drops the former.
// newSlug has teams of its own when they were set up for it before its
// rename reached the service (the service adopting, at start, the
// catalog's projects without teams while the rename waited in the
// catalog's outbox): the renamed project's teams and members win, the
// members of both kept.
func mergeClashingTeams(tx *gorm.DB, project, newSlug string) error {
	var pairs []struct{ FromID, IntoID int64 }
	err := tx.Raw(`SELECT a.id AS from_id, b.id AS into_id FROM teams a JOIN teams b ON a.name = b.name
		WHERE a.defining_project = ? AND b.defining_project = ?`, project, newSlug).Scan(&pairs).Error
	if err != nil {
		return err
	}
	for _, p := range pairs {
		err := tx.Exec(`INSERT INTO team_links (team_id, kind, value) SELECT ?, kind, value FROM team_links
			WHERE team_id = ? AND kind IN (?, ?) ON CONFLICT DO NOTHING`, p.IntoID, p.FromID, LinkMember, LinkAdmin).Error
		if err != nil {
			return err
		}
		if err := tx.Where("team_id = ?", p.FromID).Delete(&linkRow{}).Error; err != nil {
			return err
		}
		if err := tx.Delete(&teamRow{}, p.FromID).Error; err != nil {
			return err
		}
	}
	return nil
}

// RenameComponent files the links and subscriptions naming a component of
// project under its slug newSlug.
func (s *Store) RenameComponent(ctx context.Context, project, component, newSlug string) error {
	return s.gdb.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		return renameComponent(tx, project, component, newSlug)
	})
}

func renameComponent(tx *gorm.DB, project, component, newSlug string) error {
	if err := listsFollowComponent(tx, project, component, newSlug); err != nil {
		return err
	}
	err := tx.Model(&linkRow{}).Where("kind = ? AND value = ?", LinkComponent, project+"/"+component).
		Update("value", project+"/"+newSlug).Error
	if err != nil {
		return err
	}
	return tx.Model(&Subscription{}).Where("project_slug = ? AND component_slug = ?", project, component).
		Update("component_slug", newSlug).Error
}

// deleteComponentScope drops the team links and the subscriptions naming
// a deleted component: a new component taking its slug inherits neither.
func deleteComponentScope(tx *gorm.DB, project, component string) error {
	if err := listsFollowComponent(tx, project, component, ""); err != nil {
		return err
	}
	if err := tx.Where("kind = ? AND value = ?", LinkComponent, project+"/"+component).Delete(&linkRow{}).Error; err != nil {
		return err
	}
	return tx.Where("project_slug = ? AND component_slug = ?", project, component).Delete(&Subscription{}).Error
}

// likePrefix escapes the LIKE wildcards of a slug (slugs may hold "_").
func likePrefix(s string) string {
	out := make([]rune, 0, len(s))
	for _, r := range s {
		if r == '%' || r == '_' || r == '\\' {
			out = append(out, '\\')
		}
		out = append(out, r)
	}
	return string(out)
}

// MemberIDs resolves usernames (exact) to account ids; unknown names are
// missing from the map.
func (s *Store) MemberIDs(ctx context.Context, usernames []string) (map[string]int64, error) {
	var rows []userRow
	if err := s.gdb.WithContext(ctx).Select("id", "username").Where("username IN ?", append(usernames, "")).Find(&rows).Error; err != nil {
		return nil, err
	}
	out := map[string]int64{}
	for _, r := range rows {
		out[r.Username] = r.ID
	}
	return out, nil
}

// Usernames resolves account ids to usernames.
func (s *Store) Usernames(ctx context.Context, ids []int64) (map[int64]string, error) {
	var rows []userRow
	if err := s.gdb.WithContext(ctx).Select("id", "username").Where("id IN ?", append(ids, -1)).Find(&rows).Error; err != nil {
		return nil, err
	}
	out := map[int64]string{}
	for _, r := range rows {
		out[r.ID] = r.Username
	}
	return out, nil
}

// TeamIDsOf returns the team ids of each account, in id order.
func (s *Store) TeamIDsOf(ctx context.Context, userIDs []int64) (map[int64][]int64, error) {
	values := make([]string, len(userIDs))
	for i, id := range userIDs {
		values[i] = linkValue(id)
	}
	var links []linkRow
	if err := s.gdb.WithContext(ctx).Where("kind = ? AND value IN ?", LinkMember, append(values, "")).
		Order("team_id").Find(&links).Error; err != nil {
		return nil, err
	}
	out := map[int64][]int64{}
	for _, l := range links {
		id, _ := strconv.ParseInt(l.Value, 10, 64)
		out[id] = append(out[id], l.TeamID)
	}
	return out, nil
}

// ProjectsWithTeams lists the projects that define teams.
func (s *Store) ProjectsWithTeams(ctx context.Context) (map[string]bool, error) {
	var slugs []string
	if err := s.gdb.WithContext(ctx).Model(&teamRow{}).Where("defining_project <> ''").
		Distinct().Pluck("defining_project", &slugs).Error; err != nil {
		return nil, err
	}
	out := make(map[string]bool, len(slugs))
	for _, p := range slugs {
		out[p] = true
	}
	return out, nil
}
