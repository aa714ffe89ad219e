package walk

import (
	"fmt"
	"mime"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestAnnouncements posts, lists and deletes announcements of a project,
// a component and a translation, and sees one posted with notify reach a
// subscriber by mail (NewAnnouncementNotificaton), and one without not.
func TestAnnouncements(t *testing.T) {
	sink, f := newMailFixture(t)
	a := f.admin
	a.want(201, "POST", a.base+"projects/", map[string]any{"name": "open", "slug": "open", "web": "https://x.example/"})
	f.component("open", "app")
	a.want(201, "POST", a.base+"users/", map[string]any{"username": "tina", "full_name": "Tina", "email": "tina@x.example"})
	a.want(201, "POST", a.base+"users/tina/notifications/", map[string]any{"notification": "NewAnnouncementNotificaton", "scope": 0, "frequency": 1})
	time.Sleep(3 * time.Second) // delivery has started following the log

	for _, at := range []string{"projects/open/", "components/open/app/", "translations/open/app/de/"} {
		list := a.base + at + "announcements/"
		posted := a.want(201, "POST", list, map[string]any{"message": "Quiet at " + at, "severity": "warning", "expiry": "2030-01-31", "notify": false})
		if got := keys(posted); !slices.Equal(got, []string{"expiry", "id", "message", "notify", "severity"}) || posted["expiry"] != "2030-01-31" ||
			posted["severity"] != "warning" {
			t.Errorf("%s: posted %v", at, posted)
		}
		for name, bad := range map[string]map[string]any{
			"no message":   {"category": "info"},
			"blank":        {"message": "  "},
			"severity":     {"message": "x", "severity": "urgent"},
			"category":     {"message": "x", "category": "urgent"}, // an older client's name
			"expiry":       {"message": "x", "expiry": "31.01.2030"},
			"notify types": {"message": "x", "notify": "perhaps"},
		} {
			if code, body := a.do("POST", list, bad); code != 400 {
				t.Errorf("%s %s: %d %s", at, name, code, body)
			}
		}
		if n := a.want(200, "GET", list, nil)["count"]; n != 1.0 {
			t.Errorf("%s: %v announcements", at, n)
		}
		self := fmt.Sprintf("%s%d/", list, int64(posted["id"].(float64)))
		a.want(204, "DELETE", self, nil)
		if code, _ := a.do("DELETE", self, nil); code != 404 {
			t.Errorf("%s: deleted twice: %d", at, code)
		}
		older := a.want(201, "POST", list, map[string]any{"message": "Older client", "category": "danger", "notify": false})
		if older["severity"] != "danger" {
			t.Errorf("%s: category from an older client: severity %v", at, older["severity"])
		}
		a.want(204, "DELETE", fmt.Sprintf("%s%d/", list, int64(older["id"].(float64))), nil)
	}
	a.want(201, "POST", a.base+"components/open/app/announcements/", map[string]any{"message": "Freeze on **Friday**"})
	waitFor(t, func() bool { return len(sink.Received()) > 0 })
	time.Sleep(2 * time.Second) // the unannounced ones would have arrived by now
	mails := sink.Received()
	if len(mails) != 1 {
		t.Fatalf("%d mails, want 1", len(mails))
	}
	subject, _ := new(mime.WordDecoder).DecodeHeader(mails[0].Header.Get("Subject"))
	if !strings.Contains(subject, "announcement") || !strings.Contains(sink.Raw()[0], "Friday") {
		t.Errorf("mail %q:\n%s", subject, sink.Raw()[0])
	}
	if n := a.want(200, "GET", a.base+"projects/open/changes/?action=46", nil)["count"]; n != 1.0 {
		t.Errorf("%v \"Announcement posted\" records, want 1", n)
	}
}
