package server

import (
	"context"
	"time"

	catalogv1 "github.com/tmsproject/tms/proto/gen/go/tms/catalog/v1"
	changelogv1 "github.com/tmsproject/tms/proto/gen/go/tms/changelog/v1"
	translationv1 "github.com/tmsproject/tms/proto/gen/go/tms/translation/v1"
	"github.com/tmsproject/tms/services/translation/search"
	"github.com/tmsproject/tms/services/translation/store"
)

// The storage the server depends on, declared here by role (as OpenFGA's
// pkg/storage does) so that a test of the server's logic can stand a fake
// in for the role it exercises. *store.Store implements them all, on
// SQLite and on PostgreSQL.

// CatalogCopy is the service's copy of the catalog (store/catalogcopy.go).
type CatalogCopy interface {
	ApplySnapshot(ctx context.Context, snap *translationv1.CatalogSnapshot) (bool, error)
	CatalogComponent(ctx context.Context, id int64) (*catalogv1.Component, error)
	CatalogComponentBySlugs(ctx context.Context, project, slug string) (*catalogv1.Component, error)
	CatalogProject(ctx context.Context, slug string) (*catalogv1.Project, error)
	ForgetCatalogComponents(ctx context.Context, ids []int64) error
	RemovedComponents(ctx context.Context) ([]int64, error)
	// ApplyLanguages and LanguageTable keep and read the copy of the
	// language table (store/languagecopy.go).
	ApplyLanguages(ctx context.Context, t *translationv1.LanguageTable) (bool, error)
	LanguageTable(ctx context.Context) (*store.Languages, error)
}

// Translations stores translations and forgets those of deleted components.
type Translations interface {
	GetTranslation(ctx context.Context, componentID int64, code string) (store.Translation, error)
	GetTranslationByID(ctx context.Context, id int64) (store.Translation, error)
	ListTranslations(ctx context.Context, components []int64, offset, limit int64, hidden store.Hidden) ([]store.Translation, int64, error)
	SourceTranslation(ctx context.Context, componentID int64) (store.Translation, error)
	DeleteTranslation(ctx context.Context, id int64, changes ...*changelogv1.Change) error
	RenameComponents(ctx context.Context, names []store.ComponentName) error
	ForgetComponent(ctx context.Context, componentID int64) error
	ForgetProjects(ctx context.Context, projectIDs []int64) error
	SourceLanguage(ctx context.Context, componentID int64) (string, error)
	TranslationsIn(ctx context.Context, projectSlug, code string) ([]store.Translation, error)
}

// Units reads and edits units.
type Units interface {
	ContextKeys(ctx context.Context, translationID int64) (map[string]int64, error)
	EditBatches(ctx context.Context, feed func(apply store.ApplyEdits) error) error
	EditUnit(ctx context.Context, id int64, decide func(store.UnitView) (store.Edit, error)) (store.UnitView, error)
	EditUnits(ctx context.Context, ids []int64, decide func(i int, u store.UnitView) (store.Edit, error)) (edited []bool, err error)
	GetUnit(ctx context.Context, id int64) (store.UnitView, error)
	GetUnitScope(ctx context.Context, id int64) (store.UnitScope, error)
	ListUnits(ctx context.Context, translationID, offset, limit int64, hidden store.Hidden) ([]store.UnitView, int64, error)
	UnitByHash(ctx context.Context, translationID, idHash int64) (store.UnitView, error)
	UnitKeys(ctx context.Context, translationID int64) (map[string]int64, error)
	UnitsOf(ctx context.Context, t store.Translation, offset, limit int64) ([]store.UnitView, int64, error)
	UnitsByID(ctx context.Context, ids []int64) ([]store.Unit, error)
	TranslatedSources(ctx context.Context, ts []int64, sources []string) (map[string]string, error)
}

// Strings adds and removes strings.
type Strings interface {
	CreateUnit(ctx context.Context, ns store.NewString, rules store.CheckRules) (store.UnitView, error)
	CreateUnitBatches(ctx context.Context, componentID int64, rules store.CheckRules, feed func(apply func([]store.NewString) ([]bool, error)) error) error
	DeleteUnit(ctx context.Context, id int64, user string) error
	UnitTranslations(ctx context.Context, id int64) ([]store.UnitView, error)
}

