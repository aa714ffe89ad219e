package suite

import (
	"fmt"
	"net/url"
	"strings"
	"testing"

	"github.com/tmsproject/tms/gateway/bench/origin"
)

// faultyDE is a German file with two faults: a dropped full stop and a
// missing C placeholder; one string is clean.
const faultyDE = header + `
msgid "The file was saved."
msgstr "Die Datei wurde gespeichert"

#, c-format
msgid "%d files copied"
msgstr "Dateien kopiert"

msgid "Help"
msgstr "Hilfe"
`

// TestChecksOverREST: the quality checks of imported strings show where
// Weblate shows them (has_failing_check, failing_checks and its words and
// percent, statistics failing at every scope, q=check:), fall when an
// edit fixes a fault, and a private project's checks count for nobody
// who may not see it.
func TestChecksOverREST(t *testing.T) {
	admin := newStack(t, nil)
	faultyProjects(t, admin)
	tr := admin.want(200, "GET", admin.base+"translations/open/app/de/", nil)
	if tr["failing_checks"] != 2.0 || tr["failing_checks_words"].(float64) < 4 || tr["failing_checks_percent"] != 66.6 {
		t.Errorf("translation: failing_checks %v, words %v, percent %v", tr["failing_checks"], tr["failing_checks_words"], tr["failing_checks_percent"])
	}
	for path, want := range map[string]float64{"projects/open/statistics/": 2, "components/open/app/statistics/": 2,
		"languages/de/statistics/": 4, "translations/open/app/de/statistics/": 2} {
		st := admin.want(200, "GET", admin.base+path, nil)
		if results, ok := st["results"].([]any); ok { // a row per translation
			for _, r := range results {
				if r.(map[string]any)["code"] == "de" {
					st = r.(map[string]any)
				}
			}
		}
		if st["failing"] != want {
			t.Errorf("%s: failing %v, want %v", path, st["failing"], want)
		}
	}
	units := admin.base + "translations/open/app/de/units/"
	for q, want := range map[string]float64{"check:end_stop": 1, "check:c_format": 1, "has:check": 2, "NOT has:check": 1} {
		if n := admin.want(200, "GET", units+"?q="+url.QueryEscape(q), nil)["count"]; n != want {
			t.Errorf("q=%s: %v, want %v", q, n, want)
		}
	}
	// An outsider counts the public project's only.
	admin.want(201, "POST", admin.base+"users/", map[string]any{"username": "olga", "full_name": "Olga", "email": "olga@x.example"})
	olga := client{t: t, base: admin.base, token: admin.want(200, "POST", admin.base+"users/olga/token/", map[string]any{})["token"].(string)}
	if n := olga.want(200, "GET", admin.base+"units/?q=has:check", nil)["count"]; n != 2.0 {
		t.Errorf("an outsider's has:check over all units: %v, want 2", n)
	}
	if st := olga.want(200, "GET", admin.base+"languages/de/statistics/", nil); st["failing"] != 2.0 {
		t.Errorf("an outsider's language statistics: failing %v, want 2", st["failing"])
	}
	// A fix makes the counts fall.
	saved := admin.want(200, "GET", units+"?q=check:end_stop", nil)["results"].([]any)[0].(map[string]any)
	if saved["has_failing_check"] != true {
		t.Errorf("the failing string: %v", saved)
	}
	admin.want(200, "PATCH", saved["url"].(string), map[string]any{"target": []string{"Die Datei wurde gespeichert."}, "state": 20})
	if fixed := admin.want(200, "GET", saved["url"].(string), nil); fixed["has_failing_check"] != false {
		t.Errorf("the fixed string: has_failing_check %v", fixed["has_failing_check"])
	}
	if tr = admin.want(200, "GET", admin.base+"translations/open/app/de/", nil); tr["failing_checks"] != 1.0 {
		t.Errorf("after the fix: failing_checks %v, want 1", tr["failing_checks"])
	}
}

