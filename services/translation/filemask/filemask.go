package filemask

import (
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
)

// ErrInvalid is wrapped by every error Parse returns.
var ErrInvalid = errors.New("invalid file mask")

// Mask is a parsed file mask.
type Mask struct {
	raw  string
	segs []segment
}

// segment is one path element: literal text, or prefix*suffix.
type segment struct {
	prefix, suffix string
	wild           bool
}

// Match is one file of the working copy selected by a mask.
type Match struct {
	Code string // the text the `*` stood for
	Path string // slash-separated, relative to the root
}

// Parse validates mask and prepares it for matching.
func Parse(mask string) (Mask, error) {
	switch {
	case mask == "":
		return Mask{}, fmt.Errorf("%w: empty", ErrInvalid)
	case strings.ContainsAny(mask, "\\\x00"):
		return Mask{}, fmt.Errorf("%w: backslash or NUL", ErrInvalid)
	case strings.HasPrefix(mask, "/") || filepath.IsAbs(mask):
		return Mask{}, fmt.Errorf("%w: absolute path", ErrInvalid)
	case !strings.Contains(mask, "*"):
		return Mask{}, fmt.Errorf("%w: no * language placeholder", ErrInvalid)
	case path.Clean(mask) != mask:
		return Mask{}, fmt.Errorf("%w: not a clean relative path", ErrInvalid)
	}
	m := Mask{raw: mask}
	for _, part := range strings.Split(mask, "/") {
		if part == ".." || part == "." || part == ".git" {
			return Mask{}, fmt.Errorf("%w: segment %q not allowed", ErrInvalid, part)
		}
		switch strings.Count(part, "*") {
		case 0:
			m.segs = append(m.segs, segment{prefix: part})
		case 1:
			pre, suf, _ := strings.Cut(part, "*")
			m.segs = append(m.segs, segment{prefix: pre, suffix: suf, wild: true})
		default:
			return Mask{}, fmt.Errorf("%w: more than one * in %q", ErrInvalid, part)
		}
	}
	return m, nil
}

// String returns the mask as given.
func (m Mask) String() string { return m.raw }

// ValidCode reports whether code may stand for `*`: non-empty, not starting
// with a dot, and made of letters, digits and `_-@.` only. This keeps codes
// out of `..`, hidden directories and path separators.
func ValidCode(code string) bool {
	if code == "" || code[0] == '.' || len(code) > 64 {
		return false
	}
	for _, r := range code {
		ok := r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' ||
			r == '_' || r == '-' || r == '@' || r == '.'
		if !ok {
			return false
		}
	}
	return true
}

// Path returns the relative path of the file for code.
func (m Mask) Path(code string) (string, error) {
	if !ValidCode(code) {
		return "", fmt.Errorf("%w: language code %q", ErrInvalid, code)
	}
	return strings.ReplaceAll(m.raw, "*", code), nil
}

// Code returns the language code when rel (slash-separated) matches the mask.
func (m Mask) Code(rel string) (string, bool) {
	parts := strings.Split(rel, "/")
	if len(parts) != len(m.segs) {
		return "", false
	}
	code := ""
	for i, s := range m.segs {
		c, ok := s.match(parts[i])
		if !ok {
			return "", false
		}
		if s.wild {
			if code != "" && c != code {
				return "", false
			}
			code = c
		}
	}
	return code, true
}

// match matches one path element, returning what `*` stood for.
func (s segment) match(name string) (string, bool) {
	if !s.wild {
		return "", name == s.prefix
	}
	if len(name) < len(s.prefix)+len(s.suffix) ||
		!strings.HasPrefix(name, s.prefix) || !strings.HasSuffix(name, s.suffix) {
		return "", false
	}
	code := name[len(s.prefix) : len(name)-len(s.suffix)]
	return code, ValidCode(code)
}

