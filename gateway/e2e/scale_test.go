package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/tmsproject/tms/gateway/bench/origin"
	"github.com/tmsproject/tms/gateway/stacktest"
	"github.com/tmsproject/tms/pkg/po"
	"github.com/tmsproject/tms/services/notification/delivery/webhooktest"
)

// TestScaleUnderFaults runs `tms run-scale` (2 gateways, 2 replicas of
// every service, one PostgreSQL) under a steady load of edits,
// suggestions, commits and pushes to a bare remote, with a webhook whose
// receiver counts; meanwhile it kills one replica of each service with
// SIGKILL, in turn (run-scale starts it again). At the end every edit that
// answered 2xx is in the pushed file, every change record exists once, the
// receiver got every event with a valid signature, and repository work
// resumed after the translation replica's death.
func TestScaleUnderFaults(t *testing.T) {
	if testing.Short() {
		t.Skip("the scale test runs a minute or two")
	}
	bin := stacktest.Build(t)
	data := t.TempDir()
	first := stacktest.FreePorts(t, 2)
	env := []string{"TMS_HTTP_ADDR=127.0.0.1:" + strconv.Itoa(first), "TMS_ADMIN_TOKEN=" + adminToken,
		"TMS_ALLOW_LOCAL_REPOS=true", "TMS_ALLOW_LOCAL_WEBHOOKS=true", "TMS_API_RATELIMIT_USER=1000000/hour",
		"TMS_SERVICE_TOKEN=" + serviceToken, "TMS_BACKEND_TIMEOUT=5s", "TMS_DATABASE_URL="}
	scale := exec.Command(bin, "run-scale", "--data-dir="+data)
	scale.Env = append(os.Environ(), env...)
	logFile, err := os.Create(filepath.Join(data, "run-scale.log"))
	if err != nil {
		t.Fatal(err)
	}
	scale.Stdout, scale.Stderr = logFile, logFile
	scale.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGTERM}
	if err := scale.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = scale.Process.Signal(syscall.SIGTERM)
		_ = scale.Wait()
		if t.Failed() {
			b, _ := os.ReadFile(filepath.Join(data, "run-scale.log"))
			t.Logf("run-scale output (last 8 KiB):\n%s", tail(b, 8<<10))
		}
	})
	bases := []string{fmt.Sprintf("http://127.0.0.1:%d/api/", first), fmt.Sprintf("http://127.0.0.1:%d/api/", first+1)}
	for _, b := range bases {
		stacktest.WaitHTTP(t, b)
	}
	s := newScaleRun(t, bases, data)
	s.setUp(t)
	ctx, stopLoad := context.WithCancel(t.Context())
	var load sync.WaitGroup
	for w := range 4 {
		load.Go(func() { s.editLoop(ctx, w, 4) })
	}
	load.Go(func() { s.pushLoop(ctx) })
	time.Sleep(3 * time.Second)
	for _, role := range []string{"translation", "notification", "catalog", "changelog", "gateway"} {
		s.kill(t, role)
	}
	time.Sleep(3 * time.Second)
	stopLoad()
	load.Wait()
	s.verify(t)
}

func tail(b []byte, n int) []byte {
	if len(b) > n {
		return b[len(b)-n:]
	}
	return b
}

// scaleRun is the state of the scale test: the remote, the webhook
// receiver, and what the load was told.
type scaleRun struct {
	t      *testing.T
	bases  []string
	data   string
	origin string
	recv   *webhooktest.Receiver
	units  []scaleUnit

	mu        sync.Mutex
	succeeded map[int]string   // unit index -> its last edit answered 2xx
	after     map[int][]string // unit index -> edits sent after it whose answer was lost
	accepted  []string         // every edit target answered 2xx
	suggested []string         // every suggestion answered 2xx
	edits     int
	pushes    []time.Time // successful pushes
	killedAt  time.Time   // the translation replica's death
	// hookAfter is the newest change record when the webhook was made:
	// those up to it predate the webhook, and whether they are delivered
	// depends on when delivery read them (before the webhook or after).
	hookAfter int64
}

