package server_test

import (
	"fmt"
	"strings"
	"testing"

	"google.golang.org/protobuf/types/known/fieldmaskpb"

	"github.com/tmsproject/tms/pkg/changedetails"
	"github.com/tmsproject/tms/pkg/errs"
	catalogv1 "github.com/tmsproject/tms/proto/gen/go/tms/catalog/v1"
	changelogv1 "github.com/tmsproject/tms/proto/gen/go/tms/changelog/v1"
	typev1 "github.com/tmsproject/tms/proto/gen/go/tms/type/v1"
	"github.com/tmsproject/tms/services/catalog/server"
)

func TestComponentDefaults(t *testing.T) {
	e := newEnv(t)
	e.project("proj")
	c := e.component("proj", "main")
	checks := []struct {
		name string
		ok   bool
	}{
		{"vcs", c.GetVcs() == "git"},
		{"branch", c.GetBranch() == ""},
		{"source_language", c.GetSourceLanguageCode() == "en"},
		{"new_lang", c.GetNewLang() == "add"},
		{"merge_style", c.GetMergeStyle() == typev1.MergeStyle_MERGE_STYLE_REBASE},
		{"commit_pending_age", c.GetCommitPendingAge() == 24},
		{"priority", c.GetPriority() == 100},
		{"enable_suggestions", c.GetEnableSuggestions()},
		{"suggestion_voting", !c.GetSuggestionVoting()},
		{"language_regex", c.GetLanguageRegex() == "^[^.]+$"},
		{"edit_template", c.GetEditTemplate()},
		{"push_on_commit", c.GetPushOnCommit()},
		{"auto_lock_error", c.GetAutoLockError()},
		{"allow_translation_propagation", c.GetAllowTranslationPropagation()},
		{"manage_units", !c.GetManageUnits()},
		{"glossary_color", c.GetGlossaryColor() == "silver"},
		{"commit_message", strings.HasPrefix(c.GetCommitMessage(), "chore(l10n): update {{ language_name }} translation")},
		{"pull_message", strings.Contains(c.GetPullMessage(), "{% for linked in component_linked_children %}")},
		{"license", c.GetLicense() == "" && c.GetLicenseUrl() == ""},
		{"enforced_checks", len(c.GetEnforcedChecks()) == 0},
		{"project", c.GetProjectSlug() == "proj" && c.GetProjectId() != 0},
		{"locked", !c.GetLocked()},
		{"linked", c.GetLinkedComponent() == ""},
	}
	for _, ch := range checks {
		if !ch.ok {
			t.Errorf("default %s wrong: %v", ch.name, c)
		}
	}
	cs := e.changes()
	if last := cs[len(cs)-1]; last.GetAction() != typev1.ChangeAction_CHANGE_ACTION_CREATE_COMPONENT || last.GetProjectSlug() != "proj" || last.GetComponentSlug() != "main" || last.GetUser() != "admin" {
		t.Errorf("create record %v", last)
	}

	// Named fields win over the defaults, zero values included; unnamed
	// ones keep them even when the message carries a value.
	req := minimal("proj", "second")
	req.Component.Priority = 80
	req.Component.EnableSuggestions = false
	req.Component.License = "GPL-3.0-or-later"
	req.Component.Branch = "main"
	req.Component.MergeStyle = typev1.MergeStyle_MERGE_STYLE_MERGE // not named: ignored
	req.Fields = append(req.Fields, "priority", "enable_suggestions", "license", "branch")
	resp, err := e.client.CreateComponent(t.Context(), req)
	if err != nil {
		t.Fatal(err)
	}
	got := resp.GetComponent()
	if got.GetPriority() != 80 || got.GetEnableSuggestions() || got.GetBranch() != "main" || got.GetMergeStyle() != typev1.MergeStyle_MERGE_STYLE_REBASE ||
		got.GetLicenseUrl() != "https://spdx.org/licenses/GPL-3.0-or-later.html" {
		t.Errorf("explicit fields: %v", got)
	}
	// Without field names, the set (non-zero) fields count.
	req = minimal("proj", "third")
	req.Fields = nil
	req.Component.SourceLanguageCode = "cs"
	req.Component.IsGlossary = true
	resp, err = e.client.CreateComponent(t.Context(), req)
	if err != nil {
		t.Fatal(err)
	}
	if got := resp.GetComponent(); got.GetSourceLanguageCode() != "cs" || got.GetPriority() != 100 ||
		!got.GetManageUnits() || got.GetNewLang() != "none" {
		t.Errorf("implicit fields, glossary: %v", got)
	}
}

