package policy

import (
	"slices"
	"strings"
)

// Permissions are the project-scoped permissions a role may hold, the
// reference's names. Those this service has no feature for (glossary,
// memory, screenshots, billing, machinery) are kept so that roles read and
// written through the API round-trip as the reference's do.
var Permissions = []string{
	"billing.view", "change.download",
	"comment.add", "comment.delete", "comment.resolve",
	"component.edit", "component.lock",
	"glossary.add", "glossary.delete", "glossary.edit", "glossary.upload",
	"machinery.view", "memory.delete", "memory.edit",
	"project.edit", "project.permissions", "reports.view",
	"screenshot.add", "screenshot.delete", "screenshot.edit",
	"source.edit",
	"suggestion.accept", "suggestion.add", "suggestion.delete", "suggestion.vote",
	"translation.add", "translation.add_more", "translation.auto", "translation.delete",
	"unit.add", "unit.check", "unit.delete", "unit.edit", "unit.override", "unit.review", "unit.template",
	"upload.authorship", "upload.overwrite", "upload.perform",
	"vcs.access", "vcs.commit", "vcs.push", "vcs.reset", "vcs.update", "vcs.view",
}

// IsPermission tells whether name is one of Permissions.
func IsPermission(name string) bool { return slices.Contains(Permissions, name) }

// translatePerms are what translating needs.
var translatePerms = []string{
	"comment.add", "suggestion.accept", "suggestion.add", "suggestion.vote",
	"unit.check", "unit.edit", "upload.overwrite", "upload.perform", "machinery.view",
}

func withPrefix(prefix string) []string {
	var out []string
	for _, p := range Permissions {
		if strings.HasPrefix(p, prefix) {
			out = append(out, p)
		}
	}
	return out
}

func union(sets ...[]string) []string {
	var out []string
	for _, s := range sets {
		out = append(out, s...)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// Role is a named set of permissions.
type Role struct {
	Name        string
	Permissions []string
}

// BuiltinRoles are the reference's default roles.
var BuiltinRoles = []Role{
	{"Add suggestion", []string{"suggestion.add"}},
	{"Access repository", []string{"vcs.access", "vcs.view"}},
	{"Power user", union(translatePerms, []string{"translation.add", "unit.template", "suggestion.delete", "vcs.access", "vcs.view"}, withPrefix("glossary."))},
	{"Translate", union(translatePerms)},
	{"Edit source", union(translatePerms, []string{"unit.template", "source.edit", "unit.add", "unit.delete"})},
	{"Manage languages", withPrefix("translation.")},
	{"Manage glossary", withPrefix("glossary.")},
	{"Manage translation memory", withPrefix("memory.")},
	{"Manage screenshots", withPrefix("screenshot.")},
	{"Review strings", union(translatePerms, []string{"unit.review", "unit.override", "comment.resolve"})},
	{"Manage repository", withPrefix("vcs.")},
	{"Administration", union(Permissions)},
	{"Billing", withPrefix("billing.")},
}

// Team is a built-in team: its roles on a project selection, for every
// language. Anonymous teams hold the caller without an account, Auto teams
// every new account.
type Team struct {
	Name      string
	Roles     []string
	Selection int32
	Anonymous bool
	Auto      bool
}

// BuiltinTeams are the reference's default site-wide teams.
var BuiltinTeams = []Team{
	{Name: "Guests", Roles: []string{"Add suggestion", "Access repository"}, Selection: SelectAllPublic, Anonymous: true},
	{Name: "Viewers", Selection: SelectAllProtected, Anonymous: true, Auto: true},
	{Name: "Users", Roles: []string{"Power user"}, Selection: SelectAllPublic, Auto: true},
	{Name: "Reviewers", Roles: []string{"Review strings"}, Selection: SelectAll},
	{Name: "Managers", Roles: []string{"Administration"}, Selection: SelectAll},
}

// ProjectTeams are the teams each project defines for itself, with their
// one role each: members of a project's Translate team translate it even
// when it is protected or private.
var ProjectTeams = []Team{
	{Name: "Administration", Roles: []string{"Administration"}},
	{Name: "Review", Roles: []string{"Review strings"}},
	{Name: "Translate", Roles: []string{"Translate"}},
	{Name: "Template", Roles: []string{"Edit source"}},
	{Name: "Languages", Roles: []string{"Manage languages"}},
	{Name: "Glossary", Roles: []string{"Manage glossary"}},
	{Name: "Memory", Roles: []string{"Manage translation memory"}},
	{Name: "Screenshots", Roles: []string{"Manage screenshots"}},
	{Name: "VCS", Roles: []string{"Manage repository"}},
	{Name: "Billing", Roles: []string{"Billing"}},
}

// DefaultGrants are the grants of the built-in teams as first created:
// those of the anonymous caller, or of a new account.
func DefaultGrants(anonymous bool) []Grant {
	roles := map[string][]string{}
	for _, r := range BuiltinRoles {
		roles[r.Name] = r.Permissions
	}
	var out []Grant
	for _, t := range BuiltinTeams {
		if (anonymous && !t.Anonymous) || (!anonymous && !t.Auto) {
			continue
		}
		g := Grant{ProjectSelection: t.Selection, LanguageSelection: LanguagesAll}
		for _, r := range t.Roles {
			g.Permissions = append(g.Permissions, roles[r]...)
		}
		g.Permissions = union(g.Permissions)
		out = append(out, g)
	}
	return out
}
