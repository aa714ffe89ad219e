package server

import (
	"fmt"
	"net/mail"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/tmsproject/tms/pkg/errs"
	"github.com/tmsproject/tms/pkg/weblate"
)

// Django REST framework's wording of the common validation failures.
const (
	msgRequired = "This field is required."
	msgBlank    = "This field may not be blank."
	msgSlug     = "Enter a valid “slug” consisting of letters, numbers, underscores or hyphens."
	msgURL      = "Enter a valid URL."
	msgEmail    = "Enter a valid email address."
)

// Length limits of weblate/trans/defines.py and the model fields.
const (
	projectNameLength   = 60
	componentNameLength = 100
	repoLength          = 300
	branchLength        = 200
	filenameLength      = 400
	urlLength           = 200
)

var slugPattern = regexp.MustCompile(`^[-a-zA-Z0-9_]+$`)

// checker collects the violations of one request.
type checker struct {
	v      errs.Violations
	set    fieldSet
	create bool
}

func (c *checker) add(field, code, msg string) { c.v.Add(field, code, msg) }

// present checks a required text field: absent on create is "required",
// set but blank is "blank". It reports whether further checks make sense.
func (c *checker) present(attr, proto, value string) bool {
	if strings.TrimSpace(value) != "" {
		return true
	}
	switch {
	case c.create && !c.set[proto]:
		c.add(attr, "required", msgRequired)
	case c.create || c.set[proto]:
		c.add(attr, "blank", msgBlank)
	}
	return false
}

// notBlank checks a field that has a default: only an explicit blank fails.
func (c *checker) notBlank(attr, value string) bool {
	if strings.TrimSpace(value) == "" {
		c.add(attr, "blank", msgBlank)
		return false
	}
	return true
}

func (c *checker) maxLen(attr, value string, n int) bool {
	if utf8.RuneCountInString(value) > n {
		c.add(attr, "max_length", fmt.Sprintf("Ensure this field has no more than %d characters.", n))
		return false
	}
	return true
}

// slug checks the "slug" field: present, at most n characters, a slug.
func (c *checker) slug(value string, n int) {
	const attr = "slug"
	if c.present(attr, attr, value) && c.maxLen(attr, value, n) && !slugPattern.MatchString(value) {
		c.add(attr, "invalid", msgSlug)
	}
}

// name checks the "name" field: present and at most n characters.
func (c *checker) name(value string, n int) {
	const attr = "name"
	if c.present(attr, attr, value) {
		c.maxLen(attr, value, n)
	}
}

func (c *checker) choice(attr, value string, choices ...string) {
	if !slices.Contains(choices, value) {
		c.add(attr, "invalid_choice", fmt.Sprintf("\"%s\" is not a valid choice.", value))
	}
}

func (c *checker) intChoice(attr string, value int32, choices ...int32) {
	if !slices.Contains(choices, value) {
		c.add(attr, "invalid_choice", fmt.Sprintf("\"%d\" is not a valid choice.", value))
	}
}

// enumChoice refuses a value of an enum field that the reference has no
// value for (X_UNSPECIFIED among them: defaults are given before).
func enumChoice[E ~int32, R comparable](c *checker, attr string, value E, t *weblate.Table[E, R]) {
	if _, ok := t.Ref(value); !ok {
		c.add(attr, "invalid_choice", fmt.Sprintf("\"%d\" is not a valid choice.", value))
	}
}

// webURL checks an http(s) URL as Django's URLField does, roughly.
func (c *checker) webURL(attr, value string) {
	if !c.maxLen(attr, value, urlLength) {
		return
	}
	u, err := url.Parse(value)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Hostname() == "" ||
		strings.ContainsFunc(value, unicode.IsSpace) || hasControl(value) {
		c.add(attr, "invalid", msgURL)
	}
}

func (c *checker) email(attr, value string) {
	if value == "" {
		return
	}
	if a, err := mail.ParseAddress(value); err != nil || a.Address != value {
		c.add(attr, "invalid", msgEmail)
	}
}

func (c *checker) regex(attr, value string) {
	if _, err := regexp.Compile(value); err != nil {
		c.add(attr, "invalid", "Compilation failed: "+err.Error())
	}
}

func (c *checker) err() error { return c.v.Err() }

func hasControl(s string) bool { return strings.ContainsFunc(s, unicode.IsControl) }

// repoProblem explains why a repository address is refused before it gets
// anywhere near git, "" when it is acceptable here. The scheme policy
// (file://, local paths) belongs to the translation service; this only
// stops values git would read as options or as the ext transport, which
// runs arbitrary commands.
func repoProblem(value string) string {
	lower := strings.ToLower(strings.TrimSpace(value))
	switch {
	case hasControl(value), strings.HasPrefix(strings.TrimSpace(value), "-"):
		return "Could not parse URL."
	case strings.HasPrefix(lower, "ext::"), strings.Contains(lower, "::") && !strings.Contains(lower, "://"):
		return "Fetching VCS repository using this transport is not allowed."
	}
	return ""
}

// branchProblem refuses branch names git would take for options or that
// no ref can have.
func branchProblem(value string) string {
	if strings.HasPrefix(value, "-") || hasControl(value) || strings.ContainsAny(value, " ~^:?*[\\") ||
		strings.Contains(value, "..") || strings.Contains(value, "@{") {
		return "Enter a valid branch name."
	}
	return ""
}

// pathProblem refuses file names that leave the repository.
func pathProblem(value string) string {
	switch {
	case hasControl(value):
		return "Enter a valid file name."
	case strings.HasPrefix(value, "/") || strings.HasPrefix(value, "\\") ||
		(len(value) > 1 && value[1] == ':'):
		return "The file name can not be an absolute path."
	}
	for _, part := range strings.FieldsFunc(value, func(r rune) bool { return r == '/' || r == '\\' }) {
		if part == ".." {
			return "The file name can not contain a parent directory reference."
		}
	}
	return ""
}

// languageAliasesOK mirrors validate_language_aliases: comma-separated
// "from:to" pairs.
func languageAliasesOK(value string) bool {
	if value == "" {
		return true
	}
	for _, part := range strings.Split(value, ",") {
		if strings.Count(part, ":") != 1 {
			return false
		}
	}
	return true
}
