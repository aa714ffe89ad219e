package translation_test

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"google.golang.org/protobuf/proto"

	"github.com/tmsproject/tms/pkg/errs"
	"github.com/tmsproject/tms/pkg/policy"
	catalogv1 "github.com/tmsproject/tms/proto/gen/go/tms/catalog/v1"
	changelogv1 "github.com/tmsproject/tms/proto/gen/go/tms/changelog/v1"
	translationv1 "github.com/tmsproject/tms/proto/gen/go/tms/translation/v1"
	typev1 "github.com/tmsproject/tms/proto/gen/go/tms/type/v1"
	"github.com/tmsproject/tms/services/translation/internal/fixture"
)

// faultyPO is a German translation with known faults: a dropped full stop,
// a C placeholder missing, a trailing space the source lacks, and a
// string past its max-length flag; one string is clean.
const faultyPO = `msgid ""
msgstr ""
"Content-Type: text/plain; charset=UTF-8\n"
"Language: de\n"
"Plural-Forms: nplurals=2; plural=(n != 1);\n"

msgid "The file was saved."
msgstr "Die Datei wurde gespeichert"

#, c-format
msgid "%d files copied"
msgstr "Dateien kopiert"

msgid "Open"
msgstr "Öffnen "

#, max-length:5
msgid "Close"
msgstr "Schließen"

msgid "Help"
msgstr "Hilfe"
`

// TestChecksAtImportAndEdit: an import finds each fault (has_failing_check,
// the failing counter, check: searches), and an edit that fixes one makes
// the counts fall.
func TestChecksAtImportAndEdit(t *testing.T) {
	pot := regexp.MustCompile(`(?m)^msgstr "[^"]+"$`).ReplaceAllString(strings.Replace(faultyPO, "\"Language: de\\n\"\n", "", 1), `msgstr ""`)
	e := newEnv(t, true)
	e.catalog.Set(greeter(1, fixture.Origin(t, map[string]string{"po/de.po": faultyPO, "po/greeter.pot": pot})), project)
	if task := e.importNow(t, 1); task.GetError() != "" {
		t.Fatal(task.GetError())
	}
	de := e.translation(t, 1, "de")
	if got := de.GetStats().GetFailing(); got != 4 {
		t.Errorf("failing: %d, want 4", got)
	}
	count := func(q string) int64 {
		t.Helper()
		r, err := e.client.ListUnits(t.Context(), &translationv1.ListUnitsRequest{TranslationId: de.GetId(), Query: q, Limit: 100})
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		return r.GetTotal()
	}
	for q, want := range map[string]int64{"has:check": 4, "check:end_stop": 1, "check:=c_format": 1, "check:end_space": 1,
		"check:max-length": 1, "check:format": 1, "NOT has:check": 1, "has:dismissed-check": 0, "dismissed_check:end_stop": 0} {
		if got := count(q); got != want {
			t.Errorf("%s: %d, want %d", q, got, want)
		}
	}
	var words int64
	for _, u := range e.units(t, de.GetId()) {
		if u.GetHasFailingCheck() {
			words += u.GetNumWords()
		}
	}
	if got := de.GetStats().GetFailingWords(); got != words || words == 0 {
		t.Errorf("failing words: %d, want %d", got, words)
	}
	for source, want := range map[string]bool{"The file was saved.": true, "Help": false, "Open": true} {
		if got := e.unit(t, "de", source).GetHasFailingCheck(); got != want {
			t.Errorf("%q has_failing_check %v, want %v", source, got, want)
		}
	}
	e.edit(t, "de", "The file was saved.", []string{"Die Datei wurde gespeichert."}, typev1.UnitState_UNIT_STATE_TRANSLATED, "ana")
	e.edit(t, "de", "Help", []string{"Hilfe "}, typev1.UnitState_UNIT_STATE_TRANSLATED, "ana") // a new fault
	if got := e.translation(t, 1, "de").GetStats().GetFailing(); got != 4 {
		t.Errorf("after a fix and a new fault: failing %d, want 4", got)
	}
	if count("check:end_stop") != 0 || count("check:end_space") != 2 || e.unit(t, "de", "The file was saved.").GetHasFailingCheck() {
		t.Errorf("after the edits: end_stop %d, end_space %d", count("check:end_stop"), count("check:end_space"))
	}
	e.edit(t, "de", "Open", []string{"Öffnen"}, typev1.UnitState_UNIT_STATE_TRANSLATED, "ana")
	e.edit(t, "de", "Help", []string{"Hilfe"}, typev1.UnitState_UNIT_STATE_TRANSLATED, "ana")
	if st := e.translation(t, 1, "de").GetStats(); st.GetFailing() != 2 || st.GetFailingWords() != e.unit(t, "de", "%d files copied").GetNumWords()+e.unit(t, "de", "Close").GetNumWords() {
		t.Errorf("after fixing two: failing %d (%d words), want 2", st.GetFailing(), st.GetFailingWords())
	}
	// An enforced check turns a translated edit that fails it into one
	// needing editing; the component's check flags count as the file's.
	comp := proto.Clone(e.catalog.Component(1)).(*catalogv1.Component)
	comp.EnforcedChecks, comp.CheckFlags = []string{"end_stop"}, "ignore-end-space"
	e.catalog.Set(comp, project)
	e.edit(t, "de", "The file was saved.", []string{"Die Datei wurde gespeichert"}, typev1.UnitState_UNIT_STATE_TRANSLATED, "ana")
	if u := e.unit(t, "de", "The file was saved."); u.GetState() != typev1.UnitState_UNIT_STATE_FUZZY || !u.GetHasFailingCheck() {
		t.Errorf("an edit failing an enforced check: state %v, failing %v", u.GetState(), u.GetHasFailingCheck())
	}
	waitChanges(t, e, 1, isAction(typev1.ChangeAction_CHANGE_ACTION_ENFORCED_CHECK))
	e.edit(t, "de", "Help", []string{"Hilfe "}, typev1.UnitState_UNIT_STATE_TRANSLATED, "ana")
	if e.unit(t, "de", "Help").GetHasFailingCheck() {
		t.Error("the component's ignore-end-space flag did not count")
	}
	// The source translation is not checked as a translation.
	if got := e.translation(t, 1, "en").GetStats().GetFailing(); got != 0 {
		t.Errorf("source failing: %d", got)
	}
}

