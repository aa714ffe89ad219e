package e2e

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/emptypb"

	"github.com/tmsproject/tms/gateway/stack"
	"github.com/tmsproject/tms/gateway/stacktest"
	"github.com/tmsproject/tms/pkg/grpcx"
	"github.com/tmsproject/tms/pkg/nettest"
	"github.com/tmsproject/tms/pkg/pgtest"
	"github.com/tmsproject/tms/pkg/policy"
	notificationv1 "github.com/tmsproject/tms/proto/gen/go/tms/notification/v1"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

const adminToken = stacktest.AdminToken

// serviceToken is the split deployment's service credential.
const serviceToken = stacktest.ServiceToken

// TestSplitDeployment runs each service in its own process on one
// PostgreSQL database (a schema each) and the gateway in a fifth process,
// then creates a project and a component through the REST API: the import
// crosses translation -> catalog over TCP and the change records travel
// through both outboxes to the changelog process.
func TestSplitDeployment(t *testing.T) {
	st := stacktest.Start(t, stacktest.Options{Mode: stacktest.Split, DatabaseURL: pgtest.URL(t),
		Env: []string{"TMS_BACKEND_TIMEOUT=2s"}})
	base := st.API
	addrs := st.Addrs

	origin := makeOrigin(t)
	call(t, "POST", base+"projects/", map[string]any{"name": "Demo", "slug": "demo", "web": "https://demo.example/"}, 201)
	call(t, "POST", base+"projects/demo/components/", map[string]any{"name": "Demo", "slug": "demo",
		"repo": "file://" + origin, "branch": "main", "filemask": "po/*.po", "new_base": "po/demo.pot",
		"file_format": "po"}, 201)
	var tr map[string]any
	stacktest.Eventually(t, 60*time.Second, func() bool {
		var status int
		tr, status = fetch(t, "GET", base+"translations/demo/demo/de/", nil)
		return status == 200 && tr["total"] == float64(2)
	})
	if tr["translated"] != float64(1) || tr["translated_percent"] != 50.0 {
		t.Fatalf("de statistics: %v %v", tr["translated"], tr["translated_percent"])
	}
	stacktest.Eventually(t, 60*time.Second, func() bool {
		ch := call(t, "GET", base+"changes/?action=50&action=51", nil, 0)
		return ch["count"] == float64(2)
	})
	servicesRefuseStrangers(t, addrs)
	editWhileChangelogPaused(t, base, st.Process(stack.Changelog))
	pausedTranslationAnswers504(t, base, st.Process(stack.Translation))
	restartTranslation := func() {
		st.Restart(stack.Translation)
		// The gateway connects again within its reconnect backoff.
		stacktest.Eventually(t, 10*time.Second, func() bool {
			_, status := fetch(t, "GET", base+"translations/demo/demo/de/", nil)
			return status == 200
		})
	}
	killedDuringImport(t, base, st.Process(stack.Translation), restartTranslation, origin)
	deadCatalogAnswers503(t, base, st.Process(stack.Catalog))
}