func TestComponentValidation(t *testing.T) {
	e := newEnv(t)
	e.project("proj")
	e.project("other")
	e.component("proj", "taken")
	cases := []struct {
		name   string
		modify func(c *catalogv1.Component)
		want   violation
	}{
		{"blank name", func(c *catalogv1.Component) { c.Name = "" }, violation{"name", "blank", "This field may not be blank."}},
		{"bad slug", func(c *catalogv1.Component) { c.Slug = "a/b" }, violation{"slug", "invalid", ""}},
		{"format", func(c *catalogv1.Component) { c.FileFormat = "xwiki-fullpage" }, violation{"file_format", "invalid_choice", `"xwiki-fullpage" is not a valid choice.`}},
		{"no format", func(c *catalogv1.Component) { c.FileFormat = "" }, violation{"file_format", "blank", ""}},
		{"mask without star", func(c *catalogv1.Component) { c.Filemask = "po/de.po" }, violation{"filemask", "invalid",
			"File mask does not contain * as a language placeholder!"}},
		{"mask with two stars", func(c *catalogv1.Component) { c.Filemask = "*/*.po" }, violation{"filemask", "invalid", ""}},
		{"mask leaving repo", func(c *catalogv1.Component) { c.Filemask = "../*.po" }, violation{"filemask", "invalid", ""}},
		{"absolute template", func(c *catalogv1.Component) { c.NewBase = "/etc/passwd" }, violation{"new_base", "invalid", ""}},
		{"source language", func(c *catalogv1.Component) { c.SourceLanguageCode = "qqq_Nope" }, violation{"source_language",
			"does_not_exist", "Object with code=qqq_Nope does not exist."}},
		{"no repo", func(c *catalogv1.Component) { c.Repo = "" }, violation{"repo", "blank", ""}},
		{"option repo", func(c *catalogv1.Component) { c.Repo = "--upload-pack=touch /tmp/x" }, violation{"repo", "invalid", ""}},
		{"ext repo", func(c *catalogv1.Component) { c.Repo = "ext::sh -c touch% /tmp/x" }, violation{"repo", "invalid", ""}},
		{"control repo", func(c *catalogv1.Component) { c.Repo = "https://example.com/\nrepo" }, violation{"repo", "invalid", ""}},
		{"option branch", func(c *catalogv1.Component) { c.Branch = "-f" }, violation{"branch", "invalid", ""}},
		{"ext push", func(c *catalogv1.Component) { c.Push = "EXT::x" }, violation{"push", "invalid", ""}},
		{"loopback push", func(c *catalogv1.Component) { c.Push = "git://127.0.0.1:18099/p.git" }, violation{"push", "invalid",
			"Fetching VCS repository using a local or private network address is not allowed; the server allows it when TMS_ALLOW_LOCAL_REPOS=true."}},
		{"metadata push", func(c *catalogv1.Component) { c.Push = "http://169.254.169.254/x.git" }, violation{"push", "invalid", ""}},
		{"local path push", func(c *catalogv1.Component) { c.Push = "/srv/git/p.git" }, violation{"push", "invalid", ""}},
		{"file push", func(c *catalogv1.Component) { c.Push = "file:///srv/git/p.git" }, violation{"push", "invalid", ""}},
		{"bad link", func(c *catalogv1.Component) { c.Repo = "weblate://proj/missing" }, violation{"repo", "invalid",
			"Invalid link to a Weblate project, use weblate://project/component."}},
		{"vcs", func(c *catalogv1.Component) { c.Vcs = "svn" }, violation{"vcs", "invalid_choice", ""}},
		{"new_lang", func(c *catalogv1.Component) { c.NewLang = "maybe" }, violation{"new_lang", "invalid_choice", ""}},
		{"priority", func(c *catalogv1.Component) { c.Priority = 7 }, violation{"priority", "invalid_choice", `"7" is not a valid choice.`}},
		{"autoaccept", func(c *catalogv1.Component) { c.SuggestionAutoaccept = 1 }, violation{"suggestion_autoaccept", "invalid", ""}},
		{"pending age", func(c *catalogv1.Component) { c.CommitPendingAge = 3000 }, violation{"commit_pending_age", "max_value", ""}},
		{"regex", func(c *catalogv1.Component) { c.LanguageRegex = "(" }, violation{"language_regex", "invalid", ""}},
		{"blank regex", func(c *catalogv1.Component) { c.LanguageRegex = "" }, violation{"language_regex", "blank", ""}},
		{"email", func(c *catalogv1.Component) { c.ReportSourceBugs = "nobody" }, violation{"report_source_bugs", "invalid", ""}},
		{"duplicate slug", func(c *catalogv1.Component) { c.Slug = "taken" }, violation{"slug", "unique",
			"Component with this URL slug already exists in the project."}},
		{"duplicate name", func(c *catalogv1.Component) { c.Name = "Component taken" }, violation{"name", "unique",
			"Component with this name already exists in the project."}},
	}
	fields := []string{"name", "slug", "file_format", "filemask", "repo", "source_language_code", "new_base", "branch",
		"push", "vcs", "new_lang", "priority", "suggestion_autoaccept", "commit_pending_age", "language_regex",
		"report_source_bugs"}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			req := minimal("proj", "fresh")
			req.Component.SourceLanguageCode, req.Component.Vcs, req.Component.NewLang = "en", "git", "add"
			req.Component.Priority, req.Component.CommitPendingAge, req.Component.LanguageRegex = 100, 24, "^[^.]+$"
			req.Fields = fields
			c.modify(req.Component)
			_, err := e.client.CreateComponent(t.Context(), req)
			wantKind(t, err, errs.InvalidArgument, &c.want)
		})
	}
	if n := len(e.changes()); n != 3 {
		t.Errorf("failed creates recorded changes: %d records", n)
	}
	// Required fields the request does not name are "required".
	for _, f := range []string{"name", "slug", "file_format", "filemask", "repo"} {
		req := minimal("proj", "fresh")
		req.Fields = nil
		for _, g := range minimal("proj", "fresh").Fields {
			if g != f {
				req.Fields = append(req.Fields, g)
			}
		}
		_, err := e.client.CreateComponent(t.Context(), req)
		wantKind(t, err, errs.InvalidArgument, &violation{f, "required", "This field is required."})
	}
	// The same slug in another project is fine; a missing project is not.
	e.component("other", "taken")
	_, err := e.client.CreateComponent(t.Context(), minimal("nope", "x"))
	wantKind(t, err, errs.NotFound, nil)
}

