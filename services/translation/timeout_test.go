package translation_test

import (
	"net"
	"strings"
	"testing"
	"time"

	translationv1 "github.com/tmsproject/tms/proto/gen/go/tms/translation/v1"
	"github.com/tmsproject/tms/services/translation"
)

// TestGitTimeout binds a component to a remote that accepts connections
// and never answers: the import fails after the git timeout with an
// UpdateFailure alert, and the component's lock is free again at once
// (repository status and pull answer instead of waiting behind it).
func TestGitTimeout(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = l.Close() })
	go func() {
		var held []net.Conn
		for {
			c, cErr := l.Accept()
			if cErr != nil {
				for _, c := range held {
					_ = c.Close()
				}
				return
			}
			held = append(held, c)
		}
	}()
	e := newEnvWith(t, true, func(c *translation.Config) { c.GitTimeout = 500 * time.Millisecond })
	e.catalog.Set(greeter(1, "http://"+l.Addr().String()+"/greeter.git"), project)
	start := time.Now()
	task := e.importNow(t, 1)
	if !strings.Contains(task.GetError(), "did not answer in time") || time.Since(start) > 15*time.Second {
		t.Fatalf("import from a silent remote: %q after %v", task.GetError(), time.Since(start))
	}
	alerts, err := e.client.ListAlerts(t.Context(), &translationv1.ListAlertsRequest{ComponentId: 1})
	if err != nil || len(alerts.GetAlerts()) != 1 || alerts.GetAlerts()[0].GetName() != "UpdateFailure" {
		t.Errorf("alerts: %v %v", alerts, err)
	}
	start = time.Now()
	res := e.op(t, "pull") // imports again, and times out again
	if res.GetResult() || time.Since(start) > 15*time.Second {
		t.Errorf("pull over a silent remote: %+v after %v", res, time.Since(start))
	}
}