type scaleUnit struct {
	id     int
	source string
}

func newScaleRun(t *testing.T, bases []string, data string) *scaleRun {
	return &scaleRun{t: t, bases: bases, data: data, succeeded: map[int]string{}, after: map[int][]string{}}
}

const scaleUnits = 120

// setUp makes the remote, the project, the component and the webhook.
func (s *scaleRun) setUp(t *testing.T) {
	var pot, de strings.Builder
	pot.WriteString(potHeader)
	de.WriteString(potHeader)
	for i := range scaleUnits {
		fmt.Fprintf(&pot, "\nmsgid \"String %d\"\nmsgstr \"\"\n", i)
		fmt.Fprintf(&de, "\nmsgid \"String %d\"\nmsgstr \"\"\n", i)
	}
	bare, err := origin.Create(t.TempDir(), map[string][]byte{"po/demo.pot": []byte(pot.String()), "po/de.po": []byte(de.String())})
	if err != nil {
		t.Fatal(err)
	}
	s.origin = bare
	base := s.bases[0]
	call(t, "POST", base+"projects/", map[string]any{"name": "Demo", "slug": "demo", "web": "https://demo.example/"}, 201)
	var hookURL string
	s.recv, hookURL = newReceiver(t)
	hook := call(t, "POST", base+"projects/demo/webhooks/", map[string]any{"target_url": hookURL}, 201)
	secret, _ := hook["secret"].(string)
	s.recv.SetSecret(secret)
	s.hookAfter = newestChange(t, base)
	call(t, "POST", base+"projects/demo/components/", map[string]any{"name": "Demo", "slug": "demo",
		"repo": "file://" + bare, "branch": "main", "filemask": "po/*.po", "new_base": "po/demo.pot",
		"file_format": "po", "push": "file://" + bare}, 201)
	stacktest.Eventually(t, 60*time.Second, func() bool {
		tr, status := fetch(t, "GET", base+"translations/demo/demo/de/", nil)
		return status == 200 && tr["total"] == float64(scaleUnits)
	})
	page := call(t, "GET", base+"translations/demo/demo/de/units/?page_size=1000", nil, 200)
	for _, r := range page["results"].([]any) {
		u := r.(map[string]any)
		s.units = append(s.units, scaleUnit{id: int(u["id"].(float64)), source: u["source"].([]any)[0].(string)})
	}
	if len(s.units) != scaleUnits {
		t.Fatalf("%d units, want %d", len(s.units), scaleUnits)
	}
}

// editLoop edits the units of worker w (every n-th), alternating
// gateways, with a suggestion now and then, until ctx ends.
func (s *scaleRun) editLoop(ctx context.Context, w, n int) {
	for i := 0; ctx.Err() == nil; i++ {
		k := (w + n*i) % len(s.units)
		u := s.units[k]
		base := s.bases[i%len(s.bases)]
		if i%7 == 3 {
			target := fmt.Sprintf("suggestion %d-%d", w, i)
			if status := s.send(ctx, "POST", base+"units/"+strconv.Itoa(u.id)+"/suggestions/", map[string]any{"target": []string{target}}); status/100 == 2 {
				s.mu.Lock()
				s.suggested = append(s.suggested, target)
				s.mu.Unlock()
			}
			continue
		}
		target := fmt.Sprintf("edit %d-%d", w, i)
		status := s.send(ctx, "PATCH", base+"units/"+strconv.Itoa(u.id)+"/", map[string]any{"target": []string{target}, "state": 20})
		s.mu.Lock()
		s.edits++
		if status/100 == 2 {
			s.succeeded[k], s.after[k] = target, nil
			s.accepted = append(s.accepted, target)
		} else if status != 400 && status != 403 && status != 404 {
			s.after[k] = append(s.after[k], target) // may have been applied
		}
		s.mu.Unlock()
	}
}

