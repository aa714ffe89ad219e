package store

import (
	"embed"
	"strings"
	"time"

	"github.com/tmsproject/tms/pkg/db"
	"github.com/tmsproject/tms/pkg/textstat"
	"github.com/tmsproject/tms/pkg/weblate"
)

//go:embed migrations
var migrations embed.FS

// Migrations are the service's own tables; migrate them with outbox.Migrations.
var Migrations = db.EmbeddedSource("translation", migrations, "migrations")

// PluralSeparator joins plural forms in the source and target columns, as
// Weblate stores them.
const PluralSeparator = textstat.PluralSeparator

// Join stores plural forms in one column.
func Join(forms []string) string { return textstat.JoinPlural(forms) }

// Split undoes Join.
func Split(s string) []string { return strings.Split(s, PluralSeparator) }

// Stats are the counters kept on every translation row.
type Stats struct {
	Total           int64
	TotalWords      int64
	TotalChars      int64
	Translated      int64
	TranslatedWords int64
	TranslatedChars int64
	Fuzzy           int64
	FuzzyWords      int64
	FuzzyChars      int64
	Approved        int64
	ApprovedWords   int64
	ApprovedChars   int64
	Readonly        int64
	ReadonlyWords   int64
	ReadonlyChars   int64
	Failing         int64
	FailingWords    int64
	FailingChars    int64
	Suggestions     int64
	Comments        int64
}

// values are the counters in the order of statColumns.
func (s *Stats) values() []int64 {
	return []int64{s.Total, s.TotalWords, s.TotalChars, s.Translated, s.TranslatedWords, s.TranslatedChars,
		s.Fuzzy, s.FuzzyWords, s.FuzzyChars, s.Approved, s.ApprovedWords, s.ApprovedChars,
		s.Readonly, s.ReadonlyWords, s.ReadonlyChars, s.Failing, s.Suggestions, s.Comments, s.FailingWords, s.FailingChars}
}

// add adds d to every counter.
func (s *Stats) add(d Stats) {
	for _, p := range []struct{ to, from *int64 }{
		{&s.Total, &d.Total}, {&s.TotalWords, &d.TotalWords}, {&s.TotalChars, &d.TotalChars},
		{&s.Translated, &d.Translated}, {&s.TranslatedWords, &d.TranslatedWords}, {&s.TranslatedChars, &d.TranslatedChars},
		{&s.Fuzzy, &d.Fuzzy}, {&s.FuzzyWords, &d.FuzzyWords}, {&s.FuzzyChars, &d.FuzzyChars},
		{&s.Approved, &d.Approved}, {&s.ApprovedWords, &d.ApprovedWords}, {&s.ApprovedChars, &d.ApprovedChars},
		{&s.Readonly, &d.Readonly}, {&s.ReadonlyWords, &d.ReadonlyWords}, {&s.ReadonlyChars, &d.ReadonlyChars},
		{&s.Failing, &d.Failing}, {&s.Suggestions, &d.Suggestions}, {&s.Comments, &d.Comments},
		{&s.FailingWords, &d.FailingWords}, {&s.FailingChars, &d.FailingChars},
	} {
		*p.to += *p.from
	}
}

// Count adds (sign 1) or removes (sign -1) one unit to the buckets of its state.
func (s *Stats) Count(state int, words, chars int64, sign int64) {
	add := func(n, w, c *int64) { *n += sign; *w += sign * words; *c += sign * chars }
	add(&s.Total, &s.TotalWords, &s.TotalChars)
	if state >= weblate.StateTranslated {
		add(&s.Translated, &s.TranslatedWords, &s.TranslatedChars)
	}
	switch state {
	case weblate.StateFuzzy:
		add(&s.Fuzzy, &s.FuzzyWords, &s.FuzzyChars)
	case weblate.StateApproved:
		add(&s.Approved, &s.ApprovedWords, &s.ApprovedChars)
	case weblate.StateReadOnly:
		add(&s.Readonly, &s.ReadonlyWords, &s.ReadonlyChars)
	}
}

