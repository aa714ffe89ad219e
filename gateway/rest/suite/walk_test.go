package suite

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tmsproject/tms/gateway/bench/origin"
	"github.com/tmsproject/tms/gateway/stack"
	"github.com/tmsproject/tms/gateway/stacktest"
)

const token = stacktest.AdminToken

const header = `msgid ""
msgstr ""
"Content-Type: text/plain; charset=UTF-8\n"
"Plural-Forms: nplurals=2; plural=(n != 1);\n"
`

// fixtureRepo creates a bare repository holding one PO component.
func fixtureRepo(t *testing.T) string {
	bare, err := origin.Create(t.TempDir(), map[string][]byte{
		"po/app.pot": []byte(header + "\nmsgid \"Hello\"\nmsgstr \"\"\n\nmsgid \"%d file\"\nmsgid_plural \"%d files\"\nmsgstr[0] \"\"\nmsgstr[1] \"\"\n"),
		"po/de.po":   []byte(header + "\nmsgid \"Hello\"\nmsgstr \"Hallo\"\n\n#, fuzzy\nmsgid \"%d file\"\nmsgid_plural \"%d files\"\nmsgstr[0] \"%d Datei\"\nmsgstr[1] \"%d Dateien\"\n"),
	})
	if err != nil {
		t.Fatal(err)
	}
	return bare
}

type client struct {
	t     *testing.T
	base  string
	token string // "" is the admin's, anonymous sends none
}

// anonymous is the token of a client that sends none.
const anonymous = "-"

func (c client) do(method, url string, body any) (int, []byte) {
	var rd io.Reader
	if raw, ok := body.(json.RawMessage); ok {
		rd = strings.NewReader(string(raw)) // sent as is, malformed included
	} else if body != nil {
		raw, _ := json.Marshal(body)
		rd = strings.NewReader(string(raw))
	}
	req, _ := http.NewRequest(method, url, rd)
	req.Header.Set("Accept", "application/json")
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	return c.send(req)
}

// send adds the client's token (the admin's for "", none for anonymous)
// and returns the status and body.
func (c client) send(req *http.Request) (int, []byte) {
	tok := c.token
	if tok == "" {
		tok = token
	}
	if tok != anonymous {
		req.Header.Set("Authorization", "Token "+tok)
	}
	var sent []byte
	if req.Body != nil {
		sent, _ = io.ReadAll(req.Body)
		req.Body = io.NopCloser(bytes.NewReader(sent))
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		c.t.Fatal(err)
	}
	defer func() { _ = resp.Body.Close() }()
	data, _ := io.ReadAll(resp.Body)
	c.checkSchema(req, sent, resp, data)
	return resp.StatusCode, data
}

