// Package netguardtest helps the tests of the egress guard's users.
package netguardtest

import (
	"net"
	"os"
	"testing"
)

// LoopbackName is a name of this machine that resolves to a loopback
// address without saying so (not "localhost", as /etc/hosts gives the
// machine's own name): what a hostile URL would use. The test is skipped
// when there is none.
func LoopbackName(t testing.TB) string {
	t.Helper()
	host, err := os.Hostname()
	if err != nil {
		t.Skip(err)
	}
	ips, err := net.DefaultResolver.LookupNetIP(t.Context(), "ip", host)
	if err != nil || len(ips) == 0 || !ips[0].Unmap().IsLoopback() {
		t.Skipf("%s does not resolve to loopback: %v %v", host, ips, err)
	}
	return host
}
