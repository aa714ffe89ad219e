package suite

import (
	"mime"
	"strings"
	"testing"
	"time"

	"github.com/tmsproject/tms/gateway/stack"
	"github.com/tmsproject/tms/services/notification/delivery/smtptest"
)

// newMailFixture starts the stack mailing through a local SMTP sink.
func newMailFixture(t *testing.T) (*smtptest.Sink, *permissionFixture) {
	sink := smtptest.New(t)
	return sink, &permissionFixture{t: t, admin: newStack(t, func(c *stack.Config) {
		c.SMTPURL, c.SMTPFrom, c.SiteURL = "smtp://"+sink.Addr, "TMS <tms@example.org>", "https://tms.example"
		c.EgressAllow = "127.0.0.1" // the sink, on loopback
	})}
}

// TestNotificationMail subscribes a user through the API and mails her
// about another user's edit in a public project, never about the private
// one she may not see.
func TestNotificationMail(t *testing.T) {
	sink, f := newMailFixture(t)
	a := f.admin
	for _, slug := range []string{"open", "secret"} {
		a.want(201, "POST", a.base+"projects/", map[string]any{"name": slug, "slug": slug, "web": "https://x.example/"})
		f.component(slug, "app")
	}
	a.want(200, "PATCH", a.base+"projects/secret/", map[string]any{"access_control": 100})
	a.want(201, "POST", a.base+"users/", map[string]any{"username": "tina", "full_name": "Tina", "email": "tina@x.example"})
	a.want(201, "POST", a.base+"users/tina/notifications/", map[string]any{"notification": "TranslatedStringNotificaton", "scope": 0, "frequency": 1})
	time.Sleep(3 * time.Second) // delivery has started following the log

	a.want(200, "PATCH", a.base+f.helloUnit("secret"), map[string]any{"target": []string{"Geheim"}, "state": 20})
	a.want(200, "PATCH", a.base+f.helloUnit("open"), map[string]any{"target": []string{"Hallo Welt"}, "state": 20})
	deadline := time.Now().Add(30 * time.Second)
	for len(sink.Received()) == 0 && time.Now().Before(deadline) {
		time.Sleep(200 * time.Millisecond)
	}
	time.Sleep(3 * time.Second) // anything else would have arrived by now
	mails := sink.Received()
	if len(mails) != 1 {
		t.Fatalf("%d mails, want 1", len(mails))
	}
	subject, _ := new(mime.WordDecoder).DecodeHeader(mails[0].Header.Get("Subject"))
	if mails[0].Header.Get("To") != `"Tina" <tina@x.example>` || subject != "[TMS] New translation in open/app — de" {
		t.Errorf("mail to %s: %q", mails[0].Header.Get("To"), subject)
	}
	raw := sink.Raw()[0]
	if !strings.Contains(raw, "https://tms.example/projects/open/app/de/") || strings.Contains(raw, "Geheim") {
		t.Errorf("mail body:\n%s", raw)
	}
}