// pushLoop pushes the component every second through either gateway.
func (s *scaleRun) pushLoop(ctx context.Context) {
	for i := 0; ctx.Err() == nil; i++ {
		var res map[string]any
		status := s.sendInto(ctx, "POST", s.bases[i%2]+"components/demo/demo/repository/", map[string]any{"operation": "push"}, &res)
		if status == 200 && res["result"] == true {
			s.mu.Lock()
			s.pushes = append(s.pushes, time.Now())
			s.mu.Unlock()
		}
		select {
		case <-ctx.Done():
		case <-time.After(time.Second):
		}
	}
}

func (s *scaleRun) send(ctx context.Context, method, url string, body any) int {
	return s.sendInto(ctx, method, url, body, nil)
}

// sendInto sends a request as the admin; 0 when it got no answer.
func (s *scaleRun) sendInto(ctx context.Context, method, url string, body any, into *map[string]any) int {
	req, err := jsonRequest(ctx, method, url, body)
	if err != nil {
		return 0
	}
	out, status, err := send(req)
	if err != nil {
		return 0
	}
	if into != nil {
		*into = out
	}
	return status
}

// kill ends replica 1 of role with SIGKILL and waits until run-scale has
// started it again.
func (s *scaleRun) kill(t *testing.T, role string) {
	t.Helper()
	pidFile := filepath.Join(s.data, "run", role+"-1.pid")
	b, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		t.Fatal(err)
	}
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	killed := time.Now()
	if role == "translation" {
		s.mu.Lock()
		s.killedAt = killed
		s.mu.Unlock()
	}
	stacktest.Eventually(t, 60*time.Second, func() bool {
		b, err := os.ReadFile(pidFile)
		return err == nil && strings.TrimSpace(string(b)) != strconv.Itoa(pid)
	})
	t.Logf("%s-1 killed and running again after %v", role, time.Since(killed).Round(time.Millisecond))
	time.Sleep(2 * time.Second) // load on the restarted replica before the next kill
}

// verify pushes what is left and checks the remote, the change log and
// the receiver.
func (s *scaleRun) verify(t *testing.T) {
	base := s.bases[0]
	stacktest.Eventually(t, 90*time.Second, func() bool {
		res, status := fetch(t, "POST", base+"components/demo/demo/repository/", map[string]any{"operation": "push"})
		return status == 200 && res["result"] == true
	})
	s.mu.Lock()
	defer s.mu.Unlock()
	t.Logf("%d edits sent, %d answered 2xx, %d suggestions, %d pushes", s.edits, len(s.accepted), len(s.suggested), len(s.pushes))
	for _, p := range s.pushes {
		if p.After(s.killedAt) {
			t.Logf("repository work resumed %v after the translation replica's death", p.Sub(s.killedAt).Round(time.Millisecond))
			break
		}
	}
	s.checkRemote(t)
	s.checkChanges(t, base)
}

// checkRemote: each unit holds its last edit answered 2xx, or one sent
// after it whose answer was lost (a timeout that was applied).
func (s *scaleRun) checkRemote(t *testing.T) {
	text, err := origin.File(s.origin, origin.Branch, "po/de.po")
	if err != nil {
		t.Fatal(err)
	}
	cat, err := po.Parse([]byte(text))
	if err != nil {
		t.Fatal(err)
	}
	pushed := map[string]string{}
	for _, e := range cat.Entries() {
		if len(e.Msgstr) > 0 {
			pushed[e.Msgid] = e.Msgstr[0]
		}
	}
	missing := 0
	for k, want := range s.succeeded {
		got := pushed[s.units[k].source]
		if got != want && !contains(s.after[k], got) {
			missing++
			if missing <= 5 {
				t.Errorf("%s: pushed %q, want %q (answered 2xx)", s.units[k].source, got, want)
			}
		}
	}
	if missing > 0 {
		t.Errorf("%d of %d edited strings lack their last accepted edit in the pushed file", missing, len(s.succeeded))
	}
}

