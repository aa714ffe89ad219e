package checks

import (
	"regexp"
	"strings"
	"unicode"
)

// The other format checks of Weblate's format.py, qt.py, ruby.py and
// angularjs.py: placeholders of each syntax, compared as the C and Python
// ones are. ICU MessageFormat is not built.

// ws is Python's \s inside a bracket expression.
const ws = `\t-\r\x{1C}-\x{20}\x{85}\x{A0}\x{1680}\x{2000}-\x{200A}\x{2028}\x{2029}\x{202F}\x{205F}\x{3000}`

// cPositional is the C rule: a token without an index is matched by
// order.
func cPositional(t string) bool { return !strings.Contains(t, "$") && t != "%" }

func never(string) bool     { return false }
func always(string) bool    { return true }
func plain(t string) string { return t }

// removeSpace drops Python's whitespace from a token.
func removeSpace(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) || (r >= 0x1C && r <= 0x1F) {
			return -1
		}
		return r
	}, s)
}

// syntax is a format syntax whose token is the match's first group
// (cleaned by clean when not nil).
func syntax(pattern string, clean func(string) string, escaped string, positional func(string) bool, show func(string) string) formatSyntax {
	f := formatSyntax{re: regexp.MustCompile(pattern), positional: positional, show: show,
		token: func(m []string) string {
			if clean != nil {
				return clean(m[1])
			}
			return m[1]
		}}
	if escaped != "" {
		f.escaped = []string{escaped}
	}
	return f
}

func withoutQuotes(s string) string { return strings.ReplaceAll(s, "'", "") }
func prefixed(p string) func(string) string {
	return func(t string) string { return p + t }
}

var (
	phpFormat = formatCheck("php_format", "PHP format", "PHP format string does not match source.", "php-format",
		syntax(`%((?:(\p{Nd}+)\$)?([ +#-]*(?:\p{Nd}+)?(?:\.\p{Nd}+)?(hh|h|l|ll)?([a-zA-Z%])|))`, withoutQuotes, "%", cPositional, prefixed("%")), false)
	objcFormat = formatCheck("objc_format", "Objective-C format", "Objective-C format string does not match source.", "objc-format",
		syntax(`%((?:(\p{Nd}+)\$)?(#@[^@]+@|[ +#'-]*(?:\p{Nd}+)?(?:\.\p{Nd}+)?(hh|ll|h|l|z|t|j|q|L)?([a-zA-Z@%])|))`, withoutQuotes, "%",
			func(t string) bool { return !strings.HasPrefix(t, "#@") && cPositional(t) }, prefixed("%")), false)
	perlFormat       = formatCheck("perl_format", "Perl format", "Perl format string does not match source.", "perl-format", cPrintf, false)
	perlBraceFormat  = formatCheck("perl_brace_format", "Perl brace format", "Perl brace format string does not match source.", "perl-brace-format", syntax(`(\{([a-zA-Z0-9_]+)\})`, nil, "", never, plain), false)
	javascriptFormat = formatCheck("javascript_format", "JavaScript format", "JavaScript format string does not match source.", "javascript-format", cPrintf, false)
	luaFormat        = formatCheck("lua_format", "Lua format", "Lua format string does not match source.", "lua-format", cPrintf, false)
	pascalFormat     = formatCheck("object_pascal_format", "Object Pascal format", "Object Pascal format string does not match source.", "object-pascal-format",
		syntax(`%((?:(\*|\p{Nd}+):)?(-?(?:\*|\p{Nd}+)?(\.(?:\*|\p{Nd}+))?([defgmnpsuxDEFGMNPSUX%])|))`, withoutQuotes, "%",
			func(t string) bool { return !strings.Contains(t, ":") && t != "%" }, prefixed("%")), false)
	schemeFormat = formatCheck("scheme_format", "Scheme format", "Scheme format string does not match source.", "scheme-format",
		syntax(`~((?:(\p{Nd}+)@\*~)?((?:([+-]?\p{Nd}+|'.|[vV]|#)(,([+-]?\p{Nd}+|'.|[vV]|#))*)?:?@?([a-zA-Z%$?&_/|!\[\]()~])|))`, withoutQuotes, "~",
			func(t string) bool { return !strings.Contains(t, "@*") && t != "~" }, prefixed("~")), false)
	csharpFormat = withAlsoEnable(formatCheck("c_sharp_format", "C# format", "C# format string does not match source.", "c-sharp-format",
		syntax(`\{(\p{Nd}+)([-,?`+ws+`]+(?:\p{Nd}+)?(?:\.\p{Nd}+)?)?(:(([a-zA-Z0#.,`+ws+`]*(?:\p{Nd}+)?))?)?\}`, nil, "", never, braced), false), "csharp-format")
	laravelFormat = formatCheck("laravel_format", "Laravel format", "Laravel format string does not match source.", "laravel-format",
		syntax(`(:[A-Za-z][A-Za-z0-9_]*)`, withoutQuotes, "%", never, plain), false)
	javaPrintfFormat = formatCheck("java_printf_format", "Java format", "Java format string does not match source.", "java-printf-format",
		syntax(`%((?:(\p{Nd}+)\$)?([-.#+0,(]*(?:\p{Nd}+)?(?:\.\p{Nd}+)?(([tT][A-Za-z]|[A-Za-z])|%)))`, withoutQuotes, "%", cPositional, prefixed("%")), false)
	javaFormat          = javaMessageFormat()
	percentPlaceholders = formatCheck("percent_placeholders", "Percent placeholders", "The percent placeholders do not match source.", "percent-placeholders",
		syntax(`(%([a-zA-Z0-9_]+)%)`, nil, "", never, plain), false)
	vueFormat = formatCheck("vue_format", "Vue I18n formatting", "The Vue I18n formatting does not match source.", "vue-format",
		syntax(`(%?\{([^}]+)\}|(?:@(?:\.[a-zA-Z\x{130}\x{131}\x{17F}\x{212A}]+)?:(?:[\p{L}\p{N}_\-|./]+|\([\p{L}\p{N}_\-:|./]+\))))`, nil, "", never, plain), false)
	i18nextInterpolation = formatCheck("i18next_interpolation", "i18next interpolation", "The i18next interpolation does not match source.", "i18next-interpolation",
		syntax(`(\$t\((.+?)\)|\{\{(.+?)\}\})`, removeSpace, "", never, plain), false)
	esFormat = formatCheck("es_format", "ECMAScript template literals", "ECMAScript template literals do not match source.", "es-format",
		syntax(`\$\{[`+ws+`]*(([^}]+))[`+ws+`]*\}`, removeSpace, "", never, func(t string) string { return "${" + t + "}" }), false)
	automatticFormat = formatCheck("automattic_components_format", "Automattic components formatting",
		"The Automattic components' placeholders do not match the source.", "automattic-components-format",
		syntax(`(\{\{/?[`+ws+`]*[\p{L}\p{N}_]+[`+ws+`]*/?\}\})`, nil, "", never, plain), false)
	angularjsFormat = formatCheck("angularjs_format", "AngularJS interpolation string", "AngularJS interpolation strings do not match source.", "angularjs-format",
		syntax(`\{\{[`+ws+`]*((.+?))[`+ws+`]*\}\}`, removeSpace, "", never, plain), false)
	qtFormat = formatCheck("qt_format", "Qt format", "Qt format string does not match source.", "qt-format",
		syntax(`%(L?(\p{Nd}{1,2}))`, nil, "", never, plain), false)
	qtPluralFormat = formatCheck("qt_plural_format", "Qt plural format", "Qt plural format string does not match source.", "qt-plural-format",
		syntax(`%(L?(n))`, nil, "", always, plain), false)
	rubyFormat = formatCheck("ruby_format", "Ruby format", "Ruby format string does not match source.", "ruby-format",
		syntax(`%((?:(?:(\p{Nd}+)\$)?([ +#*-]*(?:\p{Nd}+)?(?:\.\p{Nd}+)?([a-zA-Z%])))|(?:([ +#*-]*(?:\p{Nd}+)?(?:\.\p{Nd}+)?(?:(?:<([^> ]+)>([a-zA-Z]))|(?:\{([^} ]+)\})))))`,
			nil, "", func(t string) bool { return t != "%" && !strings.ContainsAny(t, "$<{") }, plain), false)
)

