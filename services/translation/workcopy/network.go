package workcopy

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/go-git/go-git/v5/plumbing/transport/client"
	githttp "github.com/go-git/go-git/v5/plumbing/transport/http"

	"github.com/tmsproject/tms/pkg/netguard"
)

// allowLocalNetwork lets git reach loopback, private and link-local
// addresses (TMS_ALLOW_LOCAL_REPOS); by default a hosted service must not
// be turned into a probe of its own network.
var allowLocalNetwork atomic.Bool

var installHTTP sync.Once

// The guarded transports are go-git's from the start: no use of the
// package, a test's or a tool's, reaches a remote unguarded.
func init() { installGuarded() }

// AllowLocalNetwork sets whether repositories may be fetched from or
// pushed to local and private network addresses. The transports are
// guarded (installGuarded): over HTTP(S) the address is checked as it is
// dialled (each redirect's too); git:// and ssh are resolved and pinned to
// a checked address first (guard.go). A host name resolving to a private
// address is refused like the address itself.
func AllowLocalNetwork(allow bool) {
	allowLocalNetwork.Store(allow)
	installGuarded()
}

// installGuarded makes go-git dial through the guard, once.
func installGuarded() {
	installHTTP.Do(func() {
		dial := netguard.DialContext(&net.Dialer{Timeout: 30 * time.Second}, allowLocalNetwork.Load)
		tr := http.DefaultTransport.(*http.Transport).Clone()
		tr.DialContext = func(ctx context.Context, network, address string) (net.Conn, error) {
			conn, err := dial(ctx, network, address)
			if errors.Is(err, netguard.ErrLocal) {
				err = localRefusal(err)
			}
			return conn, err
		}
		c := githttp.NewClient(&http.Client{Transport: tr,
			// Each redirect's address goes through the same dial check.
			CheckRedirect: func(_ *http.Request, via []*http.Request) error {
				if len(via) >= 5 {
					return http.ErrUseLastResponse
				}
				return nil
			}})
		client.InstallProtocol("https", c)
		client.InstallProtocol("http", c)
		for scheme, t := range guardedProtocols() {
			client.InstallProtocol(scheme, t)
		}
	})
}

// localRefusal words netguard's refusal for git remotes.
func localRefusal(err error) error {
	return fmt.Errorf("%w; the server allows them when TMS_ALLOW_LOCAL_REPOS=true", err)
}
