package suite

import (
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/tmsproject/tms/gateway/bench/origin"
)

// referenceDir finds the recordings of real Weblate servers next to the
// project (../shared/reference/weblate-responses). Without them the test
// skips, unless TMS_REQUIRE_REFERENCE is set (CI sets it when ../shared
// is there).
func referenceDir(t *testing.T) string {
	dir, _ := filepath.Abs(filepath.Join("..", "..", "..", "..", "shared", "reference", "weblate-responses", "wlc"))
	if v := os.Getenv("TMS_REFERENCE_DIR"); v != "" {
		dir = v
	}
	if _, err := os.Stat(dir); err != nil {
		if os.Getenv("TMS_REQUIRE_REFERENCE") != "" {
			t.Fatalf("reference recordings missing: %v", err)
		}
		t.Skipf("no reference recordings at %s", dir)
	}
	return dir
}

// referenceCase asks this service what a recording asked a real Weblate:
// path (below /api/, with {unit}, {category} and {change} filled in) and,
// for a POST, the body.
type referenceCase struct {
	file   string
	method string
	path   string
	body   any
}

var referenceCases = []referenceCase{
	{"projects.json", "GET", "projects/", nil},
	{"projects-hello.json", "GET", "projects/hello/", nil},
	{"projects-hello-components.json", "GET", "projects/hello/components/", nil},
	{"projects-hello-categories.json", "GET", "projects/hello/categories/", nil},
	{"projects-hello-changes.json", "GET", "projects/hello/changes/", nil},
	{"projects-hello-languages.json", "GET", "projects/hello/languages/", nil},
	{"projects-hello-repository.json", "GET", "projects/hello/repository/", nil},
	{"projects-hello-statistics.json", "GET", "projects/hello/statistics/", nil},
	{"projects-hello-repository--POST--operation_commit.json", "POST", "projects/hello/repository/", map[string]any{"operation": "commit"}},
	{"components.json", "GET", "components/", nil},
	{"components-hello-weblate.json", "GET", "components/hello/weblate/", nil},
	{"components-hello-weblate-changes.json", "GET", "components/hello/weblate/changes/", nil},
	{"translations-hello-weblate-cs-file--POST--5c6a101f.json", "UPLOAD", "translations/hello/weblate/cs/file/", uploadBody{method: "translate"}},
	{"translations-hello-weblate-cs-file--POST--85762547.json", "UPLOAD", "translations/hello/weblate/cs/file/", uploadBody{method: "suggest"}},
	{"components-hello-weblate-lock.json", "GET", "components/hello/weblate/lock/", nil},
	{"components-hello-weblate-lock--POST--lock_true.json", "POST", "components/hello/weblate/lock/", map[string]any{"lock": true}},
	{"components-hello-weblate-repository.json", "GET", "components/hello/weblate/repository/", nil},
	{"components-hello-weblate-repository--POST--operation_commit.json", "POST", "components/hello/weblate/repository/", map[string]any{"operation": "commit"}},
	{"components-hello-weblate-repository--POST--operation_push.json", "POST", "components/hello/weblate/repository/", map[string]any{"operation": "push"}},
	{"components-hello-weblate-statistics.json", "GET", "components/hello/weblate/statistics/", nil},
	{"components-hello-weblate-translations.json", "GET", "components/hello/weblate/translations/", nil},
	{"components-hello-weblate-translations--POST--language_code_nl_BE.json", "POST", "components/hello/weblate/translations/", map[string]any{"language_code": "nl_BE"}},
	{"translations-hello-weblate-cs.json", "GET", "translations/hello/weblate/cs/", nil},
	{"translations-hello-weblate-cs-changes.json", "GET", "translations/hello/weblate/cs/changes/", nil},
	{"translations-hello-weblate-cs-repository.json", "GET", "translations/hello/weblate/cs/repository/", nil},
	{"translations-hello-weblate-cs-statistics.json", "GET", "translations/hello/weblate/cs/statistics/", nil},
	{"translations-hello-weblate-cs-units.json", "GET", "translations/hello/weblate/cs/units/", nil},
	{"units.json", "GET", "units/", nil},
	{"units-123.json", "GET", "units/{unit}/", nil},
	{"changes.json", "GET", "changes/", nil},
	{"languages.json", "GET", "languages/", nil},
	{"categories.json", "GET", "categories/", nil},
	{"categories-1.json", "GET", "categories/{category}/", nil},
	{"projects-hello-components--POST--c9c26539.json", "POST", "projects/hello/components/", map[string]any{"name": "Second",
		"slug": "second", "repo": "{repo}", "branch": "main", "filemask": "po/*.po", "new_base": "po/hello.pot", "file_format": "po"}},
	{"projects--POST--name_Hello.json", "POST", "projects/", map[string]any{"name": "Hello2", "slug": "hello2", "web": "http://example.com/",
		"source_language": map[string]any{"code": "ml", "name": "Malayalam"}}},
}

