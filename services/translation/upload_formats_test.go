package translation_test

import (
	"encoding/binary"
	"fmt"
	"os"
	"path"
	"slices"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/tmsproject/tms/pkg/errs"
	translationv1 "github.com/tmsproject/tms/proto/gen/go/tms/translation/v1"
	typev1 "github.com/tmsproject/tms/proto/gen/go/tms/type/v1"
	"github.com/tmsproject/tms/services/translation/formats"
	"github.com/tmsproject/tms/services/translation/internal/fixture"
)

// utf16LE is s in UTF-16 little-endian with a byte order mark.
func utf16LE(s string) string {
	b := []byte{0xff, 0xfe}
	for _, r := range utf16.Encode([]rune(s)) {
		b = binary.LittleEndian.AppendUint16(b, r)
	}
	return string(b)
}

const xliff2Seed = `<?xml version="1.0" encoding="UTF-8"?>
<xliff xmlns="urn:oasis:names:tc:xliff:document:2.0" version="2.0" srcLang="en">
	<file id="app">
		<unit id="hello">
			<segment>
				<source>Hello</source>
			</segment>
		</unit>
		<unit id="bye">
			<segment>
				<source>Bye</source>
			</segment>
		</unit>
	</file>
</xliff>
`

// uploadSeeds are an English file of each format: the template of a
// monolingual component, the new_base of a bilingual one.
var uploadSeeds = map[string]string{
	"po": "msgid \"\"\nmsgstr \"\"\n\"Content-Type: text/plain; charset=UTF-8\\n\"\n\nmsgid \"Hello\"\nmsgstr \"\"\n\n" +
		"msgid \"Bye\"\nmsgid_plural \"Byes\"\nmsgstr[0] \"\"\nmsgstr[1] \"\"\n",
	"json":         "{\n    \"hello\": \"Hello\",\n    \"bye\": \"Bye\"\n}\n",
	"json-nested":  "{\n    \"greet\": {\n        \"hello\": \"Hello\"\n    },\n    \"bye\": \"Bye\"\n}\n",
	"i18next":      "{\n    \"hello\": \"Hello\",\n    \"apple\": \"{{count}} apple\",\n    \"apple_plural\": \"{{count}} apples\"\n}\n",
	"i18nextv4":    "{\n    \"hello\": \"Hello\",\n    \"apple_one\": \"{{count}} apple\",\n    \"apple_other\": \"{{count}} apples\"\n}\n",
	"go-i18n-json": "[\n  {\n    \"id\": \"hello\",\n    \"translation\": \"Hello\"\n  },\n  {\n    \"id\": \"cats\",\n    \"translation\": {\n      \"one\": \"{{.Count}} cat\",\n      \"other\": \"{{.Count}} cats\"\n    }\n  }\n]\n",
	"arb":          "{\n    \"@@locale\": \"en\",\n    \"hello\": \"Hello\",\n    \"@hello\": {\n        \"description\": \"Greeting\"\n    },\n    \"bye\": \"Bye\"\n}\n",
	"aresource": "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<resources>\n    <string name=\"hello\">Hello</string>\n" +
		"    <plurals name=\"apples\">\n        <item quantity=\"one\">%d apple</item>\n        <item quantity=\"other\">%d apples</item>\n    </plurals>\n</resources>\n",
	"properties":       "# Greetings\nhello=Hello\nbye=Bye\n",
	"properties-utf8":  "hello=Hello\nbye=Bye\n",
	"properties-utf16": utf16LE("hello=Hello\nbye=Bye\n"),
	"xliff": "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<xliff version=\"1.2\" xmlns=\"urn:oasis:names:tc:xliff:document:1.2\">\n" +
		"  <file original=\"app\" source-language=\"en\" datatype=\"plaintext\">\n    <body>\n" +
		"      <trans-unit id=\"hello\">\n        <source>Hello</source>\n      </trans-unit>\n" +
		"      <trans-unit id=\"bye\">\n        <source>Bye</source>\n      </trans-unit>\n    </body>\n  </file>\n</xliff>\n",
	"xliff2":            xliff2Seed,
	"xliff2-placeables": xliff2Seed,
	"strings":           utf16LE("/* Greeting */\n\"hello\" = \"Hello\";\n\"bye\" = \"Bye\";\n"),
	"strings-utf8":      "\"hello\" = \"Hello\";\n\"bye\" = \"Bye\";\n",
	"yaml":              "hello: Hello\nbye: Bye\n",
	"ruby-yaml":         "en:\n  hello: Hello\n  items:\n    one: \"%{count} item\"\n    other: \"%{count} items\"\n",
	"stringsdict":       "file:formats/stringsdict/testdata/en.stringsdict",
}

