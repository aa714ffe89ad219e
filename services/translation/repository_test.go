package translation_test

import (
	"encoding/binary"
	"slices"
	"strings"
	"sync"
	"testing"

	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"

	"github.com/tmsproject/tms/pkg/errs"
	"github.com/tmsproject/tms/pkg/version"
	catalogv1 "github.com/tmsproject/tms/proto/gen/go/tms/catalog/v1"
	changelogv1 "github.com/tmsproject/tms/proto/gen/go/tms/changelog/v1"
	translationv1 "github.com/tmsproject/tms/proto/gen/go/tms/translation/v1"
	typev1 "github.com/tmsproject/tms/proto/gen/go/tms/type/v1"
	"github.com/tmsproject/tms/services/translation"
	"github.com/tmsproject/tms/services/translation/internal/fixture"
	"github.com/tmsproject/tms/services/translation/server"
)

const weblateCommitMessage = "Translated using Weblate ({{ language_name }})\n\n" +
	"Currently translated at {{ stats.translated_percent }}% ({{ stats.translated }} of {{ stats.all }} strings)\n\n" +
	"Translation: {{ project_name }}/{{ component_name }}\nTranslate-URL: {{ url }}"

// setupRepo imports the fixture from a fresh origin; mod adjusts the component.
func setupRepo(t *testing.T, mod func(*catalogv1.Component)) (*env, string) {
	t.Helper()
	return setupRepoWith(t, nil, mod)
}

// setupRepoWith is setupRepo with cfg adjusting the service configuration.
func setupRepoWith(t *testing.T, cfg func(*translation.Config), mod func(*catalogv1.Component)) (*env, string) {
	t.Helper()
	e := newEnvWith(t, true, cfg)
	origin := fixture.Origin(t, fixture.Files())
	comp := greeter(1, origin)
	comp.Name, comp.CommitMessage, comp.EnableSuggestions = "Greeter", weblateCommitMessage, true
	if mod != nil {
		mod(comp)
	}
	e.catalog.Set(comp, project)
	if task := e.importNow(t, 1); task.GetError() != "" {
		t.Fatal(task.GetError())
	}
	return e, origin
}

func (e *env) unit(t *testing.T, code, source string) *translationv1.Unit {
	t.Helper()
	for _, u := range e.units(t, e.translation(t, 1, code).GetId()) {
		if u.GetSource()[0] == source && u.GetContext() == "" {
			return u
		}
	}
	t.Fatalf("no %s unit %q", code, source)
	return nil
}

func (e *env) edit(t *testing.T, code, source string, target []string, state typev1.UnitState, actor string) {
	t.Helper()
	_, err := e.client.UpdateUnit(t.Context(), &translationv1.UpdateUnitRequest{
		Id: e.unit(t, code, source).GetId(), Target: target, State: state, Actor: actor, ActorCanReview: true})
	if err != nil {
		t.Fatalf("edit %s %q: %v", code, source, err)
	}
}

func (e *env) op(t *testing.T, name string) *translationv1.RunRepositoryOperationResponse {
	t.Helper()
	resp, err := e.client.RunRepositoryOperation(t.Context(), &translationv1.RunRepositoryOperationRequest{
		ComponentIds: []int64{1}, Operation: name, Actor: "admin"})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return resp
}

func (e *env) repository(t *testing.T, code string) *translationv1.Repository {
	t.Helper()
	resp, err := e.client.GetRepository(t.Context(), &translationv1.GetRepositoryRequest{ComponentIds: []int64{1}, LanguageCode: code})
	if err != nil {
		t.Fatal(err)
	}
	return resp.GetRepository()
}

// originFile reads a file of branch main of a bare repository.
func originFile(t *testing.T, origin, path string) string {
	t.Helper()
	return branchFile(t, origin, "main", path)
}

func originHead(t *testing.T, origin string) string {
	t.Helper()
	r, err := git.PlainOpen(origin)
	if err != nil {
		t.Fatal(err)
	}
	ref, err := r.Reference(plumbing.NewBranchReferenceName("main"), true)
	if err != nil {
		t.Fatal(err)
	}
	return ref.Hash().String()
}

// entries splits a PO text into its blank-line separated blocks.
func entries(text string) []string { return strings.Split(strings.TrimSuffix(text, "\n"), "\n\n") }