// referenceSkipped are the recordings this test does not replay, and why.
var referenceSkipped = map[string]string{
	"components-hello-android.json":                  "an Android strings.xml component: file formats beyond gettext are issue 12",
	"components-hello-olderweblate.json":             "a component as Weblate 2.x answered it, before the fields SPEC.md settles",
	"languages--POST--code_tst.json":                 "creating languages through the API is not offered (languages come from the built-in table and from files)",
	"projects-hello-components--POST--3fcd0ab4.json": "component creation from a ZIP upload (docfile/zipfile) is not offered; the JSON creation is replayed by the c9c26539 case",
}

// TestMatchesReferenceRecordings replays what real Weblate servers were
// asked (the official client's recordings) against this service and
// compares the answers: key sets, JSON types of every value, URL forms.
// Where the recordings are older than SPEC.md, the differences SPEC.md
// settles are listed in referenceDrift with the reason.
func TestMatchesReferenceRecordings(t *testing.T) {
	dir := referenceDir(t)
	spec := specFields(t, dir)
	c, fill := referenceFixture(t)
	files, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	covered := map[string]bool{"MANIFEST.json": true}
	for _, rc := range referenceCases {
		covered[rc.file] = true
	}
	for name := range referenceSkipped {
		covered[name] = true
	}
	for _, f := range files {
		if !covered[filepath.Base(f)] {
			t.Errorf("recording %s is neither replayed nor skipped with a reason", filepath.Base(f))
		}
	}
	for _, rc := range referenceCases {
		t.Run(strings.TrimSuffix(rc.file, ".json"), func(t *testing.T) {
			raw, err := os.ReadFile(filepath.Join(dir, rc.file))
			if err != nil {
				t.Fatal(err)
			}
			var want any
			if err := json.Unmarshal(raw, &want); err != nil {
				t.Fatalf("recording: %v", err)
			}
			code, body := c.request(rc.method, c.base+fill(rc.path), fillBody(rc.body, c, fill))
			if code >= 300 {
				t.Fatalf("%s %s: %d %s", rc.method, rc.path, code, body)
			}
			var got any
			if err := json.Unmarshal(body, &got); err != nil {
				t.Fatalf("answer: %v: %s", err, body)
			}
			sc := &shapeCheck{file: rc.file, kinds: referenceKinds[rc.file], spec: spec}
			sc.compare("", want, got)
			for _, d := range sc.diffs {
				t.Error(d)
			}
		})
	}
}

// fillBody fills a case's body: the fixture's repository, and an upload
// of the Czech file as this service serves it.
func fillBody(body any, c client, fill func(string) string) any {
	switch b := body.(type) {
	case map[string]any:
		out := map[string]any{}
		for k, v := range b {
			if s, ok := v.(string); ok {
				v = fill(s)
			}
			out[k] = v
		}
		return out
	case uploadBody:
		_, b.file = c.do("GET", c.base+"translations/hello/weblate/cs/file/", nil)
		return b
	}
	return body
}

