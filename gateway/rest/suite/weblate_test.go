package suite

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"

	validator "github.com/pb33f/libopenapi-validator"
	"gopkg.in/yaml.v3"

	"github.com/tmsproject/tms/gateway/rest"
	"github.com/tmsproject/tms/gateway/rest/apidoc"
)

// Key for key with Weblate 2026.8: every answer of this suite to a route
// that Weblate's own OpenAPI document (../shared/reference/weblate-openapi)
// also has is validated against that document too. What does not match is
// a difference; testdata/weblate-differences.txt lists each one under the
// reason for it (Weblate's behaviour, SPEC.md, or work not done yet). After
// a full run of the suite, a difference not listed fails it, and so does a
// listed one that no longer occurs: the list cannot grow, or go stale,
// without somebody saying why. Routes both define that the suite never
// calls are differences too ("not exercised"), so the comparison covers
// every shared route.

const differencesFile = "testdata/weblate-differences.txt"

// weblateDocPath is Weblate's document next to the project.
func weblateDocPath() string {
	if p := os.Getenv("TMS_WEBLATE_OPENAPI"); p != "" {
		return p
	}
	p, _ := filepath.Abs(filepath.Join("..", "..", "..", "..", "shared", "reference", "weblate-openapi", "openapi.yaml"))
	return p
}

type weblateRef struct {
	v     validator.Validator
	paths map[string]map[string]bool // normalised path → methods
}

var weblateDoc = sync.OnceValues(func() (*weblateRef, error) {
	raw, err := os.ReadFile(weblateDocPath())
	if err != nil {
		return nil, err
	}
	v, err := validatorOf(raw)
	if err != nil {
		return nil, err
	}
	var plain struct {
		Paths map[string]map[string]any `yaml:"paths"`
	}
	if err := yaml.Unmarshal(raw, &plain); err != nil {
		return nil, err
	}
	ref := &weblateRef{v: v, paths: map[string]map[string]bool{}}
	for p, item := range plain.Paths {
		ms := map[string]bool{}
		for m := range item {
			ms[strings.ToUpper(m)] = true
		}
		ref.paths[normalPath(p)] = ms
	}
	return ref, nil
})

var placeholder = regexp.MustCompile(`\{[a-z_]+\}`)

// normalPath names a path template without its parameters' names:
// Weblate's /api/projects/{slug}/ and ours /api/projects/{project}/ are
// both /api/projects/{}/.
func normalPath(p string) string { return placeholder.ReplaceAllString(p, "{}") }

// ourRoutes match a request path to the route that served it.
var ourRoutes = sync.OnceValue(func() []routeMatch {
	var out []routeMatch
	for _, rt := range rest.Routes() {
		out = append(out, routeMatch{template: normalPath(rt.Pattern + "/"), re: regexp.MustCompile(
			"^" + placeholder.ReplaceAllString(rt.Pattern+"/", `[^/]+`) + "$"), methods: rt.Methods})
	}
	return out
})

type routeMatch struct {
	template string
	re       *regexp.Regexp
	methods  []string
}

// routeOf is the template of our route matching path; of several (a
// literal segment and a parameter), the one with the fewest parameters,
// as the gateway serves it.
func routeOf(path string) string {
	best := ""
	for _, r := range ourRoutes() {
		if r.re.MatchString(path) && (best == "" || strings.Count(r.template, "{}") < strings.Count(best, "{}")) {
			best = r.template
		}
	}
	return best
}

// seen gathers the differences and the exercised routes of the run.
var seen = struct {
	sync.Mutex
	diffs     map[string]bool
	exercised map[string]bool
}{diffs: map[string]bool{}, exercised: map[string]bool{}}

var index = regexp.MustCompile(`\[\d+\]`)

// compareWithWeblate validates one JSON answer against Weblate's document.
func compareWithWeblate(req *http.Request, body []byte, resp *http.Response, data []byte) {
	ref, err := weblateDoc()
	if err != nil || resp.StatusCode >= 300 {
		return // without the reference nothing is compared; errors have their own rules
	}
	route := routeOf(req.URL.Path)
	if route == "" || !ref.paths[route][req.Method] {
		return // not Weblate's route
	}
	key := req.Method + " " + route
	seen.Lock()
	seen.exercised[key] = true
	seen.Unlock()
	r := req.Clone(req.Context())
	r.Body = io.NopCloser(bytes.NewReader(body))
	answer := *resp
	answer.Body = io.NopCloser(bytes.NewReader(data))
	_, errs := ref.v.ValidateHttpResponse(r, &answer)
	for _, e := range errs {
		lines := []string{"$: " + shorten(e.Reason)}
		if len(e.SchemaValidationErrors) > 0 {
			lines = lines[:0]
			for _, s := range e.SchemaValidationErrors {
				lines = append(lines, splitReason(shorten(s.Reason), index.ReplaceAllString(s.FieldPath, "[]"))...)
			}
		}
		seen.Lock()
		for _, l := range lines {
			seen.diffs[fmt.Sprintf("%s %d: %s", key, resp.StatusCode, l)] = true
		}
		seen.Unlock()
	}
}

