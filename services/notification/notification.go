package notification

import (
	"context"
	"errors"
	"fmt"
	"log/slog"

	"google.golang.org/grpc"
	"gorm.io/gorm"

	"github.com/tmsproject/tms/pkg/db"
	notificationv1 "github.com/tmsproject/tms/proto/gen/go/tms/notification/v1"
	"github.com/tmsproject/tms/services/notification/server"
	"github.com/tmsproject/tms/services/notification/store"
)

// Name is the service name: its PostgreSQL schema and SQLite file stem.
const Name = "notification"

// Config configures the service.
type Config struct {
	// DataDir holds the embedded database (notification.db) when DB.URL
	// and DB.SQLitePath are empty.
	DataDir string
	// DB selects the database; Schema defaults to "notification".
	DB db.Config
	// AdminToken, when set, becomes the API token of the admin account at
	// every start. When empty a token is generated at first start and
	// logged once.
	AdminToken string
	Log        *slog.Logger
}

// Service is a running notification service.
type Service struct {
	gdb    *gorm.DB
	server *server.Server
	limits *server.RateLimits
}

// Migrations are the versioned schema changes of the service's database,
// in order: what New applies, and what `tms migrate` applies alone.
func Migrations() []db.Source { return []db.Source{store.Migrations} }

// New opens and migrates the database, makes sure the built-in accounts
// exist and builds the service.
func New(ctx context.Context, cfg Config) (*Service, error) {
	log := cfg.Log
	if log == nil {
		log = slog.Default()
	}
	gdb, err := db.OpenService(ctx, Name, cfg.DB, cfg.DataDir, Migrations()...)
	if err != nil {
		return nil, err
	}
	st := store.New(gdb)
	if err := bootstrap(ctx, st, cfg.AdminToken, log.With("service", Name)); err != nil {
		return nil, errors.Join(fmt.Errorf("notification: %w", err), db.Close(gdb))
	}
	return &Service{gdb: gdb, server: server.New(st), limits: server.NewRateLimits(st)}, nil
}

// Server returns the gRPC implementation, for callers that wire it up
// themselves.
func (s *Service) Server() notificationv1.NotificationServiceServer { return s.server }

// Register installs the service on srv.
func (s *Service) Register(srv *grpc.Server) {
	notificationv1.RegisterNotificationServiceServer(srv, s.server)
	notificationv1.RegisterRateLimitServiceServer(srv, s.limits)
}

// Run returns when ctx ends. Notification delivery, the service's future
// background work, is not implemented yet.
func (s *Service) Run(ctx context.Context) error {
	<-ctx.Done()
	return nil
}

// Close releases the database.
func (s *Service) Close() error { return db.Close(s.gdb) }
