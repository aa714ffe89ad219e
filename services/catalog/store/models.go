package store

import (
	"time"

	"github.com/tmsproject/tms/pkg/lang"
)

// Language is one language with its default plural rule, which has the
// language's id; other rules of the language are Plural rows.
type Language struct {
	ID            int64    `gorm:"column:id;primaryKey"`
	Code          string   `gorm:"column:code"`
	Name          string   `gorm:"column:name"`
	Direction     string   `gorm:"column:direction"`
	PluralSource  int32    `gorm:"column:plural_source"`
	PluralNumber  int32    `gorm:"column:plural_number"`
	PluralFormula string   `gorm:"column:plural_formula"`
	PluralType    int32    `gorm:"column:plural_type"`
	Aliases       []string `gorm:"column:aliases;serializer:json"`
	Population    int64    `gorm:"column:population"`
}

// TableName implements gorm's tabler.
func (Language) TableName() string { return "languages" }

// Plural sources, as Weblate's Plural.source (pkg/lang's, which picks
// them).
const (
	PluralSourceDefault  = lang.SourceDefault  // the built-in rule of the language
	PluralSourceGettext  = lang.SourceGettext  // read from a file's Plural-Forms header
	PluralSourceCLDRZero = lang.SourceCLDRZero // the default with a form for zero (stringsdict)
)

// Project groups components.
type Project struct {
	ID                int64     `gorm:"column:id;primaryKey"`
	Name              string    `gorm:"column:name"`
	Slug              string    `gorm:"column:slug"`
	Web               string    `gorm:"column:web"`
	Instructions      string    `gorm:"column:instructions"`
	TranslationReview bool      `gorm:"column:translation_review"`
	SourceReview      bool      `gorm:"column:source_review"`
	SetLanguageTeam   bool      `gorm:"column:set_language_team"`
	EnableHooks       bool      `gorm:"column:enable_hooks"`
	LanguageAliases   string    `gorm:"column:language_aliases"`
	CheckFlags        string    `gorm:"column:check_flags"`
	CommitPolicy      int32     `gorm:"column:commit_policy"`
	Enforced2FA       bool      `gorm:"column:enforced_2fa"`
	AccessControl     int32     `gorm:"column:access_control"`
	Created           time.Time `gorm:"column:created"`
	SharedMemory
	Settings
	Inherit
	Effective Effective `gorm:"column:effective"`

	// Locked is derived, not stored: the project has components and all of
	// them are locked.
	Locked bool `gorm:"-"`
}

// TableName implements gorm's tabler.
func (Project) TableName() string { return "projects" }

