package e2e

import (
	"maps"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/tmsproject/tms/gateway/stacktest"
)

// checksPOT and checksDE are a realistic gettext catalog with known
// faults in its German translation: a dropped full stop, a C placeholder
// missing, a trailing space the source lacks, a string left as its
// source; one string is clean.
const checksPOT = `msgid ""
msgstr ""
"Content-Type: text/plain; charset=UTF-8\n"

msgid "The file was saved."
msgstr ""

#, c-format
msgid "%d files copied"
msgstr ""

msgid "Open"
msgstr ""

msgid "Settings are saved automatically"
msgstr ""

msgid "Help"
msgstr ""
`

var checksDE = strings.NewReplacer(
	"msgid \"The file was saved.\"\nmsgstr \"\"", "msgid \"The file was saved.\"\nmsgstr \"Die Datei wurde gespeichert\"",
	"msgid \"%d files copied\"\nmsgstr \"\"", "msgid \"%d files copied\"\nmsgstr \"Dateien kopiert\"",
	"msgid \"Open\"\nmsgstr \"\"", "msgid \"Open\"\nmsgstr \"Öffnen \"",
	"msgid \"Settings are saved automatically\"\nmsgstr \"\"", "msgid \"Settings are saved automatically\"\nmsgstr \"Settings are saved automatically\"",
	"msgid \"Help\"\nmsgstr \"\"", "msgid \"Help\"\nmsgstr \"Hilfe\"",
	"charset=UTF-8\\n\"\n", "charset=UTF-8\\n\"\n\"Language: de\\n\"\n",
).Replace(checksPOT)

// TestQualityChecks runs the built binary on a catalog with known faults
// and follows Weblate's checks through the REST API: each fault on its
// string and in every count, check: searches, a fix, an enforced check
// and a dismissal.
func TestQualityChecks(t *testing.T) {
	base, _ := startFormatComponent(t, map[string][]byte{"po/app.pot": []byte(checksPOT), "po/de.po": []byte(checksDE)},
		map[string]any{"filemask": "po/*.po", "new_base": "po/app.pot", "file_format": "po"}, "de", 5)
	units := base + "translations/demo/app/de/units/"
	bySource := func() map[string]map[string]any {
		out := map[string]map[string]any{}
		for _, r := range call(t, "GET", units, nil, 200)["results"].([]any) {
			u := r.(map[string]any)
			out[join(u["source"])] = u
		}
		return out
	}
	for source, want := range map[string]bool{"The file was saved.": true, "%d files copied": true, "Open": true,
		"Settings are saved automatically": true, "Help": false} {
		if got := bySource()[source]["has_failing_check"]; got != want {
			t.Errorf("%q: has_failing_check %v, want %v", source, got, want)
		}
	}
	expectFailing(t, base, 4)
	count := func(q string) any { return call(t, "GET", units+"?q="+url.QueryEscape(q), nil, 200)["count"] }
	for q, want := range map[string]float64{"check:end_stop": 1, "check:=c_format": 1, "check:end_space": 1, "check:same": 1, "has:check": 4} {
		if got := count(q); got != want {
			t.Errorf("q=%s: %v, want %v", q, got, want)
		}
	}
	// A fix makes the counts fall.
	saved := bySource()["The file was saved."]
	editUnit(t, base, saved, "Die Datei wurde gespeichert.")
	expectFailing(t, base, 3)
	// An enforced check turns a translated edit failing it into one
	// needing editing.
	call(t, "PATCH", base+"components/demo/app/", map[string]any{"enforced_checks": []string{"end_space"}}, 200)
	help := bySource()["Help"]
	if u := call(t, "PATCH", help["url"].(string), map[string]any{"target": []string{"Hilfe "}, "state": 20}, 200); u["state"] != 10.0 {
		t.Errorf("an edit failing an enforced check: state %v, want 10", u["state"])
	}
	editUnit(t, base, bySource()["Help"], "Hilfe")
	// The new enforced check applies to what was translated: "Open".
	stacktest.Eventually(t, 30*time.Second, func() bool { return bySource()["Open"]["state"] == 10.0 })
	// A dismissal takes a string out of has:check into has:dismissed-check.
	copied := bySource()["%d files copied"]["url"].(string)
	if msg := call(t, "GET", copied+"checks/c_format/", nil, 200)["message"]; !strings.Contains(msg.(string), "%d") {
		t.Errorf("c_format message: %v", msg)
	}
	call(t, "POST", copied+"checks/c_format/dismiss/", map[string]any{}, 200)
	if count("has:dismissed-check") != 1.0 || count("check:c_format") != 0.0 {
		t.Errorf("after the dismissal: has:dismissed-check %v, check:c_format %v", count("has:dismissed-check"), count("check:c_format"))
	}
	expectFailing(t, base, 2)
	sum := call(t, "GET", base+"projects/demo/checks/", nil, 200)
	if sum["failing"] != 2.0 {
		t.Errorf("project summary: %v", sum)
	}
}

// expectFailing checks failing_checks of demo/app/de and the failing
// statistics of its component, project and language.
func expectFailing(t *testing.T, base string, want float64) {
	t.Helper()
	if got := call(t, "GET", base+"translations/demo/app/de/", nil, 200)["failing_checks"]; got != want {
		t.Errorf("translation failing_checks %v, want %v", got, want)
	}
	for _, path := range []string{"projects/demo/statistics/", "languages/de/statistics/"} {
		if got := call(t, "GET", base+path, nil, 200)["failing"]; got != want {
			t.Errorf("%s failing %v, want %v", path, got, want)
		}
	}
	for _, r := range call(t, "GET", base+"components/demo/app/statistics/", nil, 200)["results"].([]any) {
		if st := r.(map[string]any); st["code"] == "de" && st["failing"] != want {
			t.Errorf("component statistics de failing %v, want %v", st["failing"], want)
		}
	}
}

// TestFormatFlagsReachChecks: an ARB file's strings are ICU MessageFormat
// (Weblate's flags of the format), so a German translation naming a
// placeholder the source lacks fails icu_message_format.
func TestFormatFlagsReachChecks(t *testing.T) {
	fixture := maps.Clone(arbFixture)
	fixture["lib/l10n/app_de.arb"] = []byte(strings.Replace(string(arbFixture["lib/l10n/app_de.arb"]), "Hallo, {userName}!", "Hallo, {userNme}!", 1))
	base, _ := startFormatComponent(t, fixture, map[string]any{"filemask": "lib/l10n/app_*.arb",
		"template": "lib/l10n/app_en.arb", "new_base": "lib/l10n/app_en.arb", "file_format": "arb"}, "ru", 5)
	found := call(t, "GET", base+"translations/demo/app/de/units/?q="+url.QueryEscape("check:icu_message_format"), nil, 200)
	if found["count"] != 1.0 {
		t.Fatalf("check:icu_message_format: %v", found["count"])
	}
	u := found["results"].([]any)[0].(map[string]any)
	msg := call(t, "GET", u["url"].(string)+"checks/icu_message_format/", nil, 200)["message"].(string)
	if !strings.Contains(msg, "userNme") || !strings.Contains(msg, "userName") {
		t.Errorf("icu_message_format message: %q", msg)
	}
}
