package e2e

import (
	"bytes"
	"fmt"
	"mime/multipart"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/tmsproject/tms/gateway/bench/origin"
	"github.com/tmsproject/tms/gateway/stacktest"
)

// uploadCase is one upload of TestUploadMethods: the form's fields, the
// answer (the counters, or a refusal of a field), and what the units and
// the committed files are afterwards.
type uploadCase struct {
	name                           string
	before                         func(t *testing.T, base string) // a setting the case needs
	lang, method, conflicts, fuzzy string
	file                           string
	counts                         [4]float64 // not_found, skipped, accepted, total
	errAttr, errDetail             string     // a 400 refusal of field errAttr
	units                          map[string]unitWant
	suggestions                    float64           // the translation's strings with a suggestion
	files                          map[string]string // repository files after a push
	contains                       map[string]string // a text a repository file holds after a push
}

// unitWant is a unit's target, state and whether it has a suggestion.
type unitWant struct {
	target     string
	state      float64
	suggestion bool
}

// uploadFixture is a component of format: its files, component fields,
// the language and string count its import ends with, and how a unit is
// named in the cases.
type uploadFixture struct {
	files  map[string][]byte
	comp   map[string]any
	ready  string
	total  int
	unitID func(u map[string]any) string
	cases  []uploadCase
}

// TestUploadMethods uploads with every method (and the conflicts and
// fuzzy options) to a monolingual (Java properties), a bilingual (PO)
// and an XLIFF component, each method on its own language so that the
// cases of one component share a server, and checks the answers, the
// units and the committed files as the reference gives them.
func TestUploadMethods(t *testing.T) {
	for name, fx := range map[string]uploadFixture{
		"properties": propertiesUploads(),
		"po":         poUploads(),
		"xliff":      xliffUploads(),
	} {
		t.Run(name, func(t *testing.T) {
			base, repo := startFormatComponent(t, fx.files, fx.comp, fx.ready, fx.total)
			// The import adds the languages one by one: wait for all.
			for _, code := range uploadLangs {
				stacktest.Eventually(t, 60*time.Second, func() bool {
					tr, status := fetch(t, "GET", base+"translations/demo/app/"+code+"/", nil)
					return status == 200 && tr["total"] == float64(fx.total)
				})
			}
			for _, tc := range fx.cases {
				t.Run(tc.name, func(t *testing.T) { runUploadCase(t, base, repo, fx.unitID, tc) })
			}
		})
	}
}

func runUploadCase(t *testing.T, base, repo string, unitID func(map[string]any) string, tc uploadCase) {
	if tc.before != nil {
		tc.before(t, base)
	}
	url := base + "translations/demo/app/" + tc.lang + "/file/"
	out, status := postUploadForm(t, url, map[string]string{"method": tc.method, "conflicts": tc.conflicts, "fuzzy": tc.fuzzy}, tc.file)
	if tc.errAttr != "" {
		want := fmt.Sprintf("map[attr:%s code:invalid detail:%s]", tc.errAttr, tc.errDetail)
		if status != 400 || out["type"] != "validation_error" || fmt.Sprint(out["errors"]) != "["+want+"]" {
			t.Errorf("answer %d %v, want 400 with %s", status, out, want)
		}
		return
	}
	if status != 200 {
		t.Fatalf("upload: %d %v", status, out)
	}
	got := [4]float64{out["not_found"].(float64), out["skipped"].(float64), out["accepted"].(float64), out["total"].(float64)}
	if got != tc.counts || out["result"] != true || out["count"] != tc.counts[3] {
		t.Errorf("not_found, skipped, accepted, total = %v, want %v (%v)", got, tc.counts, out)
	}
	units := map[string]map[string]any{}
	for _, r := range call(t, "GET", base+"translations/demo/app/"+tc.lang+"/units/", nil, 200)["results"].([]any) {
		u := r.(map[string]any)
		units[unitID(u)] = u
	}
	for id, w := range tc.units {
		u := units[id]
		if u == nil {
			t.Errorf("%q: no unit", id)
			continue
		}
		if g := (unitWant{join(u["target"]), u["state"].(float64), u["has_suggestion"].(bool)}); g != w {
			t.Errorf("%q: target, state, suggestion = %+v, want %+v", id, g, w)
		}
	}
	if tr := call(t, "GET", base+"translations/demo/app/"+tc.lang+"/", nil, 200); tr["have_suggestion"] != tc.suggestions {
		t.Errorf("strings with a suggestion: %v, want %v", tr["have_suggestion"], tc.suggestions)
	}
	for name, want := range tc.files {
		expectFile(t, base, repo, name, want)
	}
	for name, want := range tc.contains {
		expectOperation(t, base, "app", "push")
		if got, _, _ := origin.Read(repo, name); !strings.Contains(got, want) {
			t.Errorf("%s lacks %q:\n%s", name, want, got)
		}
	}
}

