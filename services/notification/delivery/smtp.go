package delivery

import (
	"context"
	"crypto/rand"
	"crypto/tls"
	"encoding/hex"
	"fmt"
	"net"
	"net/mail"
	"net/url"
	"strconv"
	"strings"
	"time"

	gomail "github.com/wneessen/go-mail"

	"github.com/tmsproject/tms/pkg/netguard"
)

// Message is one mail: a text and an HTML body of the same content.
type Message struct {
	// ID, when set, is the local part of the Message-ID: the same for
	// every attempt at the same mail, so that a copy sent again after a
	// replica died before recording the first is recognisable as one.
	ID      string
	To      mail.Address
	Subject string
	Text    string
	HTML    string
}

// Mailer sends mail.
type Mailer interface {
	Send(ctx context.Context, m Message) error
}

// SMTP sends through a server named by a URL: smtp://[user:pass@]host[:port]
// (STARTTLS when the server offers it; port 25 by default) or
// smtps://[user:pass@]host[:port] (TLS from the start; port 465). The
// SMTP conversation and the MIME message are go-mail's.
type SMTP struct {
	addr, host string
	port       int
	implicit   bool
	user, pass string
	from       mail.Address
}

// NewSMTP reads the server URL and the sender address.
func NewSMTP(rawURL, from string) (*SMTP, error) {
	u, err := url.Parse(rawURL)
	if err != nil || (u.Scheme != "smtp" && u.Scheme != "smtps") || u.Hostname() == "" {
		return nil, fmt.Errorf("mail server %q: want smtp://host[:port] or smtps://host[:port]", redact(rawURL))
	}
	sender, err := mail.ParseAddress(from)
	if err != nil {
		return nil, fmt.Errorf("sender address %q: %w", from, err)
	}
	port := u.Port()
	if port == "" {
		port = map[string]string{"smtp": "25", "smtps": "465"}[u.Scheme]
	}
	n, err := strconv.Atoi(port)
	if err != nil || n < 1 || n > 65535 {
		return nil, fmt.Errorf("mail server %q: port %q", redact(rawURL), port)
	}
	if netguard.LocalHost(u.Hostname()) {
		// it would be refused at every send: say so at the start instead
		return nil, fmt.Errorf("mail server %s: %w", u.Hostname(), netguard.ErrLocal)
	}
	s := &SMTP{addr: net.JoinHostPort(u.Hostname(), port), host: u.Hostname(), port: n,
		implicit: u.Scheme == "smtps", from: *sender}
	if u.User != nil {
		s.user = u.User.Username()
		s.pass, _ = u.User.Password()
	}
	return s, nil
}

func redact(raw string) string {
	if u, err := url.Parse(raw); err == nil && u.User != nil {
		u.User = url.User("***")
		return u.String()
	}
	return raw
}

// Send delivers m, within ctx's deadline (two minutes without one).
func (s *SMTP) Send(ctx context.Context, m Message) error {
	msg, err := s.message(m)
	if err != nil {
		return err
	}
	timeout := 2 * time.Minute
	if deadline, ok := ctx.Deadline(); ok {
		timeout = max(time.Until(deadline), time.Millisecond)
	}
	opts := []gomail.Option{gomail.WithPort(s.port), gomail.WithTimeout(timeout),
		gomail.WithTLSConfig(&tls.Config{ServerName: s.host, MinVersion: tls.VersionTLS12}),
		gomail.WithDialContextFunc(func(ctx context.Context, _, _ string) (net.Conn, error) { return s.dial(ctx) })}
	if s.implicit {
		opts = append(opts, gomail.WithSSL()) // dial makes the TLS connection
	} else {
		opts = append(opts, gomail.WithTLSPolicy(gomail.TLSOpportunistic))
	}
	if s.user != "" {
		opts = append(opts, gomail.WithSMTPAuth(gomail.SMTPAuthPlain), gomail.WithUsername(s.user), gomail.WithPassword(s.pass))
	}
	c, err := gomail.NewClient(s.host, opts...)
	if err != nil {
		return err
	}
	return c.DialAndSendWithContext(ctx, msg)
}

// message renders m with text and HTML alternatives. Its Message-ID is
// m.ID at the sender's domain, or a random one.
func (s *SMTP) message(m Message) (*gomail.Msg, error) {
	msg := gomail.NewMsg(gomail.WithNoDefaultUserAgent())
	if err := msg.FromFormat(s.from.Name, s.from.Address); err != nil {
		return nil, err
	}
	if err := msg.AddToFormat(m.To.Name, m.To.Address); err != nil {
		return nil, err
	}
	msg.Subject(m.Subject)
	msg.SetDate()
	id := m.ID
	if id == "" {
		raw := make([]byte, 12)
		_, _ = rand.Read(raw)
		id = hex.EncodeToString(raw)
	}
	msg.SetMessageIDWithValue(id + "@" + s.from.Address[strings.LastIndexByte(s.from.Address, '@')+1:])
	msg.SetGenHeader("Auto-Submitted", "auto-generated")
	msg.SetBodyString(gomail.TypeTextPlain, m.Text)
	msg.AddAlternativeString(gomail.TypeTextHTML, m.HTML)
	return msg, nil
}

// dial connects to the server through the egress guard (a mail server
// inside the network is named in TMS_EGRESS_ALLOW), with TLS from the
// start for smtps.
func (s *SMTP) dial(ctx context.Context) (net.Conn, error) {
	conn, err := netguard.DialContext(&net.Dialer{Timeout: 30 * time.Second}, func() bool { return false })(ctx, "tcp", s.addr)
	if err != nil || !s.implicit {
		return conn, err
	}
	tc := tls.Client(conn, &tls.Config{ServerName: s.host})
	if err = tc.HandshakeContext(ctx); err != nil {
		_ = conn.Close()
		return nil, err
	}
	return tc, nil
}
