package translation_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	git "github.com/go-git/go-git/v5"

	"github.com/tmsproject/tms/pkg/errs"
	"github.com/tmsproject/tms/pkg/policy"
	catalogv1 "github.com/tmsproject/tms/proto/gen/go/tms/catalog/v1"
	changelogv1 "github.com/tmsproject/tms/proto/gen/go/tms/changelog/v1"
	translationv1 "github.com/tmsproject/tms/proto/gen/go/tms/translation/v1"
	typev1 "github.com/tmsproject/tms/proto/gen/go/tms/type/v1"
	"github.com/tmsproject/tms/services/translation/internal/fixture"
)

// newPOT is the fixture's template with "Sign out" reworded, "Theme"
// gone and two strings added.
var newPOT = strings.NewReplacer(
	`msgid "Sign out"`, `msgid "Sign out now"`,
	"#: src/prefs.c:7\nmsgid \"Theme\"\nmsgstr \"\"\n\n", "",
	"#: src/menu.c:40\nmsgid \"Help\"\nmsgstr \"\"\n", "#: src/menu.c:40\nmsgid \"Help\"\nmsgstr \"\"\n\n#: src/prefs.c:8\nmsgid \"Dark mode\"\nmsgstr \"\"\n\n#: src/prefs.c:9\nmsgid \"Light mode\"\nmsgstr \"\"\n",
).Replace(fixture.PO(""))

// unitsBySource indexes a translation's units by their first source form.
func (e *env) unitsBySource(t *testing.T, code string) map[string]*translationv1.Unit {
	t.Helper()
	out := map[string]*translationv1.Unit{}
	for _, u := range e.units(t, e.translation(t, 1, code).GetId()) {
		out[u.GetContext()+"|"+u.GetSource()[0]] = u
	}
	return out
}

// TestUploadSource: a new template uploaded to the source translation is
// merged into every translation (a reworded string keeps its translation
// as fuzzy with the previous source, removed strings go, new ones come
// empty), replaces the component's new_base, all in one commit by the
// uploader, and is answered (0, 0, n, n) with the records of the
// reference.
func TestUploadSource(t *testing.T) {
	e, origin := setupRepo(t, nil)
	e.users.Set("ana", "Ana Lima", "ana@example.org")
	e.edit(t, "pt_BR", "Send", []string{"Enviar"}, 20, "bob") // pending: committed first
	r, err := e.upload(t, "en", "source", "", "", newPOT)
	if err != nil {
		t.Fatal(err)
	}
	if counts(r) != [4]int64{0, 0, 16, 16} {
		t.Errorf("counts %v, want [0 0 16 16]", counts(r))
	}
	src := e.unitsBySource(t, "en")
	if len(src) != 16 || src["|Sign out now"] == nil || src["|Dark mode"] == nil || src["|Theme"] != nil || src["|Sign out"] != nil {
		t.Errorf("source strings after the upload: %d, %v", len(src), keys(src))
	}
	tests := []struct {
		code, prevSource string
		reworded         typev1.UnitState
		target           string
	}{
		// cs had "Sign out" translated: msgmerge keeps its msgid as previous.
		{"cs", "Sign out", typev1.UnitState_UNIT_STATE_FUZZY, "[cs] Sign out"},
		// de had it fuzzy already: no previous msgid to keep.
		{"de", "", typev1.UnitState_UNIT_STATE_FUZZY, "[de] Sign out"},
		// pt_BR had it empty: not a candidate, the string is new.
		{"pt_BR", "", typev1.UnitState_UNIT_STATE_EMPTY, ""},
	}
	for _, tt := range tests {
		t.Run(tt.code, func(t *testing.T) {
			us := e.unitsBySource(t, tt.code)
			if len(us) != 16 || us["|Theme"] != nil || us["|Sign out"] != nil {
				t.Errorf("%d units: %v", len(us), keys(us))
			}
			u := us["|Sign out now"]
			if u.GetState() != tt.reworded || u.GetTarget()[0] != tt.target || u.GetPreviousSource() != tt.prevSource {
				t.Errorf("reworded string: %s %q previous %q", u.GetState(), u.GetTarget(), u.GetPreviousSource())
			}
			if u := us["|Dark mode"]; u.GetState() != typev1.UnitState_UNIT_STATE_EMPTY || u.GetTarget()[0] != "" {
				t.Errorf("new string: %s %q", u.GetState(), u.GetTarget())
			}
			if u := us["|Good morning!"]; tt.code == "cs" && u.GetTarget()[0] != "[cs] Good morning!" {
				t.Errorf("unchanged string lost its translation: %q", u.GetTarget())
			}
		})
	}
	if e.unitsBySource(t, "pt_BR")["|Send"].GetTarget()[0] != "Enviar" {
		t.Error("the pending edit was lost")
	}
	if res := e.op(t, "push"); !res.GetResult() {
		t.Fatalf("push: %+v", res)
	}
	if got := originFile(t, origin, "po/greeter.pot"); got != newPOT {
		t.Errorf("new_base not replaced by the upload:\n%s", got)
	}
	cs := originFile(t, origin, "po/cs.po")
	for _, want := range []string{"#, fuzzy\n#| msgid \"Sign out\"\nmsgid \"Sign out now\"\nmsgstr \"[cs] Sign out\"\n",
		"#: src/prefs.c:8\nmsgid \"Dark mode\"\nmsgstr \"\"\n", "#~ msgid \"Theme\"\n#~ msgstr \"[cs] Theme\"\n"} {
		if !strings.Contains(cs, want) {
			t.Errorf("po/cs.po lacks %q:\n%s", want, cs)
		}
	}
	c := originCommit(t, origin)
	if c.Author.Name != "Ana Lima" || c.NumParents() != 1 {
		t.Errorf("source upload commit by %s with %d parents", c.Author.Name, c.NumParents())
	}
	parent, _ := c.Parent(0)
	if parent.Author.Name == "Ana Lima" || !strings.Contains(parent.Message, "Portuguese") && !strings.Contains(parent.Message, "pt_BR") {
		t.Errorf("pending edit not committed before the upload: %q by %s", parent.Message, parent.Author.Name)
	}
	stats, _ := c.Stats()
	var changed []string
	for _, s := range stats {
		changed = append(changed, s.Name)
	}
	if strings.Join(changed, " ") != "po/ar.po po/cs.po po/de.po po/greeter.pot po/pt_BR.po" {
		t.Errorf("files of the upload commit: %v", changed)
	}
	waitChanges(t, e, 4, func(c *changelogv1.Change) bool {
		return c.GetAction() == typev1.ChangeAction_CHANGE_ACTION_SOURCE_UPLOAD
	})
	got := waitChanges(t, e, 1, func(c *changelogv1.Change) bool {
		return c.GetAction() == typev1.ChangeAction_CHANGE_ACTION_FILE_UPLOAD
	})
	if d := details(t, got[0]); d["method"] != "source" || d["accepted"] != 16.0 || d["total"] != 16.0 || got[0].GetLanguageCode() != "en" {
		t.Errorf("upload record %v", d)
	}
}

