package checks

import (
	"slices"
	"strings"
	"testing"
)

var (
	english = Plural{Number: 2, Formula: "n != 1"}
	czech   = Plural{Number: 3, Formula: "(n==1) ? 0 : (n>=2 && n<=4) ? 1 : 2"}
	french  = Plural{Number: 2, Formula: "n > 1"}
)

// unit is a translated German string (unless lang says otherwise) with
// flags.
func unit(source, target, lang, flags string) Unit {
	u := Unit{Sources: strings.Split(source, "|"), Targets: strings.Split(target, "|"), Lang: lang, SourceLang: "en",
		SourcePlural: english, TargetPlural: english, State: 20}
	switch lang {
	case "cs":
		u.TargetPlural = czech
	case "fr", "fr_CA":
		u.TargetPlural = french
	}
	u.Flags.MergeText(flags)
	return u
}

// TestChecks: for each check id, strings that pass and strings that fail
// it, and its ignore flag switching it off. Sources and targets split
// plural forms at "|".
func TestChecks(t *testing.T) {
	type tc struct{ source, target, lang, flags string }
	cases := map[string]struct{ pass, fail []tc }{
		"begin_newline":   {pass: []tc{{"\nHello", "\nHallo", "de", ""}, {"Hello", "Hallo", "de", ""}}, fail: []tc{{"\nHello", "Hallo", "de", ""}}},
		"end_newline":     {pass: []tc{{"Hello\n", "Hallo\n", "de", ""}}, fail: []tc{{"Hello", "Hallo\n", "de", ""}}},
		"begin_space":     {pass: []tc{{"  Hello", "  Hallo", "de", ""}, {"a", " ", "de", ""}, {"Hello", "   ", "de", ""}}, fail: []tc{{" Hello", "Hallo", "de", ""}, {"", "  ab", "de", ""}}},
		"end_space":       {pass: []tc{{"Hello ", "Hallo ", "de", ""}}, fail: []tc{{"Hello", "Hallo ", "de", ""}, {"Name: ", "Name:", "de", ""}}},
		"double_space":    {pass: []tc{{"a  b", "a  b", "de", ""}, {"Hello world", "Hallo Welt", "de", ""}}, fail: []tc{{"Hello world", "Hallo  Welt", "de", ""}}},
		"end_stop":        {pass: []tc{{"Done.", "Fertig.", "de", ""}, {"Hi.", "Hallo", "de", ""}, {"Loading...", "Laden…", "de", ""}, {"Hello.", "你好。", "zh_Hans", ""}, {"Hello.", "สวัสดี", "th", ""}, {"Hello.", "नमस्ते।", "hi", ""}}, fail: []tc{{"Done.", "Fertig", "de", ""}, {"Finished", "Fertig.", "de", ""}}},
		"end_colon":       {pass: []tc{{"Name:", "Name:", "de", ""}, {"Name:", "名前：", "ja", ""}, {"Name", "Name:", "hy", ""}}, fail: []tc{{"Name:", "Name", "de", ""}, {"Name:", "名前", "ja", ""}}},
		"end_question":    {pass: []tc{{"Why?", "Warum?", "de", ""}, {"Why?", "Γιατί;", "el", ""}, {"Why?!", "Warum", "de", ""}}, fail: []tc{{"Why?", "Warum", "de", ""}, {"Why?", "Γιατί", "el", ""}}},
		"end_exclamation": {pass: []tc{{"Go!", "Los!", "de", ""}, {"Go!", "Գնա", "hy", ""}, {"Go!", "¡Vamos!", "eu", ""}}, fail: []tc{{"Go!", "Los", "de", ""}}},
		"end_interrobang": {pass: []tc{{"What?!", "Was?!", "de", ""}}, fail: []tc{{"What?!", "Was?", "de", ""}}},
		"end_ellipsis":    {pass: []tc{{"Wait…", "Warte…", "de", ""}, {"Wait...", "Warte…", "de", ""}}, fail: []tc{{"Wait…", "Warte...", "de", ""}, {"Wait", "Warte…", "de", ""}}},
		"end_semicolon":   {pass: []tc{{"a;", "b;", "de", ""}, {"Tom &amp;", "Tom &amp;", "de", ""}, {"Why?", "Γιατί;", "el", ""}}, fail: []tc{{"a;", "b", "de", ""}, {"a", "b;", "de", ""}}},
		"max-length":      {pass: []tc{{"Hello", "Hallo", "de", "max-length:5"}, {"Hello", "Hallo Welt", "de", "max-length"}}, fail: []tc{{"Hello", "Hallo Welt", "de", "max-length:5"}, {"Hello", "Hallo", "de", "max-length:x"}}},
		"max-lines":       {pass: []tc{{"a", "a\nb", "de", "max-lines:2"}}, fail: []tc{{"a", "a\nb\nc", "de", "max-lines:2"}}},
		"multiple_capital": {pass: []tc{{"Welcome NATO", "Bonjour OTAN", "fr", ""}, {"Hello", "Hallo", "de", ""}},
			fail: []tc{{"Hello", "HEllo", "de", ""}, {"sigma", "ΣIGMA", "el", ""}}},
		"kashida":       {pass: []tc{{"Hello", "مرحبا", "ar", ""}, {"x", "ـa", "ar", ""}}, fail: []tc{{"Hello", "مرحـــبا", "ar", ""}}},
		"python_format": {pass: []tc{{"%(name)s has %(n)d", "%(n)d hat %(name)s", "de", "python-format"}, {"%s of %s", "%s", "de", ""}}, fail: []tc{{"%(name)s", "%(nome)s", "de", "python-format"}, {"%s of %d", "%d von %s", "de", "python-format"}}},
		"python_brace_format": {pass: []tc{{"{0} and {name}", "{name} und {0}", "de", "python-brace-format"}},
			fail: []tc{{"{name}", "{nom}", "de", "python-brace-format"}, {"Hello", "Hallo {", "de", "python-brace-format"}}},
		"c_format": {pass: []tc{{"%d files", "%d Dateien", "de", "c-format"}, {"%1$s %2$s", "%2$s %1$s", "de", "c-format"}, {"100%% done", "100%% fertig", "de", "c-format"},
			{"One file|%d files", "Ein Datei|%d Dateien", "de", "c-format"}, {"%d file|%d files", "%d soubor|%d soubory|%d souborů", "cs", "c-format"},
			{"%d file|%d files", "soubor|%d soubory|%d souborů", "cs", "c-format"}}, // form 0 is n=1 alone: it may say the number in words
			fail: []tc{{"%d files", "Dateien", "de", "c-format"}, {"%s and %d", "%d und %s", "de", "c-format"}, {"%d file|%d files", "%d soubor|soubory|%d souborů", "cs", "c-format"}}},
		"same": {pass: []tc{{"Linux kernel", "Linux kernel", "de", ""}, {"Colour", "Colour", "en_GB", ""}}, fail: []tc{{"Who is RMS?", "Who is RMS?", "de", ""}}},
		"punctuation_spacing": {pass: []tc{{"Name:", "Nom :", "fr", ""}, {"Really?", "Vraiment ?", "fr", ""}, {"At 10:30", "À 10:30", "fr", ""},
			{"Why?", "Pourquoi?", "fr_CA", ""}, {"Why?", "Warum?", "de", ""}, {"See %s!", "Voir %s !", "fr", "c-format"}, {"What?!", "Quoi ?!", "fr", ""}},
			fail: []tc{{"Name:", "Nom:", "fr", ""}, {"Really?", "Vraiment?", "fr", ""}, {"!", "!", "fr", ""}}},
		"kabyle-characters": {pass: []tc{{"string", "string", "kab", ""}, {"string", "γΓε", "el", ""}}, fail: []tc{{"string", "γ", "kab", ""}, {"string", "Ğ", "kab", ""}}},
		"bbcode":            {pass: []tc{{"[a]string[/a]", "[a]string[/a]", "cs", "bbcode-text"}, {"[a]string[/a]", "string", "cs", ""}}, fail: []tc{{"[a]string[/a]", "[b]string[/b]", "cs", "bbcode-text"}, {"[a]string[/a]", "string", "cs", "bbcode-text"}}},
		"xml-invalid":       {pass: []tc{{"<a>string</a>", "<a>string</a>", "cs", "xml-text"}, {"<br />", "<br>", "cs", "safe-html"}, {"This is<br>valid HTML", "Toto je<br>platne HTML", "cs", ""}}, fail: []tc{{"<a>string</a>", "<a>string", "cs", ""}, {"<br />", "<br>", "cs", ""}, {"<emphasis>1st</emphasis>", "<emphasis>not</ emphasis>", "cs", ""}}},
		"xml-tags":          {pass: []tc{{"<a>string</a>", "<a>string</a>", "cs", ""}, {`<a href="#">a</a>`, `<a href="other">z</a>`, "cs", ""}}, fail: []tc{{"<a>string</a>", "<b>string</b>", "cs", ""}, {`<a href="#">a</a>`, `<a href="#" onclick="alert()">z</a>`, "cs", ""}}},
		"xml-chars-around-tags": {pass: []tc{{"<a>string</a>", "<a>string</a>", "cs", ""}, {"b<a>c</a>", "<a>c</a>", "cs", ""}, {"<b>Level up</b> to unlock.", "<b>レベル</b>を上げて", "ja", ""}},
			fail: []tc{{"<a>string</a>", "<a> string</a>", "cs", ""}, {"b <a>c</a>", "b<a>c</a>", "cs", ""}, {"<a> b</a>", "<a>b</a>", "cs", "xml-text"}}},
		"url": {pass: []tc{{"https://weblate.org/", "https://weblate.org/", "cs", "url"}, {"string", "string", "cs", ""}}, fail: []tc{{"https://weblate.org/", "https:weblate.org/", "cs", "url"}, {"https://weblate.org/", "weblate", "cs", "url"}}},
		"placeholders": {pass: []tc{{"string $URL$", "string $URL$", "cs", "placeholders:$URL$"}, {"string", "string", "cs", "placeholders:"}, {"Hello %WORLD%", "Ahoj %world%", "cs", "placeholders:%WORLD%,case-insensitive"}},
			fail: []tc{{"string $URL$", "string", "cs", "placeholders:$URL$"}, {"string $URL$", "string $FOO$", "cs", `placeholders:r"(\$)([^$]*)(\$)"`}, {"Hello %WORLD%", "Ahoj %world%", "cs", "placeholders:%WORLD%"}}},
		"regex": {pass: []tc{{"string URL", "string URL", "cs", "regex:URL"}, {"string", "string", "cs", "regex:"}}, fail: []tc{{"string URL", "string url", "cs", "regex:URL"}, {"string URL", "string URL", "cs", "regex:^URL$"}}},
		"duplicate": {pass: []tc{{"", "I have two lemons", "cs", ""}, {"", "mám 5 mám", "cs", ""}, {"", "Si vous vous interrogez", "fr", ""}, {"", `Limite <x id="I" equiv-text="{{ quota quota }}"/> par jour`, "fr", `placeholders:r"<x\s[^>]*/>"`}},
			fail: []tc{{"", "I have two two lemons", "cs", ""}, {"", "mám mám 100 000 000", "cs", ""}, {"", "em [em]x[/em]", "cs", ""}}},
		"php_format":                   {pass: []tc{{"%s string", "%s string", "de", "php-format"}, {"%1$s %2$s", "%2$s %1$s", "de", "php-format"}}, fail: []tc{{"%s string", "string", "de", "php-format"}, {"%s and %d", "%d und %s", "de", "php-format"}}},
		"objc_format":                  {pass: []tc{{"%@ string", "%@ string", "de", "objc-format"}, {"%1$@ %2$@ string", "%2$@ %1$@ string", "de", "objc-format"}}, fail: []tc{{"%@ string", "string", "de", "objc-format"}}},
		"perl_format":                  {pass: []tc{{"%s string", "%s string", "de", "perl-format"}}, fail: []tc{{"%s string", "string", "de", "perl-format"}}},
		"perl_brace_format":            {pass: []tc{{"{x} string {y}", "{y} string {x}", "de", "perl-brace-format"}}, fail: []tc{{"{x} string", "{x} string {y}", "de", "perl-brace-format"}, {"{x} string", "string", "de", "perl-brace-format"}}},
		"javascript_format":            {pass: []tc{{"%10s string", "%10s string", "de", "javascript-format"}}, fail: []tc{{"%s string", "string", "de", "javascript-format"}}},
		"lua_format":                   {pass: []tc{{"%s string", "%s string", "de", "lua-format"}}, fail: []tc{{"%s string", "string", "de", "lua-format"}}},
		"object_pascal_format":         {pass: []tc{{"%10s string", "%10s string", "de", "object-pascal-format"}}, fail: []tc{{"%s string", "string", "de", "object-pascal-format"}}},
		"scheme_format":                {pass: []tc{{"~0@*~s string", "~0@*~s string", "de", "scheme-format"}}, fail: []tc{{"~s string", "string", "de", "scheme-format"}}},
		"c_sharp_format":               {pass: []tc{{"{0} strins", "{0} string", "de", "csharp-format"}, {"{0,1} strins", "{0,1} string", "de", "csharp-format"}}, fail: []tc{{"{0} strins", "string", "de", "csharp-format"}, {"{0} string", "{1} string", "de", "csharp-format"}}},
		"laravel_format":               {pass: []tc{{"Test :name", "Test :name", "de", "laravel-format"}}, fail: []tc{{"Test :name", "Test", "de", "laravel-format"}, {"Test", "Test :name", "de", "laravel-format"}}},
		"java_printf_format":           {pass: []tc{{"%% s %%", "string", "de", "java-printf-format"}, {"%s string", "%s string", "de", "java-printf-format"}}, fail: []tc{{"%s string", "string", "de", "java-printf-format"}}},
		"java_format":                  {pass: []tc{{"{0} string {1}", "{1} string {0}", "de", "java-format"}, {"{0} string {1}", "'{1}' strin''g '{0}'", "de", "java-format"}}, fail: []tc{{"{0} strins", "string", "de", "java-format"}, {"{0} string {1}", "'{1}' strin'g '{0}'", "de", "java-format"}}},
		"percent_placeholders":         {pass: []tc{{"%foo% string", "%foo% string", "de", "percent-placeholders"}}, fail: []tc{{"%foo% string", "%bar% string", "de", "percent-placeholders"}}},
		"vue_format":                   {pass: []tc{{"%{foo} string", "%{foo} string", "de", "vue-format"}, {"@.lower:message.homeAddress string", "@.lower:message.homeAddress string", "de", "vue-format"}}, fail: []tc{{"{foo} string", "string", "de", "vue-format"}}},
		"i18next_interpolation":        {pass: []tc{{"{{ foo }} string", "{{foo}} string", "de", "i18next-interpolation"}}, fail: []tc{{"{{foo}} string", "string", "de", "i18next-interpolation"}}},
		"es_format":                    {pass: []tc{{"${ foo } string", "${foo} string", "de", "es-format"}}, fail: []tc{{"${foo} string", "string", "de", "es-format"}}},
		"automattic_components_format": {pass: []tc{{"{{foo}} string {{/foo}}", "{{foo}} string {{/foo}}", "de", "automattic-components-format"}}, fail: []tc{{"{{foo}} string", "string", "de", "automattic-components-format"}}},
		"angularjs_format":             {pass: []tc{{"{{name}} string {{other}}", "{{other}} string {{name}}", "de", "angularjs-format"}, {"{{ name   }} string", "{{name}} string", "de", "angularjs-format"}}, fail: []tc{{"{{name}} string", "string", "de", "angularjs-format"}}},
		"qt_format":                    {pass: []tc{{"%1 strins", "%1 string", "de", "qt-format"}}, fail: []tc{{"%1 strins", "string", "de", "qt-format"}, {"%1 string", "%2 string", "de", "qt-format"}}},
		"qt_plural_format":             {pass: []tc{{"%n string(s)", "%n string", "de", "qt-plural-format"}, {"%Ln string(s)", "%Ln string", "de", "qt-plural-format"}}, fail: []tc{{"%n string(s)", "string", "de", "qt-plural-format"}}},
		"ruby_format":                  {pass: []tc{{"%s string", "%s string", "de", "ruby-format"}, {"%d%% string", "%d%% string", "de", "ruby-format"}}, fail: []tc{{"%d % string", "%d % other", "de", "ruby-format"}, {"%s string", "string", "de", "ruby-format"}}},
		"md-reflink":                   {pass: []tc{{"[a][a1]", "[b][a1]", "cs", "md-text"}, {"[a][a1]", "[b][a2]", "cs", ""}}, fail: []tc{{"[a][a1]", "[b][a2]", "cs", "md-text"}}},
		"md-link": {pass: []tc{{"[Use Weblate](https://weblate.org/)", "[Použij Weblate](https://weblate.org/)", "cs", "md-text"},
			{"[translate]({{ site.baseurl }}/docs/Translation/) here", "Die [übersetzen]({{ site.baseurl }}/docs/Translation/)", "cs", "md-text"},
			{"See <https://weblate.org/>", "Viz <https://weblate.org/>", "cs", "md-text"}, {"See <noreply@weblate.org>", "Viz <noreply@weblate.org>", "cs", "md-text"}},
			fail: []tc{{"[Use Weblate](https://weblate.org/)", "[Použij Weblate]", "cs", "md-text"}, {"[Use Weblate](https://weblate.org/)", "[Použij Weblate] (https://weblate.org/)", "cs", "md-text"},
				{"[Use Weblate](../demo/)", "[Použij Weblate](https://example.com/)", "cs", "md-text"}, {"See <https://weblate.org/>", "Viz <https:>", "cs", "md-text"},
				{"See <noreply@weblate.org>", "Viz <noreply>", "cs", "md-text"}}},
		"md-syntax": {pass: []tc{{"**string**", "**string**", "cs", "md-text"}, {"**string**", "string", "cs", ""}, {"`code` here", "`code` tady", "cs", "md-text"}},
			fail: []tc{{"**string**", "*string*", "cs", "md-text"}, {"~~string~~", "*string*", "cs", "md-text"}, {"_string_", "*string*", "cs", "md-text"}, {"See <https://x.org>", "See https://x.org", "cs", "md-text"}}},
		"icu_message_format": {pass: []tc{{"Hello, {name}!", "Hallo, {name}!", "de", "icu-message-format"}, {"Hello, {name}!", "Hallo, Fred!", "de", ""}},
			fail: []tc{{"Hello, {name}!", "Hallo, Fred!", "de", "icu-message-format"}, {"Hello, {name}!", "Hello, {name!", "de", "icu-message-format"}}},
		"safe-html": {pass: []tc{{"<a href=\"https://weblate.org/\">link</a>", "<a href=\"https://weblate.org/\">link</a>", "cs", "safe-html"}, {"string", "string", "cs", "safe-html"}, {"string", "<b>string</b>", "cs", ""},
			{"See <https://weblate.org>", "Viz <https://weblate.org>", "cs", "md-text,safe-html"}, {"<a href=\"%(terms_url)s\">terms</a>", "<a href=\"%(terms_url)s\">podmínky</a>", "cs", "safe-html"},
			{"<a href=\"/%(terms_url)s\">terms</a>", "<a href=\"/cs/%(terms_url)s\">terms</a>", "cs", "safe-html"}, {"Press <b to continue", "<script>alert(1)</script>", "cs", "auto-safe-html"},
			{"<option selected>", "<script>alert(1)</script>", "cs", "auto-safe-html"}},
			fail: []tc{{"<a href=\"https://weblate.org/\">link</a>", "<a href=\"javascript:foo()\">link</a>", "cs", "safe-html"}, {"<a href=\"https://weblate.org/\">link</a>", "<a href=\"#\" onclick=\"x()\">link</a>", "cs", "safe-html"},
				{"<a href=\"https://weblate.org/\">link</a>", "<iframe src=\"xxx\"></iframe>", "cs", "safe-html"}, {"See <https://weblate.org>", "Viz <https://weblate.org>", "cs", "safe-html"},
				{"<a href=\"%(terms_url)s\">terms</a>", "<a href=\"„%(terms_url)s“\">terms</a>", "cs", "safe-html"}, {"Plain text", "<b>Plain text</b>", "cs", "auto-safe-html"},
				{"Line<br/>break", "Line<script>alert(1)</script>break", "cs", "auto-safe-html"}, {"Tom", "Tom & Jerry", "cs", "safe-html"}}},
		"plurals":          {pass: []tc{{"file|files", "Datei|Dateien", "de", ""}}, fail: []tc{{"file|files", "Datei|", "de", ""}}},
		"same-plurals":     {pass: []tc{{"file|files", "Datei|Dateien", "de", ""}}, fail: []tc{{"file|files", "Datei|Datei", "de", ""}}},
		"escaped_newline":  {pass: []tc{{`a\nb`, `c\nd`, "de", ""}, {`C:\\dir\name`, `C:\\dir\x`, "de", ""}}, fail: []tc{{`a\nb`, "c d", "de", ""}}},
		"newline-count":    {pass: []tc{{"a\nb", "c\nd", "de", ""}}, fail: []tc{{"a\nb", "c d", "de", ""}}},
		"zero-width-space": {pass: []tc{{"ab", "a\u200bb", "km", ""}, {"a\u200bb", "a\u200bb", "de", ""}}, fail: []tc{{"ab", "a\u200bb", "de", ""}}},
	}
	for _, id := range IDs() {
		if id == "translated" || id == "inconsistent" {
			continue // TestTranslated, TestInconsistent: they read more than the string
		}
		c, ok := cases[id]
		if !ok || len(c.pass) == 0 || len(c.fail) == 0 {
			t.Errorf("%s: no passing and failing cases", id)
			continue
		}
		for _, p := range c.pass {
			if got := failing(unit(p.source, p.target, p.lang, p.flags)); slices.Contains(got, id) {
				t.Errorf("%s fails %q → %q (%s, %s)", id, p.source, p.target, p.lang, p.flags)
			}
		}
		for _, f := range c.fail {
			if got := failing(unit(f.source, f.target, f.lang, f.flags)); !slices.Contains(got, id) {
				t.Errorf("%s passes %q → %q (%s, %s): %v", id, f.source, f.target, f.lang, f.flags, got)
			}
			ignored := unit(f.source, f.target, f.lang, f.flags+", ignore-"+strings.ReplaceAll(id, "_", "-"))
			if slices.Contains(failing(ignored), id) {
				t.Errorf("%s fails despite its ignore flag", id)
			}
		}
	}
}

