package rest

import (
	"strings"

	"github.com/tmsproject/tms/pkg/weblate"
	catalogv1 "github.com/tmsproject/tms/proto/gen/go/tms/catalog/v1"
)

type pluralJSON struct {
	ID      int64  `json:"id" doc:"The plural's id. A translation whose file brought a rule new to the catalog shows that rule with id 0 for the moments until the catalog has stored it."`
	Source  int32  `json:"source"`
	Number  int32  `json:"number"`
	Formula string `json:"formula"`
	Type    int32  `json:"type"`
}

type languageJSON struct {
	ID            int64      `json:"id"`
	Code          string     `json:"code"`
	Name          string     `json:"name"`
	Plural        pluralJSON `json:"plural"`
	Aliases       []string   `json:"aliases"`
	Direction     string     `json:"direction"`
	Population    int64      `json:"population"`
	WebURL        string     `json:"web_url"`
	URL           string     `json:"url"`
	StatisticsURL string     `json:"statistics_url"`
}

func (u urls) languageJSON(l *catalogv1.Language) *languageJSON {
	return &languageJSON{
		ID: l.GetId(), Code: l.GetCode(), Name: l.GetName(),
		Plural: pluralJSON{ID: l.GetPluralId(), Source: l.GetPluralSource(), Number: l.GetPluralNumber(),
			Formula: l.GetPluralFormula(), Type: l.GetPluralType()},
		Aliases: nonNil(l.GetAliases()), Direction: or(l.GetDirection(), "ltr"), Population: l.GetPopulation(),
		WebURL: u.Web("languages", l.GetCode()), URL: u.language(l.GetCode()),
		StatisticsURL: u.language(l.GetCode(), "statistics"),
	}
}

// projectJSON is the project; the embedded projectFull is nil in the
// reduced form nested in a translation's component.
type projectJSON struct {
	Name              string `json:"name"`
	Slug              string `json:"slug"`
	ID                int64  `json:"id"`
	Web               string `json:"web"`
	WebURL            string `json:"web_url"`
	URL               string `json:"url"`
	ComponentsListURL string `json:"components_list_url"`
	RepositoryURL     string `json:"repository_url"`
	StatisticsURL     string `json:"statistics_url"`
	CategoriesURL     string `json:"categories_url"`
	ChangesListURL    string `json:"changes_list_url"`
	LanguagesURL      string `json:"languages_url"`
	LabelsURL         string `json:"labels_url"`
	AnnouncementsURL  string `json:"announcements_url"`
	*projectFull
	TranslationReview bool   `json:"translation_review"`
	SourceReview      bool   `json:"source_review"`
	SetLanguageTeam   bool   `json:"set_language_team"`
	Instructions      string `json:"instructions"`
	EnableHooks       bool   `json:"enable_hooks"`
	LanguageAliases   string `json:"language_aliases"`
}

type projectFull struct {
	CreditsURL        string        `json:"credits_url"`
	LockURL           string        `json:"lock_url"`
	MetricsURL        string        `json:"metrics_url"`
	MachinerySettings string        `json:"machinery_settings"`
	CheckFlags        string        `json:"check_flags"`
	CommitPolicy      int32         `json:"commit_policy"`
	SecondaryLanguage *languageJSON `json:"secondary_language"`
	Enforced2FA       bool          `json:"enforced_2fa"`
	Locked            bool          `json:"locked"`
	// Weblate's project settings of the shared translation memory, which
	// its API does not show; here they are read and written as fields.
	UseSharedTM        bool `json:"use_shared_tm"`
	ContributeSharedTM bool `json:"contribute_shared_tm"`
	ownSettingsJSON
	inheritedJSON
}

// projectJSON renders p; full adds the fields of the full form (which needs
// the secondary language object).
func (c *call) projectJSON(p *catalogv1.Project, full bool) (*projectJSON, error) {
	u, s := c.urls, p.GetSlug()
	out := &projectJSON{
		Name: p.GetName(), Slug: s, ID: p.GetId(), Web: p.GetWeb(),
		WebURL: u.Web("projects", s), URL: u.project(s),
		ComponentsListURL: u.project(s, "components"), RepositoryURL: u.project(s, "repository"),
		StatisticsURL: u.project(s, "statistics"), CategoriesURL: u.project(s, "categories"),
		ChangesListURL: u.project(s, "changes"), LanguagesURL: u.project(s, "languages"),
		LabelsURL: u.project(s, "labels"), AnnouncementsURL: u.project(s, "announcements"),
		TranslationReview: p.GetTranslationReview(), SourceReview: p.GetSourceReview(),
		SetLanguageTeam: p.GetSetLanguageTeam(), Instructions: p.GetInstructions(),
		EnableHooks: p.GetEnableHooks(), LanguageAliases: p.GetLanguageAliases(),
	}
	if !full {
		return out, nil
	}
	out.projectFull = &projectFull{
		CreditsURL: u.project(s, "credits"), LockURL: u.project(s, "lock"), MetricsURL: u.project(s, "metrics"),
		MachinerySettings: u.project(s, "machinery_settings"), CheckFlags: p.GetCheckFlags(),
		CommitPolicy: weblate.CommitPolicies.RefOf(p.GetCommitPolicy()), Enforced2FA: p.GetEnforced_2Fa(), Locked: p.GetLocked(),
		UseSharedTM: p.GetUseSharedTm(), ContributeSharedTM: p.GetContributeSharedTm(),
	}
	var err error
	if out.SecondaryLanguage, err = c.secondaryLanguage(p.GetSecondaryLanguageCode()); err != nil {
		return nil, err
	}
	out.ownSettingsJSON = *newOwnSettings(p)
	inh, err := c.inheritedJSON(p)
	if err != nil {
		return nil, err
	}
	out.inheritedJSON = *inh
	return out, nil
}