// TestEveryURLResolves loads a component and follows every API URL of
// every JSON response, with and without format=api.
func TestEveryURLResolves(t *testing.T) {
	// The site URL written into files and commits is the one the test
	// reaches.
	c := newStackWith(t, stacktest.Options{SiteURL: true})

	if code, body := c.do("POST", c.base+"projects/", map[string]any{"name": "Hello", "slug": "hello", "web": "https://hello.example/"}); code != 201 {
		t.Fatalf("create project: %d %s", code, body)
	}
	if code, body := c.do("POST", c.base+"projects/hello/components/", map[string]any{"name": "App", "slug": "app",
		"repo": "file://" + fixtureRepo(t), "branch": "main", "filemask": "po/*.po", "new_base": "po/app.pot",
		"file_format": "po", "source_language": map[string]any{"code": "en"}}); code != 201 {
		t.Fatalf("create component: %d %s", code, body)
	}
	deadline := time.Now().Add(60 * time.Second)
	for {
		code, body := c.do("GET", c.base+"translations/hello/app/de/", nil)
		var tr map[string]any
		_ = json.Unmarshal(body, &tr)
		if code == 200 && tr["total"] == float64(2) {
			if tr["translated_percent"] != 50.0 || tr["fuzzy_percent"] != 50.0 {
				t.Errorf("de percents: %v %v", tr["translated_percent"], tr["fuzzy_percent"])
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("import did not finish: %d %s", code, body)
		}
		time.Sleep(200 * time.Millisecond)
	}
	// An edit gives the change log, credits and statistics something to show.
	_, body := c.do("GET", c.base+"translations/hello/app/de/units/", nil)
	var units struct{ Results []map[string]any }
	_ = json.Unmarshal(body, &units)
	if len(units.Results) == 0 {
		t.Fatalf("no units: %s", body)
	}
	if code, body := c.do("PATCH", units.Results[0]["url"].(string), map[string]any{"target": []string{"Hallo!"}, "state": 20}); code != 200 {
		t.Fatalf("unit edit: %d %s", code, body)
	}

	checkCredits(t, c)
	extra := annotate(t, c, units.Results[0]["url"].(string))
	checkChangeFilters(t, c, units.Results[1]["url"].(string))
	for _, format := range []string{"", "?format=api"} {
		starts := []string{c.base + format}
		for _, u := range extra {
			starts = append(starts, u+format)
		}
		web := walk(t, c, starts...)
		checkWebPages(t, c, web)
	}
	checkCommittedLinks(t, c)
}

// walkRate limits the suite's stacks so loosely that nothing is refused,
// but every answer carries its X-RateLimit headers, as Weblate's do.
const walkRate = "1000000/hour"

// newStack starts every service in process on SQLite with the admin token,
// mod adjusting the configuration, serves the API and returns the admin's
// client.
func newStack(t *testing.T, mod func(*stack.Config)) client {
	t.Helper()
	return newStackWith(t, stacktest.Options{Config: mod})
}

// newStackWith starts a stack as opts say, rate-limited as walkRate says,
// and returns the admin's client.
func newStackWith(t *testing.T, opts stacktest.Options) client {
	t.Helper()
	mod := opts.Config
	opts.Config = func(c *stack.Config) {
		c.RateLimitAnon, c.RateLimitUser = walkRate, walkRate
		if mod != nil {
			mod(c)
		}
	}
	return client{t: t, base: stacktest.Start(t, opts).API}
}

// want runs a request and fails unless it answers status; it returns the
// decoded JSON object (nil for none).
func (c client) want(status int, method, url string, body any) map[string]any {
	c.t.Helper()
	code, data := c.do(method, url, body)
	if code != status {
		c.t.Fatalf("%s %s: %d %s", method, url, code, data)
	}
	var v map[string]any
	_ = json.Unmarshal(data, &v)
	return v
}

// annotate adds and removes strings, suggestions and comments so that
// their records and URLs are walked; it returns the lists that no other
// response links to.
func annotate(t *testing.T, c client, unitURL string) []string {
	comp := c.base + "components/hello/app/"
	c.want(200, "PATCH", comp, map[string]any{"manage_units": true, "enable_suggestions": true})
	added := c.want(200, "POST", c.base+"translations/hello/app/de/units/",
		map[string]any{"source": []string{"Good bye"}, "target": []string{"Tschüss"}})
	if added["state"] != 20.0 || added["pending"] != true {
		t.Errorf("added unit: %v", added)
	}
	c.want(400, "POST", c.base+"translations/hello/app/de/units/",
		map[string]any{"source": []string{"Good bye"}, "target": []string{"Tschüss"}})
	gone := c.want(200, "POST", c.base+"translations/hello/app/de/units/", map[string]any{"source": []string{"Temporary"}})
	_, raw := c.do("GET", gone["url"].(string)+"translations/", nil)
	var siblings []map[string]any
	_ = json.Unmarshal(raw, &siblings)
	if len(siblings) != 1 {
		t.Errorf("translations of the new unit: %s", raw)
	}
	c.want(204, "DELETE", gone["url"].(string), nil)
	c.want(404, "GET", gone["url"].(string), nil)
	// Once the "String removed" records reach the change log, no record
	// links the removed units any more: the walk below finds no dead link.
	waitFor(t, func() bool {
		_, raw := c.do("GET", c.base+"changes/?action=63", nil)
		var page struct{ Count int }
		_ = json.Unmarshal(raw, &page)
		return page.Count >= len(siblings)+1
	})

	s1 := c.want(201, "POST", unitURL+"suggestions/", map[string]any{"target": []string{"Servus"}})
	s2 := c.want(201, "POST", unitURL+"suggestions/", map[string]any{"target": []string{"Moin"}})
	if s1["unit"] != unitURL || s1["target"].([]any)[0] != "Servus" {
		t.Errorf("suggestion: %v", s1)
	}
	c.want(204, "DELETE", s2["url"].(string), map[string]any{"rejection_reason": "regional"})
	s3 := c.want(201, "POST", added["url"].(string)+"suggestions/", map[string]any{"target": []string{"Auf Wiedersehen"}})
	c.want(200, "POST", s3["url"].(string)+"accept/", nil)
	c.want(404, "GET", s3["url"].(string), nil)

	c1 := c.want(201, "POST", unitURL+"comments/", map[string]any{"scope": "translation", "comment": "Too informal?"})
	c.want(201, "POST", unitURL+"comments/", map[string]any{"scope": "global", "comment": "Source typo"})
	c.want(400, "POST", unitURL+"comments/", map[string]any{"scope": "nope", "comment": "x"})
	if r := c.want(200, "POST", c1["url"].(string)+"resolve/", nil); r["resolved"] != true {
		t.Errorf("resolved comment: %v", r)
	}
	tr := c.want(200, "GET", c.base+"translations/hello/app/de/", nil)
	if tr["total"] != 3.0 || tr["have_suggestion"] != 1.0 {
		t.Errorf("de after annotations: total %v, suggestions %v", tr["total"], tr["have_suggestion"])
	}
	found := c.want(200, "GET", c.base+"translations/hello/app/de/units/?q=has:suggestion", nil)
	if found["count"] != 1.0 {
		t.Errorf("has:suggestion count: %v", found["count"])
	}
	c.want(400, "GET", c.base+"translations/hello/app/de/units/?q=nosuchfield:x", nil)
	boundedQueries(t, c)
	return []string{c.base + "suggestions/", unitURL + "suggestions/", unitURL + "comments/",
		unitURL + "translations/", c1["url"].(string)}
}

// boundedQueries sends searches past the limits of the query language:
// each answers 400 with the reason, before any statement reaches the
// database.
func boundedQueries(t *testing.T, c client) {
	tests := []struct{ name, q, reason string }{
		{"1,000 terms", strings.Repeat("Hello OR ", 999) + "Hello", "longer than 2000 characters"},
		{"60 short terms", strings.Repeat("a OR ", 59) + "a", "more than 50 search terms"},
		{"a 60,000-character term", "source:" + strings.Repeat("x", 60_000), "longer than 2000 characters"},
		{"a 600-character term", "source:" + strings.Repeat("x", 600), "a search term is longer than 500 characters"},
		{"nested 30 deep", strings.Repeat("(", 30) + "a" + strings.Repeat(")", 30), "nested too deeply"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c.t = t // c is a copy: failures belong to the subtest
			for _, route := range []string{"units/", "translations/hello/app/de/units/"} {
				body := c.want(400, "GET", c.base+route+"?q="+url.QueryEscape(tt.q), nil)
				if !strings.Contains(fmt.Sprint(body), tt.reason) {
					t.Errorf("%s: %v, want the reason %q", route, body, tt.reason)
				}
			}
		})
	}
}