func keys(m map[string]*translationv1.Unit) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

// TestUploadSourceFailureChangesNothing: when one translation file cannot
// be merged, the upload fails and no file, commit or string changed.
func TestUploadSourceFailureChangesNothing(t *testing.T) {
	e, _ := setupRepo(t, nil)
	// A broken de.po committed in the working copy (as a pull whose
	// re-read failed leaves it): the database keeps the strings before it.
	wc, err := git.PlainOpen(e.workDir())
	if err != nil {
		t.Fatal(err)
	}
	fixture.Commit(t, wc, e.workDir(), map[string]string{"po/de.po": "msgid \"a\"\nbroken\n"}, "break de")
	gdb := e.svc.DB()
	before := snapshot(t, e, gdb) + sourceSnapshot(t, e)
	head := e.workHead(t)
	_, err = e.upload(t, "en", "source", "", "", newPOT)
	if fe := errs.FromStatus(err); fe.Kind != errs.InvalidArgument || len(fe.Fields) != 1 || !strings.Contains(fe.Fields[0].Description, "po/de.po") {
		t.Fatalf("upload with an unmergeable file: %v", err)
	}
	if after := snapshot(t, e, gdb) + sourceSnapshot(t, e); after != before {
		t.Errorf("after a failed source upload:\n%s\nwant as before:\n%s", after, before)
	}
	if repo := e.repository(t, ""); repo.GetNeedsCommit() || e.workHead(t) != head {
		t.Errorf("repository changed: %+v", repo)
	}
	if got := e.workFile(t, "po/greeter.pot"); got != fixture.PO("") {
		t.Errorf("new_base written:\n%s", got)
	}
	if got := e.workFile(t, "po/cs.po"); got != fixture.PO("cs") {
		t.Errorf("po/cs.po written:\n%s", got)
	}
}

func (e *env) workDir() string { return filepath.Join(e.dataDir, "repos", "1") }

// workFile reads a file of the component's working copy.
func (e *env) workFile(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(e.workDir(), filepath.FromSlash(path)))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// workHead is the working copy's HEAD commit.
func (e *env) workHead(t *testing.T) string {
	t.Helper()
	r, err := git.PlainOpen(e.workDir())
	if err != nil {
		t.Fatal(err)
	}
	h, err := r.Head()
	if err != nil {
		t.Fatal(err)
	}
	return h.Hash().String()
}

// setupSourceRepo is setupRepo with a JSON component (files json/en.json,
// the template, and json/cs.json) when mod makes the component JSON.
func setupSourceRepo(t *testing.T, mod func(*catalogv1.Component)) *env {
	t.Helper()
	if mod == nil {
		e, _ := setupRepo(t, nil)
		return e
	}
	e := newEnv(t, true)
	files := fixture.Files()
	files["json/en.json"] = "{\n    \"hello\": \"Hello\"\n}\n"
	files["json/cs.json"] = "{\n    \"hello\": \"Ahoj\"\n}\n"
	comp := greeter(1, fixture.Origin(t, files))
	mod(comp)
	e.catalog.Set(comp, project)
	if task := e.importNow(t, 1); task.GetError() != "" {
		t.Fatal(task.GetError())
	}
	return e
}

