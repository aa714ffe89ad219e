package translation

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"time"

	"google.golang.org/grpc"
	"gorm.io/gorm"

	"github.com/tmsproject/tms/pkg/changefeed"
	"github.com/tmsproject/tms/pkg/db"
	"github.com/tmsproject/tms/pkg/lease"
	"github.com/tmsproject/tms/pkg/obs"
	"github.com/tmsproject/tms/pkg/outbox"
	"github.com/tmsproject/tms/pkg/policy"
	catalogv1 "github.com/tmsproject/tms/proto/gen/go/tms/catalog/v1"
	changelogv1 "github.com/tmsproject/tms/proto/gen/go/tms/changelog/v1"
	translationv1 "github.com/tmsproject/tms/proto/gen/go/tms/translation/v1"
	"github.com/tmsproject/tms/services/translation/server"
	"github.com/tmsproject/tms/services/translation/store"
	"github.com/tmsproject/tms/services/translation/workcopy"
)

// Config configures the service.
type Config struct {
	// DataDir holds translation.db (SQLite) and repos/<component_id>.
	DataDir string
	DB      db.Config
	Catalog catalogv1.CatalogServiceClient
	// Changelog receives the change records; nil leaves them in the outbox.
	Changelog       changelogv1.ChangelogServiceClient
	AllowLocalRepos bool
	// GitTimeout bounds each clone, fetch and push (TMS_GIT_TIMEOUT); zero
	// means workcopy.DefaultNetworkTimeout.
	GitTimeout time.Duration
	Log        *slog.Logger
	// SiteURL is the public address of the site (scheme and host, with a
	// path prefix if any), used for {{ url }}, {{ site_url }} and
	// {{ widget_url }} in commit messages and for the Language-Team header
	// of written PO files. Empty keeps Git.SiteURL, and when that is empty
	// too, http://localhost:8080.
	SiteURL string
	// Git is the commit identity, site and generator; zero takes defaults.
	Git server.GitConfig
	// Users names commit authors; optional.
	Users server.Users
	// RepoLease is how long a component's repository lease outlives its
	// holder (zero: server.DefaultRepoLease).
	RepoLease time.Duration
	// Upload bounds the work of one upload (TMS_UPLOAD_MAX_SUGGESTIONS,
	// TMS_UPLOAD_MAX_NEW_STRINGS; zero: server's defaults).
	Upload server.UploadLimits
	// Machinery configures machine translation for every project
	// (TMS_MACHINERY); a project's own settings of an engine win.
	Machinery server.MachinerySettings
	// AllowLocalMachinery lets projects' engines reach local addresses
	// (TMS_ALLOW_LOCAL_MACHINERY); the site's may always.
	AllowLocalMachinery bool
}

// replicaSweep is how often a replica looks for the imports of dead ones.
const replicaSweep = 5 * time.Second

// Service is a running translation service.
type Service struct {
	// interrupted are the components whose import a previous process left
	// unfinished (the database's only process: SQLite); Run imports them
	// again. With leases, RunReplica finds them.
	interrupted []int64
	gdb         *gorm.DB
	store       *store.Store
	server      *server.Server
	relay       *outbox.Relay // change records to the changelog
	outcomes    *outbox.Relay // import outcomes to the catalog
	log         *slog.Logger
}

// Migrations are the versioned schema changes of the service's database,
// in order: what New applies, and what `tms migrate` applies alone.
func Migrations() []db.Source {
	return append(store.Sources(), lease.Migrations)
}

// New opens and migrates the database and builds the server.
func New(ctx context.Context, cfg Config) (*Service, error) {
	if cfg.Log == nil {
		cfg.Log = slog.Default()
	}
	cfg.Log = cfg.Log.With("service", "translation")
	if cfg.Catalog == nil {
		return nil, errors.New("translation: a catalog client is required")
	}
	gdb, err := db.OpenService(ctx, "translation", cfg.DB, cfg.DataDir, Migrations()...)
	if err != nil {
		return nil, err
	}
	st := store.New(gdb)
	if cfg.SiteURL != "" {
		cfg.Git.SiteURL = cfg.SiteURL
	}
	workcopy.AllowLocalNetwork(cfg.AllowLocalRepos)
	svc := &Service{gdb: gdb, store: st, log: cfg.Log}
	notify := func() {}
	if cfg.Changelog != nil {
		svc.relay = changefeed.Relay(gdb, cfg.Changelog, cfg.Log)
		obs.Backlog("translation", svc.relay.Backlog) //nolint:contextcheck // read at each scrape, long after ctx, with a bound of its own
		notify = svc.relay.Flush
	}
	// On PostgreSQL several replicas may share the database: repository
	// work and imports go under leases. An embedded SQLite database is
	// this process's alone (the data directory's lock): whatever a
	// previous process left running is orphaned at once, and no dead
	// holder's lease may delay a restart.
	var leases server.Leases
	if db.Dialect(gdb) == db.Postgres {
		leases = lease.New(gdb, "")
	}
	svc.outcomes = outcomeRelay(gdb, cfg.Catalog, cfg.Log)
	repos := workcopy.NewManager(cfg.DataDir)
	repos.NetworkTimeout = cfg.GitTimeout
	svc.server = server.New(server.Config{
		Store: st, Catalog: cfg.Catalog, Repos: repos,
		AllowLocalRepos: cfg.AllowLocalRepos, Log: cfg.Log, Notify: notify, Outcome: svc.outcomes.Notify,
		Git: cfg.Git, Users: cfg.Users, Projects: policy.NewProjectsOf(copyAccess{st}),
		Leases: leases, RepoLease: cfg.RepoLease, Upload: cfg.Upload,
		Machinery: cfg.Machinery, AllowLocalMachinery: cfg.AllowLocalMachinery,
	})
	if leases == nil {
		svc.interrupted = svc.server.TakeOverImports(ctx)
	}
	return svc, nil
}

