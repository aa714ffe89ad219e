package flags

import (
	"strings"
	"testing"
)

// TestParse: Weblate's flag syntax.
func TestParse(t *testing.T) {
	for _, c := range []struct {
		in   string
		want string // name=values;...
		bad  bool
	}{
		{in: `max-length:20, c-format, ignore-end-stop, placeholders:"%s":"x"`, want: `max-length=20;c-format;ignore-end-stop;placeholders=%s,x`},
		{in: `placeholders:r"\d+":"a,b"`, want: `placeholders=r\d+,a,b`},
		{in: `a b:"c d"`, want: `a b=c d`},
		{in: `a:b c:d`, want: `a=b c,d`},
		{in: `x:, y`, want: `x=;y`},
		{in: `a,,b`, want: `a;b`},
		{in: "#, fuzzy, c-format", want: `#;fuzzy;c-format`},
		{in: `"q":x`, bad: true},
		{in: `a:"x"y`, bad: true},
		{in: `a:"unterminated`, bad: true},
	} {
		items, err := Parse(c.in)
		if (err != nil) != c.bad {
			t.Errorf("%q: %v", c.in, err)
			continue
		}
		if c.bad {
			continue
		}
		var parts []string
		for _, it := range items {
			s := it.Name
			if it.Valued {
				var vs []string
				for _, v := range it.Values {
					if v.Regex {
						vs = append(vs, "r"+v.Text)
					} else {
						vs = append(vs, v.Text)
					}
				}
				s += "=" + strings.Join(vs, ",")
			}
			parts = append(parts, s)
		}
		if got := strings.Join(parts, ";"); got != c.want {
			t.Errorf("%q: %s, want %s", c.in, got, c.want)
		}
	}
	var f Flags
	f.MergeText("max-length:20, c-format")
	f.MergeText("max-length, discard:c-format, ignore-same")
	if fl, _ := f.Get("max-length"); fl.Valued || f.Has("c-format") || !f.Has("ignore-same") {
		t.Errorf("merged: %v", f.Names())
	}
}

// TestMerged: inherited flags merge parent first and are written as
// Weblate's Flags.format writes them; what Format writes parses back.
func TestMerged(t *testing.T) {
	for _, c := range []struct {
		in   []string
		want string
	}{
		{nil, ""},
		{[]string{"c-format", ""}, "c-format"},
		{[]string{"max-length:20, c-format", "max-length:40"}, "c-format, max-length:40"},
		{[]string{"ignore-same, c-format", "discard:c-format"}, "ignore-same"},
		{[]string{`placeholders:"%s":r"\d+"`}, `placeholders:%s:r"\d+"`},
		{[]string{`placeholders:"a b":"x,y"`}, `placeholders:"a b":"x,y"`},
		{[]string{"objc-format", "fuzzy, #"}, "objc-format"},
		{[]string{"variant:"}, "variant:"},
	} {
		got := Merged(c.in...)
		if got != c.want {
			t.Errorf("Merged(%q) = %q, want %q", c.in, got, c.want)
		}
		if again := Merged(got); again != got {
			t.Errorf("Merged(%q) = %q: does not round-trip", got, again)
		}
	}
}
