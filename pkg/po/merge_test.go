package po

import (
	"strings"
	"testing"
)

const mergeDef = `# Czech translation.
msgid ""
msgstr ""
"Project-Id-Version: hello 1.0\n"
"POT-Creation-Date: 2020-01-01 00:00+0000\n"
"Language: cs\n"
"Plural-Forms: nplurals=3; plural=(n==1) ? 0 : (n>=2 && n<=4) ? 1 : 2;\n"

#. greeting
#: src/a.c:1
msgid "Hello, world"
msgstr "Ahoj, světe"

# translator note
#: src/a.c:2
#, c-format
msgid "%d file was removed"
msgid_plural "%d files were removed"
msgstr[0] "%d soubor byl odstraněn"
msgstr[1] "%d soubory byly odstraněny"
msgstr[2] "%d souborů bylo odstraněno"

msgctxt "menu"
msgid "Open"
msgstr "Otevřít"

msgid "Gone"
msgstr "Pryč"

msgid "Gone untranslated"
msgstr ""

#~ msgid "Back again"
#~ msgstr "Zase zpátky"
`

const mergeRef = `# SOME DESCRIPTIVE TITLE.
msgid ""
msgstr ""
"Project-Id-Version: hello 1.0\n"
"Report-Msgid-Bugs-To: bugs@example.com\n"
"POT-Creation-Date: 2024-05-05 10:00+0000\n"
"Content-Type: text/plain; charset=UTF-8\n"

#: src/a.c:1
msgid "Hello, world!"
msgstr ""

#: src/a.c:3
#, c-format
msgid "%d file was removed"
msgid_plural "%d files were removed"
msgstr[0] ""
msgstr[1] ""

msgctxt "menu"
msgid "Open"
msgstr ""

msgid "Back again"
msgstr ""

#: src/b.c:9
#, c-format
msgid "%d new string"
msgid_plural "%d new strings"
msgstr[0] ""
msgstr[1] ""
`

// mergeWant is what msgmerge --previous writes for mergeDef and mergeRef.
const mergeWant = `# Czech translation.
msgid ""
msgstr ""
"Project-Id-Version: hello 1.0\n"
"Report-Msgid-Bugs-To: bugs@example.com\n"
"POT-Creation-Date: 2024-05-05 10:00+0000\n"
"Language: cs\n"
"Plural-Forms: nplurals=3; plural=(n==1) ? 0 : (n>=2 && n<=4) ? 1 : 2;\n"

#: src/a.c:1
#, fuzzy
#| msgid "Hello, world"
msgid "Hello, world!"
msgstr "Ahoj, světe"

# translator note
#: src/a.c:3
#, c-format
msgid "%d file was removed"
msgid_plural "%d files were removed"
msgstr[0] "%d soubor byl odstraněn"
msgstr[1] "%d soubory byly odstraněny"
msgstr[2] "%d souborů bylo odstraněno"

msgctxt "menu"
msgid "Open"
msgstr "Otevřít"

msgid "Back again"
msgstr "Zase zpátky"

#: src/b.c:9
#, c-format
msgid "%d new string"
msgid_plural "%d new strings"
msgstr[0] ""
msgstr[1] ""
msgstr[2] ""

#~ msgid "Gone"
#~ msgstr "Pryč"
`

