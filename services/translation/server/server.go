package server

import (
	"cmp"
	"context"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/protobuf/proto"

	"github.com/tmsproject/tms/pkg/errs"
	"github.com/tmsproject/tms/pkg/pagetoken"
	"github.com/tmsproject/tms/pkg/policy"
	catalogv1 "github.com/tmsproject/tms/proto/gen/go/tms/catalog/v1"
	translationv1 "github.com/tmsproject/tms/proto/gen/go/tms/translation/v1"
	"github.com/tmsproject/tms/services/translation/importer"
	"github.com/tmsproject/tms/services/translation/store"
	"github.com/tmsproject/tms/services/translation/workcopy"
)

// Catalog is the part of the catalog service this server calls: a
// project's machinery settings and the lock of a component whose push
// failed. What reads, edits and imports need of projects, components and
// languages comes from the service's own copy (CatalogCopy), never from
// a call.
type Catalog interface {
	GetMachinerySettings(ctx context.Context, in *catalogv1.GetMachinerySettingsRequest, opts ...grpc.CallOption) (*catalogv1.GetMachinerySettingsResponse, error)
	SetComponentLock(ctx context.Context, in *catalogv1.SetComponentLockRequest, opts ...grpc.CallOption) (*catalogv1.SetComponentLockResponse, error)
}

// Config wires the server.
type Config struct {
	Store           Store
	Catalog         Catalog
	Repos           *workcopy.Manager
	AllowLocalRepos bool
	Log             *slog.Logger
	// Notify is called after a write that recorded changes (the outbox
	// relay's wake-up); optional.
	Notify func()
	// Outcome is called after an import recorded what it found for the
	// catalog (store.Outcomes: its relay's wake-up); optional.
	Outcome func()
	// Git configures commits: identity, site and generator (repository.go).
	Git GitConfig
	// Users resolves authors' names and e-mails for commits; optional.
	Users Users
	// Projects knows which projects each caller may see (policy); nil
	// hides nothing.
	Projects *policy.Projects
	// Leases, when set, make the service safe at several replicas on one
	// database: a component's repository work runs under its lease, and a
	// replica's imports are taken over when it dies (replicas.go). Nil:
	// this process is the only one, and local locks suffice.
	Leases Leases
	// RepoLease is how long a repository lease lasts unrenewed (zero:
	// DefaultRepoLease): a dead replica's components are taken over after
	// it.
	RepoLease time.Duration
	// Upload bounds the work one upload may create (zero fields: the
	// defaults of UploadLimits).
	Upload UploadLimits
	// Machinery is the site's machine translation configuration, by
	// engine id; a project's own settings of an engine win.
	Machinery MachinerySettings
	// AllowLocalMachinery lets the engines a project configures reach
	// local addresses; the site's engines may always (the operator's).
	AllowLocalMachinery bool
	// MachineryClient, when set, makes every engine request (tests).
	MachineryClient *http.Client
}

// UploadLimits bound what one upload may create, so that one request
// cannot flood the database and the notifications that follow every
// change: past a limit the upload is refused whole (400), nothing applied.
type UploadLimits struct {
	// MaxSuggestions is the most suggestions a method=suggest upload makes.
	MaxSuggestions int
	// MaxNewStrings is the most strings a method=add upload adds.
	MaxNewStrings int
	// MaxChanges is the most strings a translate, fuzzy or approve upload
	// changes: each is a change record, and each record a webhook and mail
	// event for every subscriber.
	MaxChanges int
	// ReadWhole is the largest upload read whole (readWhole when zero): of
	// a format that does not stream, or for method replace or source. A
	// parse takes up to 15 times the file's size.
	ReadWhole int64
	// StreamAbove is the size above which a file whose format allows it
	// is read in pieces (streamAbove when zero; tests lower it to stream
	// small files).
	StreamAbove int64
}

// Defaults of UploadLimits: a whole large translation file of a real
// project (bleachbit's biggest has under 1,000 strings, large projects'
// tens of thousands) stays well within them.
const (
	DefaultMaxSuggestions = 50_000
	DefaultMaxNewStrings  = 100_000
	DefaultMaxChanges     = 250_000
)

