package walk

import (
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tmsproject/tms/gateway/stack"
)

const token = "wlu_walktoken0123456789abcdefghijklmnopq"

const header = `msgid ""
msgstr ""
"Content-Type: text/plain; charset=UTF-8\n"
"Plural-Forms: nplurals=2; plural=(n != 1);\n"
`

func origin(t *testing.T) string {
	root := t.TempDir()
	bare, work := filepath.Join(root, "origin.git"), filepath.Join(root, "work")
	files := map[string]string{
		"po/app.pot": header + "\nmsgid \"Hello\"\nmsgstr \"\"\n\nmsgid \"%d file\"\nmsgid_plural \"%d files\"\nmsgstr[0] \"\"\nmsgstr[1] \"\"\n",
		"po/de.po":   header + "\nmsgid \"Hello\"\nmsgstr \"Hallo\"\n\n#, fuzzy\nmsgid \"%d file\"\nmsgid_plural \"%d files\"\nmsgstr[0] \"%d Datei\"\nmsgstr[1] \"%d Dateien\"\n",
	}
	for name, text := range files {
		p := filepath.Join(work, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	run := func(dir string, args ...string) {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@x", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@x")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v %s", args, err, out)
		}
	}
	run(root, "init", "-q", "--bare", "-b", "main", bare)
	run(work, "init", "-q", "-b", "main")
	run(work, "add", "-A")
	run(work, "commit", "-q", "-m", "strings")
	run(work, "push", "-q", bare, "main")
	return bare
}

type client struct {
	t    *testing.T
	base string
}

func (c client) do(method, url string, body any) (int, []byte) {
	var rd io.Reader
	if body != nil {
		raw, _ := json.Marshal(body)
		rd = strings.NewReader(string(raw))
	}
	req, _ := http.NewRequest(method, url, rd)
	req.Header.Set("Authorization", "Token "+token)
	req.Header.Set("Accept", "application/json")
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		c.t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, data
}

// TestEveryURLResolves loads a component and follows every API URL of
// every JSON response, with and without format=api.
func TestEveryURLResolves(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git binary needed to build the fixture repository")
	}
	ctx := t.Context()
	st, err := stack.Start(ctx, stack.Config{DataDir: t.TempDir(), AllowLocalRepos: true, AdminToken: token,
		Services: []string{"all"}, Log: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = st.Close() })
	srv := httptest.NewServer(st.Handler())
	t.Cleanup(srv.Close)
	c := client{t: t, base: srv.URL + "/api/"}

	if code, body := c.do("POST", c.base+"projects/", map[string]any{"name": "Hello", "slug": "hello", "web": "https://hello.example/"}); code != 201 {
		t.Fatalf("create project: %d %s", code, body)
	}
	if code, body := c.do("POST", c.base+"projects/hello/components/", map[string]any{"name": "App", "slug": "app",
		"repo": "file://" + origin(t), "branch": "main", "filemask": "po/*.po", "new_base": "po/app.pot",
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

	for _, start := range []string{c.base, c.base + "?format=api"} {
		walk(t, c, start)
	}
}

func walk(t *testing.T, c client, start string) {
	seen := map[string]bool{start: true}
	queue := []string{start}
	apiMode := strings.Contains(start, "format=api")
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
		t.Errorf("walk from %s reached only %d URLs", start, len(seen))
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