// Search finds units by query.
type Search interface {
	SearchUnitIDs(ctx context.Context, translationID int64, q *search.Query, hidden store.Hidden) ([]int64, error)
	SearchUnits(ctx context.Context, translationID int64, q *search.Query, offset, limit int64, hidden store.Hidden) ([]store.UnitView, int64, error)
}

// Statistics sums translation rows.
type Statistics interface {
	LanguageStatistics(ctx context.Context, componentIDs []int64, hidden store.Hidden) ([]store.Summary, error)
	Statistics(ctx context.Context, sc store.Scope) (store.Summary, error)
	Metrics(ctx context.Context, hidden store.Hidden) (store.Metrics, error)
	VisibleLanguageCodes(ctx context.Context, hidden store.Hidden) ([]string, error)
}

// Suggestions keeps suggestions and their votes.
type Suggestions interface {
	AcceptSuggestion(ctx context.Context, id int64, user string, rules store.CheckRules, propagate func(store.UnitView, string, int) (store.Edit, bool), check func(store.SuggestionView) error) (store.UnitView, error)
	AddSuggestion(ctx context.Context, unitID int64, target, user string) (store.SuggestionView, error)
	AddSuggestionBatches(ctx context.Context, user string, feed func(apply func([]store.NewSuggestion) ([]bool, error)) error) error
	DeleteSuggestion(ctx context.Context, id int64, user, reason string) error
	GetSuggestion(ctx context.Context, id int64) (store.SuggestionView, error)
	ListSuggestions(ctx context.Context, unitID, offset, limit int64, hidden store.Hidden) ([]store.SuggestionView, int64, error)
	VoteSuggestion(ctx context.Context, id int64, user string, value int64) (store.SuggestionView, error)
}

// Comments keeps comments on units.
type Comments interface {
	AddComment(ctx context.Context, unitID int64, scope, text, user string) (store.CommentView, error)
	DeleteComment(ctx context.Context, id int64, user string) error
	GetComment(ctx context.Context, id int64) (store.CommentView, error)
	ListComments(ctx context.Context, unitID, offset, limit int64) ([]store.CommentView, int64, error)
	ResolveComment(ctx context.Context, id int64, user string) (store.CommentView, error)
}

// Labels keeps a project's labels and the units labelled.
type Labels interface {
	CheckLabels(ctx context.Context, projectID int64, ids []int64) error
	CreateLabel(ctx context.Context, l store.Label) (store.Label, error)
	DeleteLabel(ctx context.Context, projectID, id int64) error
	GetLabel(ctx context.Context, projectID, id int64) (store.Label, error)
	LabelsOf(ctx context.Context, units []store.UnitView) (map[int64][]store.Label, error)
	ListLabels(ctx context.Context, projectID int64, offset, limit int64) ([]store.Label, int64, error)
	SetUnitLabels(ctx context.Context, unit store.UnitView, projectID int64, ids []int64) error
	UpdateLabel(ctx context.Context, l store.Label, fields []string) (store.Label, error)
}

// Checks keeps the quality checks' results and dismissals.
type Checks interface {
	CheckSummary(ctx context.Context, translationIDs []int64) ([]store.CheckCount, error)
	DismissChecks(ctx context.Context, translationID int64, ids []int64, name string, dismiss bool, actor string) (int, error)
	HasCheck(ctx context.Context, id int64, name string) error
	UnitChecks(ctx context.Context, id int64, rules store.CheckRules) (store.UnitView, []store.ReportedCheck, error)
	EnforcedFailures(ctx context.Context, translationID int64, names []string) ([]int64, error)
	RecheckTranslation(ctx context.Context, translationID int64, rules store.CheckRules) (int, error)
	ScopeTranslations(ctx context.Context, sc store.Scope) ([]store.Translation, error)
	SetExplanation(ctx context.Context, id int64, text string) (store.UnitView, error)
	SetExtraFlags(ctx context.Context, id int64, extra, actor string, rules store.CheckRules) (store.UnitView, error)
}