// postUploadForm posts a multipart upload of content with the given
// fields (empty ones left out) and returns the answer and its status.
func postUploadForm(t *testing.T, url string, fields map[string]string, content string) (map[string]any, int) {
	t.Helper()
	return postUploadNamed(t, url, "upload", fields, content)
}

// postUploadNamed is postUploadForm of a file called name.
func postUploadNamed(t *testing.T, url, name string, fields map[string]string, content string) (map[string]any, int) {
	t.Helper()
	var body bytes.Buffer
	w := multipart.NewWriter(&body)
	for k, v := range fields {
		if v != "" {
			_ = w.WriteField(k, v)
		}
	}
	part, err := w.CreateFormFile("file", name)
	if err == nil {
		_, err = part.Write([]byte(content))
	}
	if err == nil {
		err = w.Close()
	}
	if err != nil {
		t.Fatal(err)
	}
	req, _ := http.NewRequest("POST", url, &body)
	req.Header.Set("Content-Type", w.FormDataContentType())
	out, status, err := send(req)
	if err != nil {
		t.Fatalf("upload: %v", err)
	}
	return out, status
}

// patch sets fields of demo (path "projects/demo/") or demo/app.
func patch(path string, fields map[string]any) func(t *testing.T, base string) {
	return func(t *testing.T, base string) { call(t, "PATCH", base+path, fields, 200) }
}

// The reference's refusals of a method (its upload serializer).
const (
	notSourceLanguage = "Source upload is supported only on source language."
	notAvailable      = "This method is not available here. Check your permissions or use different translation object."
	addToSource       = "This method is not available here. Try adding to the source instead of the translation."
)

var uploadLangs = []string{"de", "fr", "it", "es", "nl", "pt", "sv", "da"}

func propertiesUploads() uploadFixture {
	const dir = "res/"
	files := map[string][]byte{dir + "app.properties": []byte("title=Hello\nbye=Bye\nopen=Open file\n")}
	for _, l := range uploadLangs {
		files[dir+"app_"+l+".properties"] = []byte("title=Hallo\nbye=\nopen=\n")
	}
	// title differs, bye is new, open is untranslated, unknown is not in
	// the component.
	const upload = "title=Hallo!\nbye=Tsch\\u00fcss\nopen=\nunknown=x\n"
	const replaced = "# replaced\ntitle=Hoi\nbye=Dag\n"
	const template = "title=Hello\nbye=Goodbye\nopen=Open file\n"
	key := func(u map[string]any) string { return u["context"].(string) }
	return uploadFixture{files: files, ready: "da", total: 3, unitID: key,
		comp: map[string]any{"filemask": dir + "app_*.properties", "template": dir + "app.properties",
			"new_base": dir + "app.properties", "file_format": "properties"},
		cases: []uploadCase{
			{name: "translate", lang: "de", file: upload, counts: [4]float64{1, 1, 1, 4},
				units: map[string]unitWant{"title": {"Hallo", 20, false}, "bye": {"Tschüss", 20, false}, "open": {"", 0, false}},
				files: map[string]string{dir + "app_de.properties": "title=Hallo\nbye=Tsch\\u00FCss\nopen=\n"}},
			{name: "translate replace-translated", lang: "de", conflicts: "replace-translated", file: upload,
				counts: [4]float64{1, 1, 1, 4}, units: map[string]unitWant{"title": {"Hallo!", 20, false}, "bye": {"Tschüss", 20, false}}},
			{name: "approve without review", lang: "fr", method: "approve", file: upload, errAttr: "method", errDetail: notAvailable},
			{name: "approve", before: patch("projects/demo/", map[string]any{"translation_review": true}),
				lang: "fr", method: "approve", file: upload, counts: [4]float64{1, 1, 1, 4},
				units: map[string]unitWant{"title": {"Hallo", 20, false}, "bye": {"Tschüss", 30, false}}},
			{name: "approve replace-approved", lang: "fr", method: "approve", conflicts: "replace-approved", file: upload,
				counts: [4]float64{1, 1, 1, 4}, units: map[string]unitWant{"title": {"Hallo!", 30, false}, "bye": {"Tschüss", 30, false}}},
			{name: "fuzzy", lang: "it", method: "fuzzy", file: upload, counts: [4]float64{1, 1, 1, 4},
				units: map[string]unitWant{"title": {"Hallo", 20, false}, "bye": {"Tschüss", 10, false}}},
			{name: "suggest", lang: "es", method: "suggest", file: upload, counts: [4]float64{1, 0, 2, 4}, suggestions: 2,
				units: map[string]unitWant{"title": {"Hallo", 20, true}, "bye": {"", 0, true}, "open": {"", 0, false}}},
			{name: "suggest again", lang: "es", method: "suggest", file: upload, counts: [4]float64{1, 2, 0, 4}, suggestions: 2},
			{name: "replace", lang: "nl", method: "replace", file: replaced, counts: [4]float64{0, 0, 3, 2},
				units: map[string]unitWant{"title": {"Hoi", 20, false}, "bye": {"Dag", 20, false}, "open": {"", 0, false}},
				files: map[string]string{dir + "app_nl.properties": replaced}},
			{name: "add to a translation", lang: "pt", method: "add", file: upload, errAttr: "method", errDetail: addToSource},
			{name: "add without manage_units", lang: "en", method: "add", file: "new=New\n", errAttr: "method", errDetail: notAvailable},
			{name: "add", before: patch("components/demo/app/", map[string]any{"manage_units": true}),
				lang: "en", method: "add", file: "title=Hello\nnew=New\n", counts: [4]float64{0, 1, 1, 2},
				units:    map[string]unitWant{"new": {"New", 20, false}, "title": {"Hello", 20, false}},
				contains: map[string]string{dir + "app.properties": "open=Open file\nnew=New\n"}},
			{name: "source to a translation", lang: "de", method: "source", file: upload, errAttr: "method", errDetail: notSourceLanguage},
			{name: "source", lang: "en", method: "source", file: upload, errAttr: "method", errDetail: notAvailable},
			{name: "replace the template", lang: "en", method: "replace", file: template, counts: [4]float64{0, 0, 3, 3},
				units: map[string]unitWant{"bye": {"Goodbye", 20, false}},
				files: map[string]string{dir + "app.properties": template}},
		},
	}
}