// Glob lists the regular files under root that match the mask, sorted by
// path. Paths whose resolution leaves root are skipped, never followed.
func (m Mask) Glob(root string) ([]Match, error) {
	realRoot, err := RealRoot(root)
	if err != nil {
		return nil, err
	}
	out := []Match{{}}
	for i, s := range m.segs {
		last := i == len(m.segs)-1
		var next []Match
		for _, c := range out {
			next = append(next, step(root, realRoot, c, s, last)...)
		}
		out = next
	}
	slices.SortFunc(out, func(a, b Match) int { return strings.Compare(a.Path, b.Path) })
	return out, nil
}

// step expands one candidate directory by one mask segment. Only entries
// that resolve inside realRoot survive; the last segment must be a regular
// file, the others directories.
func step(root, realRoot string, at Match, s segment, last bool) []Match {
	rel, code := at.Path, at.Code
	var names []string
	if s.wild {
		entries, err := os.ReadDir(filepath.Join(root, filepath.FromSlash(rel)))
		if err != nil {
			return nil
		}
		for _, e := range entries {
			names = append(names, e.Name())
		}
	} else {
		names = []string{s.prefix}
	}
	var out []Match
	for _, name := range names {
		c, ok := s.match(name)
		if !ok {
			continue
		}
		newCode := code
		if s.wild {
			if code != "" && c != code {
				continue
			}
			newCode = c
		}
		childRel := path.Join(rel, name)
		info, ok := Resolve(realRoot, filepath.Join(root, filepath.FromSlash(childRel)))
		if !ok || (last && !info.Mode().IsRegular()) || (!last && !info.IsDir()) {
			continue
		}
		out = append(out, Match{Code: newCode, Path: childRel})
	}
	return out
}

// RealRoot is dir with its symlinks resolved, made absolute: the root the
// "inside the working copy" checks compare absolute paths with (a relative
// data directory must not reach them as it is).
func RealRoot(dir string) (string, error) {
	resolved, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return "", err
	}
	return filepath.Abs(resolved)
}

// Resolve follows the symlinks of p and reports the target's FileInfo when
// it exists and lies inside realRoot (an absolute, symlink-free path).
func Resolve(realRoot, p string) (os.FileInfo, bool) {
	resolved, err := filepath.EvalSymlinks(p)
	if err != nil {
		return nil, false
	}
	resolved, err = filepath.Abs(resolved)
	if err != nil || !Within(realRoot, resolved) {
		return nil, false
	}
	info, err := os.Stat(resolved)
	if err != nil {
		return nil, false
	}
	return info, true
}

// Within reports whether p equals root or lies below it (both absolute and
// clean).
func Within(root, p string) bool {
	rel, err := filepath.Rel(root, p)
	if err != nil {
		return false
	}
	return rel == "." || (rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel))
}

// SafePath joins rel (slash-separated, relative) to root and checks that the
// result, with symlinks of its existing part resolved, stays inside root. It
// is used for files the service itself creates (a new translation).
func SafePath(root, rel string) (string, error) {
	if rel == "" || strings.HasPrefix(rel, "/") || path.Clean(rel) != rel || rel == ".." ||
		strings.HasPrefix(rel, "../") || strings.ContainsAny(rel, "\\\x00") {
		return "", fmt.Errorf("%w: path %q", ErrInvalid, rel)
	}
	realRoot, err := RealRoot(root)
	if err != nil {
		return "", err
	}
	full := filepath.Join(root, filepath.FromSlash(rel))
	// Resolve the deepest existing ancestor: the rest is created by us.
	probe := full
	for {
		if _, err = os.Lstat(probe); err == nil {
			break
		}
		parent := filepath.Dir(probe)
		if parent == probe {
			break
		}
		probe = parent
	}
	resolved, err := filepath.EvalSymlinks(probe)
	if err != nil {
		return "", err
	}
	if abs, err := filepath.Abs(resolved); err != nil || !Within(realRoot, abs) {
		return "", fmt.Errorf("%w: path %q leaves the working copy", ErrInvalid, rel)
	}
	return full, nil
}