// checkChanges: every accepted edit and suggestion has one change record,
// and the receiver got every change of the project, signed.
func (s *scaleRun) checkChanges(t *testing.T, base string) {
	count := map[string]int{}
	ids := map[float64]bool{}
	actions := map[int64]string{} // of each record, to name one a stall is missing
	for url := base + "changes/?page_size=1000"; url != ""; {
		page := call(t, "GET", url, nil, 200)
		for _, r := range page["results"].([]any) {
			ch := r.(map[string]any)
			count[fmt.Sprint(ch["target"])]++
			if id := int64(ch["id"].(float64)); id > s.hookAfter {
				ids[ch["id"].(float64)] = true
				actions[id] = fmt.Sprint(ch["action_name"], " (", ch["timestamp"], ")")
			}
		}
		url, _ = page["next"].(string)
	}
	for _, target := range append(append([]string{}, s.accepted...), s.suggested...) {
		if count[target] != 1 {
			t.Errorf("%q has %d change records, want 1", target, count[target])
		}
	}
	var distinct, total, bad int
	// A liveness bound, not a speed target: after the kills the replicas
	// deliver the backlog again, and under the race detector on 2 cores,
	// beside other test packages, that took longer than 150 s. Progress is
	// logged, so a stall tells itself apart from slowness.
	last := time.Now()
	stacktest.Eventually(t, 300*time.Second, func() bool {
		distinct, total, bad = s.recv.Counts()
		if time.Since(last) > 30*time.Second {
			t.Logf("webhook: %d of %d change records received so far; not yet: %s", distinct, len(ids), notYet(s.recv, actions))
			last = time.Now()
		}
		return len(s.recv.Missing(slices.Sorted(maps.Keys(actions)))) == 0
	})
	// Counted again: posts that came between the loop's last count and
	// its check of what is missing are in neither otherwise.
	distinct, total, bad = s.recv.Counts()
	t.Logf("webhook: %d change records, %d events received, %d posts in all (%d repeated after a kill), %d bad signatures",
		len(ids), distinct, total, total-distinct, bad)
	// The records that predate the webhook may have come too.
	if bad != 0 || distinct < len(ids) || distinct > len(ids)+int(s.hookAfter) {
		t.Errorf("webhook: %d distinct events for %d records (and %d before the webhook), %d bad signatures",
			distinct, len(ids), s.hookAfter, bad)
	}
	if total-distinct > 32 {
		t.Errorf("webhook: %d repeated posts, want only those under way at a kill", total-distinct)
	}
}

// notYet names up to five change records no webhook post carried yet.
// newestChange is the id of the newest change record (0: none).
func newestChange(t *testing.T, base string) int64 {
	var newest int64
	for url := base + "changes/?page_size=1000"; url != ""; {
		page := call(t, "GET", url, nil, 200)
		for _, r := range page["results"].([]any) {
			newest = max(newest, int64(r.(map[string]any)["id"].(float64)))
		}
		url, _ = page["next"].(string)
	}
	return newest
}

func notYet(recv *webhooktest.Receiver, actions map[int64]string) string {
	ids := slices.Sorted(maps.Keys(actions))
	var out []string
	for _, id := range recv.Missing(ids) {
		if len(out) == 5 {
			out = append(out, "...")
			break
		}
		out = append(out, fmt.Sprintf("#%d %s", id, actions[id]))
	}
	return strings.Join(out, ", ")
}

func contains(list []string, v string) bool {
	for _, x := range list {
		if x == v {
			return true
		}
	}
	return false
}

// newReceiver serves a counting webhook receiver for the test.
func newReceiver(t *testing.T) (*webhooktest.Receiver, string) {
	rc := &webhooktest.Receiver{}
	srv := httptest.NewServer(rc)
	t.Cleanup(srv.Close)
	return rc, srv.URL + "/hook"
}

// jsonRequest is a request with a JSON body (none when body is nil).
func jsonRequest(ctx context.Context, method, url string, body any) (*http.Request, error) {
	var rd io.Reader = http.NoBody
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return nil, err
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, url, rd)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	return req, nil
}