// referenceFixture builds project hello with component weblate (Czech
// translated in part), a category and an edit, as the recordings have it,
// and returns a client and the filler of {unit}, {category}, {change}.
func referenceFixture(t *testing.T) (client, func(string) string) {
	const pot = "msgid \"\"\nmsgstr \"\"\n\"Content-Type: text/plain; charset=UTF-8\\n\"\n\n" +
		"#: main.c:10\nmsgid \"Hello, world!\\n\"\nmsgstr \"\"\n\n#: main.c:20\nmsgid \"Orangutan has %d banana.\\n\"\n" +
		"msgid_plural \"Orangutan has %d bananas.\\n\"\nmsgstr[0] \"\"\nmsgstr[1] \"\"\n"
	cs := strings.Replace(pot, "\"Content-Type", "\"Language: cs\\n\"\n\"Plural-Forms: nplurals=3; plural=(n==1) ? 0 : (n>=2 && n<=4) ? 1 : 2;\\n\"\n\"Content-Type", 1)
	bare, err := origin.Create(t.TempDir(), map[string][]byte{"po/hello.pot": []byte(pot), "po/cs.po": []byte(cs)})
	if err != nil {
		t.Fatal(err)
	}
	c := newStack(t, nil)
	c.want(201, "POST", c.base+"projects/", map[string]any{"name": "Hello", "slug": "hello", "web": "https://weblate.org/"})
	c.want(201, "POST", c.base+"projects/hello/components/", map[string]any{"name": "Weblate", "slug": "weblate",
		"repo": "file://" + bare, "push": "file://" + bare, "branch": "main", "filemask": "po/*.po", "new_base": "po/hello.pot",
		"file_format": "po", "source_language": map[string]any{"code": "en"}})
	waitFor(t, func() bool { code, _ := c.do("GET", c.base+"translations/hello/weblate/cs/", nil); return code == 200 })
	unit := unitBySource(t, c, c.base+"translations/hello/weblate/cs/units/", "Hello, world!\n")
	c.want(200, "PATCH", unit, map[string]any{"target": []string{"Ahoj světe!\n"}, "state": 20})
	category := c.want(201, "POST", c.base+"categories/", map[string]any{"name": "Hi", "slug": "hi", "project": "hello"})
	unitID := strings.TrimSuffix(strings.TrimPrefix(unit, c.base+"units/"), "/")
	return c, func(p string) string {
		return strings.NewReplacer("{unit}", unitID, "{category}", fmt.Sprint(int64(category["id"].(float64))),
			"{repo}", "file://"+bare).Replace(p)
	}
}

// referenceKinds names, per recording, the objects that are resources
// SPEC.md documents (by the path compareShape gives them): where the
// recording is older than SPEC.md, SPEC.md settles their keys.
var referenceKinds = map[string]map[string]string{
	"projects.json":                                  {"results[]": "Project"},
	"projects-hello.json":                            {"": "Project"},
	"projects--POST--name_Hello.json":                {"": "Project", "source_language": "Language"},
	"projects-hello-components--POST--c9c26539.json": {"": "Component", "source_language": "Language", "project": "Project"},
	"projects-hello-components.json":                 {"results[]": "Component", "results[].source_language": "Language"},
	"components.json":                                {"results[]": "Component", "results[].source_language": "Language", "results[].project": "Project"},
	"components-hello-weblate.json":                  {"": "Component", "source_language": "Language", "project": "Project"},
	"components-hello-weblate-translations.json":     {"results[]": "Translation", "results[].language": "Language"},
	"components-hello-weblate-translations--POST--language_code_nl_BE.json": {"data": "Translation", "data.language": "Language"},
	"translations-hello-weblate-cs.json":                                    {"": "Translation", "language": "Language", "component": "Component", "component.project": "Project", "component.source_language": "Language"},
	"translations-hello-weblate-cs-units.json":                              {"results[]": "Unit"},
	"units.json":                                    {"results[]": "Unit"},
	"units-123.json":                                {"": "Unit"},
	"changes.json":                                  {"results[]": "Change record"},
	"projects-hello-changes.json":                   {"results[]": "Change record"},
	"components-hello-weblate-changes.json":         {"results[]": "Change record"},
	"translations-hello-weblate-cs-changes.json":    {"results[]": "Change record"},
	"languages.json":                                {"results[]": "Language"},
	"projects-hello-statistics.json":                {"": "Translation statistics"},
	"projects-hello-languages.json":                 {"[]": "Translation statistics"},
	"components-hello-weblate-statistics.json":      {"results[]": "Translation statistics"},
	"translations-hello-weblate-cs-statistics.json": {"": "Translation statistics"},
}

