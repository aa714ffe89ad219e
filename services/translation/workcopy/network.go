package workcopy

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/go-git/go-git/v5/plumbing/transport/client"
	githttp "github.com/go-git/go-git/v5/plumbing/transport/http"
)

// allowLocalNetwork lets git reach loopback, private and link-local
// addresses (TMS_ALLOW_LOCAL_REPOS); by default a hosted service must not
// be turned into a probe of its own network.
var allowLocalNetwork atomic.Bool

var installHTTP sync.Once

// AllowLocalNetwork sets whether repositories may be fetched from local
// and private network addresses, and installs the guarded HTTP transport.
func AllowLocalNetwork(allow bool) {
	allowLocalNetwork.Store(allow)
	installHTTP.Do(func() {
		dialer := &net.Dialer{Timeout: 30 * time.Second, Control: refuseLocal}
		tr := http.DefaultTransport.(*http.Transport).Clone()
		tr.DialContext = dialer.DialContext
		c := githttp.NewClient(&http.Client{Transport: tr})
		client.InstallProtocol("https", c)
		client.InstallProtocol("http", c)
	})
}

// errLocalAddress refuses a connection to the service's own network.
var errLocalAddress = errors.New("repositories on local or private network addresses are not allowed; the server allows them when TMS_ALLOW_LOCAL_REPOS=true")

// refuseLocal checks the address a connection is about to reach, after
// name resolution, so that a host name resolving to a private address is
// refused like the address itself.
func refuseLocal(_, address string, _ syscall.RawConn) error {
	if allowLocalNetwork.Load() {
		return nil
	}
	host, _, err := net.SplitHostPort(address)
	if err != nil {
		return err
	}
	if ip, err := netip.ParseAddr(host); err == nil && localAddr(ip) {
		return fmt.Errorf("%s: %w", address, errLocalAddress)
	}
	return nil
}

// localAddr is an address of the machine or its private networks.
func localAddr(ip netip.Addr) bool {
	ip = ip.Unmap()
	return ip.IsLoopback() || ip.IsPrivate() || ip.IsLinkLocalUnicast() || ip.IsLinkLocalMulticast() ||
		ip.IsUnspecified() || ip.IsInterfaceLocalMulticast() || isCGNAT(ip)
}

// isCGNAT is 100.64.0.0/10, shared address space that reaches inside
// providers' and clusters' networks.
func isCGNAT(ip netip.Addr) bool {
	return ip.Is4() && netip.MustParsePrefix("100.64.0.0/10").Contains(ip)
}

// localHost tells whether a URL's host names the local machine or a
// private address literally (the dial-time check catches names that
// resolve there).
func localHost(host string) bool {
	host = strings.TrimSuffix(strings.ToLower(strings.Trim(host, "[]")), ".")
	if host == "localhost" || strings.HasSuffix(host, ".localhost") {
		return true
	}
	ip, err := netip.ParseAddr(host)
	return err == nil && localAddr(ip)
}
