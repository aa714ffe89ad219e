package suite

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

	cat := a.want(201, "POST", a.base+"categories/", map[string]any{"name": "Docs", "slug": "docs", "project": a.base + "projects/open/"})
	catPath := fmt.Sprintf("categories/%d/", int64(cat["id"].(float64)))
	if cat["announcements_url"] != a.base+catPath+"announcements/" {
		t.Errorf("category announcements_url %v", cat["announcements_url"])
	}
	for _, at := range []string{"projects/open/", "components/open/app/", "translations/open/app/de/", catPath, "projects/open/languages/de/"} {
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

// TestPlacedAnnouncements: the announcements of a category and of a
// project's language are its own (not the project's), an unknown language
// or category is 404, outsiders of a private project get 404 and a
// translator of a protected one may read but not post.
func TestPlacedAnnouncements(t *testing.T) {
	f := newTeamsFixture(t)
	a := f.admin
	cats := map[string]string{}
	for _, p := range []string{"guarded", "hidden"} {
		c := a.want(201, "POST", a.base+"categories/", map[string]any{"name": "Docs", "slug": "docs", "project": a.base + "projects/" + p + "/"})
		cats[p] = fmt.Sprintf("categories/%d/announcements/", int64(c["id"].(float64)))
		for _, list := range []string{cats[p], "projects/" + p + "/languages/de/announcements/"} {
			a.want(201, "POST", a.base+list, map[string]any{"message": "Posted at " + list, "notify": false})
		}
	}
	if n := a.want(200, "GET", a.base+"projects/guarded/announcements/", nil)["count"]; n != 0.0 {
		t.Errorf("the project lists %v of its category's and language's announcements", n)
	}
	rita := f.users["rita"]
	cases := []struct {
		who          client
		method, path string
		code         int
	}{
		{a, "GET", "projects/guarded/languages/xx-nope/announcements/", 404},
		{a, "GET", "categories/999999/announcements/", 404},
		{rita, "GET", cats["guarded"], 200},
		{rita, "GET", "projects/guarded/languages/de/announcements/", 200},
		{rita, "POST", cats["guarded"], 403},
		{rita, "POST", "projects/guarded/languages/de/announcements/", 403},
		{rita, "GET", cats["hidden"], 404},
		{rita, "GET", "projects/hidden/languages/de/announcements/", 404},
		{rita, "POST", cats["hidden"], 404},
		{client{t: t, base: a.base, token: anonymous}, "POST", cats["guarded"], 401},
	}
	for _, c := range cases {
		var body any
		if c.method == "POST" {
			body = map[string]any{"message": "Hi", "notify": false}
		}
		if code, got := c.who.do(c.method, a.base+c.path, body); code != c.code {
			t.Errorf("%s %s: %d %s, want %d", c.method, c.path, code, got, c.code)
		}
	}
	if n := a.want(200, "GET", a.base+cats["guarded"], nil)["count"]; n != 1.0 {
		t.Errorf("guarded category: %v announcements after refused posts", n)
	}
}
