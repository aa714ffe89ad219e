package po

import (
	"encoding/json"
	"os"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestGettextWrapCorpusCases checks gettextQuoteLines on strings taken from
// shared/corpus/bleachbit as GNU msgmerge wrote them (testdata/
// gettext_wrap_cases.json): Korean, Thai, CJK and Indic text, URLs, escaped
// quotes, newlines, python-format directives, unbreakable words, the
// keyword-aware first line, plural, obsolete and previous strings, headers.
func TestGettextWrapCorpusCases(t *testing.T) {
	var cases []struct {
		Name, Prefix, Keyword, Format, Value string
		Lines                                []string
	}
	readJSON(t, "testdata/gettext_wrap_cases.json", &cases)
	formats := map[string]formatKind{"": formatNone, "python": formatPython, "python-brace": formatPythonBrace}
	for _, c := range cases {
		got := gettextQuoteLines(c.Value, c.Prefix, c.Keyword, formats[c.Format])
		if !reflect.DeepEqual(got, c.Lines) {
			t.Errorf("%s:\n got %q\nwant %q", c.Name, got, c.Lines)
		}
	}
}

// TestToolkitWrapCases checks the translate-toolkit wrapper on the test
// vectors of unicode-segmentation-rs's gettext_wrap (tests/
// test_gettext_wrap.py) and on the headers Weblate 2026.9 wrote into the
// corpus (testdata/toolkit_wrap_cases.json).
func TestToolkitWrapCases(t *testing.T) {
	var cases struct {
		Wrap []struct {
			Name, Text string
			Width      int
			Lines      []string
		}
		Quote []struct {
			Name  string
			Lines []string
		}
	}
	readJSON(t, "testdata/toolkit_wrap_cases.json", &cases)
	for _, c := range cases.Wrap {
		var got []string
		switch {
		case c.Text == "":
		case c.Width <= 0:
			got = []string{c.Text}
		default:
			got = packChunks(toolkitChunks(c.Text), c.Width)
		}
		if len(got)+len(c.Lines) > 0 && !reflect.DeepEqual(got, c.Lines) {
			t.Errorf("%s %q width %d:\n got %q\nwant %q", c.Name, c.Text, c.Width, got, c.Lines)
		}
	}
	for _, c := range cases.Quote {
		var value strings.Builder
		for _, l := range c.Lines {
			value.WriteString(unescapeString(l[1 : len(l)-1]))
		}
		if got := toolkitQuoteLines(value.String()); !reflect.DeepEqual(got, c.Lines) {
			t.Errorf("%s:\n got %q\nwant %q", c.Name, got, c.Lines)
		}
	}
}

func readJSON(t *testing.T, path string, v any) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, v); err != nil {
		t.Fatal(err)
	}
}

