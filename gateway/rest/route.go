package rest

import (
	"context"
	"net/http"
	"strings"
	"time"

	"github.com/grpc-ecosystem/grpc-gateway/v2/runtime"

	"github.com/tmsproject/tms/gateway/rest/wire"
	"github.com/tmsproject/tms/pkg/obs"
	"github.com/tmsproject/tms/pkg/policy"
	notificationv1 "github.com/tmsproject/tms/proto/gen/go/tms/notification/v1"
)

// handlerFunc serves one method of one route. It writes through c and
// returns an error to be rendered as the JSON error body.
type handlerFunc func(c *call) error

// route is one URL pattern with its methods. The wrapper in serve answers
// HEAD, OPTIONS, 405, formats, authentication and errors for all routes.
type route struct {
	pattern string // grpc-gateway pattern without the trailing slash
	name    string // for OPTIONS
	methods map[string]op
	// rawFormat routes give ?format= its own meaning (file downloads).
	rawFormat bool
}

// methodOrder is the order of the Allow header (Django REST framework's).
var methodOrder = []string{"GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"}

func (rt *route) allow() string {
	var out []string
	for _, m := range methodOrder {
		_, ok := rt.methods[m]
		_, get := rt.methods["GET"]
		if ok || (m == "HEAD" && get) || m == "OPTIONS" {
			out = append(out, m)
		}
	}
	return strings.Join(out, ", ")
}

func (g *gateway) mount(mux *runtime.ServeMux, rt *route) {
	h := func(w http.ResponseWriter, r *http.Request, params map[string]string) {
		g.serve(w, r, rt, params)
	}
	for _, m := range methodOrder {
		if err := mux.HandlePath(m, rt.pattern, h); err != nil {
			panic("rest: bad route pattern " + rt.pattern + ": " + err.Error())
		}
	}
}

func (g *gateway) serve(w http.ResponseWriter, r *http.Request, rt *route, params map[string]string) {
	start := time.Now()
	obs.NameHTTPSpan(r.Context(), r.Method, rt.pattern)
	id := requestID(r)
	ctx := obs.WithRequestID(r.Context(), id)
	sw := &statusWriter{ResponseWriter: w, code: http.StatusOK}
	sw.Header().Set(obs.RequestIDHeader, id)
	sw.Header().Set("Allow", rt.allow())
	r = r.WithContext(ctx)
	splitComponentParam(params)
	u := newURLs(r, g.cfg.TrustForwarded)
	u.paths = g.paths
	c := &call{g: g, w: sw, r: r, ctx: ctx, params: params, urls: u, lookups: newLookups()}
	if err := g.serveCall(c, rt); err != nil {
		g.writeError(c.w, r, err)
	}
	if r.Method != http.MethodGet && r.Method != http.MethodHead && r.Method != http.MethodOptions && mayChangeAccess(rt.pattern) {
		g.auth.unverified() // the next request reads the access version first
	}
	obs.ObserveHTTP(rt.pattern, r.Method, sw.code, time.Since(start))
}

