package yaml

import (
	"os"
	"strings"
	"testing"

	"github.com/tmsproject/tms/services/translation/formats/base"
	"github.com/tmsproject/tms/services/translation/formats/internal/formattest"
)

func TestUnits(t *testing.T) {
	for _, tc := range []struct {
		name  string
		f     Format
		file  string
		code  string
		units string
		notes map[string]string
	}{
		{"rails template", Ruby, "en.yml", "en", "title=My Shop|greeting=Hello, %{name}!\tWelcome.|quote=It's here|" +
			"cart->items=%{count} item|%{count} items|cart->empty=Your cart is empty|cart->checkout=Proceed to checkout|" +
			"footer=Thanks for shopping.\nSee you soon!\n|day_names->[0]=Sunday|day_names->[1]=Monday|enabled=True|max_items=10",
			map[string]string{"title": "Shown in the browser title", "greeting": "", "cart->items": "",
				"cart->checkout": "shown when nothing was added"}},
		{"czech plurals", Ruby, "cs.yml", "cs", "title=Můj obchod|greeting=Ahoj, %{name}!\tVítejte.|" +
			"cart->items=%{count} položka|%{count} položky|%{count} položek|cart->empty=Košík je prázdný|footer=Díky za nákup.\n", nil},
		{"plain yaml", YAML, "plain.yml", "en", "site->name=Example|site->tagline=Everything you need, nothing you don't.\n|" +
			"errors->404=Not found|errors->server=Server \"error\"|menu->[0]=Home|menu->[1]=About us|menu->[2]->label=Contact|" +
			"long_line=This is a long value that goes on and on over two lines|anchored=Base text",
			map[string]string{"site->name": "", "site->tagline": "The tagline under the name"}},
		{"rails file as plain yaml", YAML, "cs.yml", "cs", "cs->title=Můj obchod|cs->greeting=Ahoj, %{name}!\tVítejte.|" +
			"cs->cart->items->one=%{count} položka|cs->cart->items->few=%{count} položky|cs->cart->items->many=%{count} položky|" +
			"cs->cart->items->other=%{count} položek|cs->cart->empty=Košík je prázdný|cs->footer=Díky za nákup.\n", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := formattest.Parse(t, tc.f, tc.file, tc.code)
			if got := formattest.Units(f, "|"); got != tc.units {
				t.Errorf("units\n%q\nwant\n%q", got, tc.units)
			}
			for key, want := range tc.notes {
				if got := formattest.Find(t, f, key).Note; got != want {
					t.Errorf("%s: note %q, want %q", key, got, want)
				}
			}
		})
	}
}