func mustParse(t *testing.T, s string) *File {
	t.Helper()
	f, err := Parse([]byte(s))
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func TestMerge(t *testing.T) {
	out, stats := Merge(mustParse(t, mergeDef), mustParse(t, mergeRef), MergeOptions{Previous: true})
	if got := string(out.Bytes()); got != mergeWant {
		t.Errorf("merged:\n%s\nwant:\n%s", got, mergeWant)
	}
	if want := (MergeStats{Exact: 3, Fuzzy: 1, New: 1, Obsolete: 1}); stats != want {
		t.Errorf("stats %+v, want %+v", stats, want)
	}
	if _, err := Parse(out.Bytes()); err != nil {
		t.Errorf("merged file does not parse: %v", err)
	}
}

// TestMergeMessages checks one template message against one translated
// message at a time.
func TestMergeMessages(t *testing.T) {
	const head = "msgid \"\"\nmsgstr \"\"\n\"Language: cs\\n\"\n\"Plural-Forms: nplurals=2; plural=(n != 1);\\n\"\n\n"
	tests := []struct {
		name, def, ref string
		opt            MergeOptions
		want           string // the merged message (header left out)
	}{
		{"exact match keeps translation and comments", "# mine\n#: old.c:1\nmsgid \"Save\"\nmsgstr \"Uložit\"\n",
			"#. extracted\n#: new.c:2\nmsgid \"Save\"\nmsgstr \"\"\n", MergeOptions{Previous: true},
			"# mine\n#. extracted\n#: new.c:2\nmsgid \"Save\"\nmsgstr \"Uložit\"\n"},
		{"changed source is fuzzy with the previous msgid", "msgid \"Save the file\"\nmsgstr \"Uložit soubor\"\n",
			"msgid \"Save the files\"\nmsgstr \"\"\n", MergeOptions{Previous: true},
			"#, fuzzy\n#| msgid \"Save the file\"\nmsgid \"Save the files\"\nmsgstr \"Uložit soubor\"\n"},
		{"without --previous no #| lines", "msgid \"Save the file\"\nmsgstr \"Uložit soubor\"\n",
			"msgid \"Save the files\"\nmsgstr \"\"\n", MergeOptions{},
			"#, fuzzy\nmsgid \"Save the files\"\nmsgstr \"Uložit soubor\"\n"},
		{"an already fuzzy match keeps its previous msgid", "#, fuzzy\n#| msgid \"Save a file\"\nmsgid \"Save the file\"\nmsgstr \"Uložit soubor\"\n",
			"msgid \"Save the files\"\nmsgstr \"\"\n", MergeOptions{Previous: true},
			"#, fuzzy\n#| msgid \"Save a file\"\nmsgid \"Save the files\"\nmsgstr \"Uložit soubor\"\n"},
		{"no fuzzy matching", "msgid \"Save the file\"\nmsgstr \"Uložit soubor\"\n",
			"msgid \"Save the files\"\nmsgstr \"\"\n", MergeOptions{NoFuzzy: true},
			"msgid \"Save the files\"\nmsgstr \"\"\n\n#~ msgid \"Save the file\"\n#~ msgstr \"Uložit soubor\"\n"},
		{"too different is new, the old one obsolete", "msgid \"Save\"\nmsgstr \"Uložit\"\n",
			"msgid \"Quit\"\nmsgstr \"\"\n", MergeOptions{Previous: true},
			"msgid \"Quit\"\nmsgstr \"\"\n\n#~ msgid \"Save\"\n#~ msgstr \"Uložit\"\n"},
		{"untranslated messages are not fuzzy candidates", "msgid \"Save the file\"\nmsgstr \"\"\n",
			"msgid \"Save the files\"\nmsgstr \"\"\n", MergeOptions{Previous: true},
			"msgid \"Save the files\"\nmsgstr \"\"\n"},
		{"another context matches fuzzily", "msgctxt \"menu\"\nmsgid \"Open\"\nmsgstr \"Otevřít\"\n",
			"msgctxt \"button\"\nmsgid \"Open\"\nmsgstr \"\"\n", MergeOptions{Previous: true},
			"#, fuzzy\n#| msgctxt \"menu\"\n#| msgid \"Open\"\nmsgctxt \"button\"\nmsgid \"Open\"\nmsgstr \"Otevřít\"\n"},
		{"singular becoming plural is fuzzy in every form", "msgid \"%d file\"\nmsgstr \"%d soubor\"\n",
			"msgid \"%d file\"\nmsgid_plural \"%d files\"\nmsgstr[0] \"\"\nmsgstr[1] \"\"\n", MergeOptions{Previous: true},
			"#, fuzzy\n#| msgid \"%d file\"\nmsgid \"%d file\"\nmsgid_plural \"%d files\"\nmsgstr[0] \"%d soubor\"\nmsgstr[1] \"%d soubor\"\n"},
		{"an obsolete message comes back", "#~ msgid \"Save\"\n#~ msgstr \"Uložit\"\n",
			"msgid \"Save\"\nmsgstr \"\"\n", MergeOptions{Previous: true},
			"msgid \"Save\"\nmsgstr \"Uložit\"\n"},
		{"format flags come from the template", "#, c-format\nmsgid \"%s saved\"\nmsgstr \"%s uloženo\"\n",
			"#, python-format\nmsgid \"%s saved\"\nmsgstr \"\"\n", MergeOptions{Previous: true},
			"#, python-format\nmsgid \"%s saved\"\nmsgstr \"%s uloženo\"\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, _ := Merge(mustParse(t, head+tt.def), mustParse(t, head+tt.ref), tt.opt)
			got := strings.TrimPrefix(string(out.Bytes()), head)
			if got != tt.want {
				t.Errorf("merged:\n%s\nwant:\n%s", got, tt.want)
			}
		})
	}
}

func TestMergeLongStringsWrapLikeMsgmerge(t *testing.T) {
	long := strings.Repeat("word ", 20) + "end"
	def := mustParse(t, "msgid \"x\"\nmsgstr \"y\"\n")
	ref := mustParse(t, "msgid \""+long+"\"\nmsgstr \"\"\n")
	out, _ := Merge(def, ref, MergeOptions{})
	want := "msgid \"\"\n\"word word word word word word word word word word word word word word word \"\n\"word word word word word end\"\nmsgstr \"\"\n\n#~ msgid \"x\"\n#~ msgstr \"y\"\n"
	if got := string(out.Bytes()); got != want {
		t.Errorf("merged:\n%s\nwant:\n%s", got, want)
	}
}

func TestSimilarity(t *testing.T) {
	tests := []struct {
		a, b  string
		bound float64
		want  float64
	}{
		{"", "", 0, 1},
		{"abc", "abc", 0, 1},
		{"abc", "abd", 0, 4.0 / 6},
		{"abc", "xyz", 0, 0},
		{"Save the file", "Save the files", 0, 26.0 / 27},
		{"kitten", "sitting", 0, 8.0 / 13},
		{"abc", "abd", 0.9, 4.0 / 6}, // bounds only prune, the answer stays exact when computed
	}
	for _, tt := range tests {
		t.Run(tt.a+"|"+tt.b, func(t *testing.T) {
			got := similarity(tt.a, tt.b, tt.bound)
			if got != tt.want && !(got <= tt.bound && tt.want <= tt.bound) {
				t.Errorf("similarity = %v, want %v", got, tt.want)
			}
		})
	}
}
