package e2e

import (
	"strconv"
	"strings"
	"testing"

	"github.com/tmsproject/tms/gateway/bench/origin"
)

// TestUpstreamChangeKeepsNeedsEditing marks a JSON string as needing
// editing, which JSON cannot record, then changes another string of the
// same file upstream: the re-read file leaves the marked string as it was,
// so it still needs editing, while the changed string takes its new text.
func TestUpstreamChangeKeepsNeedsEditing(t *testing.T) {
	base, repo := startFormatComponent(t, jsonFixture, map[string]any{"filemask": "locales/*.json",
		"template": "locales/en.json", "new_base": "locales/en.json", "file_format": "i18nextv4", "manage_units": true}, "ru", 4)
	de := unitsByKey(t, base, "de")
	title := base + "units/" + strconv.Itoa(int(de["app.title"]["id"].(float64))) + "/"
	call(t, "PATCH", title, map[string]any{"target": []string{"Hallo, Welt"}, "state": 10}, 200)
	expectOperation(t, base, "app", "push")

	pushed, _, err := origin.Read(repo, "locales/de.json")
	if err != nil {
		t.Fatal(err)
	}
	changed := strings.Replace(pushed, "Viel Spaß.", "Viel Spaß!", 1)
	if changed == pushed {
		t.Fatalf("fixture lacks the string to change:\n%s", pushed)
	}
	if err = origin.Commit(repo, t.TempDir(), map[string][]byte{"locales/de.json": []byte(changed)}, "upstream edit"); err != nil {
		t.Fatal(err)
	}
	expectOperation(t, base, "app", "pull")

	if u := call(t, "GET", title, nil, 200); u["state"] != float64(10) || join(u["target"]) != "Hallo, Welt" {
		t.Errorf("marked string after the pull: state %v, target %v; want 10, Hallo, Welt", u["state"], u["target"])
	}
	if got := join(unitsByKey(t, base, "de")["app.welcome"]["target"]); got != "Willkommen, {{name}}!\nViel Spaß!" {
		t.Errorf("upstream change not read: %q", got)
	}
	if tr := call(t, "GET", base+"translations/demo/app/de/", nil, 200); tr["fuzzy"] != float64(1) {
		t.Errorf("de needs editing: %v strings, want 1", tr["fuzzy"])
	}
}