// changedBlocks returns the blocks of b that are not in a.
func changedBlocks(a, b string) []string {
	var out []string
	for _, blk := range entries(b) {
		if !slices.Contains(entries(a), blk) {
			out = append(out, blk)
		}
	}
	return out
}

func actions(e *env, want ...typev1.ChangeAction) map[typev1.ChangeAction][]*changelogv1.Change {
	out := map[typev1.ChangeAction][]*changelogv1.Change{}
	for _, c := range e.changelog.Changes() {
		if slices.Contains(want, c.GetAction()) {
			out[c.GetAction()] = append(out[c.GetAction()], c)
		}
	}
	return out
}

func details(t *testing.T, c *changelogv1.Change) map[string]any {
	t.Helper()
	if c.GetDetails() == nil {
		t.Fatalf("no details on %v", c)
	}
	return c.GetDetails().AsMap()
}

func TestCommitAndPush(t *testing.T) {
	e, origin := setupRepo(t, nil)
	e.edit(t, "pt_BR", "Send", []string{"Enviar"}, typev1.UnitState_UNIT_STATE_TRANSLATED, "ana")
	e.edit(t, "pt_BR", "Close", []string{"Fechar"}, typev1.UnitState_UNIT_STATE_FUZZY, "ana")
	e.edit(t, "cs", "Good morning!", []string{""}, typev1.UnitState_UNIT_STATE_EMPTY, "bob")
	if r := e.repository(t, "pt_BR"); !r.GetNeedsCommit() || r.GetNeedsPush() {
		t.Fatalf("before commit: %+v", r)
	}
	if r := e.repository(t, "de"); r.GetNeedsCommit() {
		t.Error("needs_commit for de, which has no edits")
	}
	if res := e.op(t, "commit"); !res.GetResult() {
		t.Fatalf("commit: %+v", res)
	}
	r := e.repository(t, "")
	if r.GetNeedsCommit() || !r.GetNeedsPush() || r.GetNeedsMerge() || r.GetBranch() != "main" ||
		!strings.Contains(r.GetStatus(), "ahead of 'origin/main' by 1 commit") {
		t.Fatalf("after commit: %+v", r)
	}
	msg := r.GetLocalCommit().GetMessage()
	for _, want := range []string{"Translated using Weblate (Portuguese (Brazil))", "Currently translated at 6.6% (1 of 15 strings)",
		"Translation: Hello/Greeter", "Translate-URL: http://localhost:8080/projects/hello/greeter/pt_BR/",
		"Translated using Weblate (Czech)"} {
		if !strings.Contains(msg, want) {
			t.Errorf("commit message lacks %q:\n%s", want, msg)
		}
	}
	if strings.Count(msg, "Co-authored-by: ") != 1 || r.GetLocalCommit().GetAuthorName() == "" {
		t.Errorf("authors: %q, message:\n%s", r.GetLocalCommit().GetAuthorName(), msg)
	}
	if res := e.op(t, "push"); !res.GetResult() {
		t.Fatalf("push: %+v", res)
	}
	if r := e.repository(t, ""); r.GetNeedsPush() || r.GetRemoteCommit().GetRevision() != originHead(t, origin) {
		t.Errorf("after push: %+v", r)
	}
	pt := originFile(t, origin, "po/pt_BR.po")
	if !strings.Contains(pt, "msgid \"Send\"\nmsgstr \"Enviar\"") || !strings.Contains(pt, "#, fuzzy\nmsgid \"Close\"\nmsgstr \"Fechar\"") {
		t.Errorf("pushed pt_BR.po:\n%s", pt)
	}
	blocks := changedBlocks(fixture.PO("pt_BR"), pt)
	if len(blocks) != 3 || !strings.Contains(blocks[0], "Last-Translator: ana <"+server.DefaultCommitterEmail+">") ||
		!strings.Contains(blocks[0], "X-Generator: "+version.Generator()) || !strings.Contains(blocks[0], "Language: pt_BR") {
		t.Errorf("changed blocks of pt_BR.po: %q", blocks)
	}
	cs := originFile(t, origin, "po/cs.po")
	if !strings.Contains(cs, "msgid \"Good morning!\"\nmsgstr \"\"") {
		t.Errorf("emptied cs string not written:\n%s", cs)
	}
	for _, code := range []string{"de", "ar"} {
		if got := originFile(t, origin, "po/"+code+".po"); got != fixture.PO(code) {
			t.Errorf("untouched %s.po changed", code)
		}
	}
	if got := originFile(t, origin, "po/greeter.pot"); got != fixture.PO("") {
		t.Error("template changed")
	}
	waitChanges(t, e, 2, func(c *changelogv1.Change) bool { return c.GetAction() == typev1.ChangeAction_CHANGE_ACTION_COMMIT })
	waitChanges(t, e, 1, func(c *changelogv1.Change) bool { return c.GetAction() == typev1.ChangeAction_CHANGE_ACTION_PUSH })
	for _, c := range actions(e, typev1.ChangeAction_CHANGE_ACTION_COMMIT)[typev1.ChangeAction_CHANGE_ACTION_COMMIT] {
		if c.GetUnitId() != 0 || c.GetLanguageCode() == "" || c.GetUser() != "admin" {
			t.Errorf("commit record %+v", c)
		}
	}
	if u := e.unit(t, "pt_BR", "Send"); u.GetPending() || u.GetState() != typev1.UnitState_UNIT_STATE_TRANSLATED {
		t.Errorf("unit after commit: pending %v state %s", u.GetPending(), u.GetState())
	}
	// Nothing pending: a second commit and push change nothing.
	if res := e.op(t, "commit"); !res.GetResult() || originHead(t, origin) != e.repository(t, "").GetLocalCommit().GetRevision() {
		t.Errorf("idle commit: %+v", res)
	}
}