// Translation is one language of a component.
type Translation struct {
	ID            int64 `gorm:"primaryKey"`
	ComponentID   int64
	ProjectSlug   string
	ComponentSlug string
	LanguageCode  string
	PluralNumber  int
	// The plural rule besides its number of forms: the catalog's plural
	// id, source, formula and type. PluralID 0 is "the language's
	// default" (rows imported before plurals were kept).
	PluralID      int64
	PluralSource  int32
	PluralFormula string
	PluralType    int32
	Filename      string
	Revision      string
	IsSource      bool
	IsTemplate    bool
	// Propagate is the component's allow_translation_propagation, and
	// Consistency whether its strings get the inconsistent check
	// (copies.go).
	Propagate   bool
	Consistency bool
	Stats       `gorm:"embedded"`
	LastChange  *time.Time
	LastAuthor  string
	CreatedAt   time.Time
}

// TableName is the translations table.
func (Translation) TableName() string { return "translations" }

// Unit is one translatable string of a translation. Source and Target hold
// the plural forms joined with PluralSeparator.
type Unit struct {
	ID             int64 `gorm:"primaryKey"`
	TranslationID  int64
	Source         string
	Target         string
	PreviousSource string
	Context        string
	Location       string
	Note           string
	Flags          string
	ExtraFlags     string
	Explanation    string
	IDHash         int64 `gorm:"column:id_hash"`
	ContentHash    int64
	State          int
	Position       int64
	NumWords       int64
	NumChars       int64
	SourceUnitID   *int64
	Priority       int
	Pending        bool
	// PendingAuthor made the uncommitted edit (empty when not pending); a
	// commit credits it.
	PendingAuthor   string
	HasSuggestion   bool
	HasComment      bool
	HasFailingCheck bool
	// HasDismissedCheck: the unit has a check dismissed (that still fails).
	HasDismissedCheck bool
	// TranslatedTarget is the target the string had while translated,
	// kept once it is emptied or needs editing with another text
	// (translatedTarget).
	TranslatedTarget string
	Timestamp        time.Time
	LastUpdated      time.Time
	// Labelled: the unit, or its source string, has a label. Only the
	// reads of findUnits set it (a page's labels are then asked for the
	// labelled units alone); false everywhere else.
	Labelled bool `gorm:"-"`
	// sourceFlags are the extra flags of the source string (SourceUnitID)
	// when the read of an edit fetched them with the unit (lockEditUnit);
	// nil otherwise, and the checks ask for them.
	sourceFlags *string
}

// TableName is the units table.
func (Unit) TableName() string { return "units" }

// Task is a background job: an import, a recheck or a bulk dismissal.
type Task struct {
	ID          string `gorm:"primaryKey"`
	ComponentID int64
	// Kind is one of the Task* constants.
	Kind      string
	Completed bool
	Progress  int
	Error     string
	Log       string
	// Holder names the process running the task (lease.Leases.Holder);
	// another replica takes the task over once that process is gone.
	Holder string
	// Cancelled is set by CancelTask; the task's process stops it.
	Cancelled bool
	// ProjectSlug names the project of a task of no component (a memory
	// import).
	ProjectSlug string
	CreatedAt   time.Time
	UpdatedAt   time.Time
}

// Kinds of tasks.
const (
	TaskImport  = "import"
	TaskRecheck = "recheck"
	// TaskEnforce is a recheck that also applies the enforced checks.
	TaskEnforce = "recheck-enforce"
	TaskDismiss = "dismiss"
	// TaskMemoryImport reads a TMX file into a project's memory.
	TaskMemoryImport = "memory-import"
	// TaskAutoTranslate fills a translation's strings.
	TaskAutoTranslate = "autotranslate"
)

// TableName is the tasks table.
func (Task) TableName() string { return "tasks" }

// Repository is the state of a component's working copy.
type Repository struct {
	ComponentID int64 `gorm:"primaryKey"`
	URL         string
	Branch      string
	Revision    string
	NeedsCommit bool
	UpdatedAt   time.Time
}

// TableName is the repositories table.
func (Repository) TableName() string { return "repositories" }

// contentChange feeds recent_changes.
type contentChange struct {
	ID            int64 `gorm:"primaryKey"`
	TranslationID int64
	At            time.Time
}

func (contentChange) TableName() string { return "content_changes" }

// now is the storage clock: UTC, microsecond precision.
func now() time.Time { return time.Now().UTC().Truncate(time.Microsecond) }
