package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/tmsproject/tms/gateway/stacktest"
)

// TestFirstRunDefaults runs the built binary as a newcomer does: from a
// fresh working directory, with the default relative data directory
// (./data, no TMS_DATA_DIR), and binds components to a developer's local
// non-bare checkout by plain path and by file:// URL.
func TestFirstRunDefaults(t *testing.T) {
	bin := stacktest.Build(t)
	work := t.TempDir()
	checkout := gitCheckout(t)
	httpAddr := stacktest.FreeAddr(t)
	t.Setenv("TMS_DATA_DIR", "") // the default, ./data, whatever the caller's environment says
	stacktest.StartProcess(t, work, bin, []string{"TMS_HTTP_ADDR=" + httpAddr, "TMS_ADMIN_TOKEN=" + adminToken,
		"TMS_ALLOW_LOCAL_REPOS=true"})
	base := "http://" + httpAddr + "/api/"
	stacktest.WaitHTTP(t, base)

	call(t, "POST", base+"projects/", map[string]any{"name": "Demo", "slug": "demo", "web": "https://demo.example/"}, 201)
	for slug, repo := range map[string]string{"path": checkout, "url": "file://" + checkout} {
		call(t, "POST", base+"projects/demo/components/", map[string]any{"name": slug, "slug": slug,
			"repo": repo, "filemask": "po/*.po", "new_base": "po/demo.pot", "file_format": "po"}, 201)
		stacktest.Eventually(t, 60*time.Second, func() bool {
			tr, status := fetch(t, "GET", base+"translations/demo/"+slug+"/de/", nil)
			return status == 200 && tr["total"] == float64(2) && tr["translated"] == float64(1)
		})
	}
	if _, err := os.Stat(filepath.Join(work, "data", "translation", "repos")); err != nil {
		t.Errorf("working copies are not below ./data of the working directory: %v", err)
	}
}

// gitCheckout makes a developer's checkout with the git binary: a working
// tree with a .git directory, branch main, one commit of po/ files.
func gitCheckout(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "po"), 0o755); err != nil {
		t.Fatal(err)
	}
	files := map[string]string{
		"po/demo.pot": potHeader + "\nmsgid \"Hello\"\nmsgstr \"\"\n\nmsgid \"Bye\"\nmsgstr \"\"\n",
		"po/de.po":    potHeader + "\nmsgid \"Hello\"\nmsgstr \"Hallo\"\n\nmsgid \"Bye\"\nmsgstr \"\"\n",
	}
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	git(t, dir, "init", "-q", "-b", "main")
	git(t, dir, "add", ".")
	git(t, dir, "-c", "user.name=Dev", "-c", "user.email=dev@example.com", "commit", "-q", "-m", "strings")
	return dir
}

func git(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}
