package rest

import catalogv1 "github.com/tmsproject/tms/proto/gen/go/tms/catalog/v1"

// Weblate 2026.8 gives projects, categories and components the settings
// their components use, each with an inherit_ flag and the value in
// effect after inheritance (effective_); the catalog resolves them.

// ownSettingsJSON are the inheritable settings a project or category holds
// (a component's are among its own fields, in both forms).
type ownSettingsJSON struct {
	License           string `json:"license"`
	Agreement         string `json:"agreement"`
	NewLang           string `json:"new_lang"`
	LanguageCodeStyle string `json:"language_code_style"`
	CommitMessage     string `json:"commit_message"`
	AddMessage        string `json:"add_message"`
	DeleteMessage     string `json:"delete_message"`
	MergeMessage      string `json:"merge_message"`
	AddonMessage      string `json:"addon_message"`
	PullMessage       string `json:"pull_message"`
}

// ownSettings is what ownSettingsJSON reads: a catalog Project or Category.
type ownSettings interface {
	GetLicense() string
	GetAgreement() string
	GetNewLang() string
	GetLanguageCodeStyle() string
	GetCommitMessage() string
	GetAddMessage() string
	GetDeleteMessage() string
	GetMergeMessage() string
	GetAddonMessage() string
	GetPullMessage() string
}

func newOwnSettings(m ownSettings) *ownSettingsJSON {
	return &ownSettingsJSON{License: m.GetLicense(), Agreement: m.GetAgreement(), NewLang: m.GetNewLang(),
		LanguageCodeStyle: m.GetLanguageCodeStyle(), CommitMessage: m.GetCommitMessage(), AddMessage: m.GetAddMessage(),
		DeleteMessage: m.GetDeleteMessage(), MergeMessage: m.GetMergeMessage(), AddonMessage: m.GetAddonMessage(),
		PullMessage: m.GetPullMessage()}
}

// inheritedJSON are the inherit flags and the effective settings.
type inheritedJSON struct {
	InheritLicense             bool   `json:"inherit_license" doc:"Use the parent's translation license."`
	InheritAgreement           bool   `json:"inherit_agreement"`
	InheritNewLang             bool   `json:"inherit_new_lang"`
	InheritLanguageCodeStyle   bool   `json:"inherit_language_code_style"`
	InheritSecondaryLanguage   bool   `json:"inherit_secondary_language"`
	InheritCommitMessage       bool   `json:"inherit_commit_message"`
	InheritAddMessage          bool   `json:"inherit_add_message"`
	InheritDeleteMessage       bool   `json:"inherit_delete_message"`
	InheritMergeMessage        bool   `json:"inherit_merge_message"`
	InheritAddonMessage        bool   `json:"inherit_addon_message"`
	InheritPullMessage         bool   `json:"inherit_pull_message"`
	EffectiveLicense           string `json:"effective_license" doc:"The license in effect after inheritance."`
	EffectiveAgreement         string `json:"effective_agreement"`
	EffectiveNewLang           string `json:"effective_new_lang"`
	EffectiveLanguageCodeStyle string `json:"effective_language_code_style"`
	EffectiveSecondaryLanguage *int64 `json:"effective_secondary_language" doc:"Id of the secondary language in effect; null for none."`
	EffectiveCommitMessage     string `json:"effective_commit_message"`
	EffectiveAddMessage        string `json:"effective_add_message"`
	EffectiveDeleteMessage     string `json:"effective_delete_message"`
	EffectiveMergeMessage      string `json:"effective_merge_message"`
	EffectiveAddonMessage      string `json:"effective_addon_message"`
	EffectivePullMessage       string `json:"effective_pull_message"`
	EffectiveCheckFlags        string `json:"effective_check_flags" doc:"The check flags in effect: the parents', (a component's file format's) and its own, merged."`
}

// inherited is what inheritedJSON reads: a catalog Project, Category or
// Component.
type inherited interface {
	GetInheritLicense() bool
	GetInheritAgreement() bool
	GetInheritNewLang() bool
	GetInheritLanguageCodeStyle() bool
	GetInheritSecondaryLanguage() bool
	GetInheritCommitMessage() bool
	GetInheritAddMessage() bool
	GetInheritDeleteMessage() bool
	GetInheritMergeMessage() bool
	GetInheritAddonMessage() bool
	GetInheritPullMessage() bool
	GetEffectiveLicense() string
	GetEffectiveAgreement() string
	GetEffectiveNewLang() string
	GetEffectiveLanguageCodeStyle() string
	GetEffectiveSecondaryLanguageCode() string
	GetEffectiveCommitMessage() string
	GetEffectiveAddMessage() string
	GetEffectiveDeleteMessage() string
	GetEffectiveMergeMessage() string
	GetEffectiveAddonMessage() string
	GetEffectivePullMessage() string
	GetEffectiveCheckFlags() string
}

var (
	_ inherited   = (*catalogv1.Component)(nil)
	_ ownSettings = (*catalogv1.Category)(nil)
)

// inheritedJSON renders m's inherit flags and effective settings; the
// secondary language in effect is given by id, as Weblate gives it.
func (c *call) inheritedJSON(m inherited) (*inheritedJSON, error) {
	secondary, err := c.languageID(m.GetEffectiveSecondaryLanguageCode())
	if err != nil {
		return nil, err
	}
	return &inheritedJSON{
		InheritLicense: m.GetInheritLicense(), InheritAgreement: m.GetInheritAgreement(),
		InheritNewLang: m.GetInheritNewLang(), InheritLanguageCodeStyle: m.GetInheritLanguageCodeStyle(),
		InheritSecondaryLanguage: m.GetInheritSecondaryLanguage(), InheritCommitMessage: m.GetInheritCommitMessage(),
		InheritAddMessage: m.GetInheritAddMessage(), InheritDeleteMessage: m.GetInheritDeleteMessage(),
		InheritMergeMessage: m.GetInheritMergeMessage(), InheritAddonMessage: m.GetInheritAddonMessage(),
		InheritPullMessage: m.GetInheritPullMessage(),
		EffectiveLicense:   m.GetEffectiveLicense(), EffectiveAgreement: m.GetEffectiveAgreement(),
		EffectiveNewLang: m.GetEffectiveNewLang(), EffectiveLanguageCodeStyle: m.GetEffectiveLanguageCodeStyle(),
		EffectiveSecondaryLanguage: secondary, EffectiveCommitMessage: m.GetEffectiveCommitMessage(),
		EffectiveAddMessage: m.GetEffectiveAddMessage(), EffectiveDeleteMessage: m.GetEffectiveDeleteMessage(),
		EffectiveMergeMessage: m.GetEffectiveMergeMessage(), EffectiveAddonMessage: m.GetEffectiveAddonMessage(),
		EffectivePullMessage: m.GetEffectivePullMessage(), EffectiveCheckFlags: m.GetEffectiveCheckFlags(),
	}, nil
}

// languageID is the id of the language of code, nil for "".
func (c *call) languageID(code string) (*int64, error) {
	l, err := c.optionalLanguage(code)
	if l == nil || err != nil {
		return nil, err
	}
	id := l.GetId()
	return &id, nil
}

// optionalLanguage is the language of code, nil for "".
func (c *call) optionalLanguage(code string) (*catalogv1.Language, error) {
	if code == "" {
		return nil, nil
	}
	return c.language(code)
}