// sourceSnapshot lists the source strings.
func sourceSnapshot(t *testing.T, e *env) string {
	var b strings.Builder
	for _, u := range e.units(t, e.translation(t, 1, "en").GetId()) {
		b.WriteString(u.GetSource()[0] + "\n")
	}
	return b.String()
}

// TestUploadSourceRefusals: method source is for the source translation
// of a component whose format merges translation files, by a caller who
// may edit source strings.
func TestUploadSourceRefusals(t *testing.T) {
	translate := policy.Caller{Username: "tom", Grants: []policy.Grant{{ProjectSelection: policy.SelectAll,
		LanguageSelection: policy.LanguagesAll, Permissions: []string{"upload.perform", "unit.edit"}}}}
	source := policy.Caller{Username: "sue", Grants: []policy.Grant{{ProjectSelection: policy.SelectAll,
		LanguageSelection: policy.LanguagesAll, Permissions: []string{"upload.perform", "source.edit"}}}}
	noUpload := policy.Caller{Username: "ned", Grants: []policy.Grant{{ProjectSelection: policy.SelectAll,
		LanguageSelection: policy.LanguagesAll, Permissions: []string{"source.edit"}}}}
	tests := []struct {
		name   string
		code   string
		caller *policy.Caller
		mod    func(*catalogv1.Component)
		ok     bool
		want   errs.Kind
		reason string
	}{
		{"a translation", "cs", nil, nil, false, errs.InvalidArgument, "Source upload is supported only on source language."},
		{"a format without bilingual update", "en", nil, func(c *catalogv1.Component) {
			c.FileFormat, c.Filemask, c.Template, c.NewBase = "json", "json/*.json", "json/en.json", ""
		}, false, errs.InvalidArgument, "This method is not available here."},
		{"without source.edit", "en", &translate, nil, false, errs.PermissionDenied, ""},
		{"without upload.perform", "en", &noUpload, nil, false, errs.PermissionDenied, ""},
		{"with upload.perform and source.edit", "en", &source, nil, true, 0, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := setupSourceRepo(t, tt.mod)
			ctx := t.Context()
			if tt.caller != nil {
				ctx = policy.WithCaller(ctx, *tt.caller)
			}
			before := sourceSnapshot(t, e)
			_, err := e.client.UploadFile(ctx, &translationv1.UploadFileRequest{ComponentId: 1, LanguageCode: tt.code,
				Content: []byte(newPOT), Method: "source", Actor: "ana"})
			if tt.ok {
				if err != nil {
					t.Fatal(err)
				}
				if sourceSnapshot(t, e) == before {
					t.Error("allowed upload changed no source string")
				}
				return
			}
			fe := errs.FromStatus(err)
			if fe.Kind != tt.want || tt.reason != "" && (len(fe.Fields) != 1 || fe.Fields[0].Field != "method" || !strings.HasPrefix(fe.Fields[0].Description, tt.reason)) {
				t.Errorf("error %v, want %s %q", err, tt.want, tt.reason)
			}
			if sourceSnapshot(t, e) != before {
				t.Error("refused upload changed the source strings")
			}
		})
	}
}

// TestUploadSourceFailingAfterCommitRollsBack makes the database refuse
// the re-read of one translation after others were re-read: the upload
// fails, its commit is reset and the re-read rolled back: the repository,
// every string and the change records are as before.
func TestUploadSourceFailingAfterCommitRollsBack(t *testing.T) {
	e, _ := setupRepo(t, nil)
	gdb := e.svc.DB()
	cs := e.translation(t, 1, "cs").GetId()
	trigger := fmt.Sprintf(`CREATE TRIGGER refuse BEFORE INSERT ON units WHEN NEW.source = 'Dark mode' AND NEW.translation_id = %d
		BEGIN SELECT RAISE(ABORT, 'injected failure'); END`, cs)
	if err := gdb.Exec(trigger).Error; err != nil {
		t.Fatal(err)
	}
	strs := func() string {
		var b strings.Builder
		for _, code := range []string{"en", "ar", "cs", "de", "pt_BR"} {
			for _, u := range e.units(t, e.translation(t, 1, code).GetId()) {
				fmt.Fprintf(&b, "%s %q %q %s\n", code, u.GetSource(), u.GetTarget(), u.GetState())
			}
		}
		return b.String()
	}
	before, head := strs()+snapshot(t, e, gdb), e.workHead(t)
	if _, err := e.upload(t, "en", "source", "", "", newPOT); kind(err) != errs.Internal {
		t.Fatalf("upload with a refused re-read: %v, want an internal error", err)
	}
	if after := strs() + snapshot(t, e, gdb); after != before {
		t.Errorf("strings after a failed source upload:\n%s\nwant as before:\n%s", after, before)
	}
	if e.workHead(t) != head || e.workFile(t, "po/greeter.pot") != fixture.PO("") || e.workFile(t, "po/ar.po") != fixture.PO("ar") {
		t.Error("the source upload commit was not undone")
	}
}
