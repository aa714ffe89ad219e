package json

import (
	"os"
	"strings"
	"testing"

	"github.com/tmsproject/tms/services/translation/formats/base"
	"github.com/tmsproject/tms/services/translation/formats/internal/formattest"
)

func parse(t *testing.T, f Format, name, code string) *File {
	t.Helper()
	return formattest.Parse(t, f, name, code).(*File)
}

func TestUnits(t *testing.T) {
	for _, tt := range []struct {
		f          Format
		file, code string
		want       string
	}{
		{JSON, "app.json", "de", `title=Hello, "world"; menu.file=File; menu.quit=Quité; menu.items[0]=One; menu.items[1]=Two; path=C:\temp/x`},
		{Nested, "app.json", "de", `title=Hello, "world"; menu.file=File; menu.quit=Quité; menu.items[0]=One; menu.items[1]=Two; path=C:\temp/x`},
		{I18nextV4, "i18n.json", "en", "key=value; apple={{count}} apple|{{count}} apples; nested.deep=Ünïcödé ✓; nested.tab=a\tb"},
		{I18nextV4, "i18n.json", "ja", "key=value; apple={{count}} apples; nested.deep=Ünïcödé ✓; nested.tab=a\tb"},
		{JSON, "i18n.json", "en", "key=value; apple_one={{count}} apple; apple_other={{count}} apples; nested.deep=Ünïcödé ✓; nested.tab=a\tb"},
		{GoI18nJSON, "goi18n.json", "en", "hello=Hello; cats={{.Count}} cat|{{.Count}} cats"},
	} {
		f := parse(t, tt.f, tt.file, tt.code)
		if got := formattest.Units(f, "; "); got != tt.want {
			t.Errorf("%s %s: units\n%s\nwant\n%s", tt.f.ID(), tt.file, got, tt.want)
		}
	}
}

func TestEditGolden(t *testing.T) {
	f := parse(t, JSON, "app.json", "de")
	if err := f.SetTarget(formattest.Find(t, f, "menu.quit"), []string{"Beenden \"jetzt\"\n<b>é</b>\u2028"}, false); err != nil {
		t.Fatal(err)
	}
	if err := f.SetTarget(formattest.Find(t, f, "menu.file"), []string{"File"}, false); err != nil { // unchanged
		t.Fatal(err)
	}
	formattest.Golden(t, "app.edit.golden", f.Bytes())

	// apple_other is no form of Russian's plural: translate-toolkit writes
	// the edited unit without it.
	g := parse(t, I18nextV4, "i18n.json", "ru")
	if err := g.SetTarget(formattest.Find(t, g, "apple"), []string{"{{count}} яблоко", "{{count}} яблока", "{{count}} яблок"}, false); err != nil {
		t.Fatal(err)
	}
	formattest.Golden(t, "i18n.ru.golden", g.Bytes())

	// The edited plural is written with Polish's categories only: the
	// template's "other" goes, as translate-toolkit writes the unit.
	h := parse(t, GoI18nJSON, "goi18n.json", "pl")
	if err := h.SetTarget(formattest.Find(t, h, "cats"), []string{"{{.Count}} kot", "{{.Count}} koty", "{{.Count}} kotów"}, false); err != nil {
		t.Fatal(err)
	}
	if err := h.Add(&base.Unit{Context: "bye", Target: []string{"Do widzenia"}}); err != nil {
		t.Fatal(err)
	}
	formattest.Golden(t, "goi18n.pl.golden", h.Bytes())
}

func TestAddRemove(t *testing.T) {
	f := parse(t, Nested, "app.json", "de")
	for _, u := range []*base.Unit{
		{Context: "menu.help", Target: []string{"Hilfe"}},
		{Context: "about.version.label", Target: []string{"Version"}},
		{Context: "empty.x", Target: []string{"X"}},
	} {
		if err := f.Add(u); err != nil {
			t.Fatal(err)
		}
	}
	if !f.Remove(formattest.Find(t, f, "path")) {
		t.Fatal("remove failed")
	}
	formattest.Golden(t, "app.add.golden", f.Bytes())
	if err := f.Add(&base.Unit{Context: "menu.file", Target: []string{"x"}}); err == nil {
		t.Error("an existing key was added again")
	}
	flatFile := parse(t, JSON, "app.json", "de")
	if err := flatFile.Add(&base.Unit{Context: "a.b", Target: []string{"flat"}}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(flatFile.Bytes()), `"a.b": "flat"`) {
		t.Errorf("json adds keys flat:\n%s", flatFile.Bytes())
	}
	if _, err := JSON.Parse(flatFile.Bytes(), base.Language{Code: "de"}); err != nil {
		t.Errorf("edited file does not parse: %v", err)
	}
}

func TestNewTranslation(t *testing.T) {
	data, _ := os.ReadFile("testdata/i18n.json")
	out, err := I18nextV4.NewTranslation(data, base.Language{Code: "ru"})
	if err != nil {
		t.Fatal(err)
	}
	formattest.Golden(t, "i18n.new-ru.golden", out)
	if out, _ := JSON.NewTranslation(nil, base.Language{Code: "de"}); string(out) != "{}\n" {
		t.Errorf("empty new file = %q", out)
	}
}

func TestMalformed(t *testing.T) {
	for _, in := range []string{``, `{`, `{"a": }`, `{"a": "b",}`, `{"a": "b" "c": 1}`, `{"a": "\x01"}`,
		`{"a": "\ud800"}`, `{"a": "b"} x`, `{"a": "b", "a": "c"}`, `[1]`, `"str"`, "\xff", `{"a": 01}`,
		strings.Repeat("[", 300) + strings.Repeat("]", 300)} {
		if _, err := JSON.Parse([]byte(in), base.Language{Code: "en"}); err == nil {
			t.Errorf("Parse(%q) succeeded", in)
		}
	}
	if _, err := GoI18nJSON.Parse([]byte(`{"id": "x"}`), base.Language{Code: "en"}); err == nil {
		t.Error("a go-i18n file that is not an array was accepted")
	}
}