func TestPushOnCommitAndFiles(t *testing.T) {
	e, origin := setupRepo(t, func(c *catalogv1.Component) { c.PushOnCommit = true })
	e.edit(t, "de", "Help", []string{"Hilfe"}, typev1.UnitState_UNIT_STATE_TRANSLATED, "ana")
	resp, err := e.client.GetFile(t.Context(), &translationv1.GetFileRequest{ComponentId: 1, LanguageCode: "de"})
	if err != nil {
		t.Fatal(err)
	}
	if resp.GetFilename() != "po/de.po" || !strings.Contains(string(resp.GetContent()), "msgid \"Help\"\nmsgstr \"Hilfe\"") {
		t.Errorf("GetFile po = %q %q", resp.GetFilename(), resp.GetContent())
	}
	if !strings.Contains(originFile(t, origin, "po/de.po"), "msgstr \"Hilfe\"") {
		t.Error("download did not commit and push (push_on_commit)")
	}
	mo, err := e.client.GetFile(t.Context(), &translationv1.GetFileRequest{ComponentId: 1, LanguageCode: "de", Format: "mo"})
	if err != nil {
		t.Fatal(err)
	}
	data := mo.GetContent()
	if mo.GetFilename() != "po/de.mo" || len(data) < 28 || binary.LittleEndian.Uint32(data) != 0x950412de ||
		binary.LittleEndian.Uint32(data[8:]) != 12 { // header + 10 translated + Hilfe
		t.Errorf("GetFile mo: %q, %d bytes, count %d", mo.GetFilename(), len(data), binary.LittleEndian.Uint32(data[8:]))
	}
	if _, err = e.client.GetFile(t.Context(), &translationv1.GetFileRequest{ComponentId: 1, LanguageCode: "de", Format: "docx"}); err == nil {
		t.Error("unknown format accepted")
	}
	src, err := e.client.GetFile(t.Context(), &translationv1.GetFileRequest{ComponentId: 1, LanguageCode: "en"})
	if err != nil || string(src.GetContent()) != fixture.PO("") {
		t.Errorf("source file: %v", err)
	}
}

