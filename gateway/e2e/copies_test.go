package e2e

import (
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/tmsproject/tms/gateway/stacktest"
)

// TestCopiesAcrossComponents runs the built binary on a project whose two
// components hold the same strings (Weblate's translation propagation):
// a string translated apart fails inconsistent in both, an edit reaches
// the copy in the other component ("Propagated change"), and a component
// that stops taking propagated translations leaves the comparison until
// it takes them again.
func TestCopiesAcrossComponents(t *testing.T) {
	libDE := strings.Replace(checksDE, `msgstr "Hilfe"`, `msgstr "Unterstützung"`, 1)
	base, repo := startFormatComponent(t, map[string][]byte{"po/app.pot": []byte(checksPOT), "po/de.po": []byte(checksDE),
		"lib/lib.pot": []byte(checksPOT), "lib/de.po": []byte(libDE)},
		map[string]any{"filemask": "po/*.po", "new_base": "po/app.pot", "file_format": "po"}, "de", 5)
	call(t, "POST", base+"projects/demo/components/", map[string]any{"name": "Lib", "slug": "lib", "repo": repo,
		"filemask": "lib/*.po", "new_base": "lib/lib.pot", "file_format": "po"}, 201)
	stacktest.Eventually(t, 60*time.Second, func() bool {
		tr, status := fetch(t, "GET", base+"translations/demo/lib/de/", nil)
		return status == 200 && tr["total"] == float64(5)
	})
	units := func(comp, q string) []any {
		return call(t, "GET", base+"translations/demo/"+comp+"/de/units/?q="+url.QueryEscape(q), nil, 200)["results"].([]any)
	}
	inconsistent := func(comp string) []string {
		var out []string
		for _, r := range units(comp, "check:inconsistent") {
			out = append(out, join(r.(map[string]any)["source"]))
		}
		return out
	}
	want := func(when string, found []string) {
		t.Helper()
		want := strings.Join(found, ",")
		var app, lib string
		for end := time.Now().Add(30 * time.Second); ; time.Sleep(200 * time.Millisecond) {
			app, lib = strings.Join(inconsistent("app"), ","), strings.Join(inconsistent("lib"), ",")
			if app == want && lib == want {
				return
			}
			if time.Now().After(end) {
				t.Fatalf("%s: inconsistent in app [%s], in lib [%s], want [%s]", when, app, lib, want)
			}
		}
	}
	want("imported", []string{"Help"})
	// A component that takes no propagated translations is no copy (the
	// change rechecks the component in the background).
	call(t, "PATCH", base+"components/demo/lib/", map[string]any{"allow_translation_propagation": false}, 200)
	want("propagation off", nil)
	call(t, "PATCH", base+"components/demo/lib/", map[string]any{"allow_translation_propagation": true}, 200)
	want("propagation on", []string{"Help"})
	// Agreeing again clears both.
	editUnit(t, base, units("lib", "source:=Help")[0].(map[string]any), "Hilfe")
	for _, comp := range []string{"app", "lib"} {
		if got := inconsistent(comp); len(got) != 0 {
			t.Errorf("%s after the fix: inconsistent %v", comp, got)
		}
	}
	// An edit reaches the copy, recorded as a propagated change.
	editUnit(t, base, units("app", "source:=Open")[0].(map[string]any), "Öffnen")
	copied := units("lib", "source:=Open")[0].(map[string]any)
	if join(copied["target"]) != "Öffnen" {
		t.Errorf("lib's copy holds %q, want Öffnen", join(copied["target"]))
	}
	stacktest.Eventually(t, 30*time.Second, func() bool {
		for _, r := range call(t, "GET", base+"changes/?action=77", nil, 200)["results"].([]any) {
			if c := r.(map[string]any); c["unit"] == copied["url"] && c["target"] == "Öffnen" {
				return true
			}
		}
		return false
	})
}
