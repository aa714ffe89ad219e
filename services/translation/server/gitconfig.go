package server

import (
	"context"
	"strings"

	"google.golang.org/grpc"

	"github.com/tmsproject/tms/pkg/version"
	notificationv1 "github.com/tmsproject/tms/proto/gen/go/tms/notification/v1"
	"github.com/tmsproject/tms/services/translation/workcopy"
)

// The committer of every commit unless configured (Weblate's
// DEFAULT_COMMITER_NAME / _EMAIL name Weblate; this service names itself,
// at an address that can never receive mail).
const (
	DefaultCommitterName  = version.Product
	DefaultCommitterEmail = "noreply@tms.invalid"
)

// GitConfig is the identity and site the commits carry.
type GitConfig struct {
	// CommitterName and CommitterEmail sign every commit (Weblate's
	// DEFAULT_COMMITER_NAME / _EMAIL).
	CommitterName  string
	CommitterEmail string
	// SiteTitle and SiteURL fill {{ site_title }}, {{ site_url }} and the
	// translation URLs of commit messages and the Language-Team header.
	SiteTitle string
	SiteURL   string
	// Generator is the X-Generator header of written PO files.
	Generator string
}

func (g GitConfig) withDefaults() GitConfig {
	if g.CommitterName == "" {
		g.CommitterName = DefaultCommitterName
	}
	if g.CommitterEmail == "" {
		g.CommitterEmail = DefaultCommitterEmail
	}
	if g.SiteTitle == "" {
		g.SiteTitle = version.Product
	}
	if g.SiteURL == "" {
		g.SiteURL = "http://localhost:8080"
	}
	g.SiteURL = strings.TrimSuffix(g.SiteURL, "/")
	if g.Generator == "" {
		g.Generator = version.Generator()
	}
	return g
}

func (g GitConfig) committer() workcopy.Signature {
	return workcopy.Signature{Name: g.CommitterName, Email: g.CommitterEmail}
}

// translationURL is the web page of a translation.
func (g GitConfig) translationURL(project, component, code string) string {
	return g.SiteURL + "/projects/" + project + "/" + component + "/" + code + "/"
}

// Users is the part of the notification service that names authors.
type Users interface {
	GetUser(ctx context.Context, in *notificationv1.GetUserRequest, opts ...grpc.CallOption) (*notificationv1.GetUserResponse, error)
}

// author is the git identity of a user name: Weblate's get_author_name,
// "Full Name <email>"; without a user directory (or record) the user name
// and the committer address stand in. An empty name is the committer.
func (s *Server) author(ctx context.Context, username string) workcopy.Signature {
	g := s.cfg.Git
	if username == "" {
		return g.committer()
	}
	sig := workcopy.Signature{Name: username, Email: g.CommitterEmail}
	if s.cfg.Users == nil {
		return sig
	}
	resp, err := s.cfg.Users.GetUser(ctx, &notificationv1.GetUserRequest{Username: username})
	if err != nil {
		return sig
	}
	if n := resp.GetUser().GetFullName(); n != "" {
		sig.Name = n
	}
	if e := resp.GetUser().GetEmail(); e != "" {
		sig.Email = e
	}
	return sig
}

// signatureText renders "Name <email>".
func signatureText(sig workcopy.Signature) string { return sig.Name + " <" + sig.Email + ">" }
