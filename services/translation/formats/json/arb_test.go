package json

import (
	"os"
	"strings"
	"testing"

	"github.com/tmsproject/tms/services/translation/formats/base"
	"github.com/tmsproject/tms/services/translation/formats/internal/formattest"
)

func TestARBUnits(t *testing.T) {
	for _, tt := range []struct {
		name, file, want string
	}{
		{"template", "app_en.arb", "appTitle=Shopping List; greeting=Hello, {userName}!; " +
			"itemCount={count, plural, =0{No items} one{{count} item} other{{count} items}}; " +
			"pronoun={gender, select, male{he} female{she} other{they}}; quote=Say \"cheese\"\nand smile \\o/ é; " +
			"deleteItem=Delete {name} at {time}?; version=2"},
		{"translation", "app_de.arb", "appTitle=Einkaufsliste; greeting=Hallo, {userName}!; " +
			"itemCount={count, plural, =0{Keine Artikel} one{{count} Artikel} other{{count} Artikel}}; " +
			"pronoun={gender, select, male{er} female{sie} other{they}}; quote=Sag „Käse“; deleteItem={name} um {time} löschen?"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			f := parse(t, ARB, tt.file, "ru")
			if got := formattest.Units(f, "; "); got != tt.want {
				t.Errorf("units\n%s\nwant\n%s", got, tt.want)
			}
		})
	}
	f := parse(t, ARB, "app_en.arb", "en")
	for _, tt := range []struct{ key, note, flags string }{
		{"appTitle", "The title of the application, shown in the app bar", ""},
		{"greeting", "Greets the signed-in user", "placeholders:$USERNAME$,case-insensitive"},
		{"pronoun", "", "placeholders:$GENDER$,case-insensitive"},
		{"deleteItem", "Confirmation, with the item's name", "placeholders:$NAME$:$TIME$,case-insensitive"},
		{"quote", "", ""},
	} {
		t.Run("metadata "+tt.key, func(t *testing.T) {
			u := formattest.Find(t, f, tt.key)
			if u.Note != tt.note || u.Flags != tt.flags {
				t.Errorf("note, flags = %q, %q; want %q, %q", u.Note, u.Flags, tt.note, tt.flags)
			}
		})
	}
}

func TestARBEdit(t *testing.T) {
	f := parse(t, ARB, "app_de.arb", "de")
	for key, v := range map[string]string{
		"quote":     "Sag \"Käse\"\n\\o/",
		"itemCount": "{count, plural, =0{Nichts} one{{count} Artikel} other{{count} Artikel}}",
		"appTitle":  "Einkaufsliste", // unchanged: keeps its bytes
	} {
		if err := f.SetTarget(formattest.Find(t, f, key), []string{v}, false); err != nil {
			t.Fatal(err)
		}
	}
	if err := f.Add(&base.Unit{Context: "version", Target: []string{"2"}}); err != nil {
		t.Fatal(err)
	}
	if !f.Remove(formattest.Find(t, f, "greeting")) {
		t.Fatal("greeting was not removed")
	}
	formattest.Golden(t, "app_de.edit.golden", f.Bytes())
	for _, key := range []string{"@x", "quote"} {
		if err := f.Add(&base.Unit{Context: key, Target: []string{"x"}}); err == nil {
			t.Errorf("Add(%q) succeeded", key)
		}
	}
	if err := f.Add(&base.Unit{Context: "plural", Target: []string{"a", "b"}}); err == nil {
		t.Error("an ARB string was added with two forms")
	}
}

func TestARBNewTranslation(t *testing.T) {
	data, err := os.ReadFile("testdata/app_en.arb")
	if err != nil {
		t.Fatal(err)
	}
	out, err := ARB.NewTranslation(data, base.Language{Code: "fr"})
	if err != nil {
		t.Fatal(err)
	}
	formattest.Golden(t, "app.new-fr.golden", out)
	if out, _ := ARB.NewTranslation(nil, base.Language{Code: "fr"}); string(out) != "{}\n" {
		t.Errorf("empty new file = %q", out)
	}
}

func TestARBMalformed(t *testing.T) {
	for name, in := range map[string]string{
		"array":               `["a"]`,
		"object value":        `{"a": {"b": "c"}}`,
		"float value":         `{"a": 1.5}`,
		"null value":          `{"a": null}`,
		"metadata not object": `{"a": "x", "@a": "note"}`,
		"description number":  `{"a": "x", "@a": {"description": 3}}`,
		"placeholders array":  `{"a": "x", "@a": {"placeholders": ["n"]}}`,
		"not json":            `{"a": "x"`,
	} {
		t.Run(name, func(t *testing.T) {
			if _, err := ARB.Parse([]byte(in), base.Language{Code: "en"}); err == nil {
				t.Errorf("Parse(%s) succeeded", in)
			}
		})
	}
	if f, err := ARB.Parse([]byte(`{"@@locale": "en", "@orphan": {}, "a": "x", "@a": {"placeholders": null}}`),
		base.Language{Code: "en"}); err != nil || formattest.Units(f, ";") != "a=x" || !strings.Contains(string(f.Bytes()), "@orphan") {
		t.Errorf("metadata keys: %v", err)
	}
}

func FuzzARB(f *testing.F) {
	value := func(_, _ int, ctx string) string { return "{n, plural, one{é\"\n\\}}" + ctx }
	formattest.Fuzz(f, ARB, "de", "testdata/*.arb", value, `{"@@locale": "x", "a": 1, "@a": {"description": "d"}}`)
}
