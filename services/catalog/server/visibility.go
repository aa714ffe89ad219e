package server

import (
	"context"

	"github.com/tmsproject/tms/pkg/policy"
	catalogv1 "github.com/tmsproject/tms/proto/gen/go/tms/catalog/v1"
	"github.com/tmsproject/tms/services/catalog/store"
)

// viewer is what the caller of ctx may see: everything for superusers
// and the services' own calls, else what its teams select.
func viewer(ctx context.Context) store.Viewer {
	c, restricted := policy.Restricted(ctx)
	if !restricted {
		return store.Viewer{All: true}
	}
	return c.Visibility()
}

// shown is a component as the caller of ctx may see it: repository
// credentials never leave (policy.ShowURL).
func shown(ctx context.Context, c *catalogv1.Component) *catalogv1.Component {
	c.Repo, c.Push = policy.ShowURL(ctx, c.Repo), policy.ShowURL(ctx, c.Push)
	return c
}

// keepSecrets lets an update send back a repository URL as the caller was
// shown it: a masked or stripped form of the stored URL keeps the stored
// one, credentials included, instead of overwriting them.
func keepSecrets(ctx context.Context, stored, update *catalogv1.Component) {
	if update.Repo != stored.Repo && update.Repo == policy.ShowURL(ctx, stored.Repo) {
		update.Repo = stored.Repo
	}
	if update.Push != stored.Push && update.Push == policy.ShowURL(ctx, stored.Push) {
		update.Push = stored.Push
	}
}
