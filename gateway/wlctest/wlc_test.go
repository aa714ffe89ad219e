package wlctest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tmsproject/tms/gateway/bench/origin"
	"github.com/tmsproject/tms/gateway/stacktest"
)

const token = stacktest.AdminToken

// suite is a running stack served over HTTP and the fixture's origin.
type suite struct {
	t    *testing.T
	api  string // base URL of the API, ending in /api/
	data string // the stack's data directory
	bare string // the origin repository
	home string // HOME of wlc: no user configuration leaks in
	out  string // where downloads go (@OUT@ in arguments)
}

func start(t *testing.T) *suite {
	t.Helper()
	st := stacktest.Start(t, stacktest.Options{})
	bare, err := origin.Create(t.TempDir(), files())
	if err != nil {
		t.Fatal(err)
	}
	return &suite{t: t, api: st.API, data: st.DataDir, bare: bare, home: t.TempDir(), out: t.TempDir()}
}

// rest calls the API directly (fixture set-up and cross-checks) and
// decodes the JSON answer into out.
func (s *suite) rest(method, path string, body, out any) int {
	s.t.Helper()
	var rd io.Reader
	if body != nil {
		data, _ := json.Marshal(body)
		rd = bytes.NewReader(data)
	}
	req, err := http.NewRequest(method, s.api+strings.TrimPrefix(path, "/api/"), rd)
	if err != nil {
		s.t.Fatal(err)
	}
	req.Header.Set("Authorization", "Token "+token)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		s.t.Fatal(err)
	}
	defer func() { _ = resp.Body.Close() }()
	data, _ := io.ReadAll(resp.Body)
	if out != nil && resp.StatusCode < 300 {
		if err := json.Unmarshal(data, out); err != nil {
			s.t.Fatalf("%s %s: %v: %s", method, path, err, data)
		}
	}
	return resp.StatusCode
}

// importFixture creates project hello and its two components and waits
// for their imports. greeter does not push on commit (Weblate's default
// does), so that commit and push are seen apart.
func (s *suite) importFixture() {
	s.t.Helper()
	if code := s.rest("POST", "projects/", map[string]any{"name": "Hello", "slug": "hello",
		"web": "https://hello.example/"}, nil); code != 201 {
		s.t.Fatalf("create project: %d", code)
	}
	for _, comp := range []string{"greeter", "menus"} {
		var created struct {
			TaskURL string `json:"task_url"`
		}
		if code := s.rest("POST", "projects/hello/components/", map[string]any{"name": strings.ToUpper(comp[:1]) + comp[1:],
			"slug": comp, "repo": s.bare, "branch": origin.Branch, "filemask": comp + "/*.po",
			"new_base": comp + "/" + comp + ".pot", "file_format": "po", "push_on_commit": comp != "greeter"},
			&created); code != 201 {
			s.t.Fatalf("create component %s: %d", comp, code)
		}
		s.waitTask(created.TaskURL)
	}
}

func (s *suite) waitTask(url string) {
	s.t.Helper()
	if url == "" {
		return
	}
	path := strings.TrimPrefix(url, s.api)
	for end := time.Now().Add(30 * time.Second); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
		var task struct {
			Completed bool           `json:"completed"`
			Result    map[string]any `json:"result"`
		}
		s.rest("GET", path, nil, &task)
		if task.Completed {
			if task.Result["result"] != true {
				s.t.Fatalf("task %s: %v", path, task.Result)
			}
			return
		}
	}
	s.t.Fatalf("task %s did not complete", path)
}

// wlc runs the client with the suite's URL and key; it returns standard
// output and an error carrying the exit status and standard error.
func (s *suite) wlc(stdin []byte, args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	full := append([]string{"--url", s.api, "--key", token, "--format", "text"}, args...)
	cmd := exec.CommandContext(ctx, "wlc", full...)
	cmd.Env = append(os.Environ(), "HOME="+s.home, "XDG_CONFIG_HOME="+filepath.Join(s.home, ".config"))
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		return out.String(), fmt.Errorf("wlc %s: %v: %s", strings.Join(args, " "), err, strings.TrimSpace(errOut.String()))
	}
	return out.String(), nil
}

// unitID finds the unit of a translation with the given source.
func (s *suite) unitID(translation, source string) int64 {
	s.t.Helper()
	var page struct {
		Results []struct {
			ID     int64    `json:"id"`
			Source []string `json:"source"`
		} `json:"results"`
	}
	s.rest("GET", "translations/"+translation+"/units/?page_size=1000", nil, &page)
	for _, u := range page.Results {
		if u.Source[0] == source {
			return u.ID
		}
	}
	s.t.Fatalf("no unit %q in %s", source, translation)
	return 0
}

// edit translates one unit through the API.
func (s *suite) edit(translation, source, target string) error {
	code := s.rest("PATCH", fmt.Sprintf("units/%d/", s.unitID(translation, source)),
		map[string]any{"target": []string{target}, "state": 20}, nil)
	if code != 200 {
		return fmt.Errorf("PATCH unit %q: status %d", source, code)
	}
	return nil
}

// target is the first target string of a unit.
func (s *suite) target(translation, source string) string {
	s.t.Helper()
	var u struct {
		Target []string `json:"target"`
	}
	s.rest("GET", fmt.Sprintf("units/%d/", s.unitID(translation, source)), nil, &u)
	if len(u.Target) == 0 {
		return ""
	}
	return u.Target[0]
}

func (s *suite) readOrigin(name string) (string, string, error) { return origin.Read(s.bare, name) }

func (s *suite) commitOrigin(files map[string][]byte, msg string) error {
	return origin.Commit(s.bare, s.t.TempDir(), files, msg)
}

// workingCopy is the service's clone of hello/greeter.
func (s *suite) workingCopy() (string, error) {
	var comp struct {
		ID int64 `json:"id"`
	}
	if code := s.rest("GET", "components/hello/greeter/", nil, &comp); code != 200 {
		return "", fmt.Errorf("GET component: status %d", code)
	}
	dir := filepath.Join(s.data, "translation", "repos", strconv.FormatInt(comp.ID, 10))
	if _, err := os.Stat(filepath.Join(dir, ".git")); err != nil {
		return "", fmt.Errorf("working copy not where expected: %w", err)
	}
	return dir, nil
}
