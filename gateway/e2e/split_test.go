package e2e

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/emptypb"

	"github.com/tmsproject/tms/pkg/grpcx"
	"github.com/tmsproject/tms/pkg/pgtest"
	"github.com/tmsproject/tms/pkg/policy"
	notificationv1 "github.com/tmsproject/tms/proto/gen/go/tms/notification/v1"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

const adminToken = "wlu_e2etoken0123456789abcdefghijklmnopq"

// serviceToken is the split deployment's service credential.
const serviceToken = "e2e-service-credential-0123456789abcdef"

// TestSplitDeployment runs each service in its own process on one
// PostgreSQL database (a schema each) and the gateway in a fifth process,
// then creates a project and a component through the REST API: the import
// crosses translation -> catalog over TCP and the change records travel
// through both outboxes to the changelog process.
func TestSplitDeployment(t *testing.T) {
	bin := buildTMS(t)
	dbURL := pgtest.URL(t)
	data := t.TempDir()
	addrs := map[string]string{}
	env := []string{"TMS_DATABASE_URL=" + dbURL, "TMS_DATA_DIR=" + data, "TMS_ADMIN_TOKEN=" + adminToken,
		"TMS_ALLOW_LOCAL_REPOS=true", "TMS_BACKEND_TIMEOUT=2s", "TMS_SERVICE_TOKEN=" + serviceToken}
	for _, s := range []string{"changelog", "notification", "catalog", "translation"} {
		addrs[s] = freeAddr(t)
		env = append(env, "TMS_"+strings.ToUpper(s)+"_ADDR="+addrs[s])
	}
	httpAddr := freeAddr(t)
	procs := map[string]*exec.Cmd{}
	for _, s := range []string{"changelog", "notification", "catalog", "translation"} {
		procs[s] = startProc(t, bin, env, "--services="+s, "--data-dir="+filepath.Join(data, s))
		waitTCP(t, addrs[s])
	}
	_ = startProc(t, bin, env, "--services=gateway", "--http-addr="+httpAddr, "--data-dir="+filepath.Join(data, "gateway"))
	base := "http://" + httpAddr + "/api/"
	waitHTTP(t, base)

	origin := makeOrigin(t)
	call(t, "POST", base+"projects/", map[string]any{"name": "Demo", "slug": "demo", "web": "https://demo.example/"}, 201)
	call(t, "POST", base+"projects/demo/components/", map[string]any{"name": "Demo", "slug": "demo",
		"repo": "file://" + origin, "branch": "main", "filemask": "po/*.po", "new_base": "po/demo.pot",
		"file_format": "po"}, 201)
	var tr map[string]any
	eventually(t, 60*time.Second, func() bool {
		var status int
		tr, status = fetch(t, "GET", base+"translations/demo/demo/de/", nil)
		return status == 200 && tr["total"] == float64(2)
	})
	if tr["translated"] != float64(1) || tr["translated_percent"] != 50.0 {
		t.Fatalf("de statistics: %v %v", tr["translated"], tr["translated_percent"])
	}
	eventually(t, 60*time.Second, func() bool {
		ch := call(t, "GET", base+"changes/?action=50&action=51", nil, 0)
		return ch["count"] == float64(2)
	})
	servicesRefuseStrangers(t, addrs)
	editWhileChangelogPaused(t, base, procs["changelog"])
	pausedTranslationAnswers504(t, base, procs["translation"])
	restartTranslation := func() {
		procs["translation"] = startProc(t, bin, env, "--services=translation", "--data-dir="+filepath.Join(data, "translation"))
		waitTCP(t, addrs["translation"])
		// The gateway connects again within its reconnect backoff.
		eventually(t, 10*time.Second, func() bool {
			_, status := fetch(t, "GET", base+"translations/demo/demo/de/", nil)
			return status == 200
		})
	}
	killedDuringImport(t, base, procs["translation"], restartTranslation, origin)
	deadCatalogAnswers503(t, base, procs["catalog"])
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
	silent := silentRemote(t)
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
	eventually(t, 30*time.Second, func() bool {
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
	pause(t, changelog)
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
	eventually(t, 60*time.Second, func() bool {
		ch, status := fetch(t, "GET", base+"translations/demo/demo/de/changes/?action=5", nil)
		return status == 200 && ch["count"] == float64(1)
	})
}

func buildTMS(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "tms")
	cmd := exec.Command("go", "build", "-o", bin, "github.com/tmsproject/tms/gateway/cmd/tms")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("build tms: %v\n%s", err, out)
	}
	return bin
}