// formatComponent sets up a component of format id: the seed as its
// template (monolingual) or new_base (bilingual) and a German translation
// made from it, every target empty. It returns the seed, the German file
// and the origin repository.
func formatComponent(t *testing.T, id string, manageUnits bool) (e *env, format formats.Format, seed, de []byte, origin string) {
	t.Helper()
	format, err := formats.Lookup(id)
	if err != nil {
		t.Fatal(err)
	}
	seed = []byte(uploadSeeds[id])
	if name, ok := strings.CutPrefix(uploadSeeds[id], "file:"); ok {
		if seed, err = os.ReadFile(name); err != nil {
			t.Fatal(err)
		}
	}
	de, err = format.NewTranslation(seed, formats.Language{Code: "de", PluralNumber: 2, PluralFormula: "n != 1"})
	if err != nil {
		t.Fatal(err)
	}
	files := fixture.Files()
	files["f/en.txt"], files["f/de.txt"] = string(seed), string(de)
	e, origin = newEnv(t, true), fixture.Origin(t, files)
	comp := greeter(1, origin)
	comp.FileFormat, comp.Filemask, comp.NewBase, comp.EnableSuggestions, comp.ManageUnits = id, "f/*.txt", "f/en.txt", true, manageUnits
	comp.EditTemplate = true
	if format.Monolingual() {
		comp.Template = "f/en.txt"
	}
	e.catalog.Set(comp, project)
	if task := e.importNow(t, 1); task.GetError() != "" {
		t.Fatal(task.GetError())
	}
	return e, format, seed, de, origin
}

// filled is file (of language code) with every unit's forms set to
// "<key> <form>", and extra added; it returns the file and the text of
// each unit by key.
func filled(t *testing.T, format formats.Format, file []byte, code string, extra *formats.Unit) (string, map[string]string) {
	t.Helper()
	f, err := format.Parse(file, formats.Language{Code: code, PluralNumber: 2, PluralFormula: "n != 1"})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{}
	if len(f.Units()) == 0 {
		t.Fatal("the file has no strings to upload")
	}
	for _, u := range f.Units() {
		forms := make([]string, max(len(u.Target), 1))
		for i := range forms {
			forms[i] = fmt.Sprintf("%s %d", path.Base(u.Context+"/"+strings.Join(u.Source, "")), i)
		}
		if err := f.SetTarget(u, forms, false); err != nil {
			t.Fatal(err)
		}
		want[unitKey(format, u.Context, u.Source)] = strings.Join(forms, "\x1e")
	}
	if extra != nil {
		if err := f.Add(extra); err != nil {
			t.Fatal(err)
		}
	}
	return string(f.Bytes()), want
}

// unitKey names a unit as the upload matches it: its key in a
// monolingual format, its context and source in a bilingual one.
func unitKey(format formats.Format, context string, source []string) string {
	if format.Monolingual() {
		return context
	}
	return context + "\x04" + strings.Join(source, "\x1e")
}

// TestUploadMethodsEveryFormat uploads with each method to a component
// of every registered format: the German file with every string
// translated (translate, fuzzy, approve, suggest, replace) or with a
// string more (add: to the template of a monolingual component, to the
// translation of a bilingual one), and checks the counters and the
// strings as the reference's handle_upload leaves them.
func TestUploadMethodsEveryFormat(t *testing.T) {
	states := map[string]typev1.UnitState{"translate": typev1.UnitState_UNIT_STATE_TRANSLATED,
		"fuzzy": typev1.UnitState_UNIT_STATE_FUZZY, "approve": typev1.UnitState_UNIT_STATE_APPROVED,
		"replace": typev1.UnitState_UNIT_STATE_TRANSLATED, "suggest": typev1.UnitState_UNIT_STATE_EMPTY}
	for _, id := range formats.IDs() {
		if _, ok := uploadSeeds[id]; !ok {
			t.Errorf("format %s: no seed to test its uploads with", id)
			continue
		}
		t.Run(id, func(t *testing.T) {
			for _, method := range []string{"translate", "fuzzy", "approve", "suggest", "replace"} {
				t.Run(method, func(t *testing.T) {
					e, format, _, de, _ := formatComponent(t, id, false)
					content, want := filled(t, format, de, "de", nil)
					r, err := e.upload(t, "de", method, "", "", content)
					if err != nil {
						t.Fatal(err)
					}
					n := int64(len(want))
					if counts(r) != [4]int64{0, 0, n, n} {
						t.Errorf("counts %v, want [0 0 %d %d]", counts(r), n, n)
					}
					checkUploaded(t, e, format, want, states[method], method == "suggest")
				})
			}
			t.Run("add", func(t *testing.T) { uploadAddEveryFormat(t, id) })
			t.Run("source", func(t *testing.T) { uploadSourceEveryFormat(t, id) })
		})
	}
}