func TestGettextQuoteLines(t *testing.T) {
	x := func(n int) string { return strings.Repeat("x", n) }
	words := "aaaa bbbb cccc dddd eeee ffff gggg hhhh iiii jjjj kkkk llll mmmm nnnn oooo pppp"
	tests := []struct {
		name, prefix, keyword string
		format                formatKind
		in                    string
		want                  []string
	}{
		{"empty", "", "msgstr", formatNone, "", nil},
		{"short", "", "msgstr", formatNone, "Hello", []string{`"Hello"`}},
		{"msgstr of 70 fits", "", "msgstr", formatNone, x(60) + " " + x(9), []string{`"` + x(60) + " " + x(9) + `"`}},
		{"msgstr of 71 wraps", "", "msgstr", formatNone, x(60) + " " + x(10),
			[]string{`""`, `"` + x(60) + " " + x(10) + `"`}},
		{"msgid of 71 fits", "", "msgid", formatNone, x(60) + " " + x(10), []string{`"` + x(60) + " " + x(10) + `"`}},
		{"msgstr[0] of 68 wraps", "", "msgstr[0]", formatNone, x(60) + " " + x(7),
			[]string{`""`, `"` + x(60) + " " + x(7) + `"`}},
		{"unbreakable word stays on the keyword line", "", "msgstr", formatNone, x(90), []string{`"` + x(90) + `"`}},
		{"final newline keeps one line", "", "msgstr", formatNone, "one\n", []string{`"one\n"`}},
		{"inner newline", "", "msgstr", formatNone, "one\ntwo", []string{`""`, `"one\n"`, `"two"`}},
		{"escapes", "", "msgstr", formatNone, "a\"b\\c\td\a", []string{`"a\"b\\c\td\a"`}},
		{"spaces stay at the line end", "", "msgid", formatNone, words,
			[]string{`""`, `"aaaa bbbb cccc dddd eeee ffff gggg hhhh iiii jjjj kkkk llll mmmm nnnn oooo "`, `"pppp"`}},
		{"obsolete lines are shorter", "#~ ", "msgstr", formatNone, words,
			[]string{`""`, `"aaaa bbbb cccc dddd eeee ffff gggg hhhh iiii jjjj kkkk llll mmmm nnnn "`, `"oooo pppp"`}},
		{"no break before the final newline", "", "msgstr", formatNone, x(70) + " " + x(5) + "\n",
			[]string{`""`, `"` + x(70) + " " + `"`, `"` + x(5) + `\n"`}},
		{"url breaks after slashes", "", "msgstr", formatNone,
			x(50) + " https://docs.example.org/very/long/path",
			[]string{`""`, `"` + x(50) + ` https://docs.example.org/"`, `"very/long/path"`}},
		// A hyphen (here the fill character) allows a break after it;
		// inside a directive it must not.
		{"no break inside a brace directive", "", "msgstr", formatPythonBrace,
			x(64) + " on {price:-^20}",
			[]string{`""`, `"` + x(64) + ` on "`, `"{price:-^20}"`}},
		{"brace directive ignored without the flag", "", "msgstr", formatNone,
			x(64) + " on {price:-^20}",
			[]string{`""`, `"` + x(64) + ` on {price:-"`, `"^20}"`}},
		{"no break inside a python directive", "", "msgstr", formatPython,
			x(67) + " on %(a-b)s",
			[]string{`""`, `"` + x(67) + ` on "`, `"%(a-b)s"`}},
		{"korean breaks between syllables", "", "msgstr", formatNone, strings.Repeat("가", 40),
			[]string{`""`, `"` + strings.Repeat("가", 38) + `"`, `"가가"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := gettextQuoteLines(tt.in, tt.prefix, tt.keyword, tt.format)
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got  %q\nwant %q", got, tt.want)
			}
		})
	}
}

func TestToolkitQuoteLines(t *testing.T) {
	tests := []struct {
		name, in string
		want     []string
	}{
		{"empty", "", nil},
		{"71 characters fit", strings.Repeat("x", 71), []string{`"` + strings.Repeat("x", 71) + `"`}},
		{"72 characters get an empty first line", strings.Repeat("x", 72), []string{`""`, `"` + strings.Repeat("x", 72) + `"`}},
		{"final newline keeps one line", "one\n", []string{`"one\n"`}},
		{"inner newline", "one\ntwo", []string{`""`, `"one\n"`, `"two"`}},
		{"korean words stay whole", strings.Repeat("가나다라 ", 10),
			[]string{`""`, `"` + strings.Repeat("가나다라 ", 8) + `"`, `"가나다라 가나다라 "`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := toolkitQuoteLines(tt.in); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got  %q\nwant %q", got, tt.want)
			}
		})
	}
}

func TestRuneWidth(t *testing.T) {
	tests := []struct {
		r    rune
		want int
	}{{'a', 1}, {'é', 1}, {'漢', 2}, {'　', 2}, {'ｆ', 2}, {'한', 2}, {'😀', 2}, {'Ж', 1},
		{'\u0301', 0}, {'\u0bbf', 1}, {'\u0bcd', 0}, {'\u200b', 0}, {'\u1160', 0}, {'\t', 0}}
	for _, tt := range tests {
		if got := runeWidth(tt.r); got != tt.want {
			t.Errorf("runeWidth(%U) = %d, want %d", tt.r, got, tt.want)
		}
	}
}

func TestPythonDirectives(t *testing.T) {
	tests := []struct {
		in   string
		want [][2]int
	}{
		{"%s and %(name)d", [][2]int{{0, 1}}}, // mixing stops at the named one
		{"%(a)s %(b)-5.2f %%", [][2]int{{0, 4}, {6, 14}, {16, 17}}},
		{"100%", nil},
		{"%d%% %*d", [][2]int{{0, 1}, {2, 3}, {5, 7}}},
	}
	for _, tt := range tests {
		if got := pythonDirectives(tt.in); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("pythonDirectives(%q) = %v, want %v", tt.in, got, tt.want)
		}
	}
}

func TestPythonBraceDirectives(t *testing.T) {
	tests := []struct {
		in   string
		want [][2]int
	}{
		{"{a} {{b}} {c.d[0]:{w}} {x:>10.2f}", [][2]int{{0, 2}, {10, 21}, {23, 32}}},
		{"{c:>{w}} {a}", nil},        // gettext accepts no nested directive after a spec
		{"{0} {}", [][2]int{{0, 2}}}, // numbered then unnamed is invalid
		{"{ bad}", nil},
	}
	for _, tt := range tests {
		if got := pythonBraceDirectives(tt.in); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("pythonBraceDirectives(%q) = %v, want %v", tt.in, got, tt.want)
		}
	}
}

// FuzzQuoteLines checks that both wrappers keep every character: the quoted
// lines unescape back to the input.
func FuzzQuoteLines(f *testing.F) {
	for _, s := range []string{"", "a\nb", "%(x)s {y} \\\"", "가나다 ลบคุกกี้", "https://x.org/a-b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !utf8.ValidString(s) || strings.ContainsRune(s, 0) {
			return
		}
		for _, lines := range [][]string{
			toolkitQuoteLines(s),
			gettextQuoteLines(s, "#~ ", "msgstr[1]", formatPython),
			gettextQuoteLines(s, "", "msgid", formatPythonBrace),
		} {
			var b strings.Builder
			for _, l := range lines {
				b.WriteString(unescapeString(l[1 : len(l)-1]))
			}
			if got := b.String(); got != s && !strings.ContainsAny(s, "\a\b\f\v") {
				t.Fatalf("lines %q unescape to %q, want %q", lines, got, s)
			}
		}
	})
}
