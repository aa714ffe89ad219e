package stack

import (
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/tmsproject/tms/gateway/rest"
	"github.com/tmsproject/tms/pkg/db"
	"github.com/tmsproject/tms/pkg/grpcx"
	"github.com/tmsproject/tms/services/translation/machinery"
	"github.com/tmsproject/tms/services/translation/server"
)

// Service names, also the values of --services.
const (
	Catalog      = "catalog"
	Translation  = "translation"
	Changelog    = "changelog"
	Notification = "notification"
	Gateway      = "gateway"
)

// Backends are the gRPC services, in start order: a service is started after
// the ones it calls so that its background work finds them serving (the
// catalog and the translation service call each other: the catalog's
// removals wait, retried, until the translation service serves).
var Backends = []string{Changelog, Notification, Catalog, Translation}

// Config is the configuration of one process.
type Config struct {
	HTTPAddr     string            // gateway listen address
	DataDir      string            // SQLite files and working copies
	DatabaseURL  string            // shared PostgreSQL URL; empty: SQLite
	DatabaseURLs map[string]string // per-service PostgreSQL URL, wins over DatabaseURL
	Addrs        map[string]string // gRPC address per service (listen when local, dial when remote)
	Services     []string          // what this process runs; "all" expands to everything
	AdminToken   string
	// ServiceToken authenticates the calls between the deployment's
	// processes; required when any service is reached over the network.
	ServiceToken    string
	AllowLocalRepos bool
	TrustForwarded  bool
	SiteURL         string // public address, used in commit messages
	CommitterName   string // committer of the service's commits
	CommitterEmail  string
	// RateLimitAnon and RateLimitUser are the API rate limits
	// ("100/day"); empty does not limit (FromEnv gives the defaults).
	RateLimitAnon, RateLimitUser string
	// SMTPURL and SMTPFrom configure notification mail; empty URL: none.
	SMTPURL, SMTPFrom string
	// AllowLocalWebhooks lets webhooks reach local addresses.
	AllowLocalWebhooks bool
	// Machinery is the site's machine translation settings (TMS_MACHINERY,
	// JSON), MachineryFile a file holding them (TMS_MACHINERY_FILE).
	Machinery, MachineryFile string
	// AllowLocalMachinery lets projects' engines reach local addresses.
	AllowLocalMachinery bool
	// EgressAllow lists the internal hosts and networks the service may
	// connect to on a user's or an operator's behalf (git remotes,
	// webhooks, mail), local or private as they are (netguard).
	EgressAllow string
	// GitTimeout bounds git's network operations (0: the translation
	// service's default).
	GitTimeout time.Duration
	// BackendTimeout is the deadline of each call to a service (0: none).
	BackendTimeout time.Duration
	// QueryTimeout bounds the work of each call a service handles, its
	// database queries included (0: none).
	QueryTimeout time.Duration
	// MetricsAddr is where Prometheus metrics and pprof are served; empty:
	// nowhere.
	MetricsAddr string
	// Pprof serves Go's profiler on the metrics listener too (TMS_PPROF).
	Pprof bool
	// UploadMaxSuggestions and UploadMaxNewStrings bound the work of one
	// upload ("": the translation service's defaults).
	UploadMaxSuggestions, UploadMaxNewStrings string
	// UploadMaxChanges bounds the strings one upload changes, each a
	// change record and so a webhook and mail event (TMS_UPLOAD_MAX_CHANGES).
	UploadMaxChanges string
	// UploadWholeMiB bounds an upload read whole (TMS_UPLOAD_WHOLE_MIB).
	UploadWholeMiB string
	// OTLPEndpoint receives the traces (OTLP/gRPC); empty: none.
	OTLPEndpoint string
	Log          *slog.Logger
}