// newerFields are keys the recordings predate, allowed on every object:
// Weblate 2026.8's serializers have them (its OpenAPI document, compared
// key by key in weblate_test.go).
var newerFields = func() map[string]string {
	out := map[string]string{
		"announcements_url":     "Weblate 2026.8 links the announcements of projects, categories, components and translations",
		"effective_check_flags": "Weblate 2026.8's projects, categories and components give the check flags in effect",
		"check_flags":           "Weblate 2026.8's categories have check flags, as projects and components",
		"secondary_language":    "Weblate 2026.8's categories have a secondary language, as projects and components",
		"metrics_url":           "Weblate 2026.8 links a project's metrics",
		"alert":                 "Weblate 2026.8's change records carry the alert an Alert triggered record is about",
	}
	const why = "Weblate 2026.8's projects, categories and components hold the settings components inherit"
	for _, n := range strings.Fields("license agreement new_lang language_code_style secondary_language commit_message " +
		"add_message delete_message merge_message addon_message pull_message") {
		out["inherit_"+n], out["effective_"+n] = why, why
		if n != "secondary_language" {
			out[n] = why
		}
	}
	return out
}()

// extensionFields are keys of this service's own, allowed on every
// object, each with its reason.
var extensionFields = map[string]string{
	"use_shared_tm":        "a project's setting of the shared translation memory, which Weblate's model has and its API does not show",
	"contribute_shared_tm": "a project's setting of the shared translation memory, which Weblate's model has and its API does not show",
}