// walk follows the API links of every answer from starts and returns the
// web links (web_url, share_url, translate_url, ...) it met.
func walk(t *testing.T, c client, starts ...string) []string {
	seen := map[string]bool{}
	web := map[string]bool{}
	for _, s := range starts {
		seen[s] = true
	}
	queue := append([]string(nil), starts...)
	apiMode := strings.Contains(starts[0], "format=api")
	for len(queue) > 0 && len(seen) < 600 {
		u := queue[0]
		queue = queue[1:]
		code, body := c.do("GET", u, nil)
		if code != 200 {
			t.Errorf("GET %s: %d %s", u, code, body)
			continue
		}
		if strings.Contains(u, "/file/") {
			continue
		}
		var v any
		if err := json.Unmarshal(body, &v); err != nil {
			t.Errorf("GET %s: not JSON: %v", u, err)
			continue
		}
		for _, w := range webURLs(v, c.host(), nil) {
			web[w] = true
		}
		for _, next := range apiURLs(v, nil) {
			if apiMode && !strings.Contains(next, "format=api") {
				t.Errorf("%s links %s without format=api", u, next)
			}
			if !seen[next] {
				seen[next] = true
				queue = append(queue, next)
			}
		}
	}
	if len(seen) < 30 {
		t.Errorf("walk from %s reached only %d URLs", starts[0], len(seen))
	}
	out := make([]string, 0, len(web))
	for w := range web {
		out = append(out, w)
	}
	return out
}

