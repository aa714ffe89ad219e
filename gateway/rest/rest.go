package rest

import (
	"context"
	"log/slog"
	"net/http"
	"strings"
	"sync"

	"github.com/grpc-ecosystem/grpc-gateway/v2/runtime"

	"github.com/tmsproject/tms/pkg/obs"
	catalogv1 "github.com/tmsproject/tms/proto/gen/go/tms/catalog/v1"
	changelogv1 "github.com/tmsproject/tms/proto/gen/go/tms/changelog/v1"
	notificationv1 "github.com/tmsproject/tms/proto/gen/go/tms/notification/v1"
	translationv1 "github.com/tmsproject/tms/proto/gen/go/tms/translation/v1"
)

// Config names the backends and the few settings of the gateway.
type Config struct {
	Catalog     catalogv1.CatalogServiceClient
	Translation translationv1.TranslationServiceClient
	// Memory is the translation service's translation memory.
	Memory       translationv1.MemoryServiceClient
	Changelog    changelogv1.ChangelogServiceClient
	Notification notificationv1.NotificationServiceClient
	// Access keeps teams and roles.
	Access notificationv1.AccessServiceClient
	// Webhooks manages projects' outbound webhooks.
	Webhooks notificationv1.WebhookServiceClient
	// RateLimits keeps the shared rate-limit counters; nil counts nothing.
	RateLimits notificationv1.RateLimitServiceClient
	// RateAnon and RateUser limit anonymous callers (per client address)
	// and signed-in ones (per user); a zero Rate does not limit.
	RateAnon, RateUser Rate
	// TrustForwarded takes scheme and host of absolute URLs from
	// X-Forwarded-Proto / X-Forwarded-Host, and the client address of rate
	// limits from X-Forwarded-For (behind a reverse proxy).
	TrustForwarded bool
	Log            *slog.Logger
}

// gateway holds the backends; handlers are its methods.
type gateway struct {
	cfg    Config
	log    *slog.Logger
	auth   *authenticator
	limits *limiter                 // nil without a rate-limit service
	paths  *categoryPaths           // components' category paths, for their URLs
	docs   func() map[string][]byte // the API document's forms (h_schema.go)
}

// New returns the REST API handler with the read-only web pages its links
// point to (web.go). It answers every path; other paths answer 404 with a
// JSON error body.
func New(cfg Config) http.Handler {
	log := cfg.Log
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	g := &gateway{cfg: cfg, log: log, auth: newAuthenticator(cfg.Notification, cfg.Access),
		paths: newCategoryPaths(cfg.Catalog, log), docs: sync.OnceValue(apiDocuments)}
	if cfg.RateLimits != nil {
		g.limits = newLimiter(cfg.RateLimits)
	}
	mux := runtime.NewServeMux(runtime.WithRoutingErrorHandler(g.routingError))
	for _, rt := range g.routes() {
		g.mount(mux, rt)
	}
	return obs.HTTPHandler(&front{g: g, mux: mux})
}

type ctxKey int

const origPathKey ctxKey = 0

// front enforces the trailing slash (the grpc-gateway mux cannot match it),
// sets Vary on every answer and hands the slash-less path to the mux.
type front struct {
	g   *gateway
	mux *runtime.ServeMux
}

func (f *front) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Vary", "Accept")
	if err := checkRequest(r); err != nil {
		f.g.writeError(w, r, err)
		return
	}
	path := r.URL.Path
	if isWebPath(path) {
		f.g.serveWeb(w, r)
		return
	}
	if !strings.HasSuffix(path, "/") || len(path) < 2 {
		f.g.writeError(w, r, notFound())
		return
	}
	r2 := r.WithContext(context.WithValue(r.Context(), origPathKey, path))
	u := *r.URL
	u.Path = strings.TrimSuffix(path, "/")
	u.RawPath = ""
	r2.URL = &u
	f.mux.ServeHTTP(w, r2)
}

func (g *gateway) routingError(_ context.Context, _ *runtime.ServeMux, _ runtime.Marshaler, w http.ResponseWriter, r *http.Request, status int) {
	switch status {
	case http.StatusMethodNotAllowed, http.StatusNotImplemented:
		g.writeError(w, r, methodNotAllowed(r.Method))
	case http.StatusBadRequest:
		g.writeError(w, r, clientError(http.StatusBadRequest, "parse_error", "Malformed request path."))
	default:
		g.writeError(w, r, notFound())
	}
}

// writeError renders err as the JSON error body of COMPAT.md §3.
func (g *gateway) writeError(w http.ResponseWriter, r *http.Request, err error) {
	ae := toAPIError(err)
	switch {
	case ae.status == http.StatusInternalServerError:
		g.log.ErrorContext(r.Context(), "request failed", "method", r.Method, "path", r.URL.Path, "err", err)
	case ae.status >= 500: // a backend down or slow, or the client gone: not a bug here
		g.log.WarnContext(r.Context(), "request not served", "method", r.Method, "path", r.URL.Path, "err", err)
	}
	for k, v := range ae.header {
		w.Header()[k] = v
	}
	writeJSON(w, ae.status, errBody{Type: ae.typ, Errors: ae.entries})
}
