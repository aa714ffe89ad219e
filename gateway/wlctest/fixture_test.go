package wlctest

import (
	"fmt"
	"strings"
)

const header = `msgid ""
msgstr ""
"Project-Id-Version: hello 1.0\n"
"Language: %s\n"
"MIME-Version: 1.0\n"
"Content-Type: text/plain; charset=UTF-8\n"
"Content-Transfer-Encoding: 8bit\n"
"Plural-Forms: %s\n"
`

var plurals = map[string]string{
	"":   "nplurals=2; plural=(n != 1);",
	"de": "nplurals=2; plural=(n != 1);",
	"cs": "nplurals=3; plural=(n==1) ? 0 : (n>=2 && n<=4) ? 1 : 2;",
	"ar": "nplurals=6; plural=n==0 ? 0 : n==1 ? 1 : n==2 ? 2 : n%100>=3 && n%100<=10 ? 3 : n%100>=11 ? 4 : 5;",
}

// message is one source string; plural is set for plural messages.
type message struct{ ctx, id, plural string }

var components = map[string][]message{
	"greeter": {{"", "Good morning!", ""}, {"menu", "Print page", ""}, {"", "%d message", "%d messages"},
		{"", "Sign out", ""}, {"", "Help", ""}},
	"menus": {{"", "File", ""}, {"", "Edit", ""}, {"", "%d item selected", "%d items selected"}, {"", "Quit", ""}},
}

// translated says which messages of each language are translated, by index.
var translated = map[string]string{"de": "tt.t.", "cs": "t.t..", "ar": "....."}

// po renders a component's file for code ("" is the template); extra are
// source strings appended (a new upstream string).
func po(comp, code string, extra ...message) string {
	var b strings.Builder
	fmt.Fprintf(&b, header, code, plurals[code])
	for i, m := range append(components[comp], extra...) {
		done := code != "" && i < len(translated[code]) && translated[code][i] == 't'
		tr := func(s string) string {
			if !done {
				return ""
			}
			return "[" + code + "] " + s
		}
		b.WriteString("\n")
		if m.ctx != "" {
			fmt.Fprintf(&b, "msgctxt %q\n", m.ctx)
		}
		fmt.Fprintf(&b, "msgid %q\n", m.id)
		if m.plural == "" {
			fmt.Fprintf(&b, "msgstr %q\n", tr(m.id))
			continue
		}
		fmt.Fprintf(&b, "msgid_plural %q\n", m.plural)
		n := 2
		if code != "" {
			_, _ = fmt.Sscanf(plurals[code], "nplurals=%d;", &n) // a code missing from the table has 0 forms
		}
		for k := range n {
			fmt.Fprintf(&b, "msgstr[%d] %q\n", k, tr(m.plural))
		}
	}
	return b.String()
}

// files is the fixture repository: two components, three languages each.
func files() map[string][]byte {
	out := map[string][]byte{"README.md": []byte("wlc fixture\n")}
	for comp := range components {
		out[comp+"/"+comp+".pot"] = []byte(po(comp, ""))
		for code := range translated {
			out[comp+"/"+code+".po"] = []byte(po(comp, code))
		}
	}
	return out
}