// servicesRefuseStrangers calls each service the way any process that
// reaches its port could: without the service credential, or with a wrong
// one, every call is Unauthenticated (the admin's token stays secret); with
// it, a privileged call acting for a user without the right is refused by
// the service itself.
func servicesRefuseStrangers(t *testing.T, addrs map[string]string) {
	ctx := t.Context()
	for name, addr := range addrs {
		for _, opts := range [][]grpc.DialOption{nil, {grpcx.WithServiceToken("guess")}} {
			conn, err := grpcx.Dial(addr, opts...)
			if err != nil {
				t.Fatal(err)
			}
			method := map[string]string{
				"notification": "/tms.notification.v1.NotificationService/IssueToken",
				"catalog":      "/tms.catalog.v1.CatalogService/ListProjects",
				"changelog":    "/tms.changelog.v1.ChangelogService/ListChanges",
				"translation":  "/tms.translation.v1.TranslationService/ListTranslations",
			}[name]
			err = conn.Invoke(ctx, method, &notificationv1.IssueTokenRequest{Username: "admin"}, new(emptypb.Empty))
			if status.Code(err) != codes.Unauthenticated {
				t.Errorf("%s on the %s port without the credential: %v, want Unauthenticated", method, name, err)
			}
			_ = conn.Close()
		}
	}
	conn, err := grpcx.Dial(addrs["notification"], grpcx.WithServiceToken(serviceToken))
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = conn.Close() }()
	asUser := policy.WithCaller(ctx, policy.NewAccount("mallory"))
	_, err = notificationv1.NewNotificationServiceClient(conn).IssueToken(asUser, &notificationv1.IssueTokenRequest{Username: "admin"})
	if status.Code(err) != codes.PermissionDenied {
		t.Errorf("IssueToken for admin acting for another user: %v, want PermissionDenied", err)
	}
}

// killedDuringImport kills the translation process with SIGKILL while an
// import waits on a silent remote, and restarts it: the component is there
// with no half-imported translation, its interrupted task is reported
// failed, the import runs again (refused: the remote is gone, so an
// UpdateFailure alert), reset with the right repository recovers it, and
// the other component never stopped answering.
func killedDuringImport(t *testing.T, base string, translation *exec.Cmd, restart func(), origin string) {
	silent := nettest.Silent(t)
	createComponent(t, base, "killed", "http://"+silent.Addr().String()+"/demo.git")
	time.Sleep(time.Second) // connected and waiting
	task, _ := call(t, "GET", base+"components/demo/killed/", nil, 200)["task_url"].(string)
	if task == "" || call(t, "GET", task, nil, 200)["completed"] != false {
		t.Fatalf("import against a silent remote is not running: %q", task)
	}
	_ = translation.Process.Signal(syscall.SIGKILL)
	_ = translation.Wait()
	_ = silent.Close()
	restart()
	if tr := call(t, "GET", base+"components/demo/killed/translations/", nil, 200); tr["count"] != float64(0) {
		t.Errorf("translations of the interrupted import are visible: %v", tr["count"])
	}
	// The killed process's heartbeat runs out, and the new one takes its
	// import over: finished as failed.
	var interrupted map[string]any
	stacktest.Eventually(t, 30*time.Second, func() bool {
		interrupted = call(t, "GET", task, nil, 200)
		return interrupted["completed"] == true
	})
	if res, _ := interrupted["result"].(map[string]any); res["result"] != false {
		t.Errorf("interrupted task after restart: %v", interrupted)
	}
	expectFailure(t, base, "killed", "UpdateFailure", "could not fetch")
	call(t, "PATCH", base+"components/demo/killed/", map[string]any{"repo": "file://" + origin, "branch": "main"}, 200)
	expectOperation(t, base, "killed", "reset")
	expectRecovered(t, base, "killed")
	call(t, "GET", base+"translations/demo/demo/de/", nil, 200)
}

// deadCatalogAnswers503 kills the catalog process: routes that need it
// answer 503 in the error shape (not 500), routes that do not keep
// answering.
func deadCatalogAnswers503(t *testing.T, base string, catalog *exec.Cmd) {
	_ = catalog.Process.Signal(syscall.SIGKILL)
	_ = catalog.Wait()
	out, status := fetch(t, "GET", base+"projects/", nil)
	if errsList, _ := out["errors"].([]any); status != 503 || out["type"] != "server_error" || len(errsList) != 1 {
		t.Errorf("projects with the catalog down: %d %v", status, out)
	}
	if _, status := fetch(t, "GET", base+"changes/", nil); status != 200 {
		t.Errorf("the change log with the catalog down: %d", status)
	}
}