func startProc(t *testing.T, bin string, env []string, args ...string) *exec.Cmd {
	t.Helper()
	return startProcIn(t, "", bin, env, args...)
}

// startProcIn runs `tms serve args...` in the working directory dir ("" is
// the test's) with env added to the test's environment.
func startProcIn(t *testing.T, dir, bin string, env []string, args ...string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(bin, append([]string{"serve"}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		done := make(chan struct{})
		go func() { _ = cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			_ = cmd.Process.Kill()
			<-done
		}
		if t.Failed() {
			t.Logf("%v output:\n%s", args, out.String())
		}
	})
	return cmd
}

// given are the ports freePorts handed out.
var (
	givenMu sync.Mutex
	given   = map[int]bool{}
)

// freeAddr is a loopback address free now, for a process the test starts
// to listen on (see freePorts).
func freeAddr(t *testing.T) string {
	t.Helper()
	return net.JoinHostPort("127.0.0.1", strconv.Itoa(freePorts(t, 1)))
}

// freePorts is the first of n consecutive loopback ports free now. They
// are drawn at random below Linux's ephemeral range (32768-60999): a port
// the kernel handed out for ":0" and got back could be given to the next
// outgoing connection of a busy machine (the parallel tests' own calls)
// before the started process binds it. No port is handed out twice in one
// test binary.
func freePorts(t *testing.T, n int) int {
	t.Helper()
	givenMu.Lock()
	defer givenMu.Unlock()
	for range 100 {
		first := 20000 + rand.IntN(12000-n) //nolint:gosec // G404: a test's port, not a secret
		if free(first, n) {
			for p := first; p < first+n; p++ {
				given[p] = true
			}
			return first
		}
	}
	t.Fatalf("no %d consecutive free ports in 20000-31999", n)
	return 0
}

// free tells whether the n ports from first are neither given nor bound.
func free(first, n int) bool {
	for p := first; p < first+n; p++ {
		if given[p] {
			return false
		}
		l, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(p)))
		if err != nil {
			return false
		}
		_ = l.Close()
	}
	return true
}

func waitTCP(t *testing.T, addr string) {
	t.Helper()
	eventually(t, 30*time.Second, func() bool {
		c, err := net.DialTimeout("tcp", addr, time.Second)
		if err == nil {
			_ = c.Close()
		}
		return err == nil
	})
}

func waitHTTP(t *testing.T, url string) {
	t.Helper()
	eventually(t, 30*time.Second, func() bool {
		r, err := http.Get(url)
		if err == nil {
			_ = r.Body.Close()
		}
		return err == nil && r.StatusCode == 200
	})
}

func eventually(t *testing.T, limit time.Duration, cond func() bool) {
	t.Helper()
	end := time.Now().Add(limit)
	for !cond() {
		if time.Now().After(end) {
			t.Fatalf("condition not met within %v", limit)
		}
		time.Sleep(200 * time.Millisecond)
	}
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

// pause stops p with SIGSTOP and waits until the kernel reports it
// stopped: a loaded machine delivers the signal late, and a request sent
// meanwhile would still be answered.
func pause(t *testing.T, p *exec.Cmd) {
	t.Helper()
	if err := p.Process.Signal(syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	stat := fmt.Sprintf("/proc/%d/stat", p.Process.Pid)
	eventually(t, 10*time.Second, func() bool {
		b, err := os.ReadFile(stat)
		if err != nil {
			return false
		}
		// The state follows the command's closing parenthesis: T is stopped.
		i := bytes.LastIndexByte(b, ')')
		return i >= 0 && len(b) > i+2 && b[i+2] == 'T'
	})
}

// pausedTranslationAnswers504 freezes the translation process: a read that
// needs it answers 504 after the backend deadline (2 s here) instead of
// hanging; one that does not keeps answering; once resumed, all is well.
func pausedTranslationAnswers504(t *testing.T, base string, translation *exec.Cmd) {
	pause(t, translation)
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
	eventually(t, 30*time.Second, func() bool {
		_, status := fetch(t, "GET", base+"translations/demo/demo/de/", nil)
		return status == 200
	})
}