func (c client) host() string { return strings.TrimSuffix(c.base, "/api/") }

// webURLs collects the links into the service's own web pages.
func webURLs(v any, host string, out []string) []string {
	switch v := v.(type) {
	case map[string]any:
		for _, x := range v {
			out = webURLs(x, host, out)
		}
	case []any:
		for _, x := range v {
			out = webURLs(x, host, out)
		}
	case string:
		if strings.HasPrefix(v, host+"/") && !strings.HasPrefix(v, host+"/api/") {
			out = append(out, v)
		}
	}
	return out
}

// checkWebPages fetches every web link and expects an HTML page.
func checkWebPages(t *testing.T, c client, pages []string) {
	t.Helper()
	kinds := map[string]bool{}
	for _, u := range pages {
		code, typ, body := c.page(u)
		if code != 200 || !strings.HasPrefix(typ, "text/html") || !strings.Contains(body, "/api/") {
			t.Errorf("GET %s: %d %s, want an HTML page linking the API:\n%.300s", u, code, typ, body)
		}
		kinds[strings.SplitN(strings.TrimPrefix(u, c.host()+"/"), "/", 2)[0]] = true
		if strings.Contains(u, "checksum=") && !strings.Contains(body, "<h2>String</h2>") {
			t.Errorf("unit page %s shows no string", u)
		}
	}
	for _, k := range []string{"projects", "translate", "engage", "languages"} {
		if !kinds[k] {
			t.Errorf("no web link under /%s/ was handed out (got %v)", k, kinds)
		}
	}
}

// page GETs a web page as a browser would (no token).
func (c client) page(url string) (int, string, string) {
	c.t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		c.t.Fatal(err)
	}
	defer func() { _ = resp.Body.Close() }()
	data, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header.Get("Content-Type"), string(data)
}

// checkCommittedLinks commits the pending edits and follows the links the
// service wrote: the Language-Team URL of the committed file and the
// translation URL of the commit message; the component zip carries the
// commit's time.
func checkCommittedLinks(t *testing.T, c client) {
	t.Helper()
	if r := c.want(200, "POST", c.base+"components/hello/app/repository/", map[string]any{"operation": "commit"}); r["result"] != true {
		t.Fatalf("commit: %v", r)
	}
	checkRepositoryShapes(t, c)
	checkComponentLists(t, c)
	_, file := c.do("GET", c.base+"translations/hello/app/de/file/", nil)
	team := regexp.MustCompile(`"Language-Team: German <([^>]+)>\\n"`).FindSubmatch(file)
	if team == nil {
		t.Fatalf("no Language-Team header in the committed file:\n%s", file)
	}
	if !regexp.MustCompile(`"X-Generator: TMS [^"]+\\n"`).Match(file) {
		t.Errorf("X-Generator does not name this service:\n%s", file)
	}
	for _, u := range []string{string(team[1]), c.host() + "/widget/hello/app/svg-badge.svg"} {
		if code, typ, _ := c.page(u); code != 200 || (!strings.HasPrefix(typ, "text/html") && typ != "image/svg+xml") {
			t.Errorf("GET %s (written into the repository): %d %s", u, code, typ)
		}
	}
	_, raw := c.do("GET", c.base+"components/hello/app/file/", nil)
	zr, err := zip.NewReader(bytes.NewReader(raw), int64(len(raw)))
	if err != nil {
		t.Fatalf("component zip: %v", err)
	}
	for _, f := range zr.File {
		if age := time.Since(f.Modified); age < -time.Minute || age > 10*time.Minute {
			t.Errorf("zip entry %s dated %v, not the commit's time", f.Name, f.Modified)
		}
	}
}

