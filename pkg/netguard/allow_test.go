package netguard

import (
	"context"
	"errors"
	"net"
	"net/netip"
	"testing"
	"time"
)

// TestAllowList: the operator's list lets named hosts, addresses and
// networks through, and nothing else that is local.
func TestAllowList(t *testing.T) {
	t.Cleanup(func() { _ = SetAllowList("") })
	if err := SetAllowList("mail.internal, *.git.corp 10.1.0.0/16,[::1] 192.168.7.7"); err != nil {
		t.Fatal(err)
	}
	for host, want := range map[string]bool{
		"mail.internal": true, "MAIL.internal.": true, "x.mail.internal": false, "a.git.corp": true, "a.b.git.corp": true,
		"git.corp": false, "10.1.200.3": true, "10.2.0.1": false, "::1": true, "[::1]": true, "192.168.7.7": true, "192.168.7.8": false,
		"localhost": false, "example.com": false,
	} {
		if got := Allowed(host); got != want {
			t.Errorf("Allowed(%q) = %v, want %v", host, got, want)
		}
	}
	for addr, want := range map[string]bool{"10.1.2.3": false, "10.2.0.1": true, "127.0.0.1": true, "::1": false, "8.8.8.8": false} {
		if got := Refused(netip.MustParseAddr(addr)); got != want {
			t.Errorf("Refused(%s) = %v, want %v", addr, got, want)
		}
	}
	if LocalHost("mail.internal") || LocalHost("10.1.0.9") || !LocalHost("10.2.0.9") {
		t.Error("LocalHost ignores the allow-list")
	}
	for _, bad := range []string{"a/b", "user@host", "*.*.x", "http://x"} {
		if err := SetAllowList(bad); err == nil {
			t.Errorf("SetAllowList(%q) took it", bad)
		}
	}
}

// TestDialContext: a loopback listener reached by name is refused with
// ErrLocal before any connection, unless the name is on the allow-list.
func TestDialContext(t *testing.T) {
	t.Cleanup(func() { _ = SetAllowList("") })
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = lis.Close() }()
	_, port, _ := net.SplitHostPort(lis.Addr().String())
	dial := DialContext(&net.Dialer{Timeout: 5 * time.Second}, func() bool { return false })
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for _, spec := range []string{"", "localhost"} {
		_ = SetAllowList(spec)
		c, err := dial(ctx, "tcp", net.JoinHostPort("localhost", port))
		if c != nil {
			_ = c.Close()
		}
		if refused := errors.Is(err, ErrLocal); refused != (spec == "") {
			t.Errorf("allow-list %q: %v", spec, err)
		}
	}
}
