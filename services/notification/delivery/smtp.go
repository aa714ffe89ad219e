package delivery

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/tls"
	"encoding/hex"
	"fmt"
	"mime"
	"mime/multipart"
	"mime/quotedprintable"
	"net"
	"net/mail"
	"net/smtp"
	"net/textproto"
	"net/url"
	"strings"
	"time"

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
// smtps://[user:pass@]host[:port] (TLS from the start; port 465).
type SMTP struct {
	addr, host string
	implicit   bool
	auth       smtp.Auth
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
	if netguard.LocalHost(u.Hostname()) {
		// it would be refused at every send: say so at the start instead
		return nil, fmt.Errorf("mail server %s: %w", u.Hostname(), netguard.ErrLocal)
	}
	s := &SMTP{addr: net.JoinHostPort(u.Hostname(), port), host: u.Hostname(), implicit: u.Scheme == "smtps", from: *sender}
	if u.User != nil {
		pass, _ := u.User.Password()
		s.auth = smtp.PlainAuth("", u.User.Username(), pass, u.Hostname())
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

// Send delivers m, within ctx's deadline.
func (s *SMTP) Send(ctx context.Context, m Message) error {
	conn, err := s.dial(ctx)
	if err != nil {
		return err
	}
	if deadline, ok := ctx.Deadline(); ok {
		_ = conn.SetDeadline(deadline)
	} else {
		_ = conn.SetDeadline(time.Now().Add(2 * time.Minute))
	}
	c, err := smtp.NewClient(conn, s.host)
	if err != nil {
		_ = conn.Close() // err is the one to report
		return err
	}
	defer func() { _ = c.Close() }() // after Quit, or after an error that is the one to report
	if ok, _ := c.Extension("STARTTLS"); ok && !s.implicit {
		if err = c.StartTLS(&tls.Config{ServerName: s.host}); err != nil {
			return err
		}
	}
	if s.auth != nil {
		if err = c.Auth(s.auth); err != nil {
			return err
		}
	}
	if err = c.Mail(s.from.Address); err != nil {
		return err
	}
	if err = c.Rcpt(m.To.Address); err != nil {
		return err
	}
	w, err := c.Data()
	if err != nil {
		return err
	}
	if _, err := w.Write(compose(s.from, m)); err != nil {
		return err
	}
	if err := w.Close(); err != nil {
		return err
	}
	return c.Quit()
}

// compose renders m as a MIME message with text and HTML alternatives.
func compose(from mail.Address, m Message) []byte {
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	for _, part := range []struct{ typ, content string }{{"text/plain", m.Text}, {"text/html", m.HTML}} {
		pw, _ := mw.CreatePart(textproto.MIMEHeader{"Content-Type": {part.typ + "; charset=UTF-8"},
			"Content-Transfer-Encoding": {"quoted-printable"}})
		qp := quotedprintable.NewWriter(pw)
		_, _ = qp.Write([]byte(part.content))
		_ = qp.Close()
	}
	_ = mw.Close()
	var b bytes.Buffer
	id := m.ID
	if id == "" {
		raw := make([]byte, 12)
		_, _ = rand.Read(raw)
		id = hex.EncodeToString(raw)
	}
	domain := from.Address[strings.LastIndexByte(from.Address, '@')+1:]
	for _, h := range [][2]string{
		{"From", from.String()}, {"To", m.To.String()}, {"Subject", mime.QEncoding.Encode("UTF-8", m.Subject)},
		{"Date", time.Now().UTC().Format(time.RFC1123Z)}, {"Message-ID", "<" + id + "@" + domain + ">"},
		{"MIME-Version", "1.0"}, {"Auto-Submitted", "auto-generated"},
		{"Content-Type", "multipart/alternative; boundary=" + mw.Boundary()},
	} {
		b.WriteString(h[0] + ": " + h[1] + "\r\n")
	}
	b.WriteString("\r\n")
	b.Write(body.Bytes())
	return b.Bytes()
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