func TestPullUpstreamChanges(t *testing.T) {
	e, origin := setupRepo(t, nil)
	e.edit(t, "pt_BR", "Send", []string{"Enviar"}, typev1.UnitState_UNIT_STATE_TRANSLATED, "ana")
	cs := strings.Replace(fixture.PO("cs"), `msgstr "[cs] Close"`, `msgstr "Zavřít"`, 1)
	cs = strings.Replace(cs, "#: src/prefs.c:7\nmsgid \"Theme\"\nmsgstr \"[cs] Theme\"\n\n", "", 1)
	cs += "\n#: src/new.c:1\nmsgid \"Brand new\"\nmsgstr \"Zcela nové\"\n"
	fixture.Upstream(t, origin, map[string]string{"po/cs.po": cs})
	res := e.op(t, "pull")
	if !res.GetResult() {
		t.Fatalf("pull: %+v", res)
	}
	if u := e.unit(t, "cs", "Close"); u.GetTarget()[0] != "Zavřít" {
		t.Errorf("cs Close = %q", u.GetTarget())
	}
	got := waitChanges(t, e, 3, func(c *changelogv1.Change) bool {
		return slices.Contains([]typev1.ChangeAction{typev1.ChangeAction_CHANGE_ACTION_STRING_REPO_UPDATE, typev1.ChangeAction_CHANGE_ACTION_STRING_REMOVE, typev1.ChangeAction_CHANGE_ACTION_NEW_UNIT_REPO}, c.GetAction())
	})
	byAction := map[typev1.ChangeAction]*changelogv1.Change{}
	for _, c := range got {
		byAction[c.GetAction()] = c
	}
	if c := byAction[typev1.ChangeAction_CHANGE_ACTION_NEW_UNIT_REPO]; c == nil || c.GetTarget() != "Zcela nové" || c.GetUnitId() == 0 ||
		details(t, c)["source"] != "Brand new" || details(t, c)["old_state"] != float64(-1) || details(t, c)["state"] != float64(20) {
		t.Errorf("added record %+v", c)
	}
	if c := byAction[typev1.ChangeAction_CHANGE_ACTION_STRING_REPO_UPDATE]; c == nil || c.GetTarget() != "Zavřít" || c.GetOld() != "[cs] Close" || details(t, c)["old_state"] != float64(20) {
		t.Errorf("updated record %+v", c)
	}
	if c := byAction[typev1.ChangeAction_CHANGE_ACTION_STRING_REMOVE]; c == nil || details(t, c)["source"] != "Theme" {
		t.Errorf("removed record %+v", c)
	}
	waitChanges(t, e, 1, func(c *changelogv1.Change) bool { return c.GetAction() == typev1.ChangeAction_CHANGE_ACTION_MERGE })
	r := e.repository(t, "")
	if r.GetNeedsMerge() || !r.GetNeedsPush() || r.GetMergeFailure() != "" || r.GetNeedsCommit() {
		t.Errorf("after pull: %+v", r)
	}
	if res := e.op(t, "push"); !res.GetResult() {
		t.Fatalf("push after merge: %+v", res)
	}
	if !strings.Contains(originFile(t, origin, "po/pt_BR.po"), `msgstr "Enviar"`) || originFile(t, origin, "po/cs.po") != cs {
		t.Error("merged result not pushed")
	}
}

func TestPullRebase(t *testing.T) {
	e, origin := setupRepo(t, func(c *catalogv1.Component) { c.MergeStyle = typev1.MergeStyle_MERGE_STYLE_REBASE })
	e.edit(t, "pt_BR", "Send", []string{"Enviar"}, typev1.UnitState_UNIT_STATE_TRANSLATED, "ana")
	e.op(t, "commit")
	fixture.Upstream(t, origin, map[string]string{"README.md": "changed\n"})
	if res := e.op(t, "pull"); !res.GetResult() {
		t.Fatalf("pull: %+v", res)
	}
	r := e.repository(t, "")
	if !strings.Contains(r.GetStatus(), "ahead of 'origin/main' by 1 commit") || r.GetLocalCommit().GetAuthorName() != "ana" {
		t.Errorf("after rebase: %+v", r)
	}
	waitChanges(t, e, 1, func(c *changelogv1.Change) bool { return c.GetAction() == typev1.ChangeAction_CHANGE_ACTION_REBASE })
}

