package workcopy_test

import (
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"

	"github.com/tmsproject/tms/pkg/errs"
	"github.com/tmsproject/tms/services/translation/internal/fixture"
	"github.com/tmsproject/tms/services/translation/workcopy"
)

func TestValidateURL(t *testing.T) {
	tests := []struct {
		url        string
		allowLocal bool
		ok         bool
	}{
		{"https://github.com/WeblateOrg/weblate.git", false, true},
		{"http://example.com/r.git", false, true},
		{"ssh://git@example.com/r.git", false, true},
		{"git://example.com/r.git", false, true},
		{"git@github.com:WeblateOrg/weblate.git", false, true},
		{"ext::sh -c touch% /tmp/pwned", true, false},
		{"fd::17", true, false},
		{"-uhelp", true, false},
		{"--upload-pack=touch /tmp/x", true, false},
		{"https://example.com/r\n.git", true, false},
		{"https://example.com/r\x7f", true, false},
		{"https://-oProxyCommand=x/r", true, false},
		{"ftp://example.com/r.git", true, false},
		{"file:///srv/r.git", false, false},
		{"file:///srv/r.git", true, true},
		{"/srv/r.git", false, false},
		{"/srv/r.git", true, true},
		{"../r.git", false, false},
		{"", true, false},
		{"http://127.0.0.1/r.git", false, false},
		{"http://127.0.0.1/r.git", true, true},
		{"https://localhost:3000/r.git", false, false},
		{"https://git.localhost/r.git", false, false},
		{"https://10.1.2.3/r.git", false, false},
		{"https://192.168.0.7/r.git", false, false},
		{"https://172.16.0.1/r.git", false, false},
		{"http://169.254.169.254/latest/meta-data", false, false},
		{"http://[::1]/r.git", false, false},
		{"http://[fe80::1]/r.git", false, false},
		{"http://[::ffff:127.0.0.1]/r.git", false, false},
		{"https://100.64.0.1/r.git", false, false},
		{"http://0.0.0.0/r.git", false, false},
		{"git@127.0.0.1:org/r.git", false, false},
		{"ssh://git@10.0.0.1/r.git", false, false},
		{"https://8.8.8.8/r.git", false, true},
	}
	for _, tt := range tests {
		err := workcopy.ValidateURL(tt.url, tt.allowLocal)
		if (err == nil) != tt.ok {
			t.Errorf("ValidateURL(%q, %v) = %v, want ok=%v", tt.url, tt.allowLocal, err, tt.ok)
		}
		if err != nil {
			e := errs.FromStatus(errs.ToStatus(err))
			if e.Kind != errs.InvalidArgument || len(e.Fields) != 1 || e.Fields[0].Field != "repo" {
				t.Errorf("ValidateURL(%q) error %v is not a violation on repo", tt.url, err)
			}
		}
	}
}

func TestValidateURLNamesTheSetting(t *testing.T) {
	for _, url := range []string{"/srv/r.git", "file:///srv/r.git", "./r"} {
		err := workcopy.ValidateURL(url, false)
		if err == nil || !strings.Contains(errs.FromStatus(errs.ToStatus(err)).Fields[0].Description, "TMS_ALLOW_LOCAL_REPOS=true") {
			t.Errorf("ValidateURL(%q) = %v, want a refusal naming TMS_ALLOW_LOCAL_REPOS", url, err)
		}
	}
}

func TestSync(t *testing.T) {
	origin := fixture.Origin(t, map[string]string{"po/cs.po": "x"})
	m := workcopy.NewManager(t.TempDir())
	r, err := m.Sync(t.Context(), 1, origin, "")
	if err != nil {
		t.Fatal(err)
	}
	if r.Branch != "main" || r.Dir != m.Dir(1) {
		t.Fatalf("clone = %+v", r)
	}
	first, _ := r.Head()
	// A new upstream commit is fast-forwarded on the next sync.
	seed := t.TempDir()
	up, err := git.PlainClone(seed, false, &git.CloneOptions{URL: origin, ReferenceName: plumbing.NewBranchReferenceName("main")})
	if err != nil {
		t.Fatal(err)
	}
	fixture.Commit(t, up, seed, map[string]string{"po/cs.po": "y"}, "update")
	if err = up.Push(&git.PushOptions{}); err != nil {
		t.Fatal(err)
	}
	r, err = m.Sync(t.Context(), 1, origin, "main")
	if err != nil {
		t.Fatal(err)
	}
	second, _ := r.Head()
	data, _ := os.ReadFile(filepath.Join(r.Dir, "po", "cs.po"))
	if second == first || string(data) != "y" {
		t.Errorf("sync did not fast-forward: %s -> %s, content %q", first, second, data)
	}
	if _, err := m.Sync(t.Context(), 2, origin, "nope"); err == nil {
		t.Error("cloning a missing branch succeeded")
	}
	if _, err := os.Stat(m.Dir(2)); !os.IsNotExist(err) {
		t.Error("failed clone left a directory")
	}
	if err := m.Remove(1); err != nil {
		t.Fatal(err)
	}
	if _, err := m.Open(1); err == nil {
		t.Error("removed working copy still opens")
	}
}

