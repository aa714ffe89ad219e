package e2e

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/tmsproject/tms/gateway/stacktest"
	"github.com/tmsproject/tms/pkg/nettest"
)

// TestImportRecovery breaks imports the ways users meet (a file missing
// from the repository, a remote that does not answer, a restart in the
// middle of an import), checks that the API says what failed, repairs the
// cause and recovers each component without deleting it.
func TestImportRecovery(t *testing.T) {
	st := stacktest.Start(t, stacktest.Options{Mode: stacktest.Binary})
	base, proc := st.API, st.Process(stacktest.All)
	call(t, "POST", base+"projects/", map[string]any{"name": "Demo", "slug": "demo", "web": "https://demo.example/"}, 201)
	checkout := gitCheckout(t)

	// A template that is not in the repository: ParseError, repaired by
	// committing it and pulling.
	if err := os.Rename(filepath.Join(checkout, "po", "demo.pot"), filepath.Join(checkout, "po", "app.pot.new")); err != nil {
		t.Fatal(err)
	}
	git(t, checkout, "add", "-A")
	git(t, checkout, "-c", "user.name=Dev", "-c", "user.email=dev@example.com", "commit", "-q", "-m", "lose the template")
	createComponent(t, base, "missing", checkout)
	expectFailure(t, base, "missing", "ParseError", "po/demo.pot")
	if err := os.Rename(filepath.Join(checkout, "po", "app.pot.new"), filepath.Join(checkout, "po", "demo.pot")); err != nil {
		t.Fatal(err)
	}
	git(t, checkout, "add", "-A")
	git(t, checkout, "-c", "user.name=Dev", "-c", "user.email=dev@example.com", "commit", "-q", "-m", "template back")
	expectOperation(t, base, "missing", "pull")
	expectRecovered(t, base, "missing")

	// A remote that refuses connections: UpdateFailure, repaired by
	// pointing the component at the right repository.
	createComponent(t, base, "remote", "http://"+stacktest.FreeAddr(t)+"/demo.git") // nothing listens there
	expectFailure(t, base, "remote", "UpdateFailure", "could not fetch")
	call(t, "PATCH", base+"components/demo/remote/", map[string]any{"repo": checkout}, 200)
	expectRecovered(t, base, "remote")

	// A remote that accepts and never answers keeps the import running; the
	// process dies. The next process fails the interrupted task, runs the
	// import again (now refused: the remote is gone) and reset recovers it
	// once the repository answers again.
	silent := nettest.Silent(t)
	createComponent(t, base, "restart", "http://"+silent.Addr().String()+"/demo.git")
	time.Sleep(time.Second) // the import is connected and waiting
	comp := call(t, "GET", base+"components/demo/restart/", nil, 200)
	task, _ := comp["task_url"].(string)
	if task == "" || call(t, "GET", task, nil, 200)["completed"] != false {
		t.Fatalf("import against a silent remote is not running: task_url %v", comp["task_url"])
	}
	_ = proc.Process.Signal(syscall.SIGKILL)
	_ = proc.Wait()
	_ = silent.Close()
	st.Restart(stacktest.All)
	interrupted := call(t, "GET", task, nil, 200)
	if res, _ := interrupted["result"].(map[string]any); interrupted["completed"] != true || res["result"] != false ||
		!strings.Contains(res["detail"].(string), "restarted") {
		t.Errorf("interrupted task after restart: %v", interrupted)
	}
	expectFailure(t, base, "restart", "UpdateFailure", "could not fetch")
	// The remote is back at a new address: the operator repoints and resets.
	call(t, "PATCH", base+"components/demo/restart/", map[string]any{"repo": "file://" + checkout}, 200)
	expectOperation(t, base, "restart", "reset")
	expectRecovered(t, base, "restart")

	// Alerts are read like the component: an anonymous caller sees those of
	// a public project, nothing of a private one, and may not write.
	alerts := base + "components/demo/restart/alerts/"
	if code := anonymousStatus(t, "GET", alerts); code != 200 {
		t.Errorf("anonymous alerts of a public project: %d", code)
	}
	call(t, "PATCH", base+"projects/demo/", map[string]any{"access_control": 100}, 200)
	if code := anonymousStatus(t, "GET", alerts); code != 404 {
		t.Errorf("anonymous alerts of a private project: %d, want 404", code)
	}
	if code := anonymousStatus(t, "POST", alerts); code != 401 {
		t.Errorf("anonymous POST on alerts: %d, want 401", code)
	}
	// So are the web pages and the badge.
	site := strings.TrimSuffix(base, "/api/")
	for _, page := range []string{"/projects/demo/", "/projects/demo/restart/", "/projects/demo/restart/de/",
		"/translate/demo/restart/de/", "/engage/demo/", "/engage/demo/-/de/", "/languages/de/demo/", "/widget/demo/restart/svg-badge.svg"} {
		if code := anonymousStatus(t, "GET", site+page); code != 404 {
			t.Errorf("anonymous %s of a private project: %d, want 404", page, code)
		}
		if code := anonymousStatus(t, "POST", site+page); code != 405 {
			t.Errorf("POST %s: %d, want 405", page, code)
		}
	}
}

