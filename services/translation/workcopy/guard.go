package workcopy

import (
	"context"
	"fmt"
	"net"
	"time"

	"github.com/go-git/go-git/v5/plumbing/transport"
	gitproto "github.com/go-git/go-git/v5/plumbing/transport/git"
	gitssh "github.com/go-git/go-git/v5/plumbing/transport/ssh"

	"github.com/tmsproject/tms/pkg/netguard"
)

// guarded wraps a go-git transport that dials by itself (git://, ssh),
// where no dialer can be given: the endpoint's host is resolved here,
// every address it has is checked, and the endpoint is pinned to a checked
// address, so that the transport's own resolution cannot be steered
// elsewhere (no DNS rebinding). The refusal is made before any
// connection, so it reads the same whatever listens at the address.
type guarded struct{ next transport.Transport }

func (g guarded) NewUploadPackSession(ep *transport.Endpoint, auth transport.AuthMethod) (transport.UploadPackSession, error) {
	pinned, err := pin(ep)
	if err != nil {
		return nil, err
	}
	return g.next.NewUploadPackSession(pinned, auth)
}

func (g guarded) NewReceivePackSession(ep *transport.Endpoint, auth transport.AuthMethod) (transport.ReceivePackSession, error) {
	pinned, err := pin(ep)
	if err != nil {
		return nil, err
	}
	return g.next.NewReceivePackSession(pinned, auth)
}

// pin returns ep with its host replaced by one of its addresses, all of
// which must be public or on the allow-list (unless TMS_ALLOW_LOCAL_REPOS
// or the host itself is on the allow-list).
func pin(ep *transport.Endpoint) (*transport.Endpoint, error) {
	if allowLocalNetwork.Load() || netguard.Allowed(ep.Host) {
		return ep, nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	ips, err := net.DefaultResolver.LookupNetIP(ctx, "ip", ep.Host)
	if err != nil || len(ips) == 0 {
		return nil, fmt.Errorf("resolve %s: %w", ep.Host, err)
	}
	for _, ip := range ips {
		if netguard.Refused(ip) {
			return nil, localRefusal(fmt.Errorf("%s: %w", ep.Host, netguard.ErrLocal))
		}
	}
	cp := *ep
	cp.Host = ips[0].Unmap().String()
	return &cp, nil
}

// guardedProtocols are the transports guarded by pin, by URL scheme.
func guardedProtocols() map[string]transport.Transport {
	return map[string]transport.Transport{"git": guarded{gitproto.DefaultClient}, "ssh": guarded{gitssh.DefaultClient}}
}