func apiURLs(v any, out []string) []string {
	switch v := v.(type) {
	case map[string]any:
		for _, x := range v {
			out = apiURLs(x, out)
		}
	case []any:
		for _, x := range v {
			out = apiURLs(x, out)
		}
	case string:
		if strings.HasPrefix(v, "http") && strings.Contains(v, "/api/") {
			out = append(out, v)
		}
	}
	return out
}

// waitFor polls cond for up to 30 s: change records travel through the
// outbox asynchronously.
func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("condition not met within 30 s")
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// checkRepositoryShapes compares the repository status answers with the
// reference's (../shared/reference/weblate-responses/wlc/*-repository.json):
// url is the endpoint itself; commits carry author and committer; the
// project-wide answer holds the flags and url only.
func checkRepositoryShapes(t *testing.T, c client) {
	t.Helper()
	project := c.want(200, "GET", c.base+"projects/hello/repository/", nil)
	if got := keys(project); !slices.Equal(got, []string{"needs_commit", "needs_merge", "needs_push", "url"}) || project["url"] != c.base+"projects/hello/repository/" {
		t.Errorf("project repository: %v", project)
	}
	for _, path := range []string{"components/hello/app/repository/", "translations/hello/app/de/repository/"} {
		r := c.want(200, "GET", c.base+path, nil)
		if r["url"] != c.base+path {
			t.Errorf("%s url %v", path, r["url"])
		}
		if got := keys(r); !slices.Equal(got, []string{"merge_failure", "needs_commit", "needs_merge", "needs_push", "remote_commit", "status", "url", "weblate_commit"}) {
			t.Errorf("%s keys %v", path, got)
		}
		for _, k := range []string{"remote_commit", "weblate_commit"} {
			commit, _ := r[k].(map[string]any)
			want := []string{"author", "author_email", "author_name", "authordate", "commit", "commit_email", "commit_name",
				"commitdate", "message", "revision", "shortrevision", "summary"}
			if got := keys(commit); !slices.Equal(got, want) {
				t.Errorf("%s %s keys %v, want %v", path, k, got, want)
			}
		}
	}
}

// checkComponentLists: a project's component list omits the project object
// of each item (as the reference answers); the list of all components
// carries it.
func checkComponentLists(t *testing.T, c client) {
	t.Helper()
	inProject := c.want(200, "GET", c.base+"projects/hello/components/", nil)["results"].([]any)
	if _, ok := inProject[0].(map[string]any)["project"]; ok || len(inProject) != 1 {
		t.Errorf("project component list items: %v", inProject)
	}
	all := c.want(200, "GET", c.base+"components/", nil)["results"].([]any)
	if p, ok := all[0].(map[string]any)["project"].(map[string]any); !ok || p["slug"] != "hello" {
		t.Errorf("component list items lack their project: %v", all[0])
	}
}

// checkCredits: the edit credits its author in the component's and the
// project's credits (counted by the changelog service), and a language or
// time range without edits credits nobody.
func checkCredits(t *testing.T, c client) {
	t.Helper()
	want := `[{"German":[{"email":"","full_name":"Administrator","change_count":1}]}]`
	for _, u := range []string{"components/hello/app/credits/", "projects/hello/credits/", "projects/hello/credits/?lang=de"} {
		var got []byte
		for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(100 * time.Millisecond) {
			var code int
			code, got = c.do("GET", c.base+u, nil)
			if code == 200 && string(got) == want || time.Now().After(deadline) {
				break
			}
		}
		if string(got) != want {
			t.Errorf("GET %s: %s, want %s", u, got, want)
		}
	}
	for _, u := range []string{"projects/hello/credits/?lang=cs", "projects/hello/credits/?end=2000-01-01T00:00:00Z"} {
		if code, got := c.do("GET", c.base+u, nil); code != 200 || string(got) != "[]" {
			t.Errorf("GET %s: %d %s, want []", u, code, got)
		}
	}
}
