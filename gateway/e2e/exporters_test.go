package e2e

import (
	"archive/zip"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/tmsproject/tms/gateway/bench/origin"
	"github.com/tmsproject/tms/gateway/stacktest"
)

// exportFixture is a gettext component: a German translation with a
// context, a note, a location, a plural and a fuzzy string.
var exportFixture = map[string][]byte{
	"po/de.po": []byte(`msgid ""
msgstr ""
"Language: de\n"
"Content-Type: text/plain; charset=UTF-8\n"
"Plural-Forms: nplurals=2; plural=n != 1;\n"

#. Window title
#: src/main.c:10
msgctxt "title"
msgid "Hello, \"World\""
msgstr "Hallo, \"Welt\""

#, c-format
msgid "%d file"
msgid_plural "%d files"
msgstr[0] "%d Datei"
msgstr[1] "%d Dateien"

#, fuzzy
msgid "Open"
msgstr "Öffnen"

msgid "Close"
msgstr ""
`),
}

// download GETs a translation file with ?format= and returns the status,
// the headers and the body.
func download(t *testing.T, url string) (int, http.Header, string) {
	t.Helper()
	req, _ := http.NewRequest("GET", url, nil)
	req.Header.Set("Authorization", "Token "+adminToken)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = resp.Body.Close() }()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, resp.Header, string(body)
}

// TestFileConversions downloads a translation in every conversion format
// through REST: a pending edit is in every conversion (they read the
// database), each has the reference's content type and file name, and a
// format that does not exist or does not fit answers 400 on "format".
func TestFileConversions(t *testing.T) {
	base, _ := startFormatComponent(t, exportFixture, map[string]any{"filemask": "po/*.po", "file_format": "po"}, "de", 4)
	for _, r := range call(t, "GET", base+"translations/demo/app/de/units/", nil, 200)["results"].([]any) {
		if u := r.(map[string]any); join(u["source"]) == "Close" {
			editUnit(t, base, u, "Schließen")
		}
	}
	file := base + "translations/demo/app/de/file/"
	for _, tc := range []struct {
		format, contentType, name string
		want                      []string
	}{
		{"po", "text/x-po", "po/de.po", []string{"msgstr \"Schließen\"\n", "Hallo, \\\"Welt\\\""}},
		{"", "text/x-po", "po/de.po", []string{"msgstr \"Schließen\"\n"}},
		{"mo", "application/x-gettext-catalog", "po/de.mo", []string{"Schließen"}},
		{"csv", "text/csv; charset=utf-8", "demo-app-de.csv", []string{
			"location,source,target,id,fuzzy,context,translator_comments,developer_comments\r\n",
			"src/main.c:10,\"Hello, \"\"World\"\"\",\"Hallo, \"\"Welt\"\"\",,False,title,,Window title\r\n",
			",'%d file','%d Datei',,False,,,\r\n", ",Open,Öffnen,,True,,,\r\n", ",Close,Schließen,,False,,,\r\n"}},
	} {
		t.Run("format="+tc.format, func(t *testing.T) {
			status, h, body := download(t, file+"?format="+tc.format)
			if status != 200 {
				t.Fatalf("status %d: %.300s", status, body)
			}
			if !strings.HasPrefix(h.Get("Content-Type"), tc.contentType) ||
				h.Get("Content-Disposition") != `attachment; filename="`+tc.name[strings.LastIndexByte(tc.name, '/')+1:]+`"` {
				t.Errorf("Content-Type %q, Content-Disposition %q", h.Get("Content-Type"), h.Get("Content-Disposition"))
			}
			for _, w := range tc.want {
				if !strings.Contains(body, w) {
					t.Errorf("no %q in\n%s", w, body)
				}
			}
		})
	}
	t.Run("format=xliff exact", func(t *testing.T) {
		status, h, body := download(t, file+"?format=xliff")
		if status != 200 || body != exportXliff || h.Get("Content-Type") != "application/x-xliff+xml; charset=utf-8" ||
			h.Get("Content-Disposition") != `attachment; filename="demo-app-de.xlf"` {
			t.Errorf("%d %q %q\n%s\nwant\n%s", status, h.Get("Content-Type"), h.Get("Content-Disposition"), body, exportXliff)
		}
	})
	t.Run("bad formats", func(t *testing.T) {
		if status, _, body := download(t, file+"?format=docx"); status != 400 || !strings.Contains(body, "format") {
			t.Errorf("docx: %d %s", status, body)
		}
		if status, _, body := download(t, file+"?format=json"); status != 400 || !strings.Contains(body, "not compatible") {
			t.Errorf("json of a bilingual translation: %d %s", status, body)
		}
	})

	// The component's zip converts every translation that has a file.
	status, _, zipped := download(t, base+"components/demo/app/file/?format=csv")
	zr, err := zip.NewReader(strings.NewReader(zipped), int64(len(zipped)))
	if status != 200 || err != nil || len(zr.File) != 1 || zr.File[0].Name != "demo-app-de.csv" {
		t.Errorf("component zip as csv: %d %v %v", status, err, zr)
	}

	// A monolingual component converts to JSON, nested JSON and PO.
	repo, err := origin.Create(t.TempDir(), jsonFixture)
	if err != nil {
		t.Fatal(err)
	}
	call(t, "POST", base+"projects/demo/components/", map[string]any{"name": "Web", "slug": "web", "repo": repo,
		"filemask": "locales/*.json", "template": "locales/en.json", "file_format": "i18nextv4"}, 201)
	stacktest.Eventually(t, 60*time.Second, func() bool {
		tr, code := fetch(t, "GET", base+"translations/demo/web/de/", nil)
		return code == 200 && tr["total"] == float64(4)
	})
	web := base + "translations/demo/web/de/file/"
	for format, want := range map[string]string{
		"json": "{\n    \"app.title\": \"Hallo \\\"Welt\\\"\",\n    \"app.welcome\": \"Willkommen, {{name}}!\\nViel Spaß.\",\n" +
			"    \"apple\": \"{{count}} Apfel\",\n    \"emoji\": \"\"\n}\n",
		"json-nested": "{\n    \"app\": {\n        \"title\": \"Hallo \\\"Welt\\\"\",\n        \"welcome\": \"Willkommen, {{name}}!\\nViel Spaß.\"\n" +
			"    },\n    \"apple\": \"{{count}} Apfel\",\n    \"emoji\": \"\"\n}\n",
	} {
		code, h, got := download(t, web+"?format="+format)
		if code != 200 || got != want || h.Get("Content-Disposition") != `attachment; filename="demo-web-de.json"` {
			t.Errorf("%s: %d %q\n%s\nwant\n%s", format, code, h.Get("Content-Disposition"), got, want)
		}
	}
	status, _, body := download(t, web+"?format=po")
	for _, w := range []string{"\"Project-Id-Version: German (Demo)\\n\"\n", "\"Language: de\\n\"\n",
		"\"Plural-Forms: nplurals=2; plural=n != 1;\\n\"\n", "msgctxt \"apple\"\nmsgid \"{{count}} apple\"\n" +
			"msgid_plural \"{{count}} apples\"\nmsgstr[0] \"{{count}} Apfel\"\nmsgstr[1] \"{{count}} Äpfel\"\n"} {
		if status != 200 || !strings.Contains(body, w) {
			t.Errorf("po of a JSON translation: %d, no %q in\n%s", status, w, body)
		}
	}
}

