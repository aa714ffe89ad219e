package delivery

import (
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"net/mail"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/tmsproject/tms/pkg/netguard"
	"github.com/tmsproject/tms/pkg/netguard/netguardtest"
	"github.com/tmsproject/tms/services/notification/delivery/smtptest"
	"github.com/tmsproject/tms/services/notification/store"
)

// TestEgressGuard: a webhook receiver and a mail server on loopback,
// reached by a name that resolves there, are refused with the guard's one
// message before anything connects; on TMS_EGRESS_ALLOW they are reached.
func TestEgressGuard(t *testing.T) {
	name := netguardtest.LoopbackName(t)
	t.Cleanup(func() { _ = netguard.SetAllowList("") })
	var posts atomic.Int32
	hook := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { posts.Add(1) }))
	defer hook.Close()
	_, hookPort, _ := net.SplitHostPort(hook.Listener.Addr().String())
	sink := smtptest.New(t)
	_, mailPort, _ := net.SplitHostPort(sink.Addr)
	mailer, err := NewSMTP("smtp://"+net.JoinHostPort(name, mailPort), "TMS <tms@example.org>")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := NewSMTP("smtp://127.0.0.1:25", "TMS <tms@example.org>"); !errors.Is(err, netguard.ErrLocal) {
		t.Errorf("a loopback mail server off the allow-list is taken at the start: %v", err)
	}
	for _, allow := range []string{"", name} {
		if err := netguard.SetAllowList(allow); err != nil {
			t.Fatal(err)
		}
		d := &Deliverer{} // a fresh client: AllowLocal off
		_, failure := d.post(t.Context(), store.DueDelivery{URL: "http://" + net.JoinHostPort(name, hookPort) + "/hook", Secret: "whsec_dGVzdA==", Delivery: store.Delivery{Payload: "{}"}})
		sendErr := mailer.Send(t.Context(), Message{To: mail.Address{Address: "a@example.org"}, Subject: "s", Text: "t", HTML: "<p>t</p>"})
		if allow == "" {
			if !strings.Contains(failure, netguard.ErrLocal.Error()) || posts.Load() != 0 {
				t.Errorf("webhook to %s: %q, %d posts", name, failure, posts.Load())
			}
			if sendErr == nil || !strings.Contains(sendErr.Error(), netguard.ErrLocal.Error()) || len(sink.Received()) != 0 {
				t.Errorf("mail through %s: %v, %d mails", name, sendErr, len(sink.Received()))
			}
			continue
		}
		if failure != "" || posts.Load() != 1 {
			t.Errorf("webhook to an allowed %s: %q, %d posts", name, failure, posts.Load())
		}
		if sendErr != nil || len(sink.Received()) != 1 {
			t.Errorf("mail through an allowed %s: %v, %d mails", name, sendErr, len(sink.Received()))
		}
	}
}
