// Package netguard keeps outbound connections the service makes on a
// user's behalf (git remotes, webhooks) off the service's own machine and
// private networks, so that the service cannot be turned into a probe of
// the network it runs in.
package netguard

import (
	"errors"
	"fmt"
	"net"
	"net/netip"
	"strings"
	"syscall"
)

// ErrLocal refuses a connection to a local or private address; every
// transport refuses with it, before anything connects.
var ErrLocal = errors.New("local or private network addresses are not allowed (TMS_EGRESS_ALLOW lists the internal hosts that are)")

// LocalAddr is an address of the machine or of private, link-local or
// shared (100.64.0.0/10) networks.
func LocalAddr(ip netip.Addr) bool {
	ip = ip.Unmap()
	return ip.IsLoopback() || ip.IsPrivate() || ip.IsLinkLocalUnicast() || ip.IsLinkLocalMulticast() ||
		ip.IsUnspecified() || ip.IsInterfaceLocalMulticast() || (ip.Is4() && cgnat.Contains(ip))
}

var cgnat = netip.MustParsePrefix("100.64.0.0/10")

// LocalHost tells whether a URL's host names the local machine or a local
// address literally, and is not on the allow-list (Control catches names
// that resolve there).
func LocalHost(host string) bool {
	if Allowed(host) {
		return false
	}
	host = normalHost(host)
	if host == "localhost" || strings.HasSuffix(host, ".localhost") {
		return true
	}
	ip, err := netip.ParseAddr(host)
	return err == nil && LocalAddr(ip)
}

// Control is a net.Dialer Control refusing the addresses Refused refuses
// unless allow() says otherwise; it runs after name resolution, on the
// address dialled. DialContext adds the allow-list's host names.
func Control(allow func() bool) func(network, address string, c syscall.RawConn) error {
	return func(_, address string, _ syscall.RawConn) error {
		if allow() {
			return nil
		}
		host, _, err := net.SplitHostPort(address)
		if err != nil {
			return err
		}
		if ip, err := netip.ParseAddr(host); err == nil && Refused(ip) {
			return fmt.Errorf("%s: %w", address, ErrLocal)
		}
		return nil
	}
}