func TestComponentReadUpdateLink(t *testing.T) {
	e := newEnv(t)
	ctx := t.Context()
	e.project("proj")
	main := e.component("proj", "main")
	req := minimal("proj", "docs")
	req.Component.Repo = "weblate://proj/main"
	req.Component.SourceLanguageCode = "pt-BR"
	req.Fields = append(req.Fields, "source_language_code")
	resp, err := e.client.CreateComponent(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	docs := resp.GetComponent()
	if docs.GetLinkedComponent() != "proj/main" || docs.GetSourceLanguageCode() != "pt_BR" {
		t.Errorf("linked component: %v", docs)
	}
	// A link to a link, and a link to itself, are refused.
	req = minimal("proj", "third")
	req.Component.Repo = "weblate://proj/docs"
	_, err = e.client.CreateComponent(ctx, req)
	wantKind(t, err, errs.InvalidArgument, &violation{"repo", "invalid", "Invalid link to a Weblate project, cannot link to linked repository!"})
	_, err = e.client.UpdateComponent(ctx, &catalogv1.UpdateComponentRequest{ProjectSlug: "proj", Slug: "main",
		Component: &catalogv1.Component{Repo: "weblate://proj/main"}, UpdateMask: &fieldmaskpb.FieldMask{Paths: []string{"repo"}}})
	wantKind(t, err, errs.InvalidArgument, &violation{"repo", "invalid", "Invalid link to a Weblate project, cannot link it to itself!"})

	byID, err := e.client.GetComponent(ctx, &catalogv1.GetComponentRequest{Id: main.GetId()})
	if err != nil || byID.GetComponent().GetSlug() != "main" {
		t.Errorf("by id: %v %v", byID, err)
	}
	for _, r := range []*catalogv1.GetComponentRequest{{Id: 999}, {ProjectSlug: "proj", Slug: "nope"}, {ProjectSlug: "nope", Slug: "main"}} {
		_, err = e.client.GetComponent(ctx, r)
		wantKind(t, err, errs.NotFound, nil)
	}
	list, err := e.client.ListComponents(ctx, &catalogv1.ListComponentsRequest{ProjectSlug: "proj", Limit: 1, Offset: 1})
	if err != nil || list.GetTotal() != 2 || len(list.GetComponents()) != 1 || list.GetComponents()[0].GetSlug() != "docs" {
		t.Errorf("list: %v %v", list, err)
	}
	_, err = e.client.ListComponents(ctx, &catalogv1.ListComponentsRequest{ProjectSlug: "nope"})
	wantKind(t, err, errs.NotFound, nil)

	up, err := e.client.UpdateComponent(ctx, &catalogv1.UpdateComponentRequest{ProjectSlug: "proj", Slug: "main",
		Component:  &catalogv1.Component{Branch: "devel", License: "MIT", EnforcedChecks: []string{"same"}, Locked: true},
		UpdateMask: &fieldmaskpb.FieldMask{Paths: []string{"branch", "license", "enforced_checks", "locked"}}})
	if err != nil {
		t.Fatal(err)
	}
	if u := up.GetComponent(); u.GetBranch() != "devel" || u.GetLicenseUrl() != "https://spdx.org/licenses/MIT.html" ||
		len(u.GetEnforcedChecks()) != 1 || u.GetLocked() || u.GetName() != "Component main" {
		t.Errorf("update: %v", u)
	}
	_, err = e.client.UpdateComponent(ctx, &catalogv1.UpdateComponentRequest{ProjectSlug: "proj", Slug: "main",
		Component: &catalogv1.Component{SourceLanguageCode: "de"}, UpdateMask: &fieldmaskpb.FieldMask{Paths: []string{"source_language_code"}}})
	wantKind(t, err, errs.InvalidArgument, &violation{"source_language", "invalid", ""})
	_, err = e.client.UpdateComponent(ctx, &catalogv1.UpdateComponentRequest{ProjectSlug: "proj", Slug: "main",
		Component: &catalogv1.Component{Slug: "docs"}, UpdateMask: &fieldmaskpb.FieldMask{Paths: []string{"slug"}}})
	wantKind(t, err, errs.InvalidArgument, &violation{"slug", "unique", ""})
}

func TestLockAndDelete(t *testing.T) {
	e := newEnv(t)
	ctx := t.Context()
	e.project("proj")
	e.component("proj", "main")
	base := len(e.changes())
	steps := []struct {
		locked, auto bool
		record       bool
	}{
		{true, false, true},
		{true, true, false},
		{false, true, true},
		{false, false, false},
		{true, true, true},
	}
	for i, st := range steps {
		resp, err := e.client.SetComponentLock(ctx, &catalogv1.SetComponentLockRequest{ProjectSlug: "proj", Slug: "main",
			Locked: st.locked, Auto: st.auto, Actor: "admin"})
		if err != nil || resp.GetComponent().GetLocked() != st.locked {
			t.Fatalf("step %d: %v %v", i, resp, err)
		}
		if st.record {
			base++
		}
		cs := e.changes()
		if len(cs) != base {
			t.Fatalf("step %d: %d records, want %d", i, len(cs), base)
		}
		if !st.record {
			continue
		}
		last, action := cs[len(cs)-1], typev1.ChangeAction_CHANGE_ACTION_UNLOCK
		if st.locked {
			action = typev1.ChangeAction_CHANGE_ACTION_LOCK
		}
		wantDetails := `{"auto":false}`
		if st.auto {
			wantDetails = `{"auto":true}`
		}
		if last.GetAction() != action || detailsText(last) != wantDetails || last.GetComponentSlug() != "main" ||
			last.GetProjectSlug() != "proj" || last.GetLanguageCode() != "" || last.GetUnitId() != 0 {
			t.Errorf("step %d: record %v", i, last)
		}
	}
	p, err := e.client.GetProject(ctx, &catalogv1.GetProjectRequest{Slug: "proj"})
	if err != nil || !p.GetProject().GetLocked() {
		t.Errorf("project with all components locked: %v %v", p, err)
	}
	_, err = e.client.SetComponentLock(ctx, &catalogv1.SetComponentLockRequest{ProjectSlug: "proj", Slug: "nope", Locked: true})
	wantKind(t, err, errs.NotFound, nil)

	if _, err = e.client.DeleteComponent(ctx, &catalogv1.DeleteComponentRequest{ProjectSlug: "proj", Slug: "main", Actor: "admin"}); err != nil {
		t.Fatal(err)
	}
	cs := e.changes()
	if last := cs[len(cs)-1]; last.GetAction() != typev1.ChangeAction_CHANGE_ACTION_REMOVE_COMPONENT || last.GetProjectSlug() != "proj" || last.GetTarget() != "main" {
		t.Errorf("removal record %v", last)
	}
	_, err = e.client.DeleteComponent(ctx, &catalogv1.DeleteComponentRequest{ProjectSlug: "proj", Slug: "main"})
	wantKind(t, err, errs.NotFound, nil)
	p, err = e.client.GetProject(ctx, &catalogv1.GetProjectRequest{Slug: "proj"})
	if err != nil || p.GetProject().GetLocked() {
		t.Errorf("project without components is not locked: %v %v", p, err)
	}
}

// detailsText is the JSON text of a record's details, as the REST API
// answers it.
func detailsText(c *changelogv1.Change) string {
	s, err := changedetails.JSON(c.GetDetails())
	if err != nil {
		return err.Error()
	}
	return s
}

func TestIntermediateValidation(t *testing.T) {
	const (
		msgIntermediateTemplate  = "An intermediate language file can not be used without an editing template."
		msgIntermediateSame      = "An intermediate language file has to be different from monolingual base language file. You can probably keep it empty."
		msgIntermediateBilingual = "An intermediate language file can only be used with a monolingual file format."
	)
	e := newEnv(t)
	e.project("proj")
	cases := []struct {
		name   string
		modify func(c *catalogv1.Component)
		want   []violation // none: created
	}{
		{"monolingual", func(*catalogv1.Component) {}, nil},
		{"no template", func(c *catalogv1.Component) { c.Template = "" }, []violation{
			{"template", "invalid", msgIntermediateTemplate}, {"intermediate", "invalid", msgIntermediateTemplate}}},
		{"the template itself", func(c *catalogv1.Component) { c.Intermediate = c.Template }, []violation{
			{"intermediate", "invalid", msgIntermediateSame}}},
		{"template not editable", func(c *catalogv1.Component) { c.EditTemplate = false }, []violation{
			{"edit_template", "invalid", msgIntermediateTemplate}}},
		{"bilingual format", func(c *catalogv1.Component) { c.FileFormat, c.Filemask, c.Template = "po", "po/*.po", "po/en.po" }, []violation{
			{"file_format", "invalid", msgIntermediateBilingual}, {"intermediate", "invalid", msgIntermediateBilingual}}},
		{"outside the repository", func(c *catalogv1.Component) { c.Intermediate = "../dev.json" }, []violation{
			{"intermediate", "invalid", "The file name can not contain a parent directory reference."}}},
	}
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			req := minimal("proj", fmt.Sprintf("mono%d", i))
			req.Component.FileFormat, req.Component.Filemask = "json", "locales/*.json"
			req.Component.Template, req.Component.Intermediate, req.Component.EditTemplate = "locales/en.json", "locales/dev.json", true
			req.Fields = append(req.Fields, "template", "intermediate", "edit_template")
			c.modify(req.Component)
			resp, err := e.client.CreateComponent(t.Context(), req)
			if c.want == nil {
				if err != nil || resp.GetComponent().GetIntermediate() != "locales/dev.json" {
					t.Fatalf("create: %v, %v", resp.GetComponent(), err)
				}
				return
			}
			for _, v := range c.want {
				wantKind(t, err, errs.InvalidArgument, &v)
			}
		})
	}
}

// TestPushURLOnUpdate: a push URL to a local address is refused when
// changed alone, and taken when the server allows local repositories.
func TestPushURLOnUpdate(t *testing.T) {
	for _, allow := range []bool{false, true} {
		e := newEnvWith(t, server.Config{AllowLocalRepos: allow})
		e.project("proj")
		e.component("proj", "app")
		_, err := e.client.UpdateComponent(t.Context(), &catalogv1.UpdateComponentRequest{ProjectSlug: "proj", Slug: "app",
			Component: &catalogv1.Component{Push: "git://127.0.0.1:18099/p.git"}, UpdateMask: &fieldmaskpb.FieldMask{Paths: []string{"push"}}})
		if allow {
			if err != nil {
				t.Errorf("allowed: %v", err)
			}
			continue
		}
		wantKind(t, err, errs.InvalidArgument, &violation{"push", "invalid", ""})
	}
}
