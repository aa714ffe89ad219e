package po

import "slices"

// formatKind is the format string language of an entry, which GNU gettext
// takes from its flags: line breaks never fall inside a directive.
type formatKind int

const (
	formatNone formatKind = iota
	formatPython
	formatPythonBrace
)

// entryFormat returns the first format language the flags claim, in GNU
// gettext's order of languages (python before python-brace).
func entryFormat(flags []string) formatKind {
	switch {
	case slices.Contains(flags, "python-format"):
		return formatPython
	case slices.Contains(flags, "python-brace-format"):
		return formatPythonBrace
	}
	return formatNone
}

// formatDirectiveInteriors marks the bytes of s that lie inside a valid
// format directive, after its first byte. Parsing stops at the first invalid
// directive, which is not marked, as in GNU gettext.
func formatDirectiveInteriors(s string, format formatKind) []bool {
	marks := make([]bool, len(s))
	var spans [][2]int
	switch format {
	case formatPython:
		spans = pythonDirectives(s)
	case formatPythonBrace:
		spans = pythonBraceDirectives(s)
	}
	for _, sp := range spans {
		for i := sp[0] + 1; i <= sp[1]; i++ {
			marks[i] = true
		}
	}
	return marks
}

// pythonDirectives returns the [first, last] byte spans of the directives of
// a Python %-format string: %[(name)][flags][width][.precision][hlL]conv.
// Named and unnamed directives may not be mixed.
func pythonDirectives(s string) [][2]int {
	var spans [][2]int
	named, unnamed := false, false
	for i := 0; i < len(s); i++ {
		if s[i] != '%' {
			continue
		}
		start := i
		i++
		isNamed := false
		if i < len(s) && s[i] == '(' {
			depth := 0
			for i++; i < len(s); i++ {
				if s[i] == '(' {
					depth++
				} else if s[i] == ')' {
					if depth == 0 {
						break
					}
					depth--
				}
			}
			if i >= len(s) {
				return spans
			}
			i++
			isNamed = true
		}
		for i < len(s) && in(int(s[i]), '-', '+', ' ', '#', '0') {
			i++
		}
		var starred bool
		i, starred = skipPythonNumber(s, i)
		if i < len(s) && s[i] == '.' {
			var precStar bool
			i, precStar = skipPythonNumber(s, i+1)
			starred = starred || precStar
		}
		if starred && named {
			return spans
		}
		unnamed = unnamed || starred
		if i < len(s) && (s[i] == 'h' || s[i] == 'l' || s[i] == 'L') {
			i++
		}
		if i >= len(s) || !in(int(s[i]), '%', 'c', 's', 'r', 'i', 'd', 'u', 'o', 'x', 'X', 'e', 'E', 'f', 'g', 'G') {
			return spans
		}
		switch {
		case isNamed && unnamed, !isNamed && s[i] != '%' && named:
			return spans
		case isNamed:
			named = true
		case s[i] != '%':
			unnamed = true
		}
		spans = append(spans, [2]int{start, i})
	}
	return spans
}

// skipPythonNumber skips a '*' or a run of digits.
func skipPythonNumber(s string, i int) (int, bool) {
	if i < len(s) && s[i] == '*' {
		return i + 1, true
	}
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	return i, false
}

// pythonBraceDirectives returns the [first, last] byte spans of the
// directives of a Python str.format string: {field[.attr|[key]]*[:spec]},
// with "{{" an escaped brace.
func pythonBraceDirectives(s string) [][2]int {
	var spans [][2]int
	p := braceParser{s: s}
	for i := 0; i < len(s); {
		if s[i] != '{' {
			i++
			continue
		}
		if i+1 < len(s) && s[i+1] == '{' {
			i += 2
			continue
		}
		end, ok := p.directive(i, true)
		if !ok {
			return spans
		}
		spans = append(spans, [2]int{i, end})
		i = end + 1
	}
	return spans
}

type braceParser struct {
	s                  string
	numbered, unnamedN int
}

// directive parses the directive whose '{' is at i and returns the index
// of its '}'.
func (p *braceParser) directive(i int, top bool) (int, bool) {
	s := p.s
	i++
	nameStart := i
	if j := p.field(i, true); j > i {
		i = j
		for i < len(s) && (s[i] == '.' || s[i] == '[') {
			if s[i] == '.' {
				j := p.field(i+1, false)
				if j == i+1 {
					return 0, false
				}
				i = j
				continue
			}
			j := p.field(i+1, true)
			if j == i+1 || j >= len(s) || s[j] != ']' {
				return 0, false
			}
			i = j + 1
		}
	} else if i >= len(s) || !top || s[i] != ':' && s[i] != '}' {
		return 0, false
	}
	nameEnd := i
	if i < len(s) && s[i] == ':' {
		if !top {
			return 0, false
		}
		i++
		if i < len(s) && s[i] == '{' {
			end, ok := p.directive(i, false)
			if !ok {
				return 0, false
			}
			i = end + 1
		} else {
			i = p.standardSpec(i)
		}
	}
	if i >= len(s) || s[i] != '}' {
		return 0, false
	}
	if top {
		switch {
		case nameEnd == nameStart:
			if p.numbered > 0 {
				return 0, false
			}
			p.unnamedN++
		case s[nameStart] >= '0' && s[nameStart] <= '9':
			if p.unnamedN > 0 {
				return 0, false
			}
			p.numbered++
		}
	}
	return i, true
}

// field skips an identifier (or, when digits is set, a number) at i.
func (p *braceParser) field(i int, digits bool) int {
	s := p.s
	isLetter := func(c byte) bool { return c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c == '_' }
	isDigit := func(c byte) bool { return c >= '0' && c <= '9' }
	switch {
	case i < len(s) && isLetter(s[i]):
		for i < len(s) && (isLetter(s[i]) || isDigit(s[i])) {
			i++
		}
	case digits && i < len(s) && isDigit(s[i]):
		for i < len(s) && isDigit(s[i]) {
			i++
		}
	}
	return i
}

// standardSpec skips [[fill]align][sign][#][0][width][.precision][type].
func (p *braceParser) standardSpec(i int) int {
	s := p.s
	isAlign := func(j int) bool { return j < len(s) && in(int(s[j]), '<', '>', '=', '^') }
	if i >= len(s) {
		return i
	}
	if isAlign(i + 1) {
		i += 2
	} else if isAlign(i) {
		i++
	}
	for _, c := range []byte{'+', '#', '0'} {
		if i < len(s) && (s[i] == c || c == '+' && (s[i] == '-' || s[i] == ' ')) {
			i++
		}
	}
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	if i+1 < len(s) && s[i] == '.' && s[i+1] >= '0' && s[i+1] <= '9' {
		i++
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
	}
	if i < len(s) && in(int(s[i]), 'b', 'c', 'd', 'o', 'x', 'X', 'n', 'e', 'E', 'f', 'F', 'g', 'G', '%') {
		i++
	}
	return i
}