var (
	schemaURL = regexp.MustCompile(`schema/[0-9a-f]+\.json`)
	oneOf     = regexp.MustCompile(`value must be one of (.*)$`)
)

// shorten keeps the first line of a reason, without what differs from run
// to run (a compiled schema's hash) or lists a whole enum.
func shorten(reason string) string {
	reason, _, _ = strings.Cut(reason, "\n")
	reason = schemaURL.ReplaceAllString(reason, "schema/….json")
	if m := oneOf.FindStringSubmatch(reason); m != nil && len(m[1]) > 60 {
		reason = fmt.Sprintf("value must be one of Weblate's %d values", strings.Count(m[1], ",")+1)
	}
	return reason
}

var quoted = regexp.MustCompile(`'([^']*)'`)

// splitReason makes one line per property of "missing properties 'a',
// 'b'", so that the list reads field by field.
func splitReason(reason, at string) []string {
	if at == "" {
		at = "$"
	}
	if strings.HasPrefix(reason, "missing propert") {
		var out []string
		for _, m := range quoted.FindAllStringSubmatch(reason, -1) {
			out = append(out, fmt.Sprintf("%s: missing %s", at, m[1]))
		}
		return out
	}
	return []string{at + ": " + reason}
}

// checkWeblateDifferences runs after the suite: the differences found must
// be the listed ones. It returns the exit status.
func checkWeblateDifferences() int {
	if _, err := weblateDoc(); err != nil {
		if os.Getenv("TMS_REQUIRE_REFERENCE") != "" {
			fmt.Fprintf(os.Stderr, "Weblate's OpenAPI document is missing: %v\n", err)
			return 1
		}
		return 0
	}
	full := flag.Lookup("test.run").Value.String() == "" && !shortRun()
	found := foundDifferences(full)
	listed, err := readDifferences()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	var unlisted, stale []string
	for d := range found {
		if _, ok := listed[d]; !ok {
			unlisted = append(unlisted, d)
		}
	}
	for d := range listed {
		if full && !found[d] {
			stale = append(stale, d)
		}
	}
	if len(unlisted)+len(stale) == 0 {
		return 0
	}
	slices.Sort(unlisted)
	slices.Sort(stale)
	fmt.Fprintf(os.Stderr, "Answers differ from Weblate's OpenAPI document without a listed reason (%s):\n%s\n",
		differencesFile, strings.Join(unlisted, "\n"))
	fmt.Fprintf(os.Stderr, "Listed differences that no longer occur:\n%s\n", strings.Join(stale, "\n"))
	return 1
}

func shortRun() bool {
	f := flag.Lookup("test.short")
	return f != nil && f.Value.String() == "true"
}

// foundDifferences are the answers' differences and, after a full run,
// the shared routes the suite never called.
func foundDifferences(full bool) map[string]bool {
	ref, _ := weblateDoc()
	seen.Lock()
	defer seen.Unlock()
	out := map[string]bool{}
	for d := range seen.diffs {
		out[d] = true
	}
	if !full {
		return out
	}
	ours := map[string]bool{}
	for _, r := range ourRoutes() {
		for _, m := range r.methods {
			key := m + " " + r.template
			ours[key] = true
			if ref.paths[r.template][m] && !seen.exercised[key] {
				out[key+": not exercised"] = true
			}
		}
	}
	for p, ms := range ref.paths {
		for m := range ms {
			if key := m + " " + p; !ours[key] && strings.HasPrefix(p, "/api/") {
				out[key+": not served"] = true
			}
		}
	}
	for key := range unmarkedExtensions(ref) {
		out[key+": not Weblate's, and not marked x-tms-extension"] = true
	}
	return out
}

// unmarkedExtensions are the operations of the API document that Weblate's
// does not have and that do not say so.
func unmarkedExtensions(ref *weblateRef) map[string]bool {
	out := map[string]bool{}
	for path, item := range rest.OpenAPI(false)["paths"].(apidoc.Schema) {
		for m, op := range item.(apidoc.Schema) {
			o, isOp := op.(apidoc.Schema)
			if !isOp || m == "parameters" {
				continue
			}
			method := strings.ToUpper(m)
			if !ref.paths[normalPath(path)][method] && o["x-tms-extension"] != true {
				out[method+" "+normalPath(path)] = true
			}
		}
	}
	return out
}

// readDifferences reads the list: "# reason" lines, each followed by the
// differences it explains. A difference without a reason is an error.
func readDifferences() (map[string]string, error) {
	f, err := os.Open(differencesFile)
	if err != nil {
		return nil, err
	}
	defer func() { _ = f.Close() }()
	out := map[string]string{}
	reason := ""
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		switch {
		case line == "":
		case strings.HasPrefix(line, "#"):
			reason = strings.TrimSpace(strings.TrimPrefix(line, "#"))
		case reason == "":
			return nil, fmt.Errorf("%s:%d: a difference without a reason", differencesFile, n)
		default:
			out[line] = reason
		}
	}
	return out, sc.Err()
}