// FromEnv reads the TMS_* variables of Settings. A duration that does not
// parse is an error naming its variable; the other values are checked
// when the stack starts.
func FromEnv() (Config, error) {
	var errs []error
	duration := func(env string) time.Duration {
		d, err := parseTimeout(env, setting(env))
		errs = append(errs, err)
		return d
	}
	c := Config{
		HTTPAddr:             setting("TMS_HTTP_ADDR"),
		DataDir:              setting("TMS_DATA_DIR"),
		DatabaseURL:          setting("TMS_DATABASE_URL"),
		DatabaseURLs:         map[string]string{},
		Addrs:                map[string]string{},
		Services:             []string{"all"},
		AdminToken:           setting("TMS_ADMIN_TOKEN"),
		ServiceToken:         setting("TMS_SERVICE_TOKEN"),
		CommitterName:        setting("TMS_COMMITTER_NAME"),
		CommitterEmail:       setting("TMS_COMMITTER_EMAIL"),
		RateLimitAnon:        setting("TMS_API_RATELIMIT_ANON"),
		RateLimitUser:        setting("TMS_API_RATELIMIT_USER"),
		SMTPURL:              setting("TMS_SMTP_URL"),
		SMTPFrom:             setting("TMS_SMTP_FROM"),
		AllowLocalWebhooks:   isTrue(setting("TMS_ALLOW_LOCAL_WEBHOOKS")),
		Machinery:            setting("TMS_MACHINERY"),
		MachineryFile:        setting("TMS_MACHINERY_FILE"),
		AllowLocalMachinery:  isTrue(setting("TMS_ALLOW_LOCAL_MACHINERY")),
		EgressAllow:          setting("TMS_EGRESS_ALLOW"),
		GitTimeout:           duration("TMS_GIT_TIMEOUT"),
		BackendTimeout:       duration("TMS_BACKEND_TIMEOUT"),
		QueryTimeout:         duration("TMS_QUERY_TIMEOUT"),
		MetricsAddr:          setting("TMS_METRICS_ADDR"),
		Pprof:                isTrue(setting("TMS_PPROF")),
		UploadMaxSuggestions: setting("TMS_UPLOAD_MAX_SUGGESTIONS"),
		UploadMaxNewStrings:  setting("TMS_UPLOAD_MAX_NEW_STRINGS"),
		UploadMaxChanges:     setting("TMS_UPLOAD_MAX_CHANGES"),
		UploadWholeMiB:       setting("TMS_UPLOAD_WHOLE_MIB"),
		OTLPEndpoint:         setting("TMS_OTLP_ENDPOINT"),
		AllowLocalRepos:      isTrue(setting("TMS_ALLOW_LOCAL_REPOS")),
		TrustForwarded:       isTrue(setting("TMS_TRUST_FORWARDED")),
		// The default names the listen address, known after the flags.
		SiteURL: os.Getenv("TMS_SITE_URL"),
	}
	for _, s := range Backends {
		if v := os.Getenv(perService("TMS_<SERVICE>_DATABASE_URL", s)); v != "" {
			c.DatabaseURLs[s] = v
		}
		if v := os.Getenv(perService("TMS_<SERVICE>_ADDR", s)); v != "" {
			c.Addrs[s] = v
		}
	}
	return c, errors.Join(errs...)
}

// ParseServices splits a --services value ("all", "catalog,gateway").
func ParseServices(v string) ([]string, error) {
	var out []string
	for _, s := range strings.Split(v, ",") {
		s = strings.TrimSpace(s)
		switch {
		case s == "all":
			out = append(out, append(slices.Clone(Backends), Gateway)...)
		case s == Gateway || slices.Contains(Backends, s):
			out = append(out, s)
		default:
			return nil, fmt.Errorf("unknown service %q (want all, gateway, %s)", s, strings.Join(Backends, ", "))
		}
	}
	slices.Sort(out)
	return slices.Compact(out), nil
}

// needsDataDir tells whether this process keeps files: an embedded
// database or the translation service's working copies.
func (c Config) needsDataDir() bool {
	for _, r := range c.roles() {
		if r == Translation || (r != Gateway && c.dbConfig(r).URL == "") {
			return true
		}
	}
	return false
}

// roles are the backends and gateway this process runs.
func (c Config) roles() []string {
	var out []string
	for _, r := range append(slices.Clone(Backends), Gateway) {
		if c.runs(r) {
			out = append(out, r)
		}
	}
	return out
}

