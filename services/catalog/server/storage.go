package server

import (
	"context"

	changelogv1 "github.com/tmsproject/tms/proto/gen/go/tms/changelog/v1"
	"github.com/tmsproject/tms/services/catalog/store"
)

// The storage the server depends on, declared here by role (as OpenFGA's
// pkg/storage does) so that a test of the server's logic can stand a fake
// in for the role it exercises. *store.Store implements them all, on
// SQLite and on PostgreSQL.

// Projects stores projects, their access and machinery settings.
type Projects interface {
	CreateProject(ctx context.Context, p *store.Project, creator string, change *changelogv1.Change) error
	DeleteProject(ctx context.Context, slug string, change *changelogv1.Change, componentChange func(store.Component) *changelogv1.Change) error
	GetProject(ctx context.Context, slug string) (*store.Project, error)
	ListProjects(ctx context.Context, page store.Page, v store.Viewer) ([]store.Project, int64, error)
	SaveProject(ctx context.Context, p *store.Project, renamed *changelogv1.Change) error
	ProjectAccess(ctx context.Context) ([]store.ProjectLevel, error)
	GetMachinerySettings(ctx context.Context, projectID int64) (store.MachinerySettings, error)
	SetMachinerySetting(ctx context.Context, projectID int64, service string, cfg map[string]any) error
}

// Components stores components, their links, locks and what imports found.
type Components interface {
	ComponentLinks(ctx context.Context, componentID int64, page store.Page, v store.Viewer) ([]store.Project, int64, error)
	CreateComponent(ctx context.Context, c *store.Component, change *changelogv1.Change) error
	DeleteComponent(ctx context.Context, projectSlug, slug string, change func(store.Component) *changelogv1.Change) error
	GetComponent(ctx context.Context, projectSlug, slug string) (*store.Component, error)
	GetComponentByID(ctx context.Context, id int64) (*store.Component, error)
	LinkComponent(ctx context.Context, componentID, projectID int64) error
	ListComponents(ctx context.Context, projectSlug string, page store.Page, v store.Viewer) ([]store.Component, int64, error)
	RecordBranch(ctx context.Context, id int64, branch string) error
	SaveComponent(ctx context.Context, c *store.Component, renamed *changelogv1.Change) error
	SetComponentLock(ctx context.Context, projectSlug, slug string, locked bool, change func(store.Component) *changelogv1.Change) (*store.Component, bool, error)
	UnlinkComponent(ctx context.Context, componentID, projectID int64) error
}

// Categories stores the categories of projects.
type Categories interface {
	CategoryComponents(ctx context.Context, id int64) ([]int64, error)
	CategoryTree(ctx context.Context, id int64) ([]int64, error)
	DeleteCategory(ctx context.Context, id int64, change func(store.Component) *changelogv1.Change) ([]store.Component, error)
	GetCategory(ctx context.Context, id int64) (*store.Category, error)
	ListCategories(ctx context.Context, projectID int64, page store.Page, v store.Viewer) ([]store.Category, int64, error)
	SaveCategory(ctx context.Context, c *store.Category) error
}

// ComponentLists stores component lists and their members.
type ComponentLists interface {
	ChangeListMember(ctx context.Context, listID, componentID int64, remove bool) error
	DeleteComponentList(ctx context.Context, id int64) error
	GetComponentList(ctx context.Context, slug string, v store.Viewer) (*store.ComponentList, error)
	ListComponentLists(ctx context.Context, page store.Page, v store.Viewer) ([]store.ComponentList, int64, error)
	SaveComponentList(ctx context.Context, l *store.ComponentList, rules []store.AutoAssign) error
}

// Languages stores languages and plural rules.
type Languages interface {
	AddLanguage(ctx context.Context, l *store.Language) error
	CreateLanguage(ctx context.Context, l store.Language) (*store.Language, error)
	CreatePlural(ctx context.Context, p store.Plural) (*store.Plural, error)
	DeleteLanguage(ctx context.Context, id int64) error
	GetLanguage(ctx context.Context, code string) (*store.Language, error)
	ListLanguages(ctx context.Context, page store.Page, f store.LanguageFilter) ([]store.Language, int64, error)
	ListPlurals(ctx context.Context, languageID int64) ([]store.Plural, error)
	SaveLanguage(ctx context.Context, l *store.Language) error
	// TouchLanguages sends the language table to the translation service
	// again.
	TouchLanguages(ctx context.Context) error
}

// Announcements stores announcements.
type Announcements interface {
	CreateAnnouncement(ctx context.Context, a *store.Announcement, change *changelogv1.Change) error
	DeleteAnnouncement(ctx context.Context, at store.AnnouncementContext, id int64) error
	ListAnnouncements(ctx context.Context, at store.AnnouncementContext, page store.Page) ([]store.Announcement, int64, error)
}

// Feeds reads what the catalog hands other services: pending removals and project snapshots.
type Feeds interface {
	RemovedComponents(ctx context.Context) ([]int64, error)
	Snapshot(ctx context.Context, projectID int64) (store.ProjectSnapshot, error)
}

// Search searches projects, components and languages by name.
type Search interface {
	Search(ctx context.Context, text string, limit int, v store.Viewer) (store.Found, error)
}

// Store is every role.
type Store interface {
	Projects
	Components
	Categories
	ComponentLists
	Languages
	Announcements
	Feeds
	Search
}

var _ Store = (*store.Store)(nil)