// TestStyles checks an edit of one value against what ruamel.yaml writes.
func TestStyles(t *testing.T) {
	long := "This sentence is long enough to go past the eighty columns that ruamel writes on one line"
	for _, tc := range []struct{ name, in, value, want string }{
		{"plain stays plain", "k: old\n", "new value", "k: new value\n"},
		{"unicode kept", "k: old\n", "zkouška ☕ 😀", "k: zkouška ☕ 😀\n"},
		{"indicator quoted", "k: old\n", "%{count} items", "k: '%{count} items'\n"},
		{"colon space quoted", "k: old\n", "Note: this", "k: 'Note: this'\n"},
		{"apostrophe double-quoted", "k: old\n", "it's: here", "k: \"it's: here\"\n"},
		{"apostrophe alone plain", "k: old\n", "it's here", "k: it's here\n"},
		{"number quoted", "k: old\n", "123", "k: '123'\n"},
		{"boolean quoted", "k: old\n", "true", "k: 'true'\n"},
		{"empty", "k: old\n", "", "k: ''\n"},
		{"tab double-quoted", "k: old\n", "a\tb", "k: \"a\\tb\"\n"},
		{"multi-line becomes literal", "k: old\n", "one\ntwo", "k: |-\n  one\n  two\n"},
		{"double quotes kept", "k: \"old\"\n", "new", "k: \"new\"\n"},
		{"double quotes escape", "k: \"old\"\n", "say \"hi\"\n", "k: \"say \\\"hi\\\"\\n\"\n"},
		{"single quotes kept", "k: 'old'\n", "it's", "k: 'it''s'\n"},
		{"single quotes give way", "k: 'old'\n", "bell\a", "k: \"bell\\a\"\n"},
		{"literal kept", "k: |\n  old\n  text\nz: 1\n", "single line", "k: |-\n  single line\nz: 1\n"},
		{"literal keep chomping", "k: |\n  old\nz: 1\n", "a\n\n", "k: |+\n  a\n\nz: 1\n"},
		{"folded kept", "k: >\n  old\n", long, "k: >-\n  This sentence is long enough to go past the eighty columns that ruamel writes on\n  one line\n"},
		{"plain folds at 80", "k: old\n", long, "k: This sentence is long enough to go past the eighty columns that ruamel writes on\n  one line\n"},
		{"double folds at 80", "k: \"old\"\n", long, "k: \"This sentence is long enough to go past the eighty columns that ruamel writes\\\n  \\ on one line\"\n"},
		{"nested indent", "a:\n  b:\n    k: old\n", "x: y", "a:\n  b:\n    k: 'x: y'\n"},
		{"tag dropped", "k: !custom old\n", "second", "k: second\n"},
		{"anchor kept", "k: &a old\nl: *a\n", "new", "k: &a new\nl: *a\n"},
		{"comment kept", "k: old  # note\n", "new", "k: new  # note\n"},
		{"comment after a new block", "k: old  # note\nz: 1\n", "a\nb", "k: |-  # note\n  a\n  b\nz: 1\n"},
		{"block at the end", "k: old ", "a\nb", "k: |-\n  a\n  b\n"},
		{"in a sequence", "l:\n- old\n- other\n", "new: x", "l:\n- 'new: x'\n- other\n"},
		{"in a flow sequence", "l: [old, other]\n", "a, b", "l: ['a, b', other]\n"},
		{"multi-line plain", "k: old\n  text\nz: 1\n", "new", "k: new\nz: 1\n"},
		{"crlf kept", "k: old\r\nz: 1\r\n", "a\nb", "k: |-\r\n  a\r\n  b\r\nz: 1\r\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, err := YAML.Parse([]byte(tc.in), base.Language{Code: "en"})
			if err != nil {
				t.Fatal(err)
			}
			if err = f.SetTarget(f.Units()[0], []string{tc.value}, false); err != nil {
				t.Fatal(err)
			}
			if got := string(f.Bytes()); got != tc.want {
				t.Errorf("got\n%q\nwant\n%q", got, tc.want)
			}
			again, err := YAML.Parse(f.Bytes(), base.Language{Code: "en"})
			if err != nil || strings.Join(again.Units()[0].Target, "") != tc.value {
				t.Errorf("reads back as %v, %v", again, err)
			}
		})
	}
}

func TestEdit(t *testing.T) {
	f := formattest.Parse(t, Ruby, "de.yml", "de")
	for key, forms := range map[string][]string{
		"title":          {"Mein Laden"}, // unchanged: keeps its bytes
		"greeting":       {"Hallo, %{name}!\nSchön, dass du da bist."},
		"quote":          {"Es ist 'hier'"},
		"cart->items":    {"Ein Artikel", ""},
		"cart->checkout": {"Weiter: zur Kasse"},
		"footer":         {"Danke!"},
		"day_names->[1]": {"Montag (1)"},
		"enabled":        {"ja"},
	} {
		if err := f.SetTarget(formattest.Find(t, f, key), forms, false); err != nil {
			t.Fatal(key, err)
		}
	}
	formattest.Golden(t, "de_edited.yml", f.Bytes())
	again, err := Ruby.Parse(f.Bytes(), base.Language{Code: "de"})
	if err != nil {
		t.Fatal(err)
	}
	if got := formattest.Find(t, again, "cart->items").Target; strings.Join(got, "|") != "Ein Artikel|" {
		t.Errorf("plural reads back as %q", got)
	}
}

