package db

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"

	"gorm.io/gorm"
)

// OpenService opens the database a service owns and migrates it: the
// service's own PostgreSQL schema (named after the service unless cfg names
// one) when cfg.URL is set, else cfg.SQLitePath, else <dataDir>/<name>.db.
// The database is closed again when migrating fails.
func OpenService(ctx context.Context, name string, cfg Config, dataDir string, sources ...Source) (*gorm.DB, error) {
	if cfg.Schema == "" {
		cfg.Schema = name
	}
	if cfg.URL == "" && cfg.SQLitePath == "" {
		if dataDir == "" {
			return nil, fmt.Errorf("%s: neither a data directory nor a database is configured", name)
		}
		cfg.SQLitePath = filepath.Join(dataDir, name+".db")
	}
	gdb, err := Open(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if err := Migrate(ctx, gdb, sources...); err != nil {
		return nil, errors.Join(fmt.Errorf("%s: %w", name, err), Close(gdb))
	}
	return gdb, nil
}
