package stack

import (
	"context"
	"fmt"
	"log/slog"

	"github.com/tmsproject/tms/pkg/db"
	notificationv1 "github.com/tmsproject/tms/proto/gen/go/tms/notification/v1"
	"github.com/tmsproject/tms/services/catalog"
	"github.com/tmsproject/tms/services/changelog"
	"github.com/tmsproject/tms/services/notification"
	"github.com/tmsproject/tms/services/translation"
)

// migrations are each backend's schema sources.
var migrations = map[string]func() []db.Source{
	Catalog:      catalog.Migrations,
	Translation:  translation.Migrations,
	Changelog:    changelog.Migrations,
	Notification: notification.Migrations,
}

// Migrate brings the databases of the named backends up to date and closes
// them: what each service does at start, alone, for operators who migrate
// before they roll out.
func Migrate(ctx context.Context, cfg Config, services []string, log *slog.Logger) error {
	if err := cfg.absolute(); err != nil {
		return err
	}
	for _, name := range services {
		sources, ok := migrations[name]
		if !ok {
			return fmt.Errorf("%s has no database", name)
		}
		dataDir := cfg.DataDir
		if name == Translation {
			dataDir = translationDir(cfg)
		}
		gdb, err := db.OpenService(ctx, name, cfg.dbConfig(name), dataDir, sources()...)
		if err != nil {
			return fmt.Errorf("migrate %s: %w", name, err)
		}
		if err := db.Close(gdb); err != nil {
			return err
		}
		log.Info("migrated", "service", name)
	}
	return nil
}

// Accounts opens the accounts (notification) service on its configured
// database for operator commands; close it when done. The RPC handlers are
// called directly, so the commands validate like the API.
func Accounts(ctx context.Context, cfg Config, log *slog.Logger) (notificationv1.NotificationServiceServer, func() error, error) {
	if err := cfg.absolute(); err != nil {
		return nil, nil, err
	}
	svc, err := notification.New(ctx, notification.Config{DataDir: cfg.DataDir, DB: cfg.dbConfig(Notification),
		AdminToken: cfg.AdminToken, Log: log})
	if err != nil {
		return nil, nil, err
	}
	return svc.Server(), svc.Close, nil
}