// faultyProjects imports faultyDE into a public project "open" and a
// private one "secret", each with a component "app".
func faultyProjects(t *testing.T, admin client) {
	t.Helper()
	pot := header + "\nmsgid \"The file was saved.\"\nmsgstr \"\"\n\n#, c-format\nmsgid \"%d files copied\"\nmsgstr \"\"\n\nmsgid \"Help\"\nmsgstr \"\"\n"
	repo, err := origin.Create(t.TempDir(), map[string][]byte{"po/app.pot": []byte(pot), "po/de.po": []byte(faultyDE)})
	if err != nil {
		t.Fatal(err)
	}
	for _, slug := range []string{"open", "secret"} {
		admin.want(201, "POST", admin.base+"projects/", map[string]any{"name": slug, "slug": slug, "web": "https://x.example/"})
		admin.want(201, "POST", admin.base+"projects/"+slug+"/components/", map[string]any{"name": "App", "slug": "app",
			"repo": "file://" + repo, "filemask": "po/*.po", "new_base": "po/app.pot", "file_format": "po"})
		waitFor(t, func() bool {
			code, _ := admin.do("GET", admin.base+"translations/"+slug+"/app/de/", nil)
			return code == 200
		})
	}
	admin.want(200, "PATCH", admin.base+"projects/secret/", map[string]any{"access_control": 100})
}

