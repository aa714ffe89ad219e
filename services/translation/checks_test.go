package translation_test

import (
	catalogv1 "github.com/tmsproject/tms/proto/gen/go/tms/catalog/v1"
	"google.golang.org/protobuf/proto"
	"regexp"
	"strings"
	"testing"

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
	e.edit(t, "de", "Help", []string{"Hilfe "}, typev1.UnitState_UNIT_STATE_TRANSLATED, "ana")
	if e.unit(t, "de", "Help").GetHasFailingCheck() {
		t.Error("the component's ignore-end-space flag did not count")
	}
	// The source translation is not checked as a translation.
	if got := e.translation(t, 1, "en").GetStats().GetFailing(); got != 0 {
		t.Errorf("source failing: %d", got)
	}
}