func braced(t string) string { return "{" + t + "}" }

// withAlsoEnable lets more flags switch c on.
func withAlsoEnable(c check, flags ...string) check {
	c.alsoEnable = flags
	return c
}

// autoJava is what makes auto-java-messageformat switch java_format on.
var autoJava = regexp.MustCompile(`\{[` + ws + `]*\p{Nd}+[` + ws + `]*(,[` + ws + `]*[a-z]+(,[` + ws + `]*[^` + ws + `]+)?)?[` + ws + `]*\}`)

// javaMessageFormat is Weblate's JavaMessageFormatCheck: argument
// indexes compared as a multiset, and an apostrophe that must be paired.
// It runs with java-format, or with auto-java-messageformat on a source
// that holds a MessageFormat argument.
func javaMessageFormat() check {
	f := syntax(`\{(\p{Nd}+)[`+ws+`]*(,[`+ws+`]*([a-z]+)(,[`+ws+`]*([^`+ws+`]+))?)?[`+ws+`]*\}`, nil, "", never, braced)
	c := formatCheck("java_format", "Java MessageFormat", "Java MessageFormat string does not match source.", "", f, false)
	run := c.run
	c.skip = func(u *Unit) bool {
		return !u.Flags.Has("java-format") &&
			!(u.Flags.Has("auto-java-messageformat") && autoJava.MatchString(strings.Join(u.Sources, "\x1e\x1e")))
	}
	c.run = func(u *Unit) string {
		msg := run(u)
		odd := u.pairs(func(s, t string) bool { return s != "" && t != "" && strings.Count(t, "'")%2 == 1 })
		if !odd {
			return msg
		}
		const pair = "You need to pair up an apostrophe with another one."
		if msg == "" {
			return pair
		}
		return pair + " " + msg
	}
	return c
}