// checkUploaded checks that each German unit has the uploaded text in
// state (or, for suggestions, is still empty and has a suggestion).
func checkUploaded(t *testing.T, e *env, format formats.Format, want map[string]string, state typev1.UnitState, suggested bool) {
	t.Helper()
	units := e.units(t, e.translation(t, 1, "de").GetId())
	if len(units) != len(want) {
		t.Errorf("%d units, want %d", len(units), len(want))
	}
	for _, u := range units {
		key := unitKey(format, u.GetContext(), u.GetSource())
		target := strings.Join(u.GetTarget(), "\x1e")
		if suggested {
			if strings.Trim(target, "\x1e") != "" || !u.GetHasSuggestion() {
				t.Errorf("%q: target %q, suggestion %v; want it empty with a suggestion", key, target, u.GetHasSuggestion())
			}
			continue
		}
		if target != want[key] || u.GetState() != state {
			t.Errorf("%q: %q in %s, want %q in %s", key, target, u.GetState(), want[key], state)
		}
	}
}

// uploadAddEveryFormat adds a string by upload: to the template of a
// monolingual component (its text the source of every translation), to
// the German translation of a bilingual one.
func uploadAddEveryFormat(t *testing.T, id string) {
	e, format, seed, de, origin := formatComponent(t, id, true)
	code, file := "de", de
	extra := &formats.Unit{Context: "added", Source: []string{"Added"}, Target: []string{"Hinzugefügt"}}
	if format.Monolingual() {
		code, file, extra.Source, extra.Target = "en", seed, nil, []string{"Added"}
	}
	content, before := filled(t, format, file, code, extra)
	r, err := e.upload(t, code, "add", "", "", content)
	if err != nil {
		t.Fatal(err)
	}
	n := int64(len(before))
	if counts(r) != [4]int64{0, n, 1, n + 1} {
		t.Errorf("counts %v, want [0 %d 1 %d]", counts(r), n, n+1)
	}
	for _, c := range []string{code, "de"} {
		units := e.units(t, e.translation(t, 1, c).GetId())
		i := slices.IndexFunc(units, func(u *translationv1.Unit) bool { return u.GetSource()[0] == "Added" })
		if i < 0 {
			t.Errorf("%s: no added string in %v", c, units)
			continue
		}
		if c == code && units[i].GetTarget()[0] != extra.Target[0] {
			t.Errorf("%s: added string %+v", c, units[i])
		}
	}
	// The added string is written to the file uploaded to.
	if res := e.op(t, "push"); !res.GetResult() {
		t.Fatalf("push: %+v", res)
	}
	name := map[string]string{"en": "f/en.txt", "de": "f/de.txt"}[code]
	f, err := format.Parse([]byte(originFile(t, origin, name)), formats.Language{Code: code, PluralNumber: 2, PluralFormula: "n != 1"})
	if err != nil {
		t.Fatalf("%s after the upload: %v", name, err)
	}
	if !slices.ContainsFunc(f.Units(), func(u *formats.Unit) bool { return u.Context == extra.Context && u.Target[0] == extra.Target[0] }) {
		t.Errorf("%s lacks the added string:\n%s", name, originFile(t, origin, name))
	}
}

// uploadSourceEveryFormat uploads the template again with method source:
// taken by the formats that merge translation files with a new template
// (PO), refused as the reference refuses it by the others.
func uploadSourceEveryFormat(t *testing.T, id string) {
	e, format, seed, _, _ := formatComponent(t, id, false)
	r, err := e.upload(t, "en", "source", "", "", string(seed))
	if _, ok := format.(formats.BilingualUpdater); !ok {
		fe := errs.FromStatus(err)
		if fe.Kind != errs.InvalidArgument || len(fe.Fields) != 1 || fe.Fields[0].Field != "method" ||
			fe.Fields[0].Description != "This method is not available here. Check your permissions or use different translation object." {
			t.Errorf("source upload to %s: %v", id, err)
		}
		return
	}
	if err != nil {
		t.Fatal(err)
	}
	n := int64(len(e.units(t, e.translation(t, 1, "en").GetId())))
	if counts(r) != [4]int64{0, 0, n, n} || n == 0 {
		t.Errorf("counts %v, want [0 0 %d %d]", counts(r), n, n)
	}
}