func TestPullConflict(t *testing.T) {
	e, origin := setupRepo(t, func(c *catalogv1.Component) { c.AutoLockError = true })
	e.edit(t, "cs", "Close", []string{"Zavřít"}, typev1.UnitState_UNIT_STATE_TRANSLATED, "ana")
	e.op(t, "commit")
	before := e.repository(t, "")
	fixture.Upstream(t, origin, map[string]string{"po/cs.po": strings.Replace(fixture.PO("cs"), "[cs] Preferences", "Předvolby", 1)})
	res := e.op(t, "pull")
	if res.GetResult() || !strings.Contains(res.GetDetail(), "CONFLICT (content): Merge conflict in po/cs.po") {
		t.Fatalf("pull with conflict: %+v", res)
	}
	after := e.repository(t, "")
	if after.GetMergeFailure() != res.GetDetail() || after.GetLocalCommit().GetRevision() != before.GetLocalCommit().GetRevision() ||
		!after.GetNeedsMerge() || !after.GetNeedsPush() || !strings.Contains(after.GetStatus(), "have diverged") {
		t.Errorf("after conflict: %+v", after)
	}
	resp, err := e.client.GetFile(t.Context(), &translationv1.GetFileRequest{ComponentId: 1, LanguageCode: "cs"})
	if err != nil || !strings.Contains(string(resp.GetContent()), `msgstr "Zavřít"`) || strings.Contains(string(resp.GetContent()), "Předvolby") {
		t.Errorf("working copy changed by a failed merge: %v", err)
	}
	waitChanges(t, e, 1, func(c *changelogv1.Change) bool {
		return c.GetAction() == typev1.ChangeAction_CHANGE_ACTION_FAILED_MERGE
	})
	waitChanges(t, e, 1, func(c *changelogv1.Change) bool {
		return c.GetAction() == typev1.ChangeAction_CHANGE_ACTION_ALERT && strings.Contains(detailsText(c), "MergeFailure")
	})
	// The alert the change log names stands in the component's alerts,
	// once, until a merge succeeds.
	e.op(t, "pull")
	if names := e.alertNames(t); names != "MergeFailure" {
		t.Errorf("alerts after two failed pulls: %q, want MergeFailure", names)
	}
	// Reset drops the local commit and takes the remote text.
	if res := e.op(t, "reset"); !res.GetResult() {
		t.Fatalf("reset: %+v", res)
	}
	r := e.repository(t, "")
	if r.GetMergeFailure() != "" || r.GetNeedsPush() || r.GetNeedsMerge() || r.GetLocalCommit().GetRevision() != originHead(t, origin) {
		t.Errorf("after reset: %+v", r)
	}
	if u := e.unit(t, "cs", "Close"); u.GetTarget()[0] != "[cs] Close" {
		t.Errorf("cs Close after reset = %q", u.GetTarget())
	}
	if u := e.unit(t, "cs", "Preferences"); u.GetTarget()[0] != "Předvolby" {
		t.Errorf("cs Preferences after reset = %q", u.GetTarget())
	}
	waitChanges(t, e, 1, func(c *changelogv1.Change) bool { return c.GetAction() == typev1.ChangeAction_CHANGE_ACTION_RESET })
	if names := e.alertNames(t); names != "" {
		t.Errorf("alerts after the reset: %q, want none", names)
	}
}

// alertNames lists the standing alerts of component 1, comma-separated.
func (e *env) alertNames(t *testing.T) string {
	t.Helper()
	resp, err := e.client.ListAlerts(t.Context(), &translationv1.ListAlertsRequest{ComponentId: 1})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, a := range resp.GetAlerts() {
		names = append(names, a.GetName())
	}
	return strings.Join(names, ",")
}

// TestPushAfterRemoteMoved pushes when someone else has committed on the
// branch meanwhile: as the reference does, the service first integrates
// the remote per merge_style, then pushes, and the remote has both.
func TestPushAfterRemoteMoved(t *testing.T) {
	for _, style := range []typev1.MergeStyle{typev1.MergeStyle_MERGE_STYLE_REBASE, typev1.MergeStyle_MERGE_STYLE_MERGE} {
		t.Run(style.String(), func(t *testing.T) {
			e, origin := setupRepo(t, func(c *catalogv1.Component) { c.MergeStyle = style })
			e.edit(t, "pt_BR", "Send", []string{"Enviar"}, typev1.UnitState_UNIT_STATE_TRANSLATED, "ana")
			fixture.Upstream(t, origin, map[string]string{"README.md": "changed upstream\n"})
			theirs := originHead(t, origin)
			if res := e.op(t, "push"); !res.GetResult() {
				t.Fatalf("push after the remote moved: %+v", res)
			}
			if originFile(t, origin, "README.md") != "changed upstream\n" || !strings.Contains(originFile(t, origin, "po/pt_BR.po"), `msgstr "Enviar"`) {
				t.Error("the remote lacks one of the two commits")
			}
			if !isAncestor(t, origin, theirs, originHead(t, origin)) {
				t.Error("the pushed branch does not contain the upstream commit")
			}
			want := map[typev1.MergeStyle]typev1.ChangeAction{typev1.MergeStyle_MERGE_STYLE_REBASE: typev1.ChangeAction_CHANGE_ACTION_REBASE, typev1.MergeStyle_MERGE_STYLE_MERGE: typev1.ChangeAction_CHANGE_ACTION_MERGE}[style]
			waitChanges(t, e, 1, func(c *changelogv1.Change) bool { return c.GetAction() == want })
			waitChanges(t, e, 1, func(c *changelogv1.Change) bool { return c.GetAction() == typev1.ChangeAction_CHANGE_ACTION_PUSH })
			if r := e.repository(t, ""); r.GetNeedsPush() || r.GetNeedsMerge() || r.GetMergeFailure() != "" {
				t.Errorf("after push: %+v", r)
			}
		})
	}
}