// poHeader is the header of the PO files of poUploads.
const poHeader = "msgid \"\"\nmsgstr \"\"\n\"MIME-Version: 1.0\\n\"\n\"Content-Type: text/plain; charset=UTF-8\\n\"\n" +
	"\"Content-Transfer-Encoding: 8bit\\n\"\n"

// poEntries renders the strings of poUploads with the given msgstrs.
func poEntries(hello, bye, open string) string {
	return fmt.Sprintf("\nmsgid \"Hello\"\nmsgstr %q\n\nmsgid \"Bye\"\nmsgstr %q\n\nmsgid \"Open file\"\nmsgstr %q\n", hello, bye, open)
}

func poUploads() uploadFixture {
	files := map[string][]byte{"po/demo.pot": []byte(poHeader + poEntries("", "", ""))}
	for _, l := range uploadLangs {
		files["po/"+l+".po"] = []byte(poHeader + poEntries("Hallo", "", ""))
	}
	// Hello differs, Bye is new, Open file is fuzzy, Unknown is not in
	// the component.
	upload := poHeader + strings.Replace(poEntries("Hallo!", "Tschüss", "Datei öffnen"), "\nmsgid \"Open", "\n#, fuzzy\nmsgid \"Open", 1) +
		"\nmsgid \"Unknown\"\nmsgstr \"Unbekannt\"\n"
	replaced := poHeader + strings.Replace(poEntries("Hoi", "Dag", "Bestand openen"), "\nmsgid \"Open", "\n#, fuzzy\nmsgid \"Open", 1)
	newPOT := poHeader + "\nmsgid \"Hello\"\nmsgstr \"\"\n\nmsgid \"Save\"\nmsgstr \"\"\n"
	src := func(u map[string]any) string { return join(u["source"]) }
	return uploadFixture{files: files, ready: "da", total: 3, unitID: src,
		comp: map[string]any{"filemask": "po/*.po", "new_base": "po/demo.pot", "file_format": "po"},
		cases: []uploadCase{
			{name: "translate", lang: "de", file: upload, counts: [4]float64{1, 1, 1, 4},
				units:    map[string]unitWant{"Hello": {"Hallo", 20, false}, "Bye": {"Tschüss", 20, false}, "Open file": {"", 0, false}},
				contains: map[string]string{"po/de.po": poEntries("Hallo", "Tschüss", "")}},
			{name: "translate replace-translated", lang: "de", conflicts: "replace-translated", file: upload,
				counts: [4]float64{1, 1, 1, 4}, units: map[string]unitWant{"Hello": {"Hallo!", 20, false}, "Bye": {"Tschüss", 20, false}}},
			{name: "translate fuzzy process", lang: "sv", fuzzy: "process", file: upload, counts: [4]float64{1, 1, 2, 4},
				units:    map[string]unitWant{"Bye": {"Tschüss", 20, false}, "Open file": {"Datei öffnen", 10, false}},
				contains: map[string]string{"po/sv.po": "\n#, fuzzy\nmsgid \"Open file\"\nmsgstr \"Datei öffnen\"\n"}},
			{name: "translate fuzzy approve", lang: "da", fuzzy: "approve", file: upload, counts: [4]float64{1, 1, 2, 4},
				units: map[string]unitWant{"Bye": {"Tschüss", 20, false}, "Open file": {"Datei öffnen", 20, false}}},
			{name: "approve without review", lang: "fr", method: "approve", file: upload, errAttr: "method", errDetail: notAvailable},
			{name: "approve", before: patch("projects/demo/", map[string]any{"translation_review": true}),
				lang: "fr", method: "approve", file: upload, counts: [4]float64{1, 1, 1, 4},
				units: map[string]unitWant{"Hello": {"Hallo", 20, false}, "Bye": {"Tschüss", 30, false}}},
			{name: "fuzzy", lang: "it", method: "fuzzy", file: upload, counts: [4]float64{1, 1, 1, 4},
				units:    map[string]unitWant{"Bye": {"Tschüss", 10, false}, "Open file": {"", 0, false}},
				contains: map[string]string{"po/it.po": "\n#, fuzzy\nmsgid \"Bye\"\nmsgstr \"Tschüss\"\n"}},
			{name: "suggest", lang: "es", method: "suggest", file: upload, counts: [4]float64{1, 0, 2, 4}, suggestions: 2,
				units: map[string]unitWant{"Hello": {"Hallo", 20, true}, "Bye": {"", 0, true}, "Open file": {"", 0, false}}},
			{name: "replace", lang: "nl", method: "replace", file: replaced, counts: [4]float64{0, 0, 3, 3},
				units: map[string]unitWant{"Hello": {"Hoi", 20, false}, "Bye": {"Dag", 20, false}, "Open file": {"Bestand openen", 10, false}},
				files: map[string]string{"po/nl.po": replaced}},
			{name: "replace the source", lang: "en", method: "replace", file: newPOT, errAttr: "method", errDetail: notAvailable},
			{name: "add without manage_units", lang: "pt", method: "add", file: upload, errAttr: "method", errDetail: addToSource},
			{name: "add", before: patch("components/demo/app/", map[string]any{"manage_units": true}),
				lang: "pt", method: "add", file: upload, counts: [4]float64{0, 2, 1, 4},
				units:    map[string]unitWant{"Unknown": {"Unbekannt", 20, false}, "Hello": {"Hallo", 20, false}},
				contains: map[string]string{"po/pt.po": "\nmsgid \"Unknown\"\nmsgstr \"Unbekannt\"\n"}},
			{name: "source to a translation", lang: "de", method: "source", file: newPOT, errAttr: "method", errDetail: notSourceLanguage},
			{name: "source", lang: "en", method: "source", file: newPOT, counts: [4]float64{0, 0, 2, 2},
				units: map[string]unitWant{"Hello": {"Hello", 100, false}, "Save": {"Save", 100, false}},
				files: map[string]string{"po/demo.pot": newPOT}},
			{name: "source merged into a translation", lang: "de", method: "translate", file: newPOT, counts: [4]float64{0, 0, 0, 2},
				units:    map[string]unitWant{"Hello": {"Hallo!", 20, false}, "Save": {"", 0, false}},
				contains: map[string]string{"po/de.po": "\nmsgid \"Save\"\nmsgstr \"\"\n\n#~ msgid \"Bye\"\n#~ msgstr \"Tschüss\"\n"}},
		},
	}
}