// secondaryLanguage is the language object of code, nil (null) for "".
func (c *call) secondaryLanguage(code string) (*languageJSON, error) {
	l, err := c.optionalLanguage(code)
	if l == nil || err != nil {
		return nil, err
	}
	return c.urls.languageJSON(l), nil
}

// componentJSON is the component; componentFull is nil in the reduced form
// nested in a translation.
type componentJSON struct {
	Name                        string        `json:"name"`
	Slug                        string        `json:"slug"`
	ID                          int64         `json:"id"`
	SourceLanguage              *languageJSON `json:"source_language" nullable:"false"`
	Project                     *projectJSON  `json:"project,omitempty"`
	VCS                         string        `json:"vcs"`
	Repo                        string        `json:"repo"`
	GitExport                   string        `json:"git_export"`
	Branch                      string        `json:"branch"`
	PushBranch                  string        `json:"push_branch"`
	Filemask                    string        `json:"filemask"`
	ScreenshotFilemask          string        `json:"screenshot_filemask"`
	Template                    string        `json:"template"`
	EditTemplate                bool          `json:"edit_template"`
	Intermediate                string        `json:"intermediate"`
	NewBase                     string        `json:"new_base"`
	FileFormat                  string        `json:"file_format"`
	License                     string        `json:"license"`
	LicenseURL                  string        `json:"license_url"`
	Agreement                   string        `json:"agreement"`
	WebURL                      string        `json:"web_url"`
	URL                         string        `json:"url"`
	RepositoryURL               string        `json:"repository_url"`
	TranslationsURL             string        `json:"translations_url"`
	StatisticsURL               string        `json:"statistics_url"`
	LockURL                     string        `json:"lock_url"`
	LinksURL                    string        `json:"links_url"`
	ChangesListURL              string        `json:"changes_list_url"`
	AnnouncementsURL            string        `json:"announcements_url"`
	TaskURL                     *string       `json:"task_url"`
	NewLang                     string        `json:"new_lang"`
	LanguageCodeStyle           string        `json:"language_code_style"`
	Push                        string        `json:"push"`
	CheckFlags                  string        `json:"check_flags"`
	Priority                    int32         `json:"priority"`
	EnforcedChecks              []string      `json:"enforced_checks"`
	Restricted                  bool          `json:"restricted"`
	Repoweb                     string        `json:"repoweb"`
	ReportSourceBugs            string        `json:"report_source_bugs"`
	MergeStyle                  string        `json:"merge_style"`
	CommitMessage               string        `json:"commit_message"`
	AddMessage                  string        `json:"add_message"`
	DeleteMessage               string        `json:"delete_message"`
	MergeMessage                string        `json:"merge_message"`
	AddonMessage                string        `json:"addon_message"`
	PullMessage                 string        `json:"pull_message"`
	AllowTranslationPropagation bool          `json:"allow_translation_propagation"`
	ManageUnits                 bool          `json:"manage_units"`
	EnableSuggestions           bool          `json:"enable_suggestions"`
	SuggestionVoting            bool          `json:"suggestion_voting"`
	SuggestionAutoaccept        int32         `json:"suggestion_autoaccept"`
	PushOnCommit                bool          `json:"push_on_commit"`
	CommitPendingAge            int32         `json:"commit_pending_age"`
	AutoLockError               bool          `json:"auto_lock_error"`
	LanguageRegex               string        `json:"language_regex"`
	VariantRegex                string        `json:"variant_regex"`
	Addons                      []string      `json:"addons"`
	IsGlossary                  bool          `json:"is_glossary"`
	GlossaryColor               string        `json:"glossary_color"`
	Category                    *string       `json:"category"`
	*componentFull
}

type componentFull struct {
	CreditsURL        string        `json:"credits_url"`
	KeyFilter         string        `json:"key_filter"`
	SecondaryLanguage *languageJSON `json:"secondary_language"`
	LinkedComponent   string        `json:"linked_component,omitempty"`
	Locked            bool          `json:"locked"`
	inheritedJSON
}