// TestPushConflict pushes over a conflicting upstream change: the merge
// fails as pull's would (recorded, merge_failure set, auto-lock), and
// nothing reaches the remote.
func TestPushConflict(t *testing.T) {
	e, origin := setupRepo(t, func(c *catalogv1.Component) { c.AutoLockError = true })
	e.edit(t, "cs", "Close", []string{"Zavřít"}, typev1.UnitState_UNIT_STATE_TRANSLATED, "ana")
	fixture.Upstream(t, origin, map[string]string{"po/cs.po": strings.Replace(fixture.PO("cs"), "[cs] Preferences", "Předvolby", 1)})
	res := e.op(t, "push")
	if res.GetResult() || !strings.Contains(res.GetDetail(), "CONFLICT (content): Merge conflict in po/cs.po") {
		t.Fatalf("push over a conflict: %+v", res)
	}
	if strings.Contains(originFile(t, origin, "po/cs.po"), "Zavřít") {
		t.Error("a conflicting push reached the remote")
	}
	if r := e.repository(t, ""); r.GetMergeFailure() != res.GetDetail() {
		t.Errorf("merge_failure %q, want the conflict", r.GetMergeFailure())
	}
	waitChanges(t, e, 1, func(c *changelogv1.Change) bool {
		return c.GetAction() == typev1.ChangeAction_CHANGE_ACTION_FAILED_MERGE || c.GetAction() == typev1.ChangeAction_CHANGE_ACTION_FAILED_REBASE
	})
	waitChanges(t, e, 1, func(c *changelogv1.Change) bool {
		return c.GetAction() == typev1.ChangeAction_CHANGE_ACTION_ALERT && strings.Contains(detailsText(c), "MergeFailure")
	})
	if locks := e.catalog.LockCalls(); len(locks) != 1 || !locks[0].Locked || !locks[0].Auto {
		t.Errorf("auto lock calls = %+v", locks)
	}
}

// isAncestor tells whether commit a is an ancestor of b in the repository.
func isAncestor(t *testing.T, dir, a, b string) bool {
	t.Helper()
	r, err := git.PlainOpen(dir)
	if err != nil {
		t.Fatal(err)
	}
	ca, err := r.CommitObject(plumbing.NewHash(a))
	if err != nil {
		t.Fatal(err)
	}
	cb, err := r.CommitObject(plumbing.NewHash(b))
	if err != nil {
		t.Fatal(err)
	}
	ok, err := ca.IsAncestor(cb)
	if err != nil {
		t.Fatal(err)
	}
	return ok
}

func TestCleanup(t *testing.T) {
	e, _ := setupRepo(t, nil)
	if _, err := e.client.AddTranslation(t.Context(), &translationv1.AddTranslationRequest{ComponentId: 1, LanguageCode: "fr", Actor: "admin"}); err != nil {
		t.Fatal(err)
	}
	if r := e.repository(t, ""); !strings.Contains(r.GetStatus(), "Untracked files:\n\tpo/fr.po") {
		t.Errorf("status with a new file: %q", r.GetStatus())
	}
	if res := e.op(t, "cleanup"); !res.GetResult() {
		t.Fatal(res)
	}
	if _, err := e.client.GetTranslation(t.Context(), &translationv1.GetTranslationRequest{ComponentId: 1, LanguageCode: "fr"}); err == nil {
		t.Error("translation of a cleaned-up file remains")
	}
	waitChanges(t, e, 1, func(c *changelogv1.Change) bool {
		return c.GetAction() == typev1.ChangeAction_CHANGE_ACTION_REPO_CLEANUP
	})
}

