package notification

import (
	"context"
	"fmt"
	"log/slog"

	"github.com/tmsproject/tms/services/notification/server"
	"github.com/tmsproject/tms/services/notification/store"
	"github.com/tmsproject/tms/services/notification/token"
)

// bootstrap makes sure the built-in accounts exist and that admin has a
// working token. It is idempotent: a restart creates nothing and, without
// a configured token, keeps the admin token of the first start.
func bootstrap(ctx context.Context, st *store.Store, adminToken string, log *slog.Logger) error {
	admin := store.User{Username: server.Admin, FullName: "Administrator", IsSuperuser: true, IsActive: true}
	if _, _, err := st.EnsureUser(ctx, admin, server.DefaultSubscriptions(server.Admin)); err != nil {
		return err
	}
	anon := store.User{Username: server.Anonymous, FullName: "Anonymous", IsActive: false}
	if _, _, err := st.EnsureUser(ctx, anon, nil); err != nil {
		return err
	}
	if err := st.EnsureBuiltins(ctx); err != nil {
		return fmt.Errorf("built-in teams and roles: %w", err)
	}
	if adminToken != "" {
		return setAdminToken(ctx, st, adminToken, log)
	}
	tok, err := token.NewUser()
	if err != nil {
		return fmt.Errorf("generate admin token: %w", err)
	}
	// Only the process that gives admin its first token prints it; the
	// hash alone is kept, so the token cannot be shown again later.
	set, err := st.SetTokenHashIfNone(ctx, server.Admin, token.Hash(tok))
	if err != nil {
		return err
	}
	if set {
		log.Info("admin API token: " + tok)
	}
	return nil
}

// setAdminToken makes the configured token admin's, saying so when it
// replaces another one: the former token stops working.
func setAdminToken(ctx context.Context, st *store.Store, adminToken string, log *slog.Logger) error {
	want := token.Hash(adminToken)
	had, err := st.TokenHash(ctx, server.Admin)
	if err != nil {
		return err
	}
	if had == want {
		return nil
	}
	if err := st.SetTokenHash(ctx, server.Admin, want); err != nil {
		return fmt.Errorf("set configured admin token: %w", err)
	}
	if had != "" {
		log.Warn("TMS_ADMIN_TOKEN replaced the admin API token stored in the data directory; the former token no longer works")
	} else {
		log.Info("admin API token set from TMS_ADMIN_TOKEN")
	}
	return nil
}
