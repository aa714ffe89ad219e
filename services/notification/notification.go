package notification

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"google.golang.org/grpc"
	"gorm.io/gorm"

	"github.com/tmsproject/tms/pkg/db"
	"github.com/tmsproject/tms/pkg/lease"
	"github.com/tmsproject/tms/pkg/policy"
	catalogv1 "github.com/tmsproject/tms/proto/gen/go/tms/catalog/v1"
	notificationv1 "github.com/tmsproject/tms/proto/gen/go/tms/notification/v1"
	"github.com/tmsproject/tms/services/notification/delivery"
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
	// ChangeLog and Catalog feed notification delivery (the change log to
	// follow, the projects each user may see); without ChangeLog nothing
	// is delivered.
	ChangeLog delivery.ChangeLog
	Catalog   policy.ProjectLister
	// SMTPURL is the mail server (smtp://[user:pass@]host[:port] or
	// smtps://…); empty disables mail. SMTPFrom is the sender address.
	SMTPURL, SMTPFrom string
	// SiteURL is the public address the mails link to.
	SiteURL string
	// AllowLocalWebhooks lets webhooks post to local and private addresses.
	AllowLocalWebhooks bool
}

// Service is a running notification service.
type Service struct {
	gdb       *gorm.DB
	server    *server.Server
	limits    *server.RateLimits
	webhooks  *server.Webhooks
	access    *server.Access
	deliverer *delivery.Deliverer // nil without a change log to follow
	st        *store.Store
	catalog   policy.ProjectLister // nil: no projects to give teams
}

// Migrations are the versioned schema changes of the service's database,
// in order: what New applies, and what `tms migrate` applies alone.
func Migrations() []db.Source { return []db.Source{store.Migrations, lease.Migrations} }

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
	if err = bootstrap(ctx, st, cfg.AdminToken, log.With("service", Name)); err != nil {
		return nil, errors.Join(fmt.Errorf("notification: %w", err), db.Close(gdb))
	}
	var projects *policy.Projects
	if cfg.Catalog != nil {
		projects = policy.NewProjects(cfg.Catalog)
	}
	svc := &Service{gdb: gdb, server: server.New(st), limits: server.NewRateLimits(st),
		webhooks: server.NewWebhooks(st, cfg.AllowLocalWebhooks, projects), access: server.NewAccess(st, projects),
		st: st, catalog: cfg.Catalog}
	if svc.deliverer, err = newDeliverer(cfg, st, log.With("service", Name)); err != nil {
		return nil, errors.Join(err, db.Close(gdb))
	}
	// On PostgreSQL several replicas may share the database: one follows
	// the change log at a time. An embedded SQLite database is this
	// process's alone (the data directory's lock): what a killed
	// predecessor had claimed is free at once.
	if db.Dialect(gdb) == db.Postgres {
		if svc.deliverer != nil {
			svc.deliverer.Lease = lease.New(gdb, "")
		}
	} else if err = st.ReleaseClaims(ctx); err != nil {
		return nil, errors.Join(err, db.Close(gdb))
	}
	return svc, nil
}

// newDeliverer sets up mail delivery; without a mail server it only
// follows the change log (logged once), so that enabling mail later does
// not mail the past.
func newDeliverer(cfg Config, st *store.Store, log *slog.Logger) (*delivery.Deliverer, error) {
	if cfg.ChangeLog == nil {
		return nil, nil
	}
	d := &delivery.Deliverer{Store: st, ChangeLog: cfg.ChangeLog, SiteURL: cfg.SiteURL, Log: log,
		AllowLocal: cfg.AllowLocalWebhooks}
	if cfg.Catalog != nil {
		d.Projects = policy.NewProjects(cfg.Catalog)
	}
	if cfg.SMTPURL == "" {
		log.Info("notification mail disabled: TMS_SMTP_URL is not set")
		return d, nil
	}
	from := cfg.SMTPFrom
	if from == "" {
		from = DefaultFrom
	}
	m, err := delivery.NewSMTP(cfg.SMTPURL, from)
	if err != nil {
		return nil, fmt.Errorf("TMS_SMTP_URL: %w", err)
	}
	d.Mailer = m
	return d, nil
}

// DefaultFrom is the sender of notification mail unless configured.
const DefaultFrom = "TMS <noreply@tms.invalid>"

// Server returns the gRPC implementation, for callers that wire it up
// themselves.
func (s *Service) Server() notificationv1.NotificationServiceServer { return s.server }

// Register installs the service on srv.
func (s *Service) Register(srv grpc.ServiceRegistrar) {
	notificationv1.RegisterNotificationServiceServer(srv, s.server)
	notificationv1.RegisterRateLimitServiceServer(srv, s.limits)
	notificationv1.RegisterWebhookServiceServer(srv, s.webhooks)
	notificationv1.RegisterAccessServiceServer(srv, s.access)
}

// deliveryInterval is how often the change log is read and due mail sent.
const deliveryInterval = time.Second

// Run delivers notifications until ctx ends, after giving every project
// its own teams in the background.
func (s *Service) Run(ctx context.Context) error {
	go s.adoptProjects(ctx)
	if s.deliverer == nil {
		<-ctx.Done()
		return nil
	}
	return s.deliverer.Run(ctx, deliveryInterval)
}

// Close releases the database.
func (s *Service) Close() error { return db.Close(s.gdb) }

// Check tells whether the service can serve: its database answers.
func (s *Service) Check(ctx context.Context) error { return db.Ping(ctx, s.gdb) }

// adoptProjects gives the projects that have no teams of their own (made
// before teams existed) their teams, retrying until the catalog answers.
func (s *Service) adoptProjects(ctx context.Context) {
	if s.catalog == nil {
		return
	}
	for delay := time.Second; ; delay = min(2*delay, time.Minute) {
		if s.adoptAll(ctx) == nil {
			return
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(delay):
		}
	}
}

func (s *Service) adoptAll(ctx context.Context) error {
	have, err := s.st.ProjectsWithTeams(ctx)
	if err != nil {
		return err
	}
	for offset := int64(0); ; {
		resp, err := s.catalog.ListProjects(policy.System(ctx), &catalogv1.ListProjectsRequest{Offset: offset, Limit: 500})
		if err != nil {
			return err
		}
		for _, p := range resp.GetProjects() {
			if have[p.GetSlug()] {
				continue
			}
			if err := s.st.SetupProjectTeams(ctx, p.GetSlug(), nil); err != nil {
				return err
			}
		}
		offset += int64(len(resp.GetProjects()))
		if len(resp.GetProjects()) == 0 || offset >= resp.GetTotal() {
			return nil
		}
	}
}