// TestDismissAndRecheck: a dismissal takes a unit out of has:check and the
// failing counters and into has:dismissed-check, survives a re-import and
// a recheck while its check fails, and is recorded; restoring undoes it.
// A bulk dismissal by query, extra flags on a source string and a recheck
// after new check_flags move the counts; a caller without review rights
// may not dismiss, one who may not see the project sees nothing.
func TestDismissAndRecheck(t *testing.T) {
	pot := regexp.MustCompile(`(?m)^msgstr "[^"]+"$`).ReplaceAllString(strings.Replace(faultyPO, "\"Language: de\\n\"\n", "", 1), `msgstr ""`)
	e := newEnv(t, true)
	e.catalog.Set(greeter(1, fixture.Origin(t, map[string]string{"po/de.po": faultyPO, "po/greeter.pot": pot})), project)
	if task := e.importNow(t, 1); task.GetError() != "" {
		t.Fatal(task.GetError())
	}
	ctx := t.Context()
	de := e.translation(t, 1, "de")
	count := func(q string) int64 {
		t.Helper()
		r, err := e.client.ListUnits(ctx, &translationv1.ListUnitsRequest{TranslationId: de.GetId(), Query: q, Limit: 100})
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		return r.GetTotal()
	}
	saved := e.unit(t, "de", "The file was saved.")
	list, err := e.client.ListUnitChecks(ctx, &translationv1.ListUnitChecksRequest{UnitId: e.unit(t, "de", "%d files copied").GetId()})
	if err != nil || len(list.GetChecks()) != 1 || list.GetChecks()[0].GetId() != "c_format" ||
		!strings.Contains(list.GetChecks()[0].GetMessage(), "%d") || list.GetChecks()[0].GetName() != "C format" {
		t.Fatalf("checks of the unit missing %%d: %v, %v", list.GetChecks(), err)
	}
	dismiss := func(ctx context.Context, id int64, check string, restore bool) (*translationv1.DismissCheckResponse, error) {
		return e.client.DismissCheck(ctx, &translationv1.DismissCheckRequest{UnitId: id, Check: check, Restore: restore, Actor: "rita"})
	}
	translator := policy.Caller{Username: "tom", Grants: []policy.Grant{{ProjectSelection: policy.SelectAll,
		LanguageSelection: policy.LanguagesAll, Permissions: []string{"unit.edit", "unit.check"}}}}
	if _, err = dismiss(policy.WithCaller(ctx, translator), saved.GetId(), "end_stop", false); kind(err) != errs.PermissionDenied {
		t.Errorf("a dismissal without review rights: %v", err)
	}
	if _, err = dismiss(ctx, saved.GetId(), "end_space", false); kind(err) != errs.NotFound {
		t.Errorf("dismissing a check that does not fail: %v", err)
	}
	got, err := dismiss(ctx, saved.GetId(), "end_stop", false)
	if err != nil || !got.GetCheck().GetDismissed() {
		t.Fatalf("dismiss: %v, %v", got, err)
	}
	if _, err = dismiss(ctx, saved.GetId(), "end_stop", false); err != nil { // again: no change
		t.Fatal(err)
	}
	wantCounts := func(when string, failing int64, counts map[string]int64) {
		t.Helper()
		if got := e.translation(t, 1, "de").GetStats().GetFailing(); got != failing {
			t.Errorf("%s: failing %d, want %d", when, got, failing)
		}
		for q, want := range counts {
			if got := count(q); got != want {
				t.Errorf("%s: %s %d, want %d", when, q, got, want)
			}
		}
	}
	dismissed := map[string]int64{"has:check": 3, "has:dismissed-check": 1, "dismissed_check:end_stop": 1, "check:end_stop": 0}
	wantCounts("dismissed", 3, dismissed)
	if e.unit(t, "de", "The file was saved.").GetHasFailingCheck() {
		t.Error("a dismissed check still fails the unit")
	}
	if c := waitChanges(t, e, 1, isAction(typev1.ChangeAction_CHANGE_ACTION_CHECK_DISMISSED)); c[0].GetUser() != "rita" || c[0].GetUnitId() != saved.GetId() {
		t.Errorf("the dismissal's record: %v", c[0])
	}
	// A recheck (new check_flags) and a re-import keep the dismissal.
	comp := proto.Clone(e.catalog.Component(1)).(*catalogv1.Component)
	comp.CheckFlags = "ignore-end-space"
	e.catalog.Set(comp, project)
	e.recheck(t, 1)
	wantCounts("after a recheck ignoring end_space", 2, map[string]int64{"has:check": 2, "check:end_space": 0, "has:dismissed-check": 1})
	if task := e.importNow(t, 1); task.GetError() != "" {
		t.Fatal(task.GetError())
	}
	wantCounts("after a re-import", 2, map[string]int64{"has:dismissed-check": 1, "check:end_stop": 0})
	if _, err = dismiss(ctx, saved.GetId(), "end_stop", true); err != nil {
		t.Fatal(err)
	}
	wantCounts("restored", 3, map[string]int64{"has:dismissed-check": 0, "check:end_stop": 1})
	// Nobody dismisses an enforced check.
	enforced := proto.Clone(comp).(*catalogv1.Component)
	enforced.EnforcedChecks = []string{"end_stop"}
	e.catalog.Set(enforced, project)
	if _, err = dismiss(ctx, saved.GetId(), "end_stop", false); kind(err) != errs.PermissionDenied {
		t.Errorf("dismissing an enforced check: %v", err)
	}
	if _, err = e.client.DismissChecks(ctx, &translationv1.DismissChecksRequest{Scope: &translationv1.CheckScope{ComponentIds: []int64{1}},
		Check: "end_stop"}); kind(err) != errs.InvalidArgument {
		t.Errorf("a bulk dismissal of an enforced check: %v", err)
	}
	// New enforced checks make the translated strings failing them need
	// editing.
	resp, err := e.client.RecheckComponents(ctx, &translationv1.RecheckComponentsRequest{ComponentIds: []int64{1}, Enforce: true})
	if err != nil {
		t.Fatal(err)
	}
	e.waitTask(t, resp.GetTasks()[0].GetId())
	if u := e.unit(t, "de", "The file was saved."); u.GetState() != typev1.UnitState_UNIT_STATE_FUZZY {
		t.Errorf("a translated string failing an enforced check: state %v after the recheck", u.GetState())
	}
	waitChanges(t, e, 1, isAction(typev1.ChangeAction_CHANGE_ACTION_ENFORCED_CHECK))
	e.catalog.Set(comp, project)
	e.edit(t, "de", "The file was saved.", []string{"Die Datei wurde gespeichert"}, typev1.UnitState_UNIT_STATE_TRANSLATED, "ana")
	// Bulk: dismiss end_stop among the strings a query finds.
	e.bulk(t, &translationv1.DismissChecksRequest{Scope: &translationv1.CheckScope{ComponentIds: []int64{1}}, Check: "end_stop", Q: "source:saved"})
	wantCounts("bulk dismissed", 2, map[string]int64{"dismissed_check:end_stop": 1})
	sum, err := e.client.SummarizeChecks(ctx, &translationv1.SummarizeChecksRequest{Scope: &translationv1.CheckScope{ComponentIds: []int64{1}, LanguageCode: "de"}})
	if err != nil {
		t.Fatal(err)
	}
	var parts []string
	for _, c := range sum.GetChecks() {
		parts = append(parts, fmt.Sprintf("%s:%d/%d", c.GetId(), c.GetFailing(), c.GetDismissed()))
	}
	if s := strings.Join(parts, " "); s != "end_stop:0/1 max-length:1/0 c_format:1/0" {
		t.Errorf("summary %s", s)
	}
	// The source string's extra flags reach the translation's checks.
	help := e.unit(t, "en", "Help")
	if _, err = e.client.UpdateUnit(ctx, &translationv1.UpdateUnitRequest{Id: help.GetId(), SetExtraFlags: true,
		ExtraFlags: "max-length:3", LabelsOnly: true, Actor: "sue"}); err != nil {
		t.Fatal(err)
	}
	if !e.unit(t, "de", "Help").GetHasFailingCheck() || count("check:max-length") != 2 {
		t.Errorf("extra flags max-length:3 on Help: failing %v, max-length %d", e.unit(t, "de", "Help").GetHasFailingCheck(), count("check:max-length"))
	}
	bad := []struct {
		id    int64
		flags string
		want  errs.Kind
	}{
		{help.GetId(), "max-length:many", errs.InvalidArgument},
		{help.GetId(), `regex:"unclosed`, errs.InvalidArgument},
		{e.unit(t, "de", "Help").GetId(), "max-length:3", errs.PermissionDenied}, // not a source string
	}
	for _, b := range bad {
		_, uerr := e.client.UpdateUnit(ctx, &translationv1.UpdateUnitRequest{Id: b.id, SetExtraFlags: true, ExtraFlags: b.flags, LabelsOnly: true})
		if kind(uerr) != b.want {
			t.Errorf("extra flags %q on %d: %v, want %v", b.flags, b.id, uerr, b.want)
		}
	}
	// A string emptied that was translated fails "translated"; marked
	// for edit with its text, it does not.
	e.edit(t, "de", "Help", []string{""}, typev1.UnitState_UNIT_STATE_EMPTY, "ana")
	helpDE := e.unit(t, "de", "Help")
	emptied, err2 := e.client.ListUnitChecks(ctx, &translationv1.ListUnitChecksRequest{UnitId: helpDE.GetId()})
	if err2 != nil || len(emptied.GetChecks()) != 1 || emptied.GetChecks()[0].GetMessage() != `Previous translation was "Hilfe".` || !helpDE.GetHasFailingCheck() {
		t.Errorf("an emptied string: checks %v, %v", emptied.GetChecks(), err2)
	}
	e.edit(t, "de", "Help", []string{"Hilfe"}, typev1.UnitState_UNIT_STATE_TRANSLATED, "ana")
	// An edit's checks take the source string's extra flags too.
	edited, err := e.client.ListUnitChecks(ctx, &translationv1.ListUnitChecksRequest{UnitId: helpDE.GetId()})
	if err != nil || len(edited.GetChecks()) != 1 || edited.GetChecks()[0].GetId() != "max-length" {
		t.Errorf("Help edited to Hilfe under max-length:3: checks %v, %v", edited.GetChecks(), err)
	}
	e.edit(t, "de", "Help", []string{"Hilfe"}, typev1.UnitState_UNIT_STATE_FUZZY, "ana")
	e.edit(t, "de", "Help", []string{""}, typev1.UnitState_UNIT_STATE_EMPTY, "ana")
	if e.unit(t, "de", "Help").GetHasFailingCheck() {
		t.Error("a string marked for edit, then emptied, fails translated")
	}
	// A caller who may not see the project sees neither checks nor counts.
	outsider := policy.WithCaller(ctx, policy.Caller{Username: "eve"})
	e.catalog.Set(e.catalog.Component(1), &catalogv1.Project{Slug: "hello", Name: "Hello", AccessControl: typev1.AccessControl_ACCESS_CONTROL_PRIVATE})
	if _, err = e.client.ListUnitChecks(outsider, &translationv1.ListUnitChecksRequest{UnitId: saved.GetId()}); kind(err) != errs.NotFound {
		t.Errorf("an outsider's checks of a private unit: %v", err)
	}
	if _, err = e.client.SummarizeChecks(outsider, &translationv1.SummarizeChecksRequest{Scope: &translationv1.CheckScope{ComponentIds: []int64{1}}}); kind(err) != errs.NotFound {
		t.Errorf("an outsider's summary of a private component: %v", err)
	}
	if _, err = dismiss(outsider, saved.GetId(), "end_stop", true); kind(err) != errs.NotFound {
		t.Errorf("an outsider's restore: %v", err)
	}
}