// TestCheckDismissalOverREST: a string's checks with what is wrong,
// dismissal and restore (recorded, out of has:check and the counters),
// the per-check summary, a bulk dismissal by query as a task, extra flags
// on a source string, and a recheck after new check_flags; a plain user
// may neither dismiss nor see the private project's checks.
func TestCheckDismissalOverREST(t *testing.T) {
	admin := newStack(t, nil)
	faultyProjects(t, admin)
	units := admin.base + "translations/open/app/de/units/"
	first := func(c client, q string) map[string]any {
		t.Helper()
		return c.want(200, "GET", units+"?q="+url.QueryEscape(q), nil)["results"].([]any)[0].(map[string]any)
	}
	failing := func() any {
		return admin.want(200, "GET", admin.base+"translations/open/app/de/", nil)["failing_checks"]
	}
	copied := first(admin, "check:c_format")["url"].(string)
	list := admin.want(200, "GET", copied+"checks/", nil)
	got := list["results"].([]any)
	if list["count"] != 1.0 || got[0].(map[string]any)["check"] != "c_format" || !strings.Contains(got[0].(map[string]any)["message"].(string), "%d") {
		t.Fatalf("checks of the string missing %%d: %v", list)
	}
	admin.want(201, "POST", admin.base+"users/", map[string]any{"username": "olga", "full_name": "Olga", "email": "olga@x.example"})
	olga := client{t: t, base: admin.base, token: admin.want(200, "POST", admin.base+"users/olga/token/", map[string]any{})["token"].(string)}
	olga.want(403, "POST", copied+"checks/c_format/dismiss/", map[string]any{})
	secret := admin.want(200, "GET", admin.base+"translations/secret/app/de/units/?q=check:c_format", nil)["results"].([]any)[0].(map[string]any)["url"].(string)
	olga.want(404, "GET", secret+"checks/", nil)
	olga.want(404, "POST", secret+"checks/c_format/dismiss/", map[string]any{})
	olga.want(404, "GET", admin.base+"translations/secret/app/de/checks/", nil)
	admin.want(404, "POST", copied+"checks/end_stop/dismiss/", map[string]any{})

	if d := admin.want(200, "POST", copied+"checks/c_format/dismiss/", map[string]any{}); d["dismissed"] != true {
		t.Errorf("dismissed: %v", d)
	} else if one := admin.want(200, "GET", d["url"].(string), nil); one["check"] != "c_format" || one["dismissed"] != true {
		t.Errorf("the check at its url: %v", one)
	}
	admin.want(404, "GET", copied+"checks/end_stop/", nil)
	olga.want(404, "GET", secret+"checks/c_format/", nil)
	if n := failing(); n != 1.0 {
		t.Errorf("after a dismissal: failing_checks %v, want 1", n)
	}
	for q, want := range map[string]float64{"has:dismissed-check": 1, "has:check": 1, "dismissed_check:c_format": 1} {
		if n := admin.want(200, "GET", units+"?q="+url.QueryEscape(q), nil)["count"]; n != want {
			t.Errorf("q=%s: %v, want %v", q, n, want)
		}
	}
	if ch := admin.want(200, "GET", admin.base+"changes/?action=1001", nil); ch["count"] != 1.0 ||
		ch["results"].([]any)[0].(map[string]any)["action_name"] != "Check dismissed" {
		t.Errorf("dismissals recorded: %v", ch)
	}
	admin.want(200, "POST", copied+"checks/c_format/restore/", map[string]any{})
	if n := failing(); n != 2.0 {
		t.Errorf("after a restore: failing_checks %v, want 2", n)
	}
	sum := admin.want(200, "GET", admin.base+"translations/open/app/de/checks/", nil)
	if sum["failing"] != 2.0 || len(sum["checks"].([]any)) != 2 {
		t.Errorf("summary: %v", sum)
	}
	// Bulk: the strings a query finds, as a task.
	bulk := admin.base + "components/open/app/checks/"
	admin.want(400, "POST", bulk, map[string]any{"check": "no_such_check"})
	admin.want(400, "POST", bulk, map[string]any{"check": "end_stop", "q": "source:("})
	admin.want(400, "POST", bulk, map[string]any{"q": "source:saved"})
	olga.want(403, "POST", bulk, map[string]any{"check": "end_stop"})
	olga.want(404, "POST", admin.base+"projects/secret/checks/", map[string]any{"check": "end_stop"})
	task := admin.want(202, "POST", bulk, map[string]any{"check": "end_stop", "q": "source:saved"})["task_url"].(string)
	waitFor(t, func() bool { return admin.want(200, "GET", task, nil)["completed"] == true })
	// Cancelling needs component.edit and answers 204 (Weblate's
	// revocation), a finished task staying as it was.
	olga.want(403, "DELETE", task, nil)
	admin.want(204, "DELETE", task, nil)
	admin.want(404, "DELETE", admin.base+"tasks/no-such-task/", nil)
	// A task of a private project is not found by an outsider.
	secretTask := admin.want(202, "POST", admin.base+"projects/secret/checks/", map[string]any{"check": "end_stop", "q": "source:nothing-matches"})["task_url"].(string)
	olga.want(404, "GET", secretTask, nil)
	olga.want(404, "DELETE", secretTask, nil)
	if got := admin.want(200, "GET", task, nil); got["completed"] != true || fmt.Sprint(got["result"]) != "map[result:true]" {
		t.Errorf("a finished task after DELETE: %v", got)
	}
	if n := failing(); n != 1.0 {
		t.Errorf("after a bulk dismissal: failing_checks %v, want 1", n)
	}
	// Extra flags of a source string reach its translations.
	help := admin.want(200, "GET", admin.base+"translations/open/app/en/units/?q=source:Help", nil)["results"].([]any)[0].(map[string]any)["url"].(string)
	admin.want(200, "PATCH", help, map[string]any{"extra_flags": "max-length:3"})
	if u := first(admin, "source:Help"); u["has_failing_check"] != true {
		t.Errorf("Help with max-length:3: %v", u["has_failing_check"])
	}
	admin.want(400, "PATCH", help, map[string]any{"extra_flags": "max-length:many"})
	admin.want(403, "PATCH", first(admin, "source:Help")["url"].(string), map[string]any{"extra_flags": "max-length:3"})
	olga.want(403, "PATCH", help, map[string]any{"extra_flags": ""})
	// So does its explanation, alone: 200 on the source string, 403 on a
	// translation, as in Weblate.
	if got := admin.want(200, "PATCH", help, map[string]any{"explanation": " The help menu "})["explanation"]; got != "The help menu" {
		t.Errorf("explanation answered %v", got)
	}
	if got := admin.want(200, "GET", help, nil)["explanation"]; got != "The help menu" {
		t.Errorf("explanation read back %v", got)
	}
	// A translation's strings are found by their source string's
	// explanation, as in Weblate.
	for _, q := range []string{"has:explanation", "explanation:HELP", "is:translated AND explanation:menu"} {
		if n := admin.want(200, "GET", admin.base+"translations/open/app/de/units/?q="+url.QueryEscape(q), nil)["count"]; n != 1.0 {
			t.Errorf("q=%s: %v strings, want 1", q, n)
		}
	}
	// Strings are found by their suggestions and comments, and only the
	// strings a caller may see.
	helpDe := first(admin, "source:Help")["url"].(string)
	admin.want(201, "POST", helpDe+"suggestions/", map[string]any{"target": []string{"Hilfe bitte"}})
	admin.want(201, "POST", helpDe+"comments/", map[string]any{"scope": "translation", "comment": "Check the menu wording"})
	admin.want(201, "POST", helpDe+"comments/", map[string]any{"scope": "global", "comment": "Is the source unclear?"})
	all := admin.want(200, "GET", admin.base+"translations/open/app/de/units/", nil)["count"].(float64)
	for q, want := range map[string]float64{"added:today": all, "added:[2000-01-01 to 2000-12-31]": 0, "last_changed:>=yesterday": all,
		"added:<=1999": 0, "position:[1 to 2]": 2} {
		if got := admin.want(200, "GET", admin.base+"translations/open/app/de/units/?q="+url.QueryEscape(q), nil)["count"]; got != want {
			t.Errorf("q=%s: %v strings, want %v", q, got, want)
		}
	}
	for q, want := range map[string]float64{"suggestion:bitte": 1, "suggestion_author:admin": 1, "comment:WORDING": 1,
		"resolved_comment:wording": 0, "comment_author:admin AND source:Help": 1, "NOT suggestion:bitte": 0,
		"source_comment:unclear": 1, "has:source-comment": 1, "comment:unclear": 0} {
		got := admin.want(200, "GET", admin.base+"translations/open/app/de/units/?q="+url.QueryEscape(q), nil)["count"].(float64)
		if q == "NOT suggestion:bitte" {
			want = admin.want(200, "GET", admin.base+"translations/open/app/de/units/", nil)["count"].(float64) - 1
		}
		if got != want {
			t.Errorf("q=%s: %v strings, want %v", q, got, want)
		}
	}
	secretDe := admin.want(200, "GET", admin.base+"translations/secret/app/de/units/?q=source:Help", nil)["results"].([]any)[0].(map[string]any)["url"].(string)
	admin.want(201, "POST", secretDe+"suggestions/", map[string]any{"target": []string{"Geheime Hilfe"}})
	if n := olga.want(200, "GET", admin.base+"units/?q="+url.QueryEscape("suggestion:geheime"), nil)["count"]; n != 0.0 {
		t.Errorf("a stranger finds a private string by its suggestion: %v", n)
	}
	if n := admin.want(200, "GET", admin.base+"units/?q="+url.QueryEscape("suggestion:geheime"), nil)["count"]; n != 1.0 {
		t.Errorf("the admin finds the private string by its suggestion: %v", n)
	}
	denied := admin.want(403, "PATCH", first(admin, "source:Help")["url"].(string), map[string]any{"explanation": "x"})
	if !strings.Contains(fmt.Sprint(denied), "Source strings properties can be set only on source strings") {
		t.Errorf("explanation on a translation: %v", denied)
	}
	olga.want(403, "PATCH", help, map[string]any{"explanation": "x"})
	// An enforced check turns a translated edit failing it into one that
	// needs editing.
	admin.want(200, "PATCH", admin.base+"components/open/app/", map[string]any{"enforced_checks": []string{"end_space"}})
	spaced := first(admin, "source:Help")["url"].(string)
	if u := admin.want(200, "PATCH", spaced, map[string]any{"target": []string{"Hilfe "}, "state": 20}); u["state"] != 10.0 {
		t.Errorf("an edit failing an enforced check: state %v, want 10", u["state"])
	}
	admin.want(200, "PATCH", spaced, map[string]any{"target": []string{"Hilfe"}, "state": 20})
	// Strings are found by their change records: conditions joined by AND
	// hold for one record, changed_by: counts content changes only.
	deUnits := admin.base + "translations/open/app/de/units/?q="
	for q, want := range map[string]float64{"changed_by:ADMIN AND source:Help": 1, "changed_by:olga": 0,
		"change_action:comment-added": 1, `change_action:"Suggestion added" change_time:today`: 1,
		"change_action:suggestion-added change_time:<2000": 0, "changed:today source:Help": 1, "changed:<2000": 0,
		"changed_by:admin change_action:comment-added": 0, "NOT change_action:suggestion-added source:Help": 0,
		"has:flags": 1, "has:flags source:Help": 1, "source_changed:<2000": 0} {
		if got := admin.want(200, "GET", deUnits+url.QueryEscape(q), nil)["count"]; got != want {
			t.Errorf("q=%s: %v strings, want %v", q, got, want)
		}
	}
	if e := admin.want(400, "GET", deUnits+"change_action:bogus", nil); !strings.Contains(fmt.Sprint(e), "Unknown change action: bogus") {
		t.Errorf("unknown change action: %v", e)
	}
	for _, who := range []struct {
		c    client
		want float64
	}{{olga, 1}, {admin, 2}} {
		if n := who.c.want(200, "GET", admin.base+"units/?q="+url.QueryEscape("change_action:suggestion-added"), nil)["count"]; n != who.want {
			t.Errorf("site-wide search by change: %v strings, want %v", n, who.want)
		}
	}
	// New check_flags recheck the component in the background.
	admin.want(200, "PATCH", admin.base+"components/open/app/", map[string]any{"check_flags": "ignore-max-length"})
	waitFor(t, func() bool { return failing() == 1.0 && first(admin, "source:Help")["has_failing_check"] == false })
}