// Register exposes the service on s.
func (svc *Service) Register(s grpc.ServiceRegistrar) {
	translationv1.RegisterTranslationServiceServer(s, svc.server)
	translationv1.RegisterMemoryServiceServer(s, svc.server.Memory())
}

// Run delivers change records and import outcomes, commits aged pending
// changes, keeps the search's trigram index current and remembers edited
// translations in the memory until ctx ends.
func (svc *Service) Run(ctx context.Context) error {
	// The background loops end with ctx; Run returns once they all have.
	var loops sync.WaitGroup
	defer loops.Wait()
	loops.Go(func() {
		svc.server.ResumeImports(ctx, svc.interrupted)
		svc.server.RunReplica(ctx, replicaSweep)
	})
	loops.Go(func() { svc.server.RunCommitter(ctx, time.Minute) })
	loops.Go(func() { _ = svc.outcomes.Run(ctx) }) // ends with ctx
	loops.Go(func() { svc.store.RunTextIndex(ctx, textIndexEvery, svc.log) })
	loops.Go(func() { svc.store.RunMemoryQueue(ctx, memoryQueueEvery, svc.log) })
	if svc.relay == nil {
		<-ctx.Done()
		return nil
	}
	err := svc.relay.Run(ctx)
	if errors.Is(err, context.Canceled) {
		return nil
	}
	return err
}

// memoryQueueEvery is how often Run looks at the translations edits
// queued for the memory: once edits pause, an edit's translation is in
// the memory about two looks after it answers (store.RunMemoryQueue).
const memoryQueueEvery = 250 * time.Millisecond

// textIndexEvery is how often Run looks for units to add to the search's
// trigram index: a unit added is indexed about two looks after
// the last insert of its import.
const textIndexEvery = time.Second

// Check tells whether the service can serve: its database answers.
func (svc *Service) Check(ctx context.Context) error { return db.Ping(ctx, svc.gdb) }

// Close stops running tasks and closes the database.
func (svc *Service) Close() error {
	svc.server.Close()
	return db.Close(svc.gdb)
}

// CommitAged commits the components whose oldest pending edit is older
// than their commit_pending_age at now (what Run does every minute).
func (svc *Service) CommitAged(ctx context.Context, now time.Time) error {
	return svc.server.CommitAged(ctx, now)
}

// copyAccess answers the access of every project from the service's copy
// of the catalog (store.ProjectAccess), without a call.
type copyAccess struct{ st *store.Store }

func (a copyAccess) GetProjectAccess(ctx context.Context, in *catalogv1.GetProjectAccessRequest, _ ...grpc.CallOption) (*catalogv1.GetProjectAccessResponse, error) {
	return a.st.ProjectAccess(ctx, in.GetKnownVersion())
}

// outcomeRelay hands what imports found (store.Outcomes) to the catalog,
// in order, each batch in one call, retried until the catalog takes it.
func outcomeRelay(gdb *gorm.DB, catalog catalogv1.CatalogServiceClient, log *slog.Logger) *outbox.Relay {
	deliver := func(ctx context.Context, events []outbox.Event) error {
		req := &catalogv1.RecordImportOutcomesRequest{}
		for _, ev := range events {
			o, err := store.DecodeOutcome(ev)
			if err != nil {
				return err
			}
			req.Outcomes = append(req.Outcomes, o)
		}
		_, err := catalog.RecordImportOutcomes(policy.System(ctx), req)
		return err
	}
	return outbox.NewRelay(gdb, deliver, outbox.WithTable(store.Outcomes), outbox.WithLogger(log))
}