// requestID is the client's X-Request-Id when it is a sane token, else a
// new one: it names the request in every service's log lines.
func requestID(r *http.Request) string {
	id := r.Header.Get(obs.RequestIDHeader)
	if id == "" || len(id) > 64 || strings.ContainsFunc(id, func(c rune) bool {
		return !(c == '-' || c == '_' || c == '.' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z')
	}) {
		return obs.NewRequestID()
	}
	return id
}

// statusWriter remembers the status of the answer, for the metrics.
type statusWriter struct {
	http.ResponseWriter
	code int
}

func (w *statusWriter) WriteHeader(code int) {
	w.code = code
	w.ResponseWriter.WriteHeader(code)
}

// Unwrap lets http.ResponseController reach the connection.
func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

func (g *gateway) serveCall(c *call, rt *route) error {
	if f := c.r.URL.Query().Get("format"); !rt.rawFormat && f != "" && f != "json" && f != "api" {
		return notFound()
	}
	user, caller, err := g.auth.fromRequest(c.ctx, c.r)
	if err != nil {
		return err
	}
	c.setUser(user, caller)
	if err := g.throttle(c); err != nil {
		return err
	}
	method := c.r.Method
	if method == http.MethodOptions {
		return c.write(http.StatusOK, optionsBody{Name: rt.name, Description: "",
			Renders: []string{"application/json", "text/html"},
			Parses:  []string{"application/json", "application/x-www-form-urlencoded", "multipart/form-data"}})
	}
	if method == http.MethodHead {
		method = http.MethodGet
		c.w = headWriter{c.w}
	}
	h := rt.methods[method].h
	safe := method == http.MethodGet
	if !safe && user == nil {
		return notAuthenticated()
	}
	if h == nil {
		return methodNotAllowed(c.r.Method)
	}
	if !safe {
		if err := g.visiblePath(c, rt); err != nil {
			return err
		}
	}
	return h(c)
}

// scoped serves h with what scope reads from the path (the change records
// or the repositories it names); an error of scope is the answer.
func scoped[S any](scope func(*call) (S, error), h func(*call, S) error) handlerFunc {
	return func(c *call) error {
		s, err := scope(c)
		if err != nil {
			return err
		}
		return h(c, s)
	}
}

type optionsBody struct {
	Name        string   `json:"name"`
	Description string   `json:"description"`
	Renders     []string `json:"renders"`
	Parses      []string `json:"parses"`
}

// headWriter drops the body of a HEAD answer but keeps every header.
type headWriter struct{ http.ResponseWriter }

func (headWriter) Write(p []byte) (int, error) { return len(p), nil }

// call is one request being served.
type call struct {
	g       *gateway
	w       http.ResponseWriter
	r       *http.Request
	ctx     context.Context
	params  map[string]string
	urls    urls
	user    *notificationv1.User
	caller  policy.Caller // user with its grants
	lookups               // per-request memos (lookup.go)
}

func (c *call) param(name string) string { return c.params[name] }

// write sends v as JSON with the given status.
func (c *call) write(status int, v any) error {
	writeJSON(c.w, status, v)
	return nil
}

func (c *call) ok(v any) error { return c.write(http.StatusOK, v) }

// okRendered answers v, or the error of rendering it:
// c.okRendered(c.projectJSON(p, true)).
func (c *call) okRendered(v any, err error) error {
	if err != nil {
		return err
	}
	return c.ok(v)
}

// created answers 201 with v and its URL in Location.
func (c *call) created(location string, v any) error {
	c.w.Header().Set("Location", location)
	return c.write(http.StatusCreated, v)
}

func (c *call) noContent() error {
	c.w.WriteHeader(http.StatusNoContent)
	return nil
}

func (c *call) actor() string {
	if c.user == nil {
		return ""
	}
	return c.user.GetUsername()
}

// setUser makes user (nil: anonymous) the caller of every backend call of
// the request: the services decide what it may see (policy).
func (c *call) setUser(user *notificationv1.User, caller policy.Caller) {
	c.user, c.caller = user, caller
	c.ctx = policy.WithCaller(c.ctx, caller)
}

func (c *call) superuser() bool { return c.user != nil && c.user.GetIsSuperuser() }

// requireSuperuser is the write rule for now: only superusers change
// projects, components, repositories and locks.
func (c *call) requireSuperuser() error {
	if c.user == nil {
		return notAuthenticated()
	}
	if !c.user.GetIsSuperuser() {
		return permissionDenied("")
	}
	return nil
}

// requireUser admits any active signed-in account.
func (c *call) requireUser() error {
	if c.user == nil {
		return notAuthenticated()
	}
	if !c.user.GetIsActive() && !c.user.GetIsSuperuser() {
		return permissionDenied("")
	}
	return nil
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = wire.Encode(w, v)
}

// origPath is the request path with its trailing slash.
func (c *call) origPath() string {
	if p, ok := c.ctx.Value(origPathKey).(string); ok {
		return p
	}
	return c.r.URL.Path + "/"
}

// accessRoutes are the resources whose writes may change who may do what:
// accounts and tokens, teams and roles, and projects, categories,
// components and component lists, which teams and grants name. After a
// write to one, the next request reads the access version before it uses
// a cached token; other writes (strings, suggestions, comments, files)
// leave it to the version's regular reading (policy.AccessCache).
var accessRoutes = []string{"/api/users", "/api/groups", "/api/roles", "/api/projects", "/api/categories",
	"/api/components", "/api/component-lists"}

// mayChangeAccess tells whether a write to the route may change access.
func mayChangeAccess(pattern string) bool {
	for _, p := range accessRoutes {
		if pattern == p || strings.HasPrefix(pattern, p+"/") {
			return true
		}
	}
	return false
}
