package changelog

import (
	"context"
	"log/slog"

	"google.golang.org/grpc"
	"gorm.io/gorm"

	"github.com/tmsproject/tms/pkg/db"
	"github.com/tmsproject/tms/pkg/policy"
	changelogv1 "github.com/tmsproject/tms/proto/gen/go/tms/changelog/v1"
	"github.com/tmsproject/tms/services/changelog/server"
	"github.com/tmsproject/tms/services/changelog/store"
)

// Name is the service name: its PostgreSQL schema and SQLite file stem.
const Name = "changelog"

// Config configures the service.
type Config struct {
	// DataDir holds the embedded database (changelog.db) when DB.URL and
	// DB.SQLitePath are empty.
	DataDir string
	// DB selects the database; Schema defaults to "changelog".
	DB db.Config
	// Log is accepted like every service's, but the changelog has no
	// background work and so nothing of its own to log.
	Log *slog.Logger
	// Catalog tells which projects each caller may see; nil shows every
	// record to every caller (tests of the store alone).
	Catalog policy.ProjectLister
}

// Service is a running changelog service.
type Service struct {
	gdb    *gorm.DB
	server *server.Server
}

// Migrations are the versioned schema changes of the service's database,
// in order: what New applies, and what `tms migrate` applies alone.
func Migrations() []db.Source { return []db.Source{store.Migrations} }

// New opens and migrates the database and builds the service.
func New(ctx context.Context, cfg Config) (*Service, error) {
	gdb, err := db.OpenService(ctx, Name, cfg.DB, cfg.DataDir, Migrations()...)
	if err != nil {
		return nil, err
	}
	var projects server.Visibility
	if cfg.Catalog != nil {
		projects = policy.NewProjects(cfg.Catalog)
	}
	return &Service{gdb: gdb, server: server.New(store.New(gdb), projects)}, nil
}

// Server returns the gRPC implementation, for callers that wire it up
// themselves.
func (s *Service) Server() changelogv1.ChangelogServiceServer { return s.server }

// Register installs the service on srv.
func (s *Service) Register(srv grpc.ServiceRegistrar) {
	changelogv1.RegisterChangelogServiceServer(srv, s.server)
}

// Run returns when ctx ends. The changelog is a pure consumer: it has no
// background work of its own.
func (s *Service) Run(ctx context.Context) error {
	<-ctx.Done()
	return nil
}

// Close releases the database.
func (s *Service) Close() error { return db.Close(s.gdb) }

// Check tells whether the service can serve: its database answers.
func (s *Service) Check(ctx context.Context) error { return db.Ping(ctx, s.gdb) }