// isAction matches the change records of an action.
func isAction(action typev1.ChangeAction) func(*changelogv1.Change) bool {
	return func(c *changelogv1.Change) bool { return c.GetAction() == action }
}

// recheck runs a recheck of a component and waits for its task.
func (e *env) recheck(t *testing.T, id int64) {
	t.Helper()
	resp, err := e.client.RecheckComponents(t.Context(), &translationv1.RecheckComponentsRequest{ComponentIds: []int64{id}})
	if err != nil || len(resp.GetTasks()) != 1 {
		t.Fatalf("recheck: %v, %v", resp, err)
	}
	e.waitTask(t, resp.GetTasks()[0].GetId())
}

// bulk runs a bulk dismissal and waits for its task.
func (e *env) bulk(t *testing.T, req *translationv1.DismissChecksRequest) {
	t.Helper()
	resp, err := e.client.DismissChecks(t.Context(), req)
	if err != nil {
		t.Fatalf("bulk: %v", err)
	}
	e.waitTask(t, resp.GetTask().GetId())
}

// waitTask waits for a task that must succeed.
func (e *env) waitTask(t *testing.T, id string) {
	t.Helper()
	if task := e.finishedTask(t, id); task.GetError() != "" {
		t.Fatal(task.GetError())
	}
}

