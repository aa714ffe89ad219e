package base

import "strings"

// HasFlag reports whether the unit's flags hold the flag name, with or
// without a value ("read-only", "max-length:80").
func (u *Unit) HasFlag(name string) bool {
	if !strings.Contains(u.Flags, name) {
		return false // the common case on import, without splitting
	}
	for _, f := range SplitFlags(u.Flags) {
		if n, _, _ := strings.Cut(f, ":"); n == name {
			return true
		}
	}
	return false
}

// SplitFlags splits a comma-separated list of flags outside quoted
// values, trimming each; the flags keep their own formatting.
func SplitFlags(s string) []string {
	var out []string
	var cur strings.Builder
	quote := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\\' && quote && i+1 < len(s):
			cur.WriteByte(c)
			i++
			c = s[i]
		case c == '"':
			quote = !quote
		case c == ',' && !quote:
			if f := strings.TrimSpace(cur.String()); f != "" {
				out = append(out, f)
			}
			cur.Reset()
			continue
		}
		cur.WriteByte(c)
	}
	if f := strings.TrimSpace(cur.String()); f != "" {
		out = append(out, f)
	}
	return out
}