func anonymousStatus(t *testing.T, method, url string) int {
	t.Helper()
	req, _ := http.NewRequest(method, url, nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	_ = resp.Body.Close()
	return resp.StatusCode
}

func createComponent(t *testing.T, base, slug, repo string) {
	t.Helper()
	call(t, "POST", base+"projects/demo/components/", map[string]any{"name": slug, "slug": slug,
		"repo": repo, "filemask": "po/*.po", "new_base": "po/demo.pot", "file_format": "po"}, 201)
}

// expectFailure waits for the component's import to fail and checks every
// place that says so: the task behind task_url, the listed alert and the
// "Alert triggered" change record naming it.
func expectFailure(t *testing.T, base, slug, alert, detail string) {
	t.Helper()
	var task map[string]any
	stacktest.Eventually(t, 60*time.Second, func() bool {
		comp := call(t, "GET", base+"components/demo/"+slug+"/", nil, 200)
		url, _ := comp["task_url"].(string)
		if url == "" {
			return false
		}
		task = call(t, "GET", url, nil, 200)
		return task["completed"] == true
	})
	res, _ := task["result"].(map[string]any)
	if res["result"] != false || !strings.Contains(res["detail"].(string), detail) {
		t.Fatalf("%s: task result %v, want a failure mentioning %q", slug, task["result"], detail)
	}
	alerts := call(t, "GET", base+"components/demo/"+slug+"/alerts/", nil, 200)["results"].([]any)
	if len(alerts) != 1 || alerts[0].(map[string]any)["name"] != alert {
		t.Fatalf("%s: alerts %v, want %s", slug, alerts, alert)
	}
	stacktest.Eventually(t, 30*time.Second, func() bool {
		ch := call(t, "GET", base+"components/demo/"+slug+"/changes/?action=47", nil, 200)["results"].([]any)
		for _, c := range ch {
			if d, _ := c.(map[string]any)["details"].(map[string]any); d["alert"] == alert {
				return true
			}
		}
		return false
	})
}

func expectOperation(t *testing.T, base, slug, op string) {
	t.Helper()
	res := call(t, "POST", base+"components/demo/"+slug+"/repository/", map[string]any{"operation": op}, 200)
	if res["result"] != true {
		t.Fatalf("%s on %s: %v", op, slug, res)
	}
}

// expectRecovered waits for the component's translations and checks that
// nothing reports a failure any more.
func expectRecovered(t *testing.T, base, slug string) {
	t.Helper()
	stacktest.Eventually(t, 60*time.Second, func() bool {
		tr, status := fetch(t, "GET", base+"translations/demo/"+slug+"/de/", nil)
		return status == 200 && tr["total"] == float64(2) && tr["translated"] == float64(1)
	})
	stacktest.Eventually(t, 30*time.Second, func() bool {
		return call(t, "GET", base+"components/demo/"+slug+"/", nil, 200)["task_url"] == nil
	})
	if alerts := call(t, "GET", base+"components/demo/"+slug+"/alerts/", nil, 200)["count"]; alerts != float64(0) {
		t.Errorf("%s: %v alerts left after recovery", slug, alerts)
	}
}
