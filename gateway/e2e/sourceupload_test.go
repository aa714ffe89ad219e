package e2e

import (
	"fmt"
	"strings"
	"testing"

	"github.com/tmsproject/tms/gateway/bench/origin"
)

const sourceHeader = `msgid ""
msgstr ""
"Project-Id-Version: demo 1.0\n"
"POT-Creation-Date: 2024-01-01 00:00+0000\n"
"MIME-Version: 1.0\n"
"Content-Type: text/plain; charset=UTF-8\n"
"Content-Transfer-Encoding: 8bit\n"
`

// sourceFixture is a PO component with a template (po/demo.pot, its
// new_base) and a German translation.
var sourceFixture = map[string][]byte{
	"po/demo.pot": []byte(sourceHeader + `
#: src/app.c:1
msgid "Hello"
msgstr ""

#: src/app.c:2
msgid "Bye"
msgstr ""

#: src/app.c:3
msgid "Open file"
msgstr ""
`),
	"po/de.po": []byte(strings.Replace(sourceHeader, "Content-Transfer", "Language: de\\n\"\n\"Plural-Forms: nplurals=2; plural=(n != 1);\\n\"\n\"Content-Transfer", 1) + `
#: src/app.c:1
msgid "Hello"
msgstr "Hallo"

#: src/app.c:2
msgid "Bye"
msgstr "Tschüss"

#: src/app.c:3
msgid "Open file"
msgstr "Datei öffnen"
`),
}

// newDemoPOT drops "Bye", rewords "Open file" and adds "Save".
const newDemoPOT = `msgid ""
msgstr ""
"Project-Id-Version: demo 1.1\n"
"POT-Creation-Date: 2024-06-01 12:00+0000\n"
"MIME-Version: 1.0\n"
"Content-Type: text/plain; charset=UTF-8\n"
"Content-Transfer-Encoding: 8bit\n"

#: src/app.c:1
msgid "Hello"
msgstr ""

#: src/app.c:3
msgid "Open files"
msgstr ""

#: src/app.c:4
msgid "Save"
msgstr ""
`

// TestSourceUpload uploads a new template to the source translation of a
// PO component through the REST API: the answer counts the source
// strings, the translation follows the template (a reworded string
// fuzzy with its previous source, a removed one gone, a new one empty),
// and the files committed are the upload and msgmerge's merge.
func TestSourceUpload(t *testing.T) {
	base, repo := startFormatComponent(t, sourceFixture, map[string]any{"filemask": "po/*.po",
		"new_base": "po/demo.pot", "file_format": "po"}, "de", 3)

	// A translation is refused the method, in the reference's words.
	out, status := fetchUpload(t, base+"translations/demo/app/de/file/", "demo.pot", newDemoPOT, "source")
	if status != 400 || !strings.Contains(fmt.Sprint(out), "Source upload is supported only on source language.") {
		t.Errorf("source upload to a translation: %d %v", status, out)
	}

	got := uploadFileWith(t, base+"translations/demo/app/en/file/", "demo.pot", newDemoPOT, "source")
	for k, want := range map[string]any{"not_found": 0.0, "skipped": 0.0, "accepted": 3.0, "total": 3.0, "result": true, "count": 3.0} {
		if got[k] != want {
			t.Errorf("answer %s = %v, want %v (%v)", k, got[k], want, got)
		}
	}
	en := unitsBySource(t, base, "en")
	if len(en) != 3 || en["Open files"] == nil || en["Save"] == nil || en["Bye"] != nil {
		t.Errorf("source strings: %v", en)
	}
	de := unitsBySource(t, base, "de")
	for src, want := range map[string][3]any{
		"Hello":      {"Hallo", 20.0, ""},
		"Open files": {"Datei öffnen", 10.0, "Open file"},
		"Save":       {"", 0.0, ""},
	} {
		u := de[src]
		if u == nil {
			t.Errorf("de %q: no unit", src)
			continue
		}
		if g := [3]any{join(u["target"]), u["state"], u["previous_source"]}; g != want {
			t.Errorf("de %q: target, state, previous_source = %v, want %v", src, g, want)
		}
	}
	if len(de) != 3 {
		t.Errorf("de has %d strings, want 3", len(de))
	}
	expectStats(t, base, map[string][3]float64{"en": {3, 4, 3}, "de": {3, 4, 1}})

	expectFile(t, base, repo, "po/demo.pot", newDemoPOT)
	expectFile(t, base, repo, "po/de.po", strings.NewReplacer("Content-Transfer",
		"Language: de\\n\"\n\"Plural-Forms: nplurals=2; plural=(n != 1);\\n\"\n\"Content-Transfer",
		"2024-01-01 00:00", "2024-06-01 12:00").Replace(sourceHeader)+`
#: src/app.c:1
msgid "Hello"
msgstr "Hallo"

#: src/app.c:3
#, fuzzy
#| msgid "Open file"
msgid "Open files"
msgstr "Datei öffnen"

#: src/app.c:4
msgid "Save"
msgstr ""

#~ msgid "Bye"
#~ msgstr "Tschüss"
`)
	if _, msg, err := origin.Read(repo, "po/demo.pot"); err != nil || !strings.Contains(msg, "English") {
		t.Errorf("upload commit message %q (%v)", msg, err)
	}
}

func unitsBySource(t *testing.T, base, code string) map[string]map[string]any {
	t.Helper()
	out := map[string]map[string]any{}
	for _, r := range call(t, "GET", base+"translations/demo/app/"+code+"/units/", nil, 200)["results"].([]any) {
		u := r.(map[string]any)
		out[u["source"].([]any)[0].(string)] = u
	}
	return out
}