// TestCancelTask: cancelling a running import stops it and finishes its
// task as cancelled, without an alert; a finished task stays as it was;
// only callers with component.edit may cancel, and a task of a component
// the caller may not see is not found.
func TestCancelTask(t *testing.T) {
	e := newEnv(t, true)
	origin := fixture.Origin(t, fixture.Files())
	e.catalog.Set(greeter(1, fixture.SilentRemote(t)), project) // the import waits on the remote
	resp, err := e.client.ImportComponent(t.Context(), &translationv1.ImportComponentRequest{ComponentId: 1, Actor: "admin"})
	if err != nil {
		t.Fatal(err)
	}
	id := resp.GetTask().GetId()
	_, err = e.client.CancelTask(policy.WithCaller(t.Context(), policy.Caller{Username: "eve"}), &translationv1.CancelTaskRequest{Id: id})
	if kind(err) != errs.PermissionDenied && kind(err) != errs.NotFound {
		t.Errorf("a stranger cancels: %v", err)
	}
	if _, err = e.client.CancelTask(t.Context(), &translationv1.CancelTaskRequest{Id: id}); err != nil {
		t.Fatal(err)
	}
	if task := e.finishedTask(t, id); task.GetError() != "The task was cancelled." {
		t.Fatalf("cancelled task: %v", task)
	}
	alerts, err := e.client.ListAlerts(t.Context(), &translationv1.ListAlertsRequest{ComponentId: 1})
	if err != nil || len(alerts.GetAlerts()) != 0 {
		t.Errorf("a cancelled import raised alerts: %v %v", alerts, err)
	}
	// A finished task stays as it is.
	e.catalog.Set(greeter(1, origin), project)
	done := e.importNow(t, 1)
	if _, err = e.client.CancelTask(t.Context(), &translationv1.CancelTaskRequest{Id: done.GetId()}); err != nil {
		t.Fatal(err)
	}
	if got, _ := e.client.GetTask(t.Context(), &translationv1.GetTaskRequest{Id: done.GetId()}); got.GetTask().GetError() != "" {
		t.Errorf("cancelling a finished task changed it: %v", got)
	}
	_, err = e.client.CancelTask(t.Context(), &translationv1.CancelTaskRequest{Id: "no-such-task"})
	if kind(err) != errs.NotFound {
		t.Errorf("unknown task: %v", err)
	}
}