func (c Config) runs(name string) bool {
	return slices.Contains(c.Services, name) || slices.Contains(c.Services, "all")
}

// absolute makes every configured directory absolute, once, at start: the
// services compare paths below them with absolute ones, and a relative
// directory would also change meaning if anything changed the working
// directory.
func (c *Config) absolute() error {
	dir, err := filepath.Abs(c.DataDir)
	if err != nil {
		return fmt.Errorf("data dir %q: %w", c.DataDir, err)
	}
	c.DataDir = dir
	return nil
}

// dbConfig is the database of one service: its own PostgreSQL schema or its
// own SQLite file.
func (c Config) dbConfig(name string) db.Config {
	url := c.DatabaseURLs[name]
	if url == "" {
		url = c.DatabaseURL
	}
	return db.Config{URL: url, Schema: name, SQLitePath: filepath.Join(c.DataDir, name+".db")}
}

func isTrue(v string) bool {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "1", "true", "yes", "on":
		return true
	}
	return false
}

// rates parses the rate limits; a bad value stops the start with the
// variable's name.
func (c Config) rates() (anon, user rest.Rate, err error) {
	for _, r := range []struct {
		env, value string
		into       *rest.Rate
	}{{"TMS_API_RATELIMIT_ANON", c.RateLimitAnon, &anon}, {"TMS_API_RATELIMIT_USER", c.RateLimitUser, &user}} {
		if r.value == "" {
			continue
		}
		if *r.into, err = rest.ParseRate(r.value); err != nil {
			return anon, user, fmt.Errorf("%s: %w", r.env, err)
		}
	}
	return anon, user, nil
}

// uploadLimits parses the bounds of one upload.
func (c Config) uploadLimits() (server.UploadLimits, error) {
	var l server.UploadLimits
	var wholeMiB int
	for _, f := range []struct {
		env, v string
		into   *int
	}{{"TMS_UPLOAD_MAX_SUGGESTIONS", c.UploadMaxSuggestions, &l.MaxSuggestions}, {"TMS_UPLOAD_MAX_NEW_STRINGS", c.UploadMaxNewStrings, &l.MaxNewStrings},
		{"TMS_UPLOAD_MAX_CHANGES", c.UploadMaxChanges, &l.MaxChanges}, {"TMS_UPLOAD_WHOLE_MIB", c.UploadWholeMiB, &wholeMiB}} {
		if f.v == "" {
			continue
		}
		n, err := strconv.Atoi(f.v)
		if err != nil || n < 1 {
			return l, fmt.Errorf("%s %q: want a positive number", f.env, f.v)
		}
		*f.into = n
	}
	l.ReadWhole = int64(wholeMiB) << 20
	return l, nil
}

// timeouts refuses a negative timeout, which only a caller building a
// Config in code can set.
func (c Config) timeouts() error {
	for env, d := range map[string]time.Duration{"TMS_GIT_TIMEOUT": c.GitTimeout,
		"TMS_BACKEND_TIMEOUT": c.BackendTimeout, "TMS_QUERY_TIMEOUT": c.QueryTimeout} {
		if d < 0 {
			return fmt.Errorf("%s %v: want a positive duration", env, d)
		}
	}
	return nil
}

// parseTimeout reads a Go duration ("2m") or whole seconds; empty is 0.
func parseTimeout(env, v string) (time.Duration, error) {
	if v == "" {
		return 0, nil
	}
	if n, err := strconv.Atoi(v); err == nil && n > 0 {
		return time.Duration(n) * time.Second, nil
	}
	d, err := time.ParseDuration(v)
	if err != nil || d <= 0 {
		return 0, fmt.Errorf("%s %q: want a positive duration (120s, 2m) or seconds", env, v)
	}
	return d, nil
}

// placeholders are the values example configurations put where a secret
// belongs; a deployment that kept one would run with a known secret.
var placeholders = []string{"change-me", "changeme", "change_me", "replace-me", "replaceme", "your-secret", "placeholder"}