// componentJSON renders a component with its project and source language;
// full selects the full form (with the full project form), taskURL is the
// running import task or "".
func (c *call) componentJSON(comp *catalogv1.Component, full bool, taskURL string) (*componentJSON, error) {
	proj, err := c.project(comp.GetProjectSlug())
	if err != nil {
		return nil, err
	}
	pj, err := c.projectJSON(proj, full)
	if err != nil {
		return nil, err
	}
	src, err := c.language(or(comp.GetSourceLanguageCode(), "en"))
	if err != nil {
		return nil, err
	}
	u, p, s := c.urls, comp.GetProjectSlug(), comp.GetSlug()
	out := &componentJSON{
		Name: comp.GetName(), Slug: s, ID: comp.GetId(), SourceLanguage: u.languageJSON(src), Project: pj,
		VCS: comp.GetVcs(), Repo: comp.GetRepo(), GitExport: comp.GetGitExport(), Branch: comp.GetBranch(),
		PushBranch: comp.GetPushBranch(), Filemask: comp.GetFilemask(),
		ScreenshotFilemask: comp.GetScreenshotFilemask(), Template: comp.GetTemplate(),
		EditTemplate: comp.GetEditTemplate(), Intermediate: comp.GetIntermediate(), NewBase: comp.GetNewBase(),
		FileFormat: comp.GetFileFormat(), License: comp.GetLicense(), LicenseURL: comp.GetLicenseUrl(),
		Agreement: comp.GetAgreement(), WebURL: u.Web("projects", p, s), URL: u.component(p, s),
		RepositoryURL: u.component(p, s, "repository"), TranslationsURL: u.component(p, s, "translations"),
		StatisticsURL: u.component(p, s, "statistics"), LockURL: u.component(p, s, "lock"),
		LinksURL: u.component(p, s, "links"), ChangesListURL: u.component(p, s, "changes"),
		AnnouncementsURL: u.component(p, s, "announcements"),
		Category:         u.categoryRef(comp.GetCategoryId()), TaskURL: optional(taskURL), NewLang: comp.GetNewLang(), LanguageCodeStyle: comp.GetLanguageCodeStyle(),
		Push: comp.GetPush(), CheckFlags: comp.GetCheckFlags(), Priority: comp.GetPriority(),
		EnforcedChecks: nonNil(comp.GetEnforcedChecks()), Restricted: comp.GetRestricted(), Repoweb: comp.GetRepoweb(),
		ReportSourceBugs: comp.GetReportSourceBugs(), MergeStyle: weblate.MergeStyles.RefOf(comp.GetMergeStyle()),
		CommitMessage: comp.GetCommitMessage(), AddMessage: comp.GetAddMessage(),
		DeleteMessage: comp.GetDeleteMessage(), MergeMessage: comp.GetMergeMessage(),
		AddonMessage: comp.GetAddonMessage(), PullMessage: comp.GetPullMessage(),
		AllowTranslationPropagation: comp.GetAllowTranslationPropagation(), ManageUnits: comp.GetManageUnits(),
		EnableSuggestions: comp.GetEnableSuggestions(), SuggestionVoting: comp.GetSuggestionVoting(),
		SuggestionAutoaccept: comp.GetSuggestionAutoaccept(), PushOnCommit: comp.GetPushOnCommit(),
		CommitPendingAge: comp.GetCommitPendingAge(), AutoLockError: comp.GetAutoLockError(),
		LanguageRegex: comp.GetLanguageRegex(), VariantRegex: comp.GetVariantRegex(), Addons: []string{},
		IsGlossary: comp.GetIsGlossary(), GlossaryColor: comp.GetGlossaryColor(),
	}
	if !full {
		return out, nil
	}
	if out.componentFull, err = c.newComponentFull(comp); err != nil {
		return nil, err
	}
	return out, nil
}

// newComponentFull is the part only the full form of comp carries.
func (c *call) newComponentFull(comp *catalogv1.Component) (*componentFull, error) {
	p, s := comp.GetProjectSlug(), comp.GetSlug()
	out := &componentFull{CreditsURL: c.urls.component(p, s, "credits"), KeyFilter: comp.GetKeyFilter(),
		Locked: comp.GetLocked()}
	if lp, ls, ok := strings.Cut(comp.GetLinkedComponent(), "/"); ok {
		out.LinkedComponent = c.urls.component(lp, ls)
	}
	var err error
	if out.SecondaryLanguage, err = c.secondaryLanguage(comp.GetSecondaryLanguageCode()); err != nil {
		return nil, err
	}
	inh, err := c.inheritedJSON(comp)
	if err != nil {
		return nil, err
	}
	out.inheritedJSON = *inh
	return out, nil
}
