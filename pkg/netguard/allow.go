package netguard

import (
	"context"
	"fmt"
	"net"
	"net/netip"
	"strings"
	"sync/atomic"
)

// allowList is the operator's list of internal hosts and networks the
// service may reach even though they are local or private
// (TMS_EGRESS_ALLOW): for a mail relay, an internal git server or a
// machine-translation service inside the cluster.
type allowList struct {
	hosts map[string]bool // lower-case names; "*.example" allows its subdomains
	nets  []netip.Prefix
}

var allowed atomic.Pointer[allowList]

// SetAllowList sets the allow-list from a comma- or space-separated list
// of host names (an exact name, or "*.internal.example" for the names
// below it), addresses and networks in CIDR notation. It is process-wide,
// as the transports the guard serves are.
func SetAllowList(spec string) error {
	a := &allowList{hosts: map[string]bool{}}
	for _, f := range strings.FieldsFunc(spec, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' || r == '\n' }) {
		if p, err := netip.ParsePrefix(f); err == nil {
			a.nets = append(a.nets, p.Masked())
			continue
		}
		if ip, err := netip.ParseAddr(strings.Trim(f, "[]")); err == nil {
			a.nets = append(a.nets, netip.PrefixFrom(ip.Unmap(), ip.Unmap().BitLen()))
			continue
		}
		name := normalHost(f)
		if strings.ContainsAny(strings.TrimPrefix(name, "*."), "*/:@") || name == "" {
			return fmt.Errorf("%q is neither a host name, an address nor a network", f)
		}
		a.hosts[name] = true
	}
	allowed.Store(a)
	return nil
}

func normalHost(host string) string {
	return strings.TrimSuffix(strings.ToLower(strings.Trim(host, "[]")), ".")
}

// Allowed reports whether host (a name or an address) is on the allow-list.
func Allowed(host string) bool {
	a := allowed.Load()
	if a == nil {
		return false
	}
	host = normalHost(host)
	if ip, err := netip.ParseAddr(host); err == nil {
		return a.addr(ip)
	}
	if a.hosts[host] {
		return true
	}
	for rest := host; ; {
		i := strings.IndexByte(rest, '.')
		if i < 0 {
			break
		}
		if rest = rest[i+1:]; a.hosts["*."+rest] {
			return true
		}
	}
	return false
}

func (a *allowList) addr(ip netip.Addr) bool {
	ip = ip.Unmap()
	for _, p := range a.nets {
		if p.Contains(ip) {
			return true
		}
	}
	return false
}

// Refused reports whether the guard refuses a connection to ip: a local
// or private address not on the allow-list.
func Refused(ip netip.Addr) bool {
	if !LocalAddr(ip) {
		return false
	}
	a := allowed.Load()
	return a == nil || !a.addr(ip)
}

// DialContext is d's DialContext behind the guard: a host on the
// allow-list is dialled as it is; any other, by name or address, only at
// addresses the guard does not refuse, checked as each is dialled (after
// resolution, so a name cannot be re-pointed between check and use).
// allowAll is the service's switch that lifts the guard (TMS_ALLOW_LOCAL_*).
func DialContext(d *net.Dialer, allowAll func() bool) func(ctx context.Context, network, address string) (net.Conn, error) {
	guarded := *d
	guarded.Control = Control(allowAll)
	return func(ctx context.Context, network, address string) (net.Conn, error) {
		if host, _, err := net.SplitHostPort(address); err == nil && Allowed(host) {
			return d.DialContext(ctx, network, address)
		}
		return guarded.DialContext(ctx, network, address)
	}
}