// editWhileChangelogPaused freezes the changelog process, edits a unit (the
// edit must not wait for the change log), resumes it and expects the change
// record to arrive through the translation service's outbox.
func editWhileChangelogPaused(t *testing.T, base string, changelog *exec.Cmd) {
	units := call(t, "GET", base+"translations/demo/demo/de/units/", nil, 200)["results"].([]any)
	var unitURL string
	for _, u := range units {
		if u := u.(map[string]any); u["state"] == float64(0) {
			unitURL = u["url"].(string)
		}
	}
	if unitURL == "" {
		t.Fatal("no untranslated de unit")
	}
	stacktest.Pause(t, changelog)
	resumed := false
	resume := func() {
		if !resumed {
			resumed = true
			_ = changelog.Process.Signal(syscall.SIGCONT)
		}
	}
	defer resume()
	start := time.Now()
	call(t, "PATCH", unitURL, map[string]any{"target": []string{"Tschüss"}, "state": 20}, 200)
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("the edit waited %v for the paused change log", d)
	}
	resume()
	stacktest.Eventually(t, 60*time.Second, func() bool {
		ch, status := fetch(t, "GET", base+"translations/demo/demo/de/changes/?action=5", nil)
		return status == 200 && ch["count"] == float64(1)
	})
}

// call sends a JSON request with the admin token; want 0 accepts any 2xx.
func call(t *testing.T, method, url string, body any, want int) map[string]any {
	t.Helper()
	out, status := fetch(t, method, url, body)
	if (want != 0 && status != want) || (want == 0 && status/100 != 2) {
		t.Fatalf("%s %s: status %d, body %v", method, url, status, fmt.Sprint(out))
	}
	return out
}

// fetch sends a JSON request with the admin token and decodes the answer.
func fetch(t *testing.T, method, url string, body any) (map[string]any, int) {
	t.Helper()
	var rd *bytes.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	} else {
		rd = bytes.NewReader(nil)
	}
	req, _ := http.NewRequest(method, url, rd)
	req.Header.Set("Content-Type", "application/json")
	out, status, err := send(req)
	if err != nil {
		t.Fatal(err)
	}
	return out, status
}

// send sends req with the admin token and decodes the JSON answer.
func send(req *http.Request) (map[string]any, int, error) {
	req.Header.Set("Authorization", "Token "+adminToken)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, 0, err
	}
	defer func() { _ = resp.Body.Close() }()
	var out map[string]any
	_ = json.NewDecoder(resp.Body).Decode(&out)
	return out, resp.StatusCode, nil
}

// pausedTranslationAnswers504 freezes the translation process: a read that
// needs it answers 504 after the backend deadline (2 s here) instead of
// hanging; one that does not keeps answering; once resumed, all is well.
func pausedTranslationAnswers504(t *testing.T, base string, translation *exec.Cmd) {
	stacktest.Pause(t, translation)
	start := time.Now()
	_, status := fetch(t, "GET", base+"translations/demo/demo/de/", nil)
	took := time.Since(start)
	if _, other := fetch(t, "GET", base+"projects/demo/", nil); other != 200 {
		t.Errorf("a project read with translation paused: %d", other)
	}
	// A component is catalog data: it renders without the translation
	// service (no task URL), and the gateway stays ready.
	if comp, other := fetch(t, "GET", base+"components/demo/demo/", nil); other != 200 || comp["slug"] != "demo" {
		t.Errorf("a component read with translation paused: %d %v", other, comp)
	}
	if ready, code := fetch(t, "GET", strings.TrimSuffix(base, "api/")+"readyz", nil); code != 200 || ready["status"] != "degraded" {
		t.Errorf("readyz with translation paused: %d %v, want 200 degraded", code, ready)
	}
	_ = translation.Process.Signal(syscall.SIGCONT)
	if status != 504 || took > 10*time.Second {
		t.Errorf("translation read with the service paused: %d after %v, want 504 within the deadline", status, took)
	}
	stacktest.Eventually(t, 30*time.Second, func() bool {
		_, status := fetch(t, "GET", base+"translations/demo/demo/de/", nil)
		return status == 200
	})
}