func TestAddedTranslationIsCommitted(t *testing.T) {
	e, origin := setupRepo(t, nil)
	if _, err := e.client.AddTranslation(t.Context(), &translationv1.AddTranslationRequest{ComponentId: 1, LanguageCode: "fr", Actor: "admin"}); err != nil {
		t.Fatal(err)
	}
	if res := e.op(t, "push"); !res.GetResult() {
		t.Fatal(res)
	}
	if !strings.Contains(originFile(t, origin, "po/fr.po"), "Language: fr") {
		t.Error("added translation file not pushed")
	}
}

func TestConcurrentCommits(t *testing.T) {
	e, origin := setupRepo(t, nil)
	sources := []string{"Send", "Close", "Archive mail", "Preferences", "Sign out", "Theme", "Help", "Good morning!"}
	var wg sync.WaitGroup
	for i, src := range sources {
		wg.Add(1)
		go func() {
			defer wg.Done()
			e.edit(t, "pt_BR", src, []string{"pt " + src}, typev1.UnitState_UNIT_STATE_TRANSLATED, "ana")
			if i%2 == 0 {
				if _, err := e.client.RunRepositoryOperation(t.Context(), &translationv1.RunRepositoryOperationRequest{
					ComponentIds: []int64{1}, Operation: "commit"}); err != nil {
					t.Error(err)
				}
			}
		}()
	}
	wg.Wait()
	if res := e.op(t, "push"); !res.GetResult() {
		t.Fatal(res)
	}
	pt := originFile(t, origin, "po/pt_BR.po")
	for _, src := range sources {
		if !strings.Contains(pt, `msgstr "pt `+src+`"`) {
			t.Errorf("edit of %q lost", src)
		}
	}
	if e.repository(t, "").GetNeedsCommit() {
		t.Error("pending left after the final commit")
	}
}

func TestRepositoryOperationErrors(t *testing.T) {
	e, _ := setupRepo(t, nil)
	_, err := e.client.RunRepositoryOperation(t.Context(), &translationv1.RunRepositoryOperationRequest{ComponentIds: []int64{1}, Operation: "explode"})
	if kind(err) != errs.InvalidArgument {
		t.Errorf("unknown operation: %v", err)
	}
	_, err = e.client.RunRepositoryOperation(t.Context(), &translationv1.RunRepositoryOperationRequest{ComponentIds: []int64{99}, Operation: "commit"})
	if err == nil {
		t.Error("operation on a missing component succeeded")
	}
}

// TestLanguageHeaderKeepsFileCode edits a file named zh_TW.po: the
// Language header keeps the file's code, as the reference writes it, not
// the service's own code for the language.
func TestLanguageHeaderKeepsFileCode(t *testing.T) {
	e := newEnv(t, true)
	files := fixture.Files()
	files["po/zh_TW.po"] = strings.Replace(fixture.PO("pt_BR"), "Language: pt_BR", "Language: zh_TW", 1)
	origin := fixture.Origin(t, files)
	e.catalog.Set(greeter(1, origin), project)
	if task := e.importNow(t, 1); task.GetError() != "" {
		t.Fatal(task.GetError())
	}
	resp, err := e.client.ListTranslations(t.Context(), &translationv1.ListTranslationsRequest{ComponentId: 1})
	if err != nil {
		t.Fatal(err)
	}
	var code string
	for _, tr := range resp.GetTranslations() {
		if tr.GetFilename() == "po/zh_TW.po" {
			code = tr.GetLanguageCode()
		}
	}
	if code == "" {
		t.Fatal("no translation for po/zh_TW.po")
	}
	if code == "zh_TW" {
		t.Fatalf("the service calls zh_TW by the file's code; the test needs a language it names otherwise")
	}
	e.edit(t, code, "Send", []string{"傳送"}, typev1.UnitState_UNIT_STATE_TRANSLATED, "ana")
	if res := e.op(t, "push"); !res.GetResult() {
		t.Fatalf("push: %+v", res)
	}
	if pushed := originFile(t, origin, "po/zh_TW.po"); !strings.Contains(pushed, `"Language: zh_TW\n"`) {
		t.Errorf("service code %s, Language header of the pushed file:\n%.600s", code, pushed)
	}
}