// xliffUnits renders the trans-units of xliffUploads: ids hello, bye and
// open with the given targets ("" none), the ones in fuzzy needing review.
func xliffUnits(lang string, targets [3]string, fuzzy ...string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<xliff version=\"1.2\" xmlns=\"urn:oasis:names:tc:xliff:document:1.2\">\n"+
		"  <file original=\"app\" source-language=\"en\" target-language=%q datatype=\"plaintext\">\n    <body>\n", lang)
	for i, id := range []string{"hello", "bye", "open"} {
		fmt.Fprintf(&b, "      <trans-unit id=%q>\n        <source>%s</source>\n", id, []string{"Hello", "Bye", "Open file"}[i])
		if targets[i] != "" {
			state := "translated"
			if strings.Contains(strings.Join(fuzzy, ","), id) {
				state = "needs-translation"
			}
			fmt.Fprintf(&b, "        <target state=%q>%s</target>\n", state, targets[i])
		}
		b.WriteString("      </trans-unit>\n")
	}
	b.WriteString("    </body>\n  </file>\n</xliff>\n")
	return b.String()
}

func xliffUploads() uploadFixture {
	files := map[string][]byte{"x/en.xliff": []byte(xliffUnits("en", [3]string{}))}
	for _, l := range uploadLangs {
		files["x/"+l+".xliff"] = []byte(xliffUnits(l, [3]string{"Hallo", "", ""}))
	}
	upload := strings.Replace(xliffUnits("de", [3]string{"Hallo!", "Tschüss", "Datei öffnen"}, "open"), "    </body>",
		"      <trans-unit id=\"unknown\">\n        <source>Unknown</source>\n        <target state=\"translated\">Unbekannt</target>\n      </trans-unit>\n    </body>", 1)
	replaced := xliffUnits("nl", [3]string{"Hoi", "Dag", "Bestand openen"}, "open")
	ctx := func(u map[string]any) string { return strings.TrimPrefix(u["context"].(string), "app///") }
	return uploadFixture{files: files, ready: "da", total: 3, unitID: ctx,
		comp: map[string]any{"filemask": "x/*.xliff", "new_base": "x/en.xliff", "file_format": "xliff"},
		cases: []uploadCase{
			{name: "translate", lang: "de", file: upload, counts: [4]float64{1, 1, 1, 4},
				units: map[string]unitWant{"hello": {"Hallo", 20, false}, "bye": {"Tschüss", 20, false}, "open": {"", 0, false}}},
			{name: "translate fuzzy process", lang: "sv", fuzzy: "process", file: upload, counts: [4]float64{1, 1, 2, 4},
				units: map[string]unitWant{"bye": {"Tschüss", 20, false}, "open": {"Datei öffnen", 10, false}}},
			{name: "translate fuzzy approve", lang: "da", fuzzy: "approve", file: upload, counts: [4]float64{1, 1, 2, 4},
				units: map[string]unitWant{"open": {"Datei öffnen", 20, false}}},
			{name: "approve", before: patch("projects/demo/", map[string]any{"translation_review": true}),
				lang: "fr", method: "approve", file: upload, counts: [4]float64{1, 1, 1, 4},
				units:    map[string]unitWant{"hello": {"Hallo", 20, false}, "bye": {"Tschüss", 30, false}},
				contains: map[string]string{"x/fr.xliff": "<trans-unit id=\"bye\" xml:space=\"preserve\" approved=\"yes\">\n        <source>Bye</source>\n        <target state=\"final\">Tschüss</target>"}},
			{name: "fuzzy", lang: "it", method: "fuzzy", file: upload, counts: [4]float64{1, 1, 1, 4},
				units:    map[string]unitWant{"bye": {"Tschüss", 10, false}},
				contains: map[string]string{"x/it.xliff": "<target state=\"needs-translation\">Tschüss</target>"}},
			{name: "suggest", lang: "es", method: "suggest", file: upload, counts: [4]float64{1, 0, 2, 4}, suggestions: 2,
				units: map[string]unitWant{"hello": {"Hallo", 20, true}, "bye": {"", 0, true}}},
			{name: "replace", lang: "nl", method: "replace", file: replaced, counts: [4]float64{0, 0, 3, 3},
				units: map[string]unitWant{"hello": {"Hoi", 20, false}, "bye": {"Dag", 20, false}, "open": {"Bestand openen", 10, false}},
				files: map[string]string{"x/nl.xliff": replaced}},
			{name: "add", before: patch("components/demo/app/", map[string]any{"manage_units": true}),
				lang: "pt", method: "add", file: upload, counts: [4]float64{0, 2, 1, 4},
				units:    map[string]unitWant{"unknown": {"Unbekannt", 20, false}},
				contains: map[string]string{"x/pt.xliff": "<source>Unknown</source>"}},
			{name: "source", lang: "en", method: "source", file: upload, errAttr: "method", errDetail: notAvailable},
		},
	}
}
