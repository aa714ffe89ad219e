package checks

import "testing"

// TestICU: Weblate's cases of the ICU MessageFormat check
// (test_icu_checks.py): what fails, with its message.
func TestICU(t *testing.T) {
	tests := []struct{ source, target, flags, want string }{
		{"string", "string", "", ""},
		{"Hello, {name}!", "Hello, {name!", "", `Syntax error: Expected , or } at position 13 but found "<EOF>"`},
		{"Hello, {name!", "Hello, {name}!", "", ""},
		{"Hello, {name}!", "Hallo, {name}!", "", ""},
		{"Hello, {  \t name\n  \n}!", "Hallo, {name}!", "", ""},
		{"Hello, {name}!", "Hallo, Fred!", "", "One or more placeholders missing in the translation: name"},
		{"Hello, {firstName}!", "Hallo, {firstName} {lastName}!", "", "One or more unknown placeholders in the translation: lastName"},
		{"Cost: {value, number, ::currency/USD}", "Kosten: {value, number, ::currency/USD}", "", ""},
		{"Cost: {value, number, ::currency/USD}", "Kosten: {value}", "", "One or more placeholder types are incorrect: value"},
		{"{value, number}", "{value}", "icu-flags:-types", ""},
		{"Cost: {value, foo}", "Kosten: {value, bar}", "", "One or more placeholder types are incorrect: value"},
		{"You have {count, plural, one {# message} other {# messages}}. Yes. {count, number}.",
			"Sie haben {count, plural, one {# Nachricht} other {# Nachrichten}}. Ja. {count, number}.", "", ""},
		{"{count, number}", "{count, plural, one {typo}}", "", "Missing other sub-message for: count"},
		{"{count, test, one {yes} other {no}}", "{count, test, one {yes} other {no}}", "", ""},
		{"{pronoun,select,hehim{}sheher{}other{}}", "{pronoun,select,he{}sheeher{}other{}}", "",
			"Incorrect sub-message selectors for: pronoun (he, sheeher)"},
		{"{n,select,one{}two{}}", "{n,select,three{}four{}}", "icu-flags:-require_other:-submessage_selectors", ""},
		{"{count, number}", "{count, plural, bad {typo} other {okay}}", "", "Incorrect plural selectors for: count (bad)"},
		{"{n,number}", "{n,plural,bad{}other{}}", "icu-flags:-plural_selectors", ""},
		{"{count} apples", "{count, plural, one {# apple} other {# apples}}", "", ""},
		{"{count, number}", "{count, plural, zero{#} one{#} two{#} few{#} many{#} other{#} =0{#} =-12{#} =391.5{#}}", "", ""},
		{"mailing list at iot{'@'}lists.fedoraproject.org", "lista de discussão em iot{'@'}lists.fedoraproject.org", "",
			`Syntax error: Expected placeholder name at position 26 but found "'"`},
		{"Hello <user/>! <link>Click here!</link>", "Hallo <user />! <link>Klicke hier!</link>", "", ""},
		{"<empty />", "<empty/><empty></empty>", "icu-flags:xml", ""},
		{"<empty /><full>tag</full>", "<full /><empty>tag</empty>", "icu-flags:strict-xml",
			"One or more XML tags has unexpected content in the translation: empty One or more XML tags missing content in the translation: full"},
		{"Hello, <bold>{firstName}</bold>.", "Hello {bold} <firstName />.", "icu-flags:xml",
			"One or more placeholders should have a corresponding XML tag in the translation: bold One or more placeholders should not be an XML tag in the translation: firstName"},
		{"Hello, <bold>{firstName}</bold>.", "Hello {bold} <firstName />.", "icu-flags:xml:-tags", ""},
		{"I <3 Software", "I <3 Open Source", "icu-flags:xml", ""},
		{"I <3 Software", "I <3 Open Source", "icu-flags:strict-xml", `Syntax error: Expected > or /> at position 5 but found "O"`},
		{"<bold>test", "<italic>test", `icu-flags:xml, icu-tag-prefix:"x:"`, ""},
		{"{a} {b}", "{b}", "icu-flags:-missing", ""},
		{"{a}", "{a} {c}", "icu-flags:-extra", ""},
		{"{n, plural, one{#} other{#}}", "{n}", "", "One or more placeholder types are incorrect: n"},
		{"{x, date} {x, time}", "{x, time}", "", ""},
		{"Hello, {name}!", "Hallo, {name}!", "ignore-icu-message-format", ""},
		{"{a}", "{a, select}", "", `Syntax error: Expected select sub-messages at position 10 but found "}"`},
		{"{a}", "{a}}", "", `Syntax error: Unexpected "}" at position 3`},
		{"<b>x</b>", "<b>x", "icu-flags:xml", `Syntax error: Expected </b> at position 4 but found "<EOF>"`},
	}
	for _, tt := range tests {
		u := unit(tt.source, tt.target, "de", "icu-message-format, "+tt.flags)
		u.Targets = adjustPlurals(u.Sources, u.Targets, u.TargetPlural.Number)
		u.base = baseCode(u.Lang)
		got := ""
		if icuMessageFormat.enabled(&u) {
			got = icuMessageFormat.run(&u)
		}
		if got != tt.want {
			t.Errorf("%q → %q (%s):\n got %q\nwant %q", tt.source, tt.target, tt.flags, got, tt.want)
		}
	}
}

// TestTranslated: Weblate's "Has been translated" fires on a string that
// is empty or needs editing and had another translation, not on one
// translated, nor without a history, nor with its ignore flag.
func TestTranslated(t *testing.T) {
	tests := []struct {
		state              int
		target, translated string
		flags, want        string
	}{
		{0, "", "Nazdar svete!", "", `Previous translation was "Nazdar svete!".`},
		{10, "Nazdar", "Nazdar svete!", "", `Previous translation was "Nazdar svete!".`},
		{0, "", "", "", ""},
		{20, "Ahoj", "Nazdar svete!", "", ""},
		{10, "Nazdar svete!", "Nazdar svete!", "", ""},
		{0, "", "Nazdar svete!", "ignore-translated", ""},
	}
	for _, tt := range tests {
		u := unit("Hello, world!", tt.target, "cs", tt.flags)
		u.State, u.TranslatedTarget = tt.state, tt.translated
		got := ""
		for _, f := range Run(u) {
			if f.ID == "translated" {
				got = f.Message
			}
		}
		if got != tt.want {
			t.Errorf("state %d %q, translated %q (%s): %q, want %q", tt.state, tt.target, tt.translated, tt.flags, got, tt.want)
		}
	}
	// An empty string runs the checks of untranslated strings only.
	u := unit("Hello.", "", "cs", "")
	u.State = 0
	if got := Run(u); len(got) != 0 {
		t.Errorf("an empty string without history fails %v", got)
	}
}
