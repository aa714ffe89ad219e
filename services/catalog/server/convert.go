package server

import (
	"google.golang.org/protobuf/types/known/timestamppb"

	"github.com/tmsproject/tms/pkg/resname"
	"github.com/tmsproject/tms/pkg/weblate"
	catalogv1 "github.com/tmsproject/tms/proto/gen/go/tms/catalog/v1"
	"github.com/tmsproject/tms/services/catalog/store"
)

func languageProto(l *store.Language) *catalogv1.Language {
	return &catalogv1.Language{
		Id: l.ID, Code: l.Code, Name: l.Name, Direction: l.Direction,
		PluralId: l.ID, PluralSource: l.PluralSource, PluralNumber: l.PluralNumber,
		PluralFormula: l.PluralFormula, PluralType: l.PluralType,
		Aliases: append([]string{}, l.Aliases...), Population: l.Population,
	}
}

// defaultPlural is the language's own rule as a Plural.
func defaultPlural(l *store.Language) *catalogv1.Plural {
	return &catalogv1.Plural{Id: l.ID, Source: l.PluralSource, Number: l.PluralNumber,
		Formula: l.PluralFormula, Type: l.PluralType, LanguageCode: l.Code}
}

func pluralProto(l *store.Language, p *store.Plural) *catalogv1.Plural {
	return &catalogv1.Plural{Id: p.ID, Source: p.Source, Number: p.Number,
		Formula: p.Formula, Type: p.Type, LanguageCode: l.Code}
}

func projectProto(p *store.Project) *catalogv1.Project {
	m := &catalogv1.Project{
		Id: p.ID, Name: p.Name, Slug: p.Slug, Web: p.Web, Instructions: p.Instructions,
		TranslationReview: p.TranslationReview, SourceReview: p.SourceReview,
		SetLanguageTeam: p.SetLanguageTeam, EnableHooks: p.EnableHooks,
		LanguageAliases: p.LanguageAliases, CheckFlags: p.CheckFlags, CommitPolicy: weblate.CommitPolicies.EnumOf(p.CommitPolicy),
		Enforced_2Fa: p.Enforced2FA, AccessControl: weblate.AccessControls.EnumOf(p.AccessControl),
		Locked: p.Locked, Created: timestamppb.New(p.Created), ResourceName: resname.Project(p.Slug),
		UseSharedTm: p.UseSharedTM, ContributeSharedTm: p.ContributeSharedTM,
	}
	putSettings(m, p.Settings, p.Inherit, p.Effective)
	return m
}

// projectRow copies the writable fields of m, validated, into p.
func projectRow(m *catalogv1.Project, p *store.Project) {
	p.Name, p.Slug, p.Web, p.Instructions = m.Name, m.Slug, m.Web, m.Instructions
	p.TranslationReview, p.SourceReview = m.TranslationReview, m.SourceReview
	p.SetLanguageTeam, p.EnableHooks = m.SetLanguageTeam, m.EnableHooks
	p.LanguageAliases, p.CheckFlags, p.CommitPolicy = m.LanguageAliases, m.CheckFlags, weblate.CommitPolicies.RefOf(m.CommitPolicy)
	p.Enforced2FA, p.AccessControl = m.Enforced_2Fa, weblate.AccessControls.RefOf(m.AccessControl)
	p.UseSharedTM, p.ContributeSharedTM = m.UseSharedTm, m.ContributeSharedTm
	p.Settings, p.Inherit = takeSettings(m)
}

func componentProto(c *store.Component) *catalogv1.Component {
	m := &catalogv1.Component{
		Id: c.ID, ProjectId: c.ProjectID, ProjectSlug: c.ProjectSlug, Name: c.Name, Slug: c.Slug,
		SourceLanguageCode: c.SourceLanguageCode, Vcs: c.VCS, Repo: c.Repo, GitExport: c.GitExport,
		Branch: c.Branch, PushBranch: c.PushBranch, Filemask: c.Filemask,
		ScreenshotFilemask: c.ScreenshotFilemask, Template: c.Template, EditTemplate: c.EditTemplate,
		Intermediate: c.Intermediate, NewBase: c.NewBase, FileFormat: c.FileFormat,
		LicenseUrl: c.LicenseURL, Push: c.Push, CheckFlags: c.CheckFlags,
		Priority: c.Priority, EnforcedChecks: append([]string{}, c.EnforcedChecks...),
		Restricted: c.Restricted, Repoweb: c.Repoweb, ReportSourceBugs: c.ReportSourceBugs,
		MergeStyle:                  weblate.MergeStyles.EnumOf(c.MergeStyle),
		AllowTranslationPropagation: c.AllowTranslationPropagation,
		ManageUnits:                 c.ManageUnits, EnableSuggestions: c.EnableSuggestions,
		SuggestionVoting: c.SuggestionVoting, SuggestionAutoaccept: c.SuggestionAutoaccept,
		PushOnCommit: c.PushOnCommit, CommitPendingAge: c.CommitPendingAge,
		AutoLockError: c.AutoLockError, LanguageRegex: c.LanguageRegex, KeyFilter: c.KeyFilter,
		VariantRegex: c.VariantRegex,
		IsGlossary:   c.IsGlossary, GlossaryColor: c.GlossaryColor, LinkedComponent: c.LinkedComponent,
		Locked: c.Locked, Created: timestamppb.New(c.Created),
		CategoryId: c.CategoryID, CategoryPath: c.CategoryPath(),
		ResourceName: resname.Component(c.ProjectSlug, c.Slug),
	}
	putSettings(m, c.Settings, c.Inherit, c.Effective)
	return m
}

// componentRow copies the writable fields of m, validated, into c. The project, the
// link and the lock are not writable this way.
func componentRow(m *catalogv1.Component, c *store.Component) {
	c.Name, c.Slug, c.SourceLanguageCode = m.Name, m.Slug, m.SourceLanguageCode
	c.VCS, c.Repo, c.GitExport, c.Branch, c.PushBranch = m.Vcs, m.Repo, m.GitExport, m.Branch, m.PushBranch
	c.Filemask, c.ScreenshotFilemask, c.Template = m.Filemask, m.ScreenshotFilemask, m.Template
	c.EditTemplate, c.Intermediate, c.NewBase, c.FileFormat = m.EditTemplate, m.Intermediate, m.NewBase, m.FileFormat
	c.Push, c.CheckFlags, c.Priority = m.Push, m.CheckFlags, m.Priority
	c.EnforcedChecks = append([]string{}, m.EnforcedChecks...)
	c.Restricted, c.Repoweb, c.ReportSourceBugs, c.MergeStyle = m.Restricted, m.Repoweb, m.ReportSourceBugs, weblate.MergeStyles.RefOf(m.MergeStyle)
	c.AllowTranslationPropagation, c.ManageUnits = m.AllowTranslationPropagation, m.ManageUnits
	c.EnableSuggestions, c.SuggestionVoting, c.SuggestionAutoaccept = m.EnableSuggestions, m.SuggestionVoting, m.SuggestionAutoaccept
	c.PushOnCommit, c.CommitPendingAge, c.AutoLockError = m.PushOnCommit, m.CommitPendingAge, m.AutoLockError
	c.LanguageRegex, c.KeyFilter = m.LanguageRegex, m.KeyFilter
	c.VariantRegex, c.IsGlossary, c.GlossaryColor = m.VariantRegex, m.IsGlossary, m.GlossaryColor
	c.CategoryID = m.CategoryId
	c.Settings, c.Inherit = takeSettings(m)
}
