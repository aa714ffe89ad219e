package suite

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/tmsproject/tms/gateway/bench/origin"
	"github.com/tmsproject/tms/gateway/stack"
)

var update = flag.Bool("update", false, "rewrite the golden files of TestWriteBackGolden")

// writeBackCase is one realistic file, the edit made to it through the API
// and, in testdata/writeback/<lang>.want.po, the file the reference writes
// for that edit.
type writeBackCase struct {
	lang   string   // file name without .po
	source string   // the edited string
	target []string // its new translation
	// The plural the translation's language object shows: the file's rule
	// (own, not the language's default) or the language's default.
	ownPlural bool
	number    float64
	formula   string
}

var writeBackCases = []writeBackCase{
	// pybabel ends the file with a blank line; its (n != 1) is German's
	// rule in the localization guide's spelling, which the file keeps (as
	// Weblate 2026.9 keeps he.po's in the bleachbit catalog).
	{lang: "de", source: "Goodbye", target: []string{"Auf Wiedersehen"}, ownPlural: true, number: 2, formula: "(n != 1)"},
	// One form in a language whose default has two: the file's rule stays.
	{lang: "tr", source: "Goodbye", target: []string{"Hoşça kal"}, ownPlural: true, number: 1, formula: "0"},
	// Belarusian's rule spelled with parentheses, as gettext spells it:
	// the file keeps it (as Weblate 2026.9 keeps ru.po's and uk.po's in the
	// bleachbit catalog).
	{lang: "be", source: "Goodbye", target: []string{"Да пабачэння"}, ownPlural: true, number: 3,
		formula: "(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2)"},
	// The known spellings of other languages' rules stay as the files
	// spell them: gettext's (ru, uk, pl), Qt's (cs).
	{lang: "ru", source: "Goodbye", target: []string{"Пока"}, ownPlural: true, number: 3,
		formula: "(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2)"},
	{lang: "uk", source: "Goodbye", target: []string{"До побачення"}, ownPlural: true, number: 3,
		formula: "(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2)"},
	{lang: "pl", source: "Goodbye", target: []string{"Do widzenia"}, ownPlural: true, number: 3,
		formula: "(n==1 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2)"},
	{lang: "cs", source: "Goodbye", target: []string{"Nashledanou"}, ownPlural: true, number: 3,
		formula: "((n==1) ? 0 : (n>=2 && n<=4) ? 1 : 2)"},
	// The Language header keeps the file's code.
	{lang: "zh_TW", source: "Goodbye", target: []string{"再見"}, number: 1, formula: "0"},
	// A one-form language's stray msgstr[1] goes from the edited entry.
	{lang: "ja", source: "%(num)d file", target: []string{"%(num)d 個のファイル"}, number: 1, formula: "0"},
}

// TestWriteBackGolden edits realistic files through the API, commits and
// pushes, and compares what reaches the remote with the file the reference
// writes for the same edit, byte for byte but for the three headers that
// name the time, the translator and the tool.
func TestWriteBackGolden(t *testing.T) {
	files := map[string][]byte{}
	for _, c := range writeBackCases {
		data, err := os.ReadFile(filepath.Join("testdata", "writeback", c.lang+".in.po"))
		if err != nil {
			t.Fatal(err)
		}
		files["po/"+c.lang+".po"] = data
	}
	bare, err := origin.Create(t.TempDir(), files)
	if err != nil {
		t.Fatal(err)
	}
	c := newStack(t, func(cfg *stack.Config) { cfg.SiteURL = "https://tms.example" })
	c.want(201, "POST", c.base+"projects/", map[string]any{"name": "Greeter", "slug": "greeter",
		"web": "https://greeter.example/", "set_language_team": false})
	c.want(201, "POST", c.base+"projects/greeter/components/", map[string]any{"name": "App", "slug": "app",
		"repo": "file://" + bare, "push": "file://" + bare, "branch": "main", "filemask": "po/*.po",
		"file_format": "po", "source_language": map[string]any{"code": "en"}})
	byFile := waitForTranslations(t, c, len(writeBackCases)+1)
	for _, wc := range writeBackCases {
		tr := byFile["po/"+wc.lang+".po"]
		if tr == nil {
			t.Fatalf("no translation of po/%s.po", wc.lang)
		}
		checkTranslationPlural(t, wc, tr)
		unit := unitBySource(t, c, tr["url"].(string)+"units/", wc.source)
		c.want(200, "PATCH", unit, map[string]any{"target": wc.target, "state": 20})
	}
	if r := c.want(200, "POST", c.base+"components/greeter/app/repository/", map[string]any{"operation": "push"}); r["result"] != true {
		t.Fatalf("push: %v", r)
	}
	for _, wc := range writeBackCases {
		got, _, err := origin.Read(bare, "po/"+wc.lang+".po")
		if err != nil {
			t.Fatal(err)
		}
		compareGolden(t, filepath.Join("testdata", "writeback", wc.lang+".want.po"), normalizeHeader(got))
	}
}

// waitForTranslations waits for the import and returns the translations by
// file name.
func waitForTranslations(t *testing.T, c client, n int) map[string]map[string]any {
	t.Helper()
	byFile := map[string]map[string]any{}
	waitFor(t, func() bool {
		code, body := c.do("GET", c.base+"components/greeter/app/translations/", nil)
		var list struct{ Results []map[string]any }
		if code != 200 || json.Unmarshal(body, &list) != nil || len(list.Results) < n {
			return false
		}
		for _, tr := range list.Results {
			byFile[tr["filename"].(string)] = tr
		}
		return true
	})
	return byFile
}

func checkTranslationPlural(t *testing.T, wc writeBackCase, tr map[string]any) {
	t.Helper()
	language := tr["language"].(map[string]any)
	plural := language["plural"].(map[string]any)
	own := plural["id"] != language["id"]
	if own != wc.ownPlural || plural["number"] != wc.number || plural["formula"] != wc.formula {
		t.Errorf("%s: plural %v of language %v, want own=%v %v %q", wc.lang, plural, language["id"], wc.ownPlural, wc.number, wc.formula)
	}
}

// unitBySource returns the URL of the unit whose first source form is source.
func unitBySource(t *testing.T, c client, list, source string) string {
	t.Helper()
	_, body := c.do("GET", list, nil)
	var units struct{ Results []map[string]any }
	_ = json.Unmarshal(body, &units)
	for _, u := range units.Results {
		if forms, _ := u["source"].([]any); len(forms) > 0 && forms[0] == source {
			return u["url"].(string)
		}
	}
	t.Fatalf("no unit %q in %s: %s", source, list, body)
	return ""
}

var volatileHeader = regexp.MustCompile(`(?m)^"(PO-Revision-Date|Last-Translator|X-Generator): [^"]*\\n"$`)

// normalizeHeader replaces the values of the headers that differ between
// any two writers (time, translator, tool) with a placeholder.
func normalizeHeader(text string) string {
	return volatileHeader.ReplaceAllString(text, `"$1: (varies)\n"`)
}

func compareGolden(t *testing.T, path, got string) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		t.Errorf("%s differs from what was written:\n--- want\n%s\n--- got\n%s", path, want, got)
	}
}
