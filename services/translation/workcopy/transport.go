package workcopy

import (
	"context"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/protocol/packp"
	"github.com/go-git/go-git/v5/plumbing/transport"
	"github.com/go-git/go-git/v5/plumbing/transport/client"
	"github.com/go-git/go-git/v5/plumbing/transport/server"
)

// InstallFileTransport serves file:// and plain paths in process, so a
// local repository never execs the git binary. go-git's in-process
// upload-pack fails ("object not found") when the client announces a
// commit the server lacks, which every fetch into a working copy with
// unpushed commits does; the wrapper drops such haves first, as git's own
// upload-pack ignores them.
func InstallFileTransport() {
	client.InstallProtocol("file", fileTransport{server.DefaultServer})
}

type fileTransport struct{ transport.Transport }

func (t fileTransport) NewUploadPackSession(ep *transport.Endpoint, auth transport.AuthMethod) (transport.UploadPackSession, error) {
	s, err := t.Transport.NewUploadPackSession(ep, auth)
	if err != nil {
		return nil, err
	}
	return knownHaves{UploadPackSession: s, ep: ep}, nil
}

type knownHaves struct {
	transport.UploadPackSession
	ep *transport.Endpoint
}

func (s knownHaves) UploadPack(ctx context.Context, req *packp.UploadPackRequest) (*packp.UploadPackResponse, error) {
	st, err := server.DefaultLoader.Load(s.ep)
	if err != nil {
		return nil, err
	}
	var haves []plumbing.Hash
	for _, h := range req.Haves {
		if st.HasEncodedObject(h) == nil {
			haves = append(haves, h)
		}
	}
	req.Haves = haves
	return s.UploadPackSession.UploadPack(ctx, req)
}