func TestAddRemove(t *testing.T) {
	f := formattest.Parse(t, Ruby, "de.yml", "de")
	for _, u := range []*base.Unit{
		{Context: "cart->coupon->label", Target: []string{"Gutschein: Code"}},
		{Context: "cart->saved", Target: []string{"%{count} gespeichert", "%{count} gespeichert"}},
		{Context: "day_names->[2]", Target: []string{"Dienstag"}},
		{Context: "missing->text", Target: []string{"Fehlt"}},
		{Context: "about", Target: []string{"Zeile 1\nZeile 2"}},
	} {
		if err := f.Add(u); err != nil {
			t.Fatal(u.Context, err)
		}
		if formattest.Find(t, f, u.Context) != u {
			t.Errorf("%s: the added unit is not the file's", u.Context)
		}
	}
	if err := f.Add(&base.Unit{Context: "title", Target: []string{"x"}}); err == nil {
		t.Error("an existing key was added")
	}
	if err := f.Add(&base.Unit{Context: "title->x", Target: []string{"x"}}); err == nil {
		t.Error("a key below a string was added")
	}
	for _, key := range []string{"title", "cart->checkout", "cart->coupon->label", "day_names->[0]"} {
		if !f.Remove(formattest.Find(t, f, key)) {
			t.Errorf("%s not removed", key)
		}
	}
	if f.Remove(&base.Unit{Context: "nothing"}) {
		t.Error("a unit of no file was removed")
	}
	formattest.Golden(t, "de_added.yml", f.Bytes())

	empty, _ := YAML.Parse(nil, base.Language{Code: "en"})
	for _, key := range []string{"key", "nested->value", "list[0]"} {
		if err := empty.Add(&base.Unit{Context: key, Target: []string{"teststring"}}); err != nil {
			t.Fatal(err)
		}
	}
	if got := string(empty.Bytes()); got != "key: teststring\nnested:\n  value: teststring\nlist:\n- teststring\n" {
		t.Errorf("added to an empty file:\n%s", got)
	}
}

func TestNewTranslation(t *testing.T) {
	for _, tc := range []struct {
		name, file, golden string
		f                  Format
	}{
		{"rails czech", "en.yml", "cs_new.yml", Ruby},
		{"plain", "plain.yml", "plain_new.yml", YAML},
	} {
		t.Run(tc.name, func(t *testing.T) {
			data, err := os.ReadFile("testdata/" + tc.file)
			if err != nil {
				t.Fatal(err)
			}
			out, err := tc.f.NewTranslation(data, base.Language{Code: "cs"})
			if err != nil {
				t.Fatal(err)
			}
			formattest.Golden(t, tc.golden, out)
			f, err := tc.f.Parse(out, base.Language{Code: "cs"})
			if err != nil {
				t.Fatal(err)
			}
			for _, u := range f.Units() {
				if strings.Join(u.Target, "") != "" {
					t.Errorf("%s = %q", u.Context, u.Target)
				}
			}
		})
	}
	if out, err := Ruby.NewTranslation(nil, base.Language{Code: "cs"}); err != nil || string(out) != "{}\n" {
		t.Errorf("empty base: %q, %v", out, err)
	}
}

func TestMalformed(t *testing.T) {
	for name, in := range map[string]string{
		"float":        "k: 1.5\n",
		"date":         "k: 2024-01-31\n",
		"duplicate":    "k: a\nk: b\n",
		"two docs":     "k: a\n---\nk: b\n",
		"not utf-8":    "k: \xff\n",
		"control":      "k: a\x08b\n",
		"syntax":       "k: [a\n",
		"complex key":  "? [a, b]\n: c\n",
		"too deep":     deep(200),
		"tab indented": "k:\n\t- a\n",
	} {
		t.Run(name, func(t *testing.T) {
			if _, err := YAML.Parse([]byte(in), base.Language{Code: "en"}); err == nil {
				t.Error("no error")
			}
		})
	}
}

func TestScalars(t *testing.T) {
	for in, want := range map[string]string{
		"k: yes\n":       "k=yes",
		"k: TRUE\n":      "k=True",
		"k: 0x1F\n":      "k=31",
		"k: 1_000\n":     "k=1000",
		"k: ~\n":         "",
		"k: '5'\n":       "k=5",
		"k: !!str 5\n":   "k=5",
		"k: =\n":         "k==",
		"'': a\n":        "=a",
		"404: x\n":       "404=x",
		"a: &x {b: c}\n": "a->b=c",
		"<<: {b: c}\n":   "",
	} {
		t.Run(in, func(t *testing.T) {
			f, err := YAML.Parse([]byte(in), base.Language{Code: "en"})
			if err != nil {
				t.Fatal(err)
			}
			if got := formattest.Units(f, "|"); got != want {
				t.Errorf("%q, want %q", got, want)
			}
		})
	}
}

// deep is a sequence nested n levels deep.
func deep(n int) string {
	var b strings.Builder
	b.WriteString("root:")
	for i := range n {
		b.WriteString("\n" + strings.Repeat("  ", i+1) + "-")
	}
	return b.String() + " value\n"
}