// Component is a translatable resource bound to a repository.
type Component struct {
	ID                          int64     `gorm:"column:id;primaryKey"`
	ProjectID                   int64     `gorm:"column:project_id"`
	Name                        string    `gorm:"column:name"`
	Slug                        string    `gorm:"column:slug"`
	SourceLanguageCode          string    `gorm:"column:source_language_code"`
	VCS                         string    `gorm:"column:vcs"`
	Repo                        string    `gorm:"column:repo"`
	GitExport                   string    `gorm:"column:git_export"`
	Branch                      string    `gorm:"column:branch"`
	PushBranch                  string    `gorm:"column:push_branch"`
	Filemask                    string    `gorm:"column:filemask"`
	ScreenshotFilemask          string    `gorm:"column:screenshot_filemask"`
	Template                    string    `gorm:"column:template"`
	EditTemplate                bool      `gorm:"column:edit_template"`
	Intermediate                string    `gorm:"column:intermediate"`
	NewBase                     string    `gorm:"column:new_base"`
	FileFormat                  string    `gorm:"column:file_format"`
	LicenseURL                  string    `gorm:"column:license_url"`
	Push                        string    `gorm:"column:push"`
	CheckFlags                  string    `gorm:"column:check_flags"`
	Priority                    int32     `gorm:"column:priority"`
	EnforcedChecks              []string  `gorm:"column:enforced_checks;serializer:json"`
	Restricted                  bool      `gorm:"column:restricted"`
	Repoweb                     string    `gorm:"column:repoweb"`
	ReportSourceBugs            string    `gorm:"column:report_source_bugs"`
	MergeStyle                  string    `gorm:"column:merge_style"`
	AllowTranslationPropagation bool      `gorm:"column:allow_translation_propagation"`
	ManageUnits                 bool      `gorm:"column:manage_units"`
	EnableSuggestions           bool      `gorm:"column:enable_suggestions"`
	SuggestionVoting            bool      `gorm:"column:suggestion_voting"`
	SuggestionAutoaccept        int32     `gorm:"column:suggestion_autoaccept"`
	PushOnCommit                bool      `gorm:"column:push_on_commit"`
	CommitPendingAge            int32     `gorm:"column:commit_pending_age"`
	AutoLockError               bool      `gorm:"column:auto_lock_error"`
	LanguageRegex               string    `gorm:"column:language_regex"`
	KeyFilter                   string    `gorm:"column:key_filter"`
	VariantRegex                string    `gorm:"column:variant_regex"`
	IsGlossary                  bool      `gorm:"column:is_glossary"`
	GlossaryColor               string    `gorm:"column:glossary_color"`
	LinkedComponentID           *int64    `gorm:"column:linked_component_id"`
	Locked                      bool      `gorm:"column:locked"`
	Created                     time.Time `gorm:"column:created"`
	CategoryID                  int64     `gorm:"column:category_id"`
	Settings
	Inherit
	Effective Effective `gorm:"column:effective"`

	// Read-only, filled by the store's reads from joined rows.
	ProjectSlug     string `gorm:"column:project_slug;->"`
	ProjectAccess   int32  `gorm:"column:project_access;->"`
	LinkedComponent string `gorm:"column:linked_path;->"` // "project/component"
	// The slugs of the component's category and its parents, innermost
	// first ("" above the top); categories nest at most three deep.
	Cat1 string `gorm:"column:cat1;->"`
	Cat2 string `gorm:"column:cat2;->"`
	Cat3 string `gorm:"column:cat3;->"`
}

// CategoryPath is the component's category path ("docs/api"), "" when none.
func (c *Component) CategoryPath() string {
	return joinPath(c.Cat3, c.Cat2, c.Cat1)
}

// joinPath joins the non-empty slugs with "/", outermost first.
func joinPath(slugs ...string) string {
	out := ""
	for _, s := range slugs {
		if s == "" {
			continue
		}
		if out != "" {
			out += "/"
		}
		out += s
	}
	return out
}

// Category is a category of a project; ParentID 0 is the top level.
type Category struct {
	ID        int64  `gorm:"column:id;primaryKey"`
	ProjectID int64  `gorm:"column:project_id"`
	ParentID  int64  `gorm:"column:parent_id"`
	Name      string `gorm:"column:name"`
	Slug      string `gorm:"column:slug"`
	// CheckFlags are applied to the strings of its components.
	CheckFlags string `gorm:"column:check_flags"`
	Settings
	Inherit
	Effective Effective `gorm:"column:effective"`

	// Read-only, filled by the store's reads.
	ProjectSlug   string `gorm:"column:project_slug;->"`
	ProjectAccess int32  `gorm:"column:project_access;->"`
	P1            string `gorm:"column:p1;->"` // parent's slug
	P2            string `gorm:"column:p2;->"` // grandparent's slug
}

// TableName implements gorm's tabler.
func (Category) TableName() string { return "categories" }

// Path is the category's slugs from the top down ("docs/api").
func (c *Category) Path() string { return joinPath(c.P2, c.P1, c.Slug) }

// Depth is 1 for a top-level category, 2 below one, 3 below that.
func (c *Category) Depth() int {
	switch {
	case c.P2 != "":
		return 3
	case c.P1 != "":
		return 2
	}
	return 1
}

// TableName implements gorm's tabler.
func (Component) TableName() string { return "components" }

// Plural is a plural rule of a language other than its default one, met in
// a file whose rule no known rule of the language matches.
type Plural struct {
	ID         int64  `gorm:"column:id;primaryKey"`
	LanguageID int64  `gorm:"column:language_id"`
	Source     int32  `gorm:"column:source"`
	Number     int32  `gorm:"column:number"`
	Formula    string `gorm:"column:formula"`
	Type       int32  `gorm:"column:type"`
}

// TableName implements gorm's tabler.
func (Plural) TableName() string { return "plurals" }