// isPlaceholder tells whether a secret is an example's stand-in.
func isPlaceholder(v string) bool {
	v = strings.ToLower(strings.TrimSpace(v))
	if v == "secret" || v == "password" || v == "token" || v == "xxx" {
		return true
	}
	for _, p := range placeholders {
		if strings.Contains(v, p) {
			return true
		}
	}
	return false
}

// refusePlaceholders stops a deployment (services at network addresses,
// or on PostgreSQL) whose service credential, admin token or database
// password is still an example's placeholder.
func (c Config) refusePlaceholders() error {
	production := c.DatabaseURL != "" || len(c.DatabaseURLs) > 0
	for _, a := range c.Addrs {
		production = production || a != ""
	}
	if !production {
		return nil
	}
	secrets := map[string]string{"TMS_SERVICE_TOKEN": c.ServiceToken, "TMS_ADMIN_TOKEN": c.AdminToken}
	urls := map[string]string{"TMS_DATABASE_URL": c.DatabaseURL}
	for s, u := range c.DatabaseURLs {
		urls[perService("TMS_<SERVICE>_DATABASE_URL", s)] = u
	}
	for env, u := range urls {
		if parsed, err := url.Parse(u); err == nil && parsed.User != nil {
			pass, _ := parsed.User.Password()
			secrets[env+" password"] = pass
		}
	}
	for _, env := range slices.Sorted(maps.Keys(secrets)) {
		if v := secrets[env]; v != "" && isPlaceholder(v) {
			return fmt.Errorf("%s is a placeholder (%q): set a secret of your own before deploying", env, v)
		}
	}
	return weakServiceToken(c.ServiceToken)
}

// minServiceToken is the shortest service credential a deployment takes:
// 32 bytes, what `openssl rand -base64 32` gives in base64 and more.
const minServiceToken = 32

// weakServiceToken refuses a service credential that is short, blank or one
// repeated character ("" is reported by serviceToken).
func weakServiceToken(token string) error {
	if token == "" {
		return nil
	}
	t := strings.TrimSpace(token)
	if len(t) < minServiceToken || strings.Count(t, t[:1]) == len(t) {
		return fmt.Errorf("TMS_SERVICE_TOKEN is too weak: it needs %d or more random characters (openssl rand -base64 32)", minServiceToken)
	}
	return nil
}

// serviceToken is the credential of the calls between processes: required
// when any service listens on or is reached at a network address; a
// process that runs every service in memory makes its own.
func (c Config) serviceToken() (string, error) {
	if err := c.refusePlaceholders(); err != nil {
		return "", err
	}
	if c.ServiceToken != "" {
		return c.ServiceToken, nil
	}
	for _, name := range Backends {
		if c.Addrs[name] != "" {
			return "", errors.New("TMS_SERVICE_TOKEN is required when services listen on or are reached at network addresses " +
				"(TMS_<SERVICE>_ADDR): it authenticates the calls between the deployment's processes")
		}
	}
	return grpcx.NewServiceToken(), nil
}

// machinery reads the site's machine translation settings: TMS_MACHINERY,
// or the file TMS_MACHINERY_FILE names; an error names the variable.
func (c Config) machinery() (server.MachinerySettings, error) {
	raw, from := c.Machinery, "TMS_MACHINERY"
	if raw == "" && c.MachineryFile != "" {
		b, err := os.ReadFile(c.MachineryFile)
		if err != nil {
			return nil, fmt.Errorf("TMS_MACHINERY_FILE: %w", err)
		}
		raw, from = string(b), "TMS_MACHINERY_FILE"
	}
	if strings.TrimSpace(raw) == "" {
		return nil, nil
	}
	var out server.MachinerySettings
	if err := json.Unmarshal([]byte(raw), &out); err != nil {
		return nil, fmt.Errorf("%s: not a JSON object of engines' settings: %w", from, err)
	}
	for id := range out {
		if !machinery.Supported(id) {
			return nil, fmt.Errorf("%s: unknown engine %q (known: libretranslate, deepl, google-translate-api-v3, microsoft-translator, modernmt, openai)", from, id)
		}
	}
	return out, nil
}
