package e2e

import (
	"strconv"
	"testing"
)

// readOnlyXLIFF is a German XLIFF file of three strings: a brand name the
// file marks translate="no", one with Weblate's read-only flag, and a
// plain one.
func readOnlyXLIFF(lang string) []byte {
	return xliffDoc(lang, `
      <trans-unit id="brand" translate="no">
        <source>Acme</source>
      </trans-unit>
      <trans-unit id="legal" weblate-flags="read-only">
        <source>Terms of use</source>
      </trans-unit>
      <trans-unit id="hello">
        <source>Hello</source>
      </trans-unit>`)
}

// TestReadOnlyStrings: strings the file marks untranslatable or flags
// read-only are imported read-only (state 100), count as read-only in
// the statistics, and refuse an edit and a suggestion with 403, while
// the plain string takes an edit.
func TestReadOnlyStrings(t *testing.T) {
	fixture := map[string][]byte{"locales/en.xliff": readOnlyXLIFF(""), "locales/de.xliff": readOnlyXLIFF("de")}
	base, _ := startFormatComponent(t, fixture, map[string]any{"filemask": "locales/*.xliff",
		"new_base": "locales/en.xliff", "file_format": "xliff"}, "de", 3)
	de := unitsByKey(t, base, "de")
	for key, want := range map[string]float64{"app///brand": 100, "app///legal": 100, "app///hello": 0} {
		t.Run(key, func(t *testing.T) {
			u := de[key]
			if u == nil {
				t.Fatal("no unit")
			}
			if u["state"] != want {
				t.Errorf("state %v, want %v", u["state"], want)
			}
			url := base + "units/" + strconv.Itoa(int(u["id"].(float64))) + "/"
			status := 200
			if want == 100 {
				status = 403
			}
			call(t, "PATCH", url, map[string]any{"target": []string{"Übersetzt"}, "state": 20}, status)
		})
	}
	tr := call(t, "GET", base+"translations/demo/app/de/statistics/", nil, 200)
	if tr["readonly"] != float64(2) || tr["translated"] != float64(3) {
		t.Errorf("de statistics: readonly %v, translated %v; want 2 and 3", tr["readonly"], tr["translated"])
	}
}