// Memory is the translation memory.
type Memory interface {
	AnalyzeMemory(ctx context.Context) error
	DeleteMemory(ctx context.Context, id int64, f store.MemoryFilter) (int64, error)
	ForgetMemoryProjects(ctx context.Context, slugs []string) error
	GetMemory(ctx context.Context, id int64) (store.MemoryEntry, error)
	ListMemory(ctx context.Context, f store.MemoryFilter, offset, limit int64) ([]store.MemoryEntry, int64, error)
	MergeMemoryIndex(ctx context.Context) error
	Remember(ctx context.Context, entries []store.MemoryEntry) (int64, error)
	ScanMemory(ctx context.Context, f store.MemoryFilter, after int64, limit int) ([]store.MemoryEntry, error)
	LookupMemory(ctx context.Context, q store.MemoryQuery, texts []string) ([]store.MemoryMatch, error)
}

// Tasks keeps imports and other background tasks and their alerts.
type Tasks interface {
	AppendTaskLog(ctx context.Context, id, line string) error
	CancelTask(ctx context.Context, id string) (bool, error)
	CreateProjectTask(ctx context.Context, kind, id, projectSlug, holder string) (store.Task, error)
	CreateTask(ctx context.Context, id string, componentID int64, holder string) (store.Task, error)
	CreateTaskOf(ctx context.Context, kind, id string, componentID int64, holder string) (store.Task, error)
	FinishTask(ctx context.Context, id string, failure string) error
	GetTask(ctx context.Context, id string) (store.Task, error)
	RunningTasks(ctx context.Context) ([]store.Task, error)
	TakeOverTask(ctx context.Context, id, holder, by, failure string) (bool, error)
	TaskCancelled(ctx context.Context, id string) (bool, error)
	UpdateTask(ctx context.Context, id string, progress int, logLine string) error
	LatestTask(ctx context.Context, componentID int64) (store.Task, error)
	Alerts(ctx context.Context, componentID int64) ([]store.Alert, error)
	ClearAlerts(ctx context.Context, componentID int64, names ...string) error
	RaiseAlert(ctx context.Context, componentID int64, name, detail string, onNew ...*changelogv1.Change) error
}

// Imports stores what imports read, and what they found for the catalog.
type Imports interface {
	ImportTranslation(ctx context.Context, spec store.ImportSpec) (store.ImportResult, error)
	LanguageCodes(ctx context.Context, componentID int64) ([]string, error)
	RecordImportOutcome(ctx context.Context, o *catalogv1.ImportOutcome) error
}

// Repositories keeps the state of the working copies: their remotes, unpushed commits and pending changes.
type Repositories interface {
	GetRepository(ctx context.Context, componentID int64) (store.Repository, error)
	SaveRepository(ctx context.Context, r store.Repository) error
	GetSnapshot(ctx context.Context, componentID int64) (_ store.Snapshot, ok bool, err error)
	SaveSnapshot(ctx context.Context, snap store.Snapshot) error
	SnapshotState(ctx context.Context, componentID int64) (branch, state string, ok bool, err error)
	DiscardPending(ctx context.Context, componentID int64) error
	FinishCommit(ctx context.Context, componentID int64, done []store.Committed, changes []*changelogv1.Change) error
	MergeFailure(ctx context.Context, componentIDs []int64) (string, error)
	NeedsCommit(ctx context.Context, componentIDs []int64, code string) (bool, error)
	PendingSince(ctx context.Context) (map[int64]time.Time, error)
	PendingWork(ctx context.Context, componentID int64) ([]store.Pending, error)
	RecordChanges(ctx context.Context, changes ...*changelogv1.Change) error
	SetMergeFailure(ctx context.Context, componentID int64, failure string, changes ...*changelogv1.Change) error
}

// Store is every role, and Atomic: the roles in one transaction.
type Store interface {
	CatalogCopy
	Translations
	Units
	Strings
	Search
	Statistics
	Suggestions
	Comments
	Labels
	Checks
	Memory
	Tasks
	Imports
	Repositories
	Atomic(ctx context.Context, fn func(tx *store.Store) error) error
}

var _ Store = (*store.Store)(nil)