// referenceExceptions are the differences from a recording that neither
// SPEC.md's tables nor a URL form explain, each with its reason.
var referenceExceptions = map[string]string{
	// Objects SPEC.md does not show: the reference's current serializers
	// settle them (weblate/api/serializers.py).
	"categories.json results[].id":                            "CategorySerializer has id (newer than the recording)",
	"categories.json results[].statistics_url":                "CategorySerializer has statistics_url (Weblate 5.5)",
	"categories-1.json id":                                    "CategorySerializer has id",
	"categories-1.json statistics_url":                        "CategorySerializer has statistics_url (Weblate 5.5)",
	"projects-hello-categories.json results[].id":             "CategorySerializer has id",
	"projects-hello-categories.json results[].statistics_url": "CategorySerializer has statistics_url (Weblate 5.5)",
	// Statistics: the conformance kit requires last_author (wlc fetches an
	// object again when it lacks it), and url is the object's page as the
	// current StatisticsSerializer gives it (get_absolute_url), where the
	// recording's Weblate gave the engage page.
	"projects-hello-statistics.json last_author":             "conformance kit: wlc needs last_author in statistics",
	"projects-hello-languages.json [].last_author":           "conformance kit: wlc needs last_author in statistics",
	"projects-hello-statistics.json url":                     "StatisticsSerializer: url is get_absolute_url (the project page)",
	"components-hello-weblate-statistics.json results[].url": "StatisticsSerializer: url is get_absolute_url (the translation page)",
	"translations-hello-weblate-cs-statistics.json url":      "StatisticsSerializer: url is get_absolute_url (the translation page)",
	// Weblate 5 addresses a project's language as /engage/<p>/-/<lang>/.
	"components-hello-weblate-translations.json results[].share_url":                       "Weblate 5 engage URL of a translation: /engage/<project>/-/<language>/",
	"components-hello-weblate-translations--POST--language_code_nl_BE.json data.share_url": "Weblate 5 engage URL of a translation: /engage/<project>/-/<language>/",
	"translations-hello-weblate-cs.json share_url":                                         "Weblate 5 engage URL of a translation: /engage/<project>/-/<language>/",
	// Repository status: the current reference has weblate_commit too
	// (issue 9 names both commits' fields); the recorded push was refused
	// ("detail" comes with result false), this one succeeds.
	"components-hello-weblate-repository.json weblate_commit":               "current repository status carries weblate_commit",
	"translations-hello-weblate-cs-repository.json weblate_commit":          "current repository status carries weblate_commit",
	"components-hello-weblate-repository--POST--operation_push.json detail": "the recorded push was refused (result false, detail the reason); here it succeeds",
	// Units of the oldest representation: SPEC.md has plural forms as
	// arrays and the unit's page as the translate view of its checksum.
	"translations-hello-weblate-cs-units.json results[].source":              "SPEC.md: source is an array of strings",
	"translations-hello-weblate-cs-units.json results[].target":              "SPEC.md: target is an array of strings",
	"translations-hello-weblate-cs-units.json results[].web_url":             "the unit's page is /translate/<p>/<c>/<l>/?checksum=<id_hash>, as Unit.get_absolute_url",
	"projects-hello-components--POST--c9c26539.json enforced_checks":         "SPEC.md: enforced_checks is an array",
	"projects-hello-components--POST--c9c26539.json source_language.web_url": "SPEC.md: web_url is the language's web page",
	// Older recordings' language objects linked web_url to the API.
	"projects-hello-components.json results[].source_language.web_url": "SPEC.md: web_url is the language's web page",
	"components.json results[].source_language.web_url":                "SPEC.md: web_url is the language's web page",
	"components-hello-weblate.json source_language.web_url":            "SPEC.md: web_url is the language's web page",
}

// specFields reads SPEC.md's field tables: resource → field names.
func specFields(t *testing.T, dir string) map[string]map[string]bool {
	raw, err := os.ReadFile(filepath.Join(dir, "..", "..", "..", "api", "SPEC.md"))
	if err != nil {
		t.Fatalf("SPEC.md: %v", err)
	}
	out := map[string]map[string]bool{}
	var resource string
	for _, line := range strings.Split(string(raw), "\n") {
		if h, ok := strings.CutPrefix(line, "### "); ok {
			resource = strings.TrimSuffix(strings.TrimSpace(h), " (embedded object)")
			out[resource] = map[string]bool{}
			continue
		}
		if resource == "" || !strings.HasPrefix(line, "| ") || strings.HasPrefix(line, "| Field") || strings.HasPrefix(line, "| Group") {
			continue
		}
		cells := strings.Split(line, "|")
		names := cells[1]
		if resource == "Translation statistics" && len(cells) > 2 {
			names = regexp.MustCompile(`\([^)]*\)`).ReplaceAllString(cells[2], "")
		}
		for _, n := range regexp.MustCompile(`[,;]`).Split(names, -1) {
			if n = strings.TrimSpace(n); n != "" {
				out[resource][n] = true
			}
		}
	}
	return out
}

// idSegments is how many identifying segments follow each API collection.
var idSegments = map[string]int{"projects": 1, "components": 2, "translations": 3, "languages": 1, "units": 1,
	"changes": 1, "categories": 1, "users": 1, "groups": 1, "roles": 1}

