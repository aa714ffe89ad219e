package netguard

import (
	"errors"
	"net/netip"
	"testing"
)

func TestLocalHost(t *testing.T) {
	for host, want := range map[string]bool{
		"localhost": true, "LOCALHOST.": true, "git.localhost": true, "127.0.0.1": true, "[::1]": true, "10.0.0.1": true,
		"172.16.5.4": true, "192.168.1.1": true, "169.254.169.254": true, "fe80::1": true, "::ffff:127.0.0.1": true,
		"100.64.0.1": true, "0.0.0.0": true, "8.8.8.8": false, "example.com": false, "2001:db8::1": false,
	} {
		if got := LocalHost(host); got != want {
			t.Errorf("LocalHost(%q) = %v, want %v", host, got, want)
		}
	}
}

func TestControl(t *testing.T) {
	deny := Control(func() bool { return false })
	if err := deny("tcp", "127.0.0.1:80", nil); !errors.Is(err, ErrLocal) {
		t.Errorf("loopback: %v", err)
	}
	if err := deny("tcp", "93.184.216.34:443", nil); err != nil {
		t.Errorf("public address: %v", err)
	}
	if err := Control(func() bool { return true })("tcp", "127.0.0.1:80", nil); err != nil {
		t.Errorf("allowed: %v", err)
	}
	if !LocalAddr(netip.MustParseAddr("::1")) {
		t.Error("::1")
	}
}
