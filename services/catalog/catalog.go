package catalog

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"

	"google.golang.org/grpc"
	"gorm.io/gorm"

	"github.com/tmsproject/tms/pkg/changefeed"
	"github.com/tmsproject/tms/pkg/db"
	"github.com/tmsproject/tms/pkg/obs"
	"github.com/tmsproject/tms/pkg/outbox"
	catalogv1 "github.com/tmsproject/tms/proto/gen/go/tms/catalog/v1"
	changelogv1 "github.com/tmsproject/tms/proto/gen/go/tms/changelog/v1"
	"github.com/tmsproject/tms/services/catalog/server"
	"github.com/tmsproject/tms/services/catalog/store"
)

// Name is the service name: its PostgreSQL schema and SQLite file stem.
const Name = "catalog"

// Config configures the service.
type Config struct {
	// DataDir holds the embedded database (catalog.db) when DB.URL and
	// DB.SQLitePath are empty.
	DataDir string
	// DB selects the database; Schema defaults to "catalog".
	DB db.Config
	// Changelog receives the change records. Nil keeps them in the outbox
	// until a service started with a client delivers them.
	Changelog changelogv1.ChangelogServiceClient
	// Translation imports the bindings of created and rebound components
	// and forgets deleted ones (removals.go). Nil imports nothing and keeps
	// removals in their outbox (the catalog alone).
	Translation Translation
	// Access receives the creations, renames and deletions of projects
	// and components, which the notification service's teams,
	// subscriptions and webhooks follow (lifecycle.go). Nil keeps them in
	// their outbox (the catalog alone).
	Access Access
	// AllowLocalRepos lets push URLs name local paths and local or
	// private network addresses (TMS_ALLOW_LOCAL_REPOS).
	AllowLocalRepos bool
	Log             *slog.Logger
}

// Service is a running catalog service.
type Service struct {
	gdb       *gorm.DB
	relay     *outbox.Relay // change records to the changelog
	removals  *outbox.Relay // removals to the translation service
	snapshots *outbox.Relay // project snapshots to the translation service
	lifecycle *outbox.Relay // project lifecycle to the notification service
	server    *server.Server
}

// Migrations are the versioned schema changes of the service's database,
// in order: what New applies, and what `tms migrate` applies alone.
func Migrations() []db.Source {
	return store.Sources()
}

// New opens and migrates the database, seeds the built-in languages and
// fills in the inherited settings of projects stored before them (no-ops
// once done) and builds the service.
func New(ctx context.Context, cfg Config) (*Service, error) {
	log := cfg.Log
	if log == nil {
		log = slog.Default()
	}
	log = log.With("service", Name)
	gdb, err := db.OpenService(ctx, Name, cfg.DB, cfg.DataDir, Migrations()...)
	if err != nil {
		return nil, err
	}
	st := store.New(gdb)
	if _, err := st.SeedLanguages(ctx, server.BuiltinLanguages()); err != nil {
		return nil, errors.Join(fmt.Errorf("catalog: seed languages: %w", err), db.Close(gdb))
	}
	if err := st.Backfill(ctx, server.DefaultSettings()); err != nil {
		return nil, errors.Join(fmt.Errorf("catalog: inherited settings: %w", err), db.Close(gdb))
	}
	if err := st.SeedProjection(ctx); err != nil {
		return nil, errors.Join(fmt.Errorf("catalog: projection: %w", err), db.Close(gdb))
	}
	svc := &Service{gdb: gdb}
	scfg := server.Config{Log: log, AllowLocalRepos: cfg.AllowLocalRepos}
	if cfg.Changelog != nil {
		svc.relay = changefeed.Relay(gdb, cfg.Changelog, log)
		obs.Backlog(Name, svc.relay.Backlog) //nolint:contextcheck // read at each scrape, long after ctx, with a bound of its own
		scfg.Notify = svc.relay.Flush
	}
	if cfg.Translation != nil {
		svc.removals = removalRelay(gdb, cfg.Translation, log)
		scfg.Removed = svc.removals.Notify
		svc.snapshots = projectionRelay(gdb, st, cfg.Translation, log)
		st.OnSnapshot(svc.snapshots.Flush)
		scfg.Translation = cfg.Translation
	}
	if cfg.Access != nil {
		svc.lifecycle = lifecycleRelay(gdb, cfg.Access, log)
		scfg.Lifecycle = svc.lifecycle.Flush
	}
	svc.server = server.New(st, scfg)
	return svc, nil
}

// Server returns the gRPC implementation, for callers that wire it up
// themselves.
func (s *Service) Server() catalogv1.CatalogServiceServer { return s.server }

// Register installs the service on srv.
func (s *Service) Register(srv grpc.ServiceRegistrar) {
	catalogv1.RegisterCatalogServiceServer(srv, s.server)
}

// Run relays change records to the changelog service, removals to the
// translation service and the lifecycle of projects to the notification
// service until ctx ends.
func (s *Service) Run(ctx context.Context) error {
	var wg sync.WaitGroup
	for _, r := range []*outbox.Relay{s.relay, s.removals, s.snapshots, s.lifecycle} {
		if r != nil {
			wg.Go(func() { _ = r.Run(ctx) }) // Run ends with ctx, answering nil
		}
	}
	<-ctx.Done()
	wg.Wait()
	return nil
}

// Close releases the database.
func (s *Service) Close() error { return db.Close(s.gdb) }

// Check tells whether the service can serve: its database answers.
func (s *Service) Check(ctx context.Context) error { return db.Ping(ctx, s.gdb) }
