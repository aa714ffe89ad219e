package workcopy_test

import (
	"net"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tmsproject/tms/pkg/netguard"
	"github.com/tmsproject/tms/pkg/netguard/netguardtest"
	"github.com/tmsproject/tms/services/translation/internal/fixture"
	"github.com/tmsproject/tms/services/translation/workcopy"
)

// TestEveryTransportRefusesLocalNames: git over HTTP, git://, ssh and the
// scp-like form, to a loopback listener reached by a name, for fetching and
// for pushing, are refused with one message before anything connects; with
// TMS_ALLOW_LOCAL_REPOS the listener is reached.
func TestEveryTransportRefusesLocalNames(t *testing.T) {
	name := netguardtest.LoopbackName(t)
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = lis.Close() }()
	var conns atomic.Int32
	go func() {
		for {
			c, aerr := lis.Accept()
			if aerr != nil {
				return
			}
			conns.Add(1)
			_ = c.Close()
		}
	}()
	port := strconv.Itoa(lis.Addr().(*net.TCPAddr).Port)
	urls := []string{"http://" + name + ":" + port + "/r.git", "git://" + name + ":" + port + "/r.git",
		"ssh://git@" + name + ":" + port + "/r.git"}
	defer workcopy.AllowLocalNetwork(false)
	defer func() { _ = netguard.SetAllowList("") }()
	// refused; allowed by TMS_ALLOW_LOCAL_REPOS; allowed by name on TMS_EGRESS_ALLOW
	for _, mode := range []string{"refused", "switch", "allow-list"} {
		allow := mode != "refused"
		workcopy.AllowLocalNetwork(mode == "switch")
		if serr := netguard.SetAllowList(map[bool]string{true: name}[mode == "allow-list"]); serr != nil {
			t.Fatal(serr)
		}
		before := conns.Load()
		for i, u := range urls {
			m := workcopy.NewManager(t.TempDir())
			_, serr := m.Sync(t.Context(), int64(i+1), u, "main")
			refused := serr != nil && strings.Contains(serr.Error(), netguard.ErrLocal.Error()+"; the server allows them when TMS_ALLOW_LOCAL_REPOS=true")
			if refused == allow {
				t.Errorf("%s, fetch %s: %v", mode, u, serr)
			}
		}
		if n := conns.Load() - before; (n > 0) != allow {
			t.Errorf("%s: the listener got %d connections", mode, n)
		}
	}
	_ = netguard.SetAllowList("")
	// A push URL goes through the same transports.
	workcopy.AllowLocalNetwork(false)
	r, err := workcopy.NewManager(t.TempDir()).Sync(t.Context(), 9, fixture.Origin(t, map[string]string{"a": "b"}), "")
	if err != nil {
		t.Fatal(err)
	}
	before := conns.Load()
	for _, u := range urls {
		if err := r.Push(t.Context(), u, "main"); err == nil || !strings.Contains(err.Error(), netguard.ErrLocal.Error()) {
			t.Errorf("push to %s: %v", u, err)
		}
	}
	if n := conns.Load(); n != before {
		t.Errorf("pushes reached the listener %d times", n-before)
	}
}

// TestGitDaemonThroughGuard runs a real git daemon on loopback: reached by
// a name that resolves there, a fetch is refused with the guard's message;
// with the name on TMS_EGRESS_ALLOW the fetch completes.
func TestGitDaemonThroughGuard(t *testing.T) {
	name := netguardtest.LoopbackName(t)
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git binary for a git daemon")
	}
	origin := fixture.Origin(t, map[string]string{"po/de.po": "msgid \"a\"\nmsgstr \"b\"\n"})
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := strconv.Itoa(lis.Addr().(*net.TCPAddr).Port)
	_ = lis.Close()
	daemon := exec.Command("git", "daemon", "--reuseaddr", "--export-all", "--listen=127.0.0.1", "--port="+port,
		"--base-path="+filepath.Dir(origin), filepath.Dir(origin))
	if err := daemon.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = daemon.Process.Kill(); _ = daemon.Wait() })
	for i := 0; ; i++ {
		c, derr := net.Dial("tcp", "127.0.0.1:"+port)
		if derr == nil {
			_ = c.Close()
			break
		}
		if i == 100 {
			t.Fatalf("git daemon did not listen: %v", derr)
		}
		time.Sleep(50 * time.Millisecond)
	}
	url := "git://" + name + ":" + port + "/" + filepath.Base(origin)
	defer func() { _ = netguard.SetAllowList("") }()
	for _, allow := range []string{"", name} {
		if err := netguard.SetAllowList(allow); err != nil {
			t.Fatal(err)
		}
		r, serr := workcopy.NewManager(t.TempDir()).Sync(t.Context(), 1, url, "main")
		if allow == "" {
			if serr == nil || !strings.Contains(serr.Error(), netguard.ErrLocal.Error()) {
				t.Errorf("fetch from %s: %v", url, serr)
			}
			continue
		}
		if serr != nil {
			t.Fatalf("fetch from an allowed %s: %v", url, serr)
		}
		if data, rerr := r.ReadFile("po/de.po"); rerr != nil || !strings.Contains(string(data), "msgstr \"b\"") {
			t.Errorf("fetched po/de.po: %q, %v", data, rerr)
		}
	}
}
