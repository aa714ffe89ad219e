package importer

import (
	"testing"

	"github.com/tmsproject/tms/pkg/po"
)

func TestState(t *testing.T) {
	tests := []struct {
		name string
		text string
		want int
	}{
		{"empty", "msgid \"a\"\nmsgstr \"\"\n", 0},
		{"translated", "msgid \"a\"\nmsgstr \"b\"\n", 20},
		{"fuzzy", "#, fuzzy\nmsgid \"a\"\nmsgstr \"b\"\n", 10},
		{"fuzzy empty", "#, fuzzy\nmsgid \"a\"\nmsgstr \"\"\n", 0},
		{"plural partial", "msgid \"a\"\nmsgid_plural \"as\"\nmsgstr[0] \"b\"\nmsgstr[1] \"\"\n", 0},
		{"plural full", "msgid \"a\"\nmsgid_plural \"as\"\nmsgstr[0] \"b\"\nmsgstr[1] \"bs\"\n", 20},
	}
	for _, tt := range tests {
		f, err := po.Parse([]byte(tt.text))
		if err != nil {
			t.Fatal(err)
		}
		e := f.Entries()[0]
		if got := State(e); got != tt.want {
			t.Errorf("%s: State = %d, want %d", tt.name, got, tt.want)
		}
		u := newUnit(e, false, true)
		if u.State != 100 || u.Target != u.Source {
			t.Errorf("%s: source unit = %+v", tt.name, u)
		}
	}
}
