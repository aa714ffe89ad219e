// Package smtptest is an SMTP server on loopback for tests: it keeps what
// it receives, and can refuse mail to test retries.
package smtptest

import (
	"bufio"
	"net"
	"net/mail"
	"strings"
	"sync"
	"testing"

	"github.com/tmsproject/tms/pkg/netguard"
)

// Sink is a minimal SMTP server on loopback that keeps what it receives;
// while refuse is set it answers every message with a temporary failure.
type Sink struct {
	Addr   string // host:port
	mu     sync.Mutex
	mails  []*mail.Message
	raw    []string
	refuse bool
}

// New starts a sink, stopped when the test ends.
func New(t testing.TB) *Sink {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := &Sink{Addr: l.Addr().String()}
	t.Cleanup(func() { _ = l.Close() })
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			go s.serve(c)
		}
	}()
	return s
}

func (s *Sink) serve(c net.Conn) {
	defer func() { _ = c.Close() }()
	r := bufio.NewReader(c)
	say := func(line string) { _, _ = c.Write([]byte(line + "\r\n")) }
	say("220 sink ready")
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			return
		}
		cmd := strings.ToUpper(strings.TrimSpace(line))
		switch {
		case strings.HasPrefix(cmd, "EHLO"), strings.HasPrefix(cmd, "HELO"):
			say("250 sink")
		case strings.HasPrefix(cmd, "MAIL"), strings.HasPrefix(cmd, "RCPT"), cmd == "RSET", cmd == "NOOP":
			say("250 ok")
		case cmd == "DATA":
			say("354 go on")
			var b strings.Builder
			for {
				l, err := r.ReadString('\n')
				if err != nil {
					return
				}
				if l == ".\r\n" {
					break
				}
				b.WriteString(strings.TrimPrefix(l, "."))
			}
			s.mu.Lock()
			refuse := s.refuse
			if !refuse {
				s.raw = append(s.raw, b.String())
				if m, err := mail.ReadMessage(strings.NewReader(b.String())); err == nil {
					s.mails = append(s.mails, m)
				}
			}
			s.mu.Unlock()
			if refuse {
				say("451 try again later")
			} else {
				say("250 queued")
			}
		case cmd == "QUIT":
			say("221 bye")
			return
		default:
			say("502 unknown")
		}
	}
}

// Received returns the mail accepted so far, parsed.
func (s *Sink) Received() []*mail.Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]*mail.Message(nil), s.mails...)
}

// SetRefuse makes the sink refuse (451) or accept mail.
func (s *Sink) SetRefuse(v bool) {
	s.mu.Lock()
	s.refuse = v
	s.mu.Unlock()
}

// Raw returns the accepted messages as sent.
func (s *Sink) Raw() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.raw...)
}

// Allow puts the sink's loopback address on the egress allow-list (as
// TMS_EGRESS_ALLOW would) until the test ends: the mailer dials through
// the guard, which refuses loopback otherwise.
func (s *Sink) Allow(t testing.TB) {
	t.Helper()
	host, _, _ := net.SplitHostPort(s.Addr)
	if err := netguard.SetAllowList(host); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = netguard.SetAllowList("") })
}