func TestBlobHash(t *testing.T) {
	// git hash-object of "hello\n".
	if got := workcopy.BlobHash([]byte("hello\n")); got != "ce013625030ba8dba906f756967f9e9ca394464a" {
		t.Errorf("BlobHash = %s", got)
	}
}

// TestSyncNonBareCheckout clones a developer's local checkout (not a bare
// repository) by plain path and by file:// URL, as git does, and refuses to
// move the branch checked out there.
func TestSyncNonBareCheckout(t *testing.T) {
	origin := fixture.Origin(t, map[string]string{"po/cs.po": "x"})
	checkout := t.TempDir()
	if _, err := git.PlainClone(checkout, false, &git.CloneOptions{URL: origin}); err != nil {
		t.Fatal(err)
	}
	m := workcopy.NewManager(t.TempDir())
	for i, url := range []string{checkout, "file://" + checkout} {
		id := int64(i + 1)
		r, err := m.Sync(t.Context(), id, url, "")
		if err != nil {
			t.Fatalf("Sync(%s): %v", url, err)
		}
		data, err := os.ReadFile(filepath.Join(r.Dir, "po", "cs.po"))
		if err != nil || string(data) != "x" || r.Branch != "main" {
			t.Fatalf("Sync(%s): branch %q, file %q, %v", url, r.Branch, data, err)
		}
		if _, err := m.Sync(t.Context(), id, url, "main"); err != nil {
			t.Fatalf("second Sync(%s) (fetch): %v", url, err)
		}
	}
	r, err := m.Open(1)
	if err != nil {
		t.Fatal(err)
	}
	if err := r.WriteFile("po/cs.po", []byte("changed")); err != nil {
		t.Fatal(err)
	}
	sig := workcopy.Signature{Name: "T", Email: "t@example.com"}
	if _, err := r.Commit("edit", sig, sig); err != nil {
		t.Fatal(err)
	}
	if err := r.Push(t.Context(), checkout, "main"); err == nil || !strings.Contains(err.Error(), "checked out") {
		t.Errorf("push into the checked-out branch of a checkout: %v, want a refusal", err)
	}
	if _, err := m.Sync(t.Context(), 3, filepath.Join(t.TempDir(), "missing"), ""); err == nil {
		t.Error("a path without a repository cloned")
	}
}

// TestDialRefusesLocalAddresses checks the dial-time guard: a host name
// that resolves to a loopback address is refused unless allowed.
func TestDialRefusesLocalAddresses(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	defer srv.Close()
	url := strings.Replace(srv.URL, "127.0.0.1", "localhost", 1) + "/r.git"
	m := workcopy.NewManager(t.TempDir())
	workcopy.AllowLocalNetwork(false)
	defer workcopy.AllowLocalNetwork(false)
	_, err := m.Sync(t.Context(), 1, url, "main")
	if err == nil || !strings.Contains(err.Error(), "TMS_ALLOW_LOCAL_REPOS") {
		t.Errorf("sync from a name resolving to loopback: %v, want the local-address refusal", err)
	}
	workcopy.AllowLocalNetwork(true)
	_, err = m.Sync(t.Context(), 2, url, "main")
	if err == nil || strings.Contains(err.Error(), "TMS_ALLOW_LOCAL_REPOS") {
		t.Errorf("with local addresses allowed the server should be reached (and answer 404): %v", err)
	}
}

// TestNetworkTimeout: a remote that accepts the connection and never
// answers fails the sync after the network timeout, as ErrTimeout.
func TestNetworkTimeout(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = l.Close() }()
	go func() {
		var held []net.Conn
		defer func() {
			for _, c := range held {
				_ = c.Close()
			}
		}()
		for {
			c, cErr := l.Accept()
			if cErr != nil {
				return
			}
			held = append(held, c)
		}
	}()
	workcopy.AllowLocalNetwork(true)
	defer workcopy.AllowLocalNetwork(false)
	m := workcopy.NewManager(t.TempDir())
	m.NetworkTimeout = 300 * time.Millisecond
	start := time.Now()
	_, err = m.Sync(t.Context(), 1, "http://"+l.Addr().String()+"/r.git", "main")
	if !errors.Is(err, workcopy.ErrTimeout) || time.Since(start) > 10*time.Second {
		t.Errorf("sync from a silent remote: %v after %v, want ErrTimeout", err, time.Since(start))
	}
}
