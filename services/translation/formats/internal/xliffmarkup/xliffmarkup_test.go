package xliffmarkup

import (
	"testing"

	"github.com/tmsproject/tms/services/translation/formats/internal/xmltree"
)

// parseFragment reads one element for the tests of the string rules.
func parseFragment(s string) (*xmltree.Node, error) {
	top, err := xmltree.Parse([]byte(s), 0, false)
	if err != nil {
		return nil, err
	}
	return xmltree.Root(top), nil
}

func TestRichString(t *testing.T) {
	for _, c := range []struct{ name, in, space, want string }{
		{"normalized", "<source>\n  a \t b\n</source>", "default", "a b"},
		{"preserved", "<source> a  b </source>", "preserve", " a  b "},
		{"own space", `<source xml:space="preserve"> a </source>`, "default", " a "},
		{"g leading space", `<source>x<g id="1">  y </g> z </source>`, "default", `x<g id="1">y</g> z `},
		{"comment drops its tail", `<source>a<!-- c -->b<x id="1"/>c</source>`, "default", `a<x id="1"/>c`},
		{"x without id", `<source><x ctype="lb"/></source>`, "default", `<x/>`},
		{"id first", `<source><g ctype="b" id="1" xid="2">t</g></source>`, "default", `<g id="1" xid="2" ctype="b">t</g>`},
		{"unknown kept", `<source><ph id="1">&lt;br&gt;</ph><mrk mtype="x"/></source>`, "default", `<ph id="1">&lt;br&gt;</ph><mrk mtype="x"/>`},
		{"attribute escapes", `<source><ph id="1" equiv-text='a"b&amp;'/></source>`, "default", `<ph id="1" equiv-text="a&quot;b&amp;"/>`},
	} {
		t.Run(c.name, func(t *testing.T) {
			top, err := parseFragment(c.in)
			if err != nil {
				t.Fatal(err)
			}
			if got := RichString(top, c.space); got != c.want {
				t.Errorf("got %q, want %q", got, c.want)
			}
		})
	}
}

func TestWriteContent(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"plain", "plain"},
		{"a & b", "a &amp; b"},
		{"a &amp; b", "a &amp; b"},
		{`"q" > 'x'`, `"q" &gt; 'x'`},
		{`<g id="1">x</g> & y`, `&lt;g id="1"&gt;x&lt;/g&gt; &amp; y`},
		{`<g id="1">x</g> &amp; <x id='2'/>`, `<g id="1">x</g> &amp; <x id="2"/>`},
		{"<unclosed", "&lt;unclosed"},
		{"  spaced  \n", "  spaced  \n"},
		{"&nbsp;", "&amp;nbsp;"},
	} {
		t.Run(c.in, func(t *testing.T) {
			got, err := WriteContent(c.in)
			if err != nil || got != c.want {
				t.Errorf("WriteContent(%q) = %q, %v; want %q", c.in, got, err, c.want)
			}
		})
	}
	if _, err := WriteContent("a\x01"); err == nil {
		t.Error("a control character was written")
	}
}

func TestSetAttr(t *testing.T) {
	for _, c := range []struct{ tag, name, value, want string }{
		{`<target`, "state", "new", `<target state="new"`},
		{`<target state='x' a="1"`, "state", "final", `<target state="final" a="1"`},
		{"<trans-unit\n  id=\"1\"\n", "approved", "no", "<trans-unit\n  id=\"1\" approved=\"no\""},
		{`<file original="a>b"`, "target-language", "pt-BR", `<file original="a>b" target-language="pt-BR"`},
	} {
		t.Run(c.name+c.value, func(t *testing.T) {
			if got := SetAttr(c.tag, c.name, c.value); got != c.want {
				t.Errorf("got %q, want %q", got, c.want)
			}
		})
	}
}

func TestFlags(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`<segment/>`, ""},
		{`<trans-unit maxwidth="40" size-unit="char"/>`, "max-length:40"},
		{`<trans-unit maxwidth="12" font="Open Sans;10;bold"/>`, `font-family:Open_Sans, font-size:10, font-weight:bold, max-size:12`},
		{`<segment weblate-flags="placeholders:%s, c-format, fuzzy"/>`, "c-format, placeholders:%s"},
	} {
		t.Run(c.in, func(t *testing.T) {
			n, err := parseFragment(c.in)
			if err != nil {
				t.Fatal(err)
			}
			if got := Flags(n); got != c.want {
				t.Errorf("got %q, want %q", got, c.want)
			}
		})
	}
	n, _ := parseFragment(`<segment weblate-flags="c-format"/>`)
	if got := Flags(n, "xml-text"); got != "c-format, xml-text" {
		t.Errorf("with xml-text: %q", got)
	}
}