// urlShape is the form of an absolute URL: for the API its collection,
// identifier count and sub-resource; for a web page its first segment and
// length. ok is false for anything but an http(s) URL.
func urlShape(s string) (string, bool) {
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", false
	}
	segs := strings.Split(strings.Trim(u.EscapedPath(), "/"), "/")
	shape := ""
	if len(segs) > 1 && segs[0] == "api" {
		n := idSegments[segs[1]]
		for i := range segs {
			if i >= 2 && i < 2+n {
				segs[i] = "{}"
			}
		}
		shape = "/" + strings.Join(segs, "/") + "/"
	} else {
		shape = fmt.Sprintf("/%s/+%d", segs[0], len(segs)-1)
	}
	if q := u.Query(); len(q) > 0 {
		keys := make([]string, 0, len(q))
		for k := range q {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		shape += "?" + strings.Join(keys, "&")
	}
	return shape, true
}

// shapeCheck compares one answer with its recording.
type shapeCheck struct {
	file  string
	kinds map[string]string          // path → SPEC.md resource
	spec  map[string]map[string]bool // resource → fields
	diffs []string
}

func (sc *shapeCheck) fail(format string, args ...any) {
	sc.diffs = append(sc.diffs, fmt.Sprintf(format, args...))
}

func (sc *shapeCheck) excepted(path string) bool {
	_, ok := referenceExceptions[sc.file+" "+path]
	return ok
}

// compare lists how got differs from want in keys, JSON types and URL
// forms; a null in want takes any value; lists compare their first items.
func (sc *shapeCheck) compare(path string, want, got any) {
	if want == nil || sc.excepted(path) {
		return
	}
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			sc.fail("%s: an object in the reference, %T here", path, got)
			return
		}
		sc.compareObject(path, w, g)
	case []any:
		g, ok := got.([]any)
		if !ok {
			sc.fail("%s: a list in the reference, %T here", path, got)
			return
		}
		if len(w) > 0 && len(g) > 0 {
			sc.compare(path+"[]", w[0], g[0])
		}
	case string:
		sc.compareString(path, w, got)
	case float64:
		if _, ok := got.(float64); !ok {
			sc.fail("%s: a number in the reference, %T here", path, got)
		}
	case bool:
		if _, ok := got.(bool); !ok {
			sc.fail("%s: a boolean in the reference, %T here", path, got)
		}
	}
}

// compareObject checks keys both ways: where SPEC.md documents the object,
// a key only the recording has must be one SPEC.md no longer lists, and
// a key only this service has must be one SPEC.md lists.
func (sc *shapeCheck) compareObject(path string, w, g map[string]any) {
	fields := sc.spec[sc.kinds[path]]
	for _, k := range sortedKeys(w) {
		p := join(path, k)
		if _, have := g[k]; have {
			sc.compare(p, w[k], g[k])
		} else if (fields == nil || fields[k]) && !sc.excepted(p) {
			sc.fail("%s: missing (the reference has %v)", p, w[k])
		}
	}
	for _, k := range sortedKeys(g) {
		if _, have := w[k]; !have && (fields == nil || !fields[k]) && !sc.excepted(join(path, k)) && newerFields[k] == "" && extensionFields[k] == "" {
			sc.fail("%s: not in the reference nor in SPEC.md's %q", join(path, k), sc.kinds[path])
		}
	}
}

func (sc *shapeCheck) compareString(path, w string, got any) {
	g, ok := got.(string)
	if !ok {
		if got != nil {
			sc.fail("%s: a string in the reference, %T here", path, got)
		}
		return
	}
	ws, isURL := urlShape(w)
	if !isURL || !(strings.HasSuffix(path, "url") || strings.Contains(w, "/api/")) {
		return
	}
	if gs, _ := urlShape(g); gs != ws {
		sc.fail("%s: URL %s here, the reference's form is %s", path, g, w)
	}
}

func join(path, k string) string {
	if path == "" {
		return k
	}
	return path + "." + k
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
