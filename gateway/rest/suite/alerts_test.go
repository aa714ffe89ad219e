package suite

import (
	"testing"

	"github.com/tmsproject/tms/gateway/bench/origin"
)

// TestChangeAlerts: an import that cannot read its files raises a
// ParseError alert, and its "Alert triggered" record (action 47) carries
// the alert as Weblate's changes do (category files, severity error);
// other records answer alert null.
func TestChangeAlerts(t *testing.T) {
	c := newStack(t, nil)
	bare, err := origin.Create(t.TempDir(), map[string][]byte{
		"po/app.pot": []byte(header + "\nmsgid \"Hello\"\nmsgstr \"\"\n"),
		"po/de.po":   []byte("msgid \"unterminated\nmsgstr \"\"\n"),
	})
	if err != nil {
		t.Fatal(err)
	}
	c.want(201, "POST", c.base+"projects/", map[string]any{"name": "Broken", "slug": "broken", "web": "https://x.example/"})
	comp := c.want(201, "POST", c.base+"projects/broken/components/", map[string]any{"name": "App", "slug": "app",
		"repo": "file://" + bare, "filemask": "po/*.po", "new_base": "po/app.pot", "file_format": "po"})
	var alert map[string]any
	waitFor(t, func() bool {
		for _, r := range c.want(200, "GET", comp["url"].(string)+"changes/", nil)["results"].([]any) {
			r := r.(map[string]any)
			if r["action"] == 47.0 {
				alert, _ = r["alert"].(map[string]any)
				return true
			}
			if r["alert"] != nil {
				t.Errorf("a record of action %v has an alert: %v", r["action"], r["alert"])
			}
		}
		return false
	})
	if alert == nil || alert["name"] != "ParseError" || alert["category"] != "files" || alert["severity"] != 100.0 ||
		alert["dismissed_at"] != nil || alert["timestamp"] == nil {
		t.Errorf("the record's alert: %v", alert)
	}
	listed := c.want(200, "GET", comp["url"].(string)+"alerts/", nil)["results"].([]any)
	if len(listed) != 1 || listed[0].(map[string]any)["name"] != "ParseError" || listed[0].(map[string]any)["category"] != "files" {
		t.Errorf("the component's alerts: %v", listed)
	}
}
