package server

import (
	"google.golang.org/protobuf/proto"

	catalogv1 "github.com/tmsproject/tms/proto/gen/go/tms/catalog/v1"
	typev1 "github.com/tmsproject/tms/proto/gen/go/tms/type/v1"
	"github.com/tmsproject/tms/services/catalog/store"
)

// The commit message templates of weblate/trans/defaults.py
// (DEFAULT_COMMIT_MESSAGE and friends) in the current Weblate line.
const (
	defaultCommitMessage = "chore(l10n): update {{ language_name }} translation\n\n" +
		"Translation: {{ project_name }}/{{ component_name }}\n" +
		"Language: {{ language_name }}\n" +
		"Progress: {{ stats.translated_percent }}% " +
		"({{ stats.translated }} of {{ stats.all }} strings)\n" +
		"Translate-URL: {{ url }}"
	defaultAddMessage = "chore(l10n): add {{ language_name }} translation\n\n" +
		"Translation: {{ project_name }}/{{ component_name }}\n" +
		"Language: {{ language_name }}\n" +
		"Translate-URL: {{ url }}"
	defaultDeleteMessage = "chore(l10n): remove {{ language_name }} translation\n\n" +
		"Translation: {{ project_name }}/{{ component_name }}\n" +
		"Language: {{ language_name }}\n" +
		"Translate-URL: {{ url }}"
	defaultMergeMessage = "chore(l10n): merge remote changes\n\n" +
		"Translation: {{ project_name }}/{{ component_name }}\n" +
		"Remote-Branch: {{ component_remote_branch }}\n" +
		"Translate-URL: {{ url }}"
	defaultAddonMessage = "chore(l10n): update translation files\n\n" +
		"Add-on: {{ addon_name }}\n" +
		"Translation: {{ project_name }}/{{ component_name }}\n" +
		"Translate-URL: {{ url }}"
	defaultPullMessage = "chore(l10n): update translations\n\n" +
		"Translations updated in [{{ site_title }}]({{ site_url }}) for " +
		"[{{ project_name }}/{{ component_name }}]({{ url }}).\n\n" +
		"{% if component_linked_children %}\n" +
		"Included components:\n" +
		"{% for linked in component_linked_children %}\n" +
		"* [{{ linked.project_name }}/{{ linked.name }}]({{ linked.url }})\n" +
		"{% endfor %}\n" +
		"{% endif %}\n\n" +
		"Translation status:\n\n" +
		"![Weblate translation status]({{widget_url}})\n"
)

// DefaultSettings are the defaults of the inheritable settings, the same
// for projects, categories and components in Weblate's models.
func DefaultSettings() store.Settings {
	return store.Settings{
		NewLang:       "add", // new_lang default="add"
		CommitMessage: defaultCommitMessage,
		AddMessage:    defaultAddMessage,
		DeleteMessage: defaultDeleteMessage,
		MergeMessage:  defaultMergeMessage,
		AddonMessage:  defaultAddonMessage,
		PullMessage:   defaultPullMessage,
	}
}

// withDefaultSettings gives m (a Project, Category or Component) the
// default settings.
func withDefaultSettings[M proto.Message](m M) M {
	putSettings(m, DefaultSettings(), store.Inherit{}, store.Effective{})
	return m
}

// defaultProject holds the defaults of weblate/trans/models/project.py.
func defaultProject() *catalogv1.Project {
	return withDefaultSettings(&catalogv1.Project{
		SetLanguageTeam: true, // set_language_team default=True
		EnableHooks:     true, // enable_hooks default=True
		// use_shared_tm and contribute_shared_tm: DEFAULT_SHARED_TM=True.
		UseSharedTm:        true,
		ContributeSharedTm: true,
		// translation_review, source_review (DEFAULT_*_REVIEW), enforced_2fa
		// are False.
		AccessControl: typev1.AccessControl_ACCESS_CONTROL_PUBLIC, // DEFAULT_ACCESS_CONTROL
		CommitPolicy:  typev1.CommitPolicy_COMMIT_POLICY_ALL,
	})
}

// defaultComponent holds the field defaults of Weblate's Component model
// (weblate/trans/models/component.py) with the settings defaults of
// weblate/trans/defaults.py. Branch stays empty: the repository's HEAD
// branch is resolved when the repository is cloned.
func defaultComponent() *catalogv1.Component {
	return withDefaultSettings(&catalogv1.Component{
		SourceLanguageCode:          "en",  // get_default_lang
		Vcs:                         "git", // DEFAULT_VCS
		EditTemplate:                true,  // edit_template default=True
		Priority:                    100,   // priority default=100 (medium)
		EnforcedChecks:              []string{},
		MergeStyle:                  typev1.MergeStyle_MERGE_STYLE_REBASE, // DEFAULT_MERGE_STYLE
		AllowTranslationPropagation: true,                                 // DEFAULT_TRANSLATION_PROPAGATION
		EnableSuggestions:           true,                                 // enable_suggestions default=True
		PushOnCommit:                true,                                 // DEFAULT_PUSH_ON_COMMIT
		CommitPendingAge:            24,                                   // DEFAULT_COMMIT_PENDING_HOURS
		AutoLockError:               true,                                 // DEFAULT_AUTO_LOCK_ERROR
		LanguageRegex:               "^[^.]+$",                            // language_regex default
		GlossaryColor:               "silver",                             // ColorChoices.SILVER
	})
}

// licenseURLs maps common SPDX identifiers to the URL Weblate shows for
// them (weblate/utils/licensedata.py points at the SPDX pages).
var licenseURLs = func() map[string]string {
	ids := []string{
		"0BSD", "AGPL-3.0-only", "AGPL-3.0-or-later", "Apache-2.0", "Artistic-2.0",
		"BSD-2-Clause", "BSD-3-Clause", "BSL-1.0", "CC-BY-4.0", "CC-BY-SA-4.0", "CC0-1.0",
		"EPL-2.0", "EUPL-1.2", "GPL-2.0-only", "GPL-2.0-or-later", "GPL-3.0-only",
		"GPL-3.0-or-later", "ISC", "LGPL-2.1-only", "LGPL-2.1-or-later", "LGPL-3.0-only",
		"LGPL-3.0-or-later", "MIT", "MIT-0", "MPL-2.0", "OFL-1.1", "Unlicense", "WTFPL", "Zlib",
	}
	m := make(map[string]string, len(ids))
	for _, id := range ids {
		m[id] = "https://spdx.org/licenses/" + id + ".html"
	}
	return m
}()

// licenseURL is the URL of a license identifier, "" when unknown.
func licenseURL(license string) string { return licenseURLs[license] }