// exportXliff is exportFixture's German translation with the pending edit
// as PO-XLIFF, as translate-toolkit writes it for the reference's
// exporter: units without context named by their checksum, the plural a
// group of one trans-unit per form, the fuzzy string not approved.
const exportXliff = `<?xml version="1.0" encoding="UTF-8"?>
<xliff xmlns="urn:oasis:names:tc:xliff:document:1.1" version="1.1">
  <file original="NoName" source-language="en" datatype="plaintext" target-language="de">
    <body>
      <trans-unit xml:space="preserve" approved="no" id="title">
        <source>Hello, "World"</source>
        <target state="translated">Hallo, "Welt"</target>
        <context-group name="" purpose="location">
          <context context-type="sourcefile">src/main.c</context>
          <context context-type="linenumber">10</context>
        </context-group>
        <note from="developer">Window title</note>
      </trans-unit>
      <group restype="x-gettext-plurals" xml:space="preserve" id="bb035cc5d2307ee6" weblate-flags="c-format"><trans-unit xml:space="preserve" approved="yes" id="bb035cc5d2307ee6[0]">
          <source>%d file</source>
          <target state="translated">%d Datei</target>
        </trans-unit>
        <target>%d Datei</target>
        <trans-unit xml:space="preserve" approved="yes" id="bb035cc5d2307ee6[1]">
          <source>%d files</source>
          <target state="translated">%d Dateien</target>
        </trans-unit>
        <source>%d file</source>
      </group>
      <trans-unit xml:space="preserve" approved="no" id="63444742542ae808">
        <source>Open</source>
        <target state="needs-translation">Öffnen</target>
      </trans-unit>
      <trans-unit xml:space="preserve" approved="no" id="4b4ba16b00646b9a">
        <source>Close</source>
        <target state="translated">Schließen</target>
      </trans-unit>
    </body>
  </file>
</xliff>
`
