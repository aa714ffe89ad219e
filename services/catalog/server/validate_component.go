package server

import (
	"context"
	"errors"
	"slices"
	"strings"

	"github.com/tmsproject/tms/pkg/errs"
	"github.com/tmsproject/tms/pkg/netguard"
	"github.com/tmsproject/tms/pkg/weblate"
	catalogv1 "github.com/tmsproject/tms/proto/gen/go/tms/catalog/v1"
	typev1 "github.com/tmsproject/tms/proto/gen/go/tms/type/v1"
	"github.com/tmsproject/tms/services/catalog/store"
)

// Choices of the component's enumerated fields (Weblate's model choices).
var (
	fileFormats               = []string{"po", "json", "json-nested", "i18next", "i18nextv4", "go-i18n-json", "arb", "aresource", "properties", "properties-utf8", "properties-utf16", "xliff", "xliff2", "xliff2-placeables", "strings", "strings-utf8", "yaml", "ruby-yaml", "stringsdict"} // the translation service's formats registry (services/translation/formats)
	bilingualFormats          = []string{"po", "xliff", "xliff2", "xliff2-placeables"}                                                                                                                                                                                                        // the registry's formats that are not monolingual (Format.Monolingual)
	vcsChoices                = []string{"git"}
	newLangChoices            = []string{"contact", "url", "add", "none"}
	codeStyleChoices          = []string{"", "posix", "posix_lowercase", "bcp", "posix_long", "posix_long_lowercase", "bcp_long", "bcp_legacy", "bcp_lower", "android", "appstore", "googleplay", "linux", "linux_lowercase"}
	colorChoices              = []string{"navy", "blue", "aqua", "teal", "olive", "green", "lime", "yellow", "orange", "red", "maroon", "fuchsia", "purple", "black", "gray", "silver"}
	priorityChoices           = []int32{60, 80, 100, 120, 140}
	maxCommitPendingAge int32 = 2160
)

// validateComponent checks m, whose fields in set the request supplied;
// prev is the stored component on update, nil on create. It canonicalises
// language codes in m and returns the id of the component whose repository
// m links to (repo "weblate://project/component"), nil when none.
func (s *Server) validateComponent(ctx context.Context, m *catalogv1.Component, set fieldSet, prev *store.Component) (*int64, error) {
	c := &checker{set: set, create: prev == nil}
	c.name(m.Name, componentNameLength)
	c.slug(m.Slug, componentNameLength)
	c.choice("vcs", m.Vcs, vcsChoices...)
	linked, err := s.checkRepo(ctx, c, m.Repo, prev)
	if err != nil {
		return nil, err
	}
	s.checkPush(c, m.Push)
	checkPaths(c, m)
	if c.present("file_format", "file_format", m.FileFormat) {
		c.choice("file_format", m.FileFormat, fileFormats...)
	}
	checkIntermediate(c, m)
	if err := s.checkLanguages(ctx, c, m, prev); err != nil {
		return nil, err
	}
	checkSettings(c, m)
	return linked, c.err()
}

// checkPush validates the push URL as the translation service checks a
// repository: no remote helpers, and no local paths or local or private
// addresses unless TMS_ALLOW_LOCAL_REPOS (the transports check the
// addresses names resolve to as they dial).
func (s *Server) checkPush(c *checker, push string) {
	if push == "" || !c.maxLen("push", push, repoLength) {
		return
	}
	if p := repoProblem(push); p != "" {
		c.add("push", "invalid", p)
	} else if code, p := netguard.RemoteProblem(push, s.allowLocal); p != "" {
		c.add("push", code, p)
	}
}

// checkRepo validates repo; a repository link must name an existing
// component that is neither this one nor itself a link.
func (s *Server) checkRepo(ctx context.Context, c *checker, repo string, prev *store.Component) (*int64, error) {
	if !c.present("repo", "repo", repo) || !c.maxLen("repo", repo, repoLength) {
		return nil, nil
	}
	if !strings.HasPrefix(repo, "weblate:") {
		if p := repoProblem(repo); p != "" {
			c.add("repo", "invalid", p)
		}
		return nil, nil
	}
	const invalid = "Invalid link to a Weblate project, use weblate://project/component."
	project, slug, ok := parseLink(repo)
	if !ok {
		c.add("repo", "invalid", invalid)
		return nil, nil
	}
	target, err := s.st.GetComponent(ctx, project, slug)
	switch {
	case errors.Is(err, store.ErrNotFound):
		c.add("repo", "invalid", invalid)
		return nil, nil
	case err != nil:
		return nil, errs.Wrap(errs.Internal, err, "Internal server error.")
	case prev != nil && target.ID == prev.ID:
		c.add("repo", "invalid", "Invalid link to a Weblate project, cannot link it to itself!")
		return nil, nil
	case target.LinkedComponentID != nil:
		c.add("repo", "invalid", "Invalid link to a Weblate project, cannot link to linked repository!")
		return nil, nil
	}
	return &target.ID, nil
}