func (l UploadLimits) suggestions() int   { return cmp.Or(l.MaxSuggestions, DefaultMaxSuggestions) }
func (l UploadLimits) newStrings() int    { return cmp.Or(l.MaxNewStrings, DefaultMaxNewStrings) }
func (l UploadLimits) changes() int       { return cmp.Or(l.MaxChanges, DefaultMaxChanges) }
func (l UploadLimits) readWhole() int64   { return cmp.Or(l.ReadWhole, readWhole) }
func (l UploadLimits) streamAbove() int64 { return cmp.Or(l.StreamAbove, streamAbove) }

// Server is the gRPC implementation.
type Server struct {
	translationv1.UnimplementedTranslationServiceServer
	cfg      Config
	importer *importer.Importer
	names    fullNames
	// tasks run under ctx, cancelled by Close.
	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup
	// running maps the ids of the tasks running here to the cancellation
	// of their context (taskContext).
	running sync.Map
}

// New returns a server.
func New(cfg Config) *Server {
	if cfg.Log == nil {
		cfg.Log = slog.Default()
	}
	if cfg.Outcome == nil {
		cfg.Outcome = func() {}
	}
	if cfg.Notify == nil {
		cfg.Notify = func() {}
	}
	cfg.Git = cfg.Git.withDefaults()
	ctx, cancel := context.WithCancel(context.Background())
	s := &Server{
		cfg: cfg,
		ctx: ctx, cancel: cancel,
	}
	s.importer = &importer.Importer{Store: cfg.Store, Languages: s.languages(), Log: cfg.Log, Review: s.translationReview,
		CheckRules: s.checkRules}
	return s
}

// translationReview reports whether the component's project reviews
// translations (the importer then keeps the approvals files record).
func (s *Server) translationReview(ctx context.Context, comp *catalogv1.Component) (bool, error) {
	p, err := s.project(ctx, comp)
	if err != nil {
		return false, err
	}
	return p.GetTranslationReview(), nil
}

// Close stops running tasks and waits for them.
func (s *Server) Close() {
	s.cancel()
	s.wg.Wait()
}

// Wait blocks until the running tasks finish (tests).
func (s *Server) Wait() { s.wg.Wait() }

// component reads a component from the service's copy of the catalog
// (with its repository credentials, which git needs and callers never
// see), and answers NotFound when the caller of ctx may not see it.
func (s *Server) component(ctx context.Context, id int64) (*catalogv1.Component, error) {
	if id <= 0 {
		return nil, errs.NotFoundf("Not found.")
	}
	comp, err := s.cfg.Store.CatalogComponent(ctx, id)
	if err != nil {
		return nil, err
	}
	if err := s.mustSee(ctx, comp.GetProjectSlug()); err != nil {
		return nil, err
	}
	return comp, nil
}

// listLimits are the page sizes of every List RPC of the service, as the
// protos document them.
var listLimits = pagetoken.Limits{Default: 50, Max: 1000}

// listPage reads the paging of a List request: its page_token form, or
// offset and limit (pagetoken refuses a negative offset). The page gives
// the response's next_page_token.
func listPage(req proto.Message) (pagetoken.Page, error) {
	return listLimits.Read(req)
}

// componentTranslation fetches a component and its translation into a
// language.
func (s *Server) componentTranslation(ctx context.Context, componentID int64, code string) (*catalogv1.Component, store.Translation, error) {
	comp, err := s.component(ctx, componentID)
	if err != nil {
		return nil, store.Translation{}, err
	}
	t, err := s.cfg.Store.GetTranslation(ctx, comp.GetId(), code)
	return comp, t, err
}

// project reads the project of a component from the service's copy of
// the catalog, NotFound when the caller of ctx may not see it.
func (s *Server) project(ctx context.Context, comp *catalogv1.Component) (*catalogv1.Project, error) {
	if err := s.mustSee(ctx, comp.GetProjectSlug()); err != nil {
		return nil, err
	}
	return s.cfg.Store.CatalogProject(ctx, comp.GetProjectSlug())
}