func failing(u Unit) []string {
	var ids []string
	for _, f := range Run(u) {
		ids = append(ids, f.ID)
	}
	return ids
}

// TestNotChecked: empty and read-only strings are not checked, and
// ignore-all-checks switches every check off.
func TestNotChecked(t *testing.T) {
	u := unit("Done.", "fertig", "de", "")
	for _, state := range []int{0, 100} {
		u.State = state
		if got := Run(u); len(got) != 0 {
			t.Errorf("state %d: %v", state, got)
		}
	}
	if got := Run(unit("Done.", "fertig", "de", "ignore-all-checks")); len(got) != 0 {
		t.Errorf("ignore-all-checks: %v", got)
	}
}

// TestFormatMessages: what a format failure says.
func TestFormatMessages(t *testing.T) {
	for _, c := range []struct{ source, target, flags, want string }{
		{"%s of %d", "%d von %s", "c-format", "The following format strings are in the wrong order: %d, %s"},
		{"%d files", "Dateien", "c-format", "The following format strings are missing: %d"},
		{"files", "%s Dateien", "c-format", "The following format strings are extra: %s"},
		{"{name}", "{nom}", "python-brace-format", "The following format strings are missing: {name} The following format strings are extra: {nom}"},
		{"Hello", "Hallo }", "python-brace-format", "Single } encountered in the format string."},
	} {
		var got string
		for _, f := range Run(unit(c.source, c.target, "de", c.flags)) {
			if strings.HasSuffix(f.ID, "_format") {
				got = f.Message
			}
		}
		if got != c.want {
			t.Errorf("%q → %q: %q, want %q", c.source, c.target, got, c.want)
		}
	}
}

// TestPluralPairs: forms are checked against the source form Weblate's
// plural mapper gives them.
func TestPluralPairs(t *testing.T) {
	if got := sourceIndexes(english, czech); !slices.Equal(got, []int{0, 1, -1}) {
		t.Errorf("English to Czech: %v", got)
	}
	if got := sourceIndexes(english, english); !slices.Equal(got, []int{0, 1}) {
		t.Errorf("English to English: %v", got)
	}
	if got := sourceIndexes(english, Plural{Number: 2, Formula: "(n != 1)"}); !slices.Equal(got, []int{0, 1}) {
		t.Errorf("the same rule written otherwise: %v", got)
	}
}