// checkPaths validates the file masks and file names inside the repository
// and the branch names.
func checkPaths(c *checker, m *catalogv1.Component) {
	if c.present("filemask", "filemask", m.Filemask) && c.maxLen("filemask", m.Filemask, filenameLength) {
		checkMask(c, "filemask", m.Filemask)
	}
	if m.ScreenshotFilemask != "" && c.maxLen("screenshot_filemask", m.ScreenshotFilemask, filenameLength) {
		checkMask(c, "screenshot_filemask", m.ScreenshotFilemask)
	}
	for _, f := range []struct{ attr, value string }{
		{"template", m.Template}, {"intermediate", m.Intermediate}, {"new_base", m.NewBase},
	} {
		if f.value != "" && c.maxLen(f.attr, f.value, filenameLength) {
			if p := pathProblem(f.value); p != "" {
				c.add(f.attr, "invalid", p)
			}
		}
	}
	for _, f := range []struct{ attr, value string }{{"branch", m.Branch}, {"push_branch", m.PushBranch}} {
		if f.value != "" && c.maxLen(f.attr, f.value, branchLength) {
			if p := branchProblem(f.value); p != "" {
				c.add(f.attr, "invalid", p)
			}
		}
	}
}

// checkMask wants exactly one "*", the language placeholder: with more the
// language code of a matched file would be ambiguous.
func checkMask(c *checker, attr, mask string) {
	switch n := strings.Count(mask, "*"); {
	case n == 0:
		c.add(attr, "invalid", "File mask does not contain * as a language placeholder!")
	case n > 1:
		c.add(attr, "invalid", "File mask must contain exactly one * as a language placeholder.")
	default:
		if p := pathProblem(mask); p != "" {
			c.add(attr, "invalid", p)
		}
	}
}

// checkLanguages resolves the source language to a stored code and checks
// the inheritable settings, the secondary language among them. Like Weblate, the source language of an existing component is
// fixed.
func (s *Server) checkLanguages(ctx context.Context, c *checker, m *catalogv1.Component, prev *store.Component) error {
	if c.notBlank("source_language", m.SourceLanguageCode) {
		if err := s.languageField(ctx, c, "source_language", &m.SourceLanguageCode, false); err != nil {
			return err
		}
	}
	if prev != nil && m.SourceLanguageCode != "" && m.SourceLanguageCode != prev.SourceLanguageCode {
		c.add("source_language", "invalid", "Source language can not be changed, please recreate the component instead.")
	}
	return s.checkInheritable(ctx, c, m)
}

// checkSettings validates the enumerated, numeric and pattern settings.
func checkSettings(c *checker, m *catalogv1.Component) {
	if m.MergeStyle == typev1.MergeStyle_MERGE_STYLE_UNSPECIFIED { // the proto's default
		m.MergeStyle = defaultComponent().MergeStyle
	}
	enumChoice(c, "merge_style", m.MergeStyle, weblate.MergeStyles)
	c.choice("glossary_color", m.GlossaryColor, colorChoices...)
	c.intChoice("priority", m.Priority, priorityChoices...)
	switch {
	case m.SuggestionAutoaccept < 0:
		c.add("suggestion_autoaccept", "min_value", "Ensure this value is greater than or equal to 0.")
	case m.SuggestionAutoaccept == 1:
		c.add("suggestion_autoaccept", "invalid", "A value of 1 is not allowed for automatic acceptance as "+
			"it would permit users to vote on their own suggestions.")
	}
	switch {
	case m.CommitPendingAge < 0:
		c.add("commit_pending_age", "min_value", "Ensure this value is greater than or equal to 0.")
	case m.CommitPendingAge > maxCommitPendingAge:
		c.add("commit_pending_age", "max_value", "Ensure this value is less than or equal to 2160.")
	}
	if c.notBlank("language_regex", m.LanguageRegex) {
		c.regex("language_regex", m.LanguageRegex)
	}
	for _, f := range []struct{ attr, value string }{{"key_filter", m.KeyFilter}, {"variant_regex", m.VariantRegex}} {
		if f.value != "" {
			c.regex(f.attr, f.value)
		}
	}
	c.email("report_source_bugs", m.ReportSourceBugs)
	c.maxLen("repoweb", m.Repoweb, urlLength)
	c.maxLen("git_export", m.GitExport, 60+projectNameLength+componentNameLength)
}

// Weblate's words for an intermediate file it can not use.
const (
	msgIntermediateTemplate  = "An intermediate language file can not be used without an editing template."
	msgIntermediateSame      = "An intermediate language file has to be different from monolingual base language file. You can probably keep it empty."
	msgIntermediateBilingual = "An intermediate language file can only be used with a monolingual file format."
)

// checkIntermediate applies Weblate's clean_template rules for the
// intermediate language file: it needs a template that it differs from and
// an editable one (the source strings are edited there), and so a
// monolingual format. That the file exists is checked when the
// translation service reads it.
func checkIntermediate(c *checker, m *catalogv1.Component) {
	if m.Intermediate == "" {
		return
	}
	switch {
	case m.Template == "":
		c.add("template", "invalid", msgIntermediateTemplate)
		c.add("intermediate", "invalid", msgIntermediateTemplate)
	case m.Intermediate == m.Template:
		c.add("intermediate", "invalid", msgIntermediateSame)
	}
	if !m.EditTemplate {
		c.add("edit_template", "invalid", msgIntermediateTemplate)
		c.add("intermediate", "invalid", msgIntermediateTemplate)
	}
	if slices.Contains(bilingualFormats, m.FileFormat) {
		c.add("file_format", "invalid", msgIntermediateBilingual)
		c.add("intermediate", "invalid", msgIntermediateBilingual)
	}
}
