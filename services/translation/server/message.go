package server

import (
	"context"

	catalogv1 "github.com/tmsproject/tms/proto/gen/go/tms/catalog/v1"
	"github.com/tmsproject/tms/services/translation/msgtmpl"
	"github.com/tmsproject/tms/services/translation/store"
	"github.com/tmsproject/tms/services/translation/workcopy"
)

// messageContext renders a component's message templates; it caches the
// project and languages looked up in the copy of the catalog, and the authors looked
// up in the user directory, for one operation.
type messageContext struct {
	s       *Server
	comp    *catalogv1.Component
	project *catalogv1.Project
	langs   map[string]*catalogv1.Language
	authors map[string]workcopy.Signature
}

func (s *Server) newMessageContext(ctx context.Context, comp *catalogv1.Component) *messageContext {
	mc := &messageContext{s: s, comp: comp, langs: map[string]*catalogv1.Language{},
		authors: map[string]workcopy.Signature{}}
	if p, err := s.project(ctx, comp); err == nil {
		mc.project = p
	} else {
		mc.project = &catalogv1.Project{Slug: comp.GetProjectSlug(), Name: comp.GetProjectSlug()}
	}
	return mc
}

// language looks a language up, falling back to its code as name.
func (mc *messageContext) language(ctx context.Context, code string) *catalogv1.Language {
	if l, ok := mc.langs[code]; ok {
		return l
	}
	l := &catalogv1.Language{Code: code, Name: code}
	if found, _, err := mc.s.languages().lookup(ctx, code); err == nil {
		l = found
	}
	mc.langs[code] = l
	return l
}

// author is the git identity of a user (Server.author), looked up once.
func (mc *messageContext) author(ctx context.Context, username string) workcopy.Signature {
	sig, ok := mc.authors[username]
	if !ok {
		sig = mc.s.author(ctx, username)
		mc.authors[username] = sig
	}
	return sig
}

// base holds the variables every message has (Weblate's render_template
// context for a component).
func (mc *messageContext) base() msgtmpl.Context {
	g := mc.s.cfg.Git
	return msgtmpl.Context{
		"project_name": mc.project.GetName(), "project_slug": mc.project.GetSlug(),
		"component_name": mc.comp.GetName(), "component_slug": mc.comp.GetSlug(),
		"component_remote_branch": mc.comp.GetBranch(),
		"site_title":              g.SiteTitle, "site_url": g.SiteURL,
		"url":                     g.SiteURL + "/projects/" + mc.comp.GetProjectSlug() + "/" + mc.comp.GetSlug() + "/",
		"widget_url":              g.SiteURL + "/widget/" + mc.comp.GetProjectSlug() + "/" + mc.comp.GetSlug() + "/svg-badge.svg",
		"component_linked_childs": []any{},
	}
}

// render renders tmpl for one translation (commit_message, add_message…);
// author is "Name <email>" of the commit's author for the translation. A
// broken template falls back to the text itself, as a commit must not fail
// over its message.
func (mc *messageContext) render(ctx context.Context, tmpl string, t store.Translation, author string) string {
	c := mc.base()
	lng := mc.language(ctx, t.LanguageCode)
	c["language_name"], c["language_code"] = lng.GetName(), t.LanguageCode
	c["url"] = mc.s.cfg.Git.translationURL(t.ProjectSlug, t.ComponentSlug, t.LanguageCode)
	c["author"] = author
	c["stats"] = map[string]any{
		"translated_percent": percent(t.Translated, t.Total), "translated": t.Translated, "all": t.Total,
		"fuzzy": t.Fuzzy, "fuzzy_percent": percent(t.Fuzzy, t.Total), "approved": t.Approved,
		"approved_percent": percent(t.Approved, t.Total), "allchecks": t.Failing,
	}
	return renderOr(tmpl, c)
}

// renderComponent renders the commit message without a translation (a
// commit of added or removed files only).
func (mc *messageContext) renderComponent(_ context.Context) string {
	return renderOr(mc.comp.GetEffectiveCommitMessage(), mc.base())
}

func renderOr(tmpl string, c msgtmpl.Context) string {
	if tmpl == "" {
		tmpl = "Translated using {{ site_title }}"
	}
	out, err := msgtmpl.Render(tmpl, c)
	if err != nil {
		return tmpl
	}
	return out
}

// renderMerge renders the component's merge_message.
func (mc *messageContext) renderMerge() string {
	return renderOr(or(mc.comp.GetEffectiveMergeMessage(), "Merge branch '{{ component_remote_branch }}' into {{ site_title }}"), mc.base())
}
