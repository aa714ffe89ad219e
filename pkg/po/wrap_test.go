package po

import (
	"encoding/json"
	"os"
	"reflect"
	"testing"
)

// TestQuoteLinesGolden compares quoteLines with translate-toolkit's quoteforpo
// on the cases of testdata/wrap_cases.json (see gen_wrap_cases.py).
func TestQuoteLinesGolden(t *testing.T) {
	data, err := os.ReadFile("testdata/wrap_cases.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []struct {
		S     string   `json:"s"`
		Lines []string `json:"lines"`
	}
	if err := json.Unmarshal(data, &cases); err != nil {
		t.Fatal(err)
	}
	failures := 0
	for i, c := range cases {
		got := quoteLines(c.S)
		if len(got) == 0 && len(c.Lines) == 0 {
			continue
		}
		if !reflect.DeepEqual(got, c.Lines) {
			failures++
			if failures <= 5 {
				t.Errorf("case %d %q:\n got %q\nwant %q", i, c.S, got, c.Lines)
			}
		}
	}
	if failures > 0 {
		t.Errorf("%d of %d cases differ", failures, len(cases))
	}
}

func TestQuoteLines(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []string
	}{
		{"empty", "", nil},
		{"short", "Hello", []string{`"Hello"`}},
		{"escapes", "a\"b\\c\td", []string{`"a\"b\\c\td"`}},
		{"newline kept on line", "one\ntwo", []string{`""`, `"one\n"`, `"two"`}},
		{"single trailing newline", "one\n", []string{`"one\n"`}},
		{"long breaks at spaces", "aaaa bbbb cccc dddd eeee ffff gggg hhhh iiii jjjj kkkk llll mmmm nnnn oooo pppp",
			[]string{`""`, `"aaaa bbbb cccc dddd eeee ffff gggg hhhh iiii jjjj kkkk llll mmmm nnnn oooo "`, `"pppp"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := quoteLines(tt.in); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("quoteLines(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestRuneWidth(t *testing.T) {
	tests := []struct {
		r    rune
		want int
	}{{'a', 1}, {'é', 1}, {'漢', 2}, {'　', 2}, {'ｆ', 2}, {'한', 2}, {'😀', 2}, {'Ж', 1}}
	for _, tt := range tests {
		if got := runeWidth(tt.r); got != tt.want {
			t.Errorf("runeWidth(%q) = %d, want %d", tt.r, got, tt.want)
		}
	}
}
