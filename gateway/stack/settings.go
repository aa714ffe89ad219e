package stack

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/tmsproject/tms/services/notification"
	"github.com/tmsproject/tms/services/translation/server"
)

// Setting is one TMS_* environment variable: the one table that both
// FromEnv and `tms serve --help` read, so the help cannot drift from what
// the process does.
type Setting struct {
	Env     string // the variable; <SERVICE> stands for each backend's name
	Default string // shown in the help; "" when unset means off or computed
	Help    string
}

// Settings lists every variable the process reads.
var Settings = []Setting{
	{"TMS_HTTP_ADDR", "127.0.0.1:8080", "gateway listen address (--http-addr)"},
	{"TMS_DATA_DIR", "./data", "embedded SQLite databases, working copies, lock and pid files (--data-dir); made absolute at start"},
	{"TMS_DATABASE_URL", "", "PostgreSQL URL shared by the services, each in its own schema; unset: embedded SQLite"},
	{"TMS_<SERVICE>_DATABASE_URL", "", "PostgreSQL URL of one service (CATALOG, TRANSLATION, CHANGELOG, NOTIFICATION); wins over TMS_DATABASE_URL"},
	{"TMS_<SERVICE>_ADDR", "", "gRPC address of a service: where it listens when this process runs it, where the others dial it; unset: in-process"},
	{"TMS_ADMIN_TOKEN", "", "API token of the built-in admin superuser, set at every start (replaces a stored one); unset: generated at first start and logged once"},
	{"TMS_METRICS_ADDR", "", "address of the metrics listener: Prometheus metrics at /metrics (and Go's pprof at /debug/pprof/ with TMS_PPROF); unset: none"},
	{"TMS_PPROF", "false", "serve Go's profiler at /debug/pprof/ on the metrics listener"},
	{"OTEL_EXPORTER_OTLP_ENDPOINT", "", "OTLP/gRPC collector receiving the traces (http://host:4317, https:// for TLS); the OpenTelemetry SDK reads it and the other OTEL_* variables (OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, _HEADERS, _INSECURE, OTEL_SERVICE_NAME, OTEL_RESOURCE_ATTRIBUTES, OTEL_TRACES_SAMPLER, OTEL_SDK_DISABLED); unset: no traces"},
	{"TMS_OTLP_ENDPOINT", "", "deprecated, for OTEL_EXPORTER_OTLP_ENDPOINT: the collector as host:port (https:// for TLS), used when no OTEL endpoint is set"},
	{"TMS_LOG_FORMAT", "text", "log lines as text or json (log/slog); lines about a request carry its request_id"},
	{"TMS_SERVICE_TOKEN", "", "shared secret every call between the deployment's processes carries (the same in all of them, 32 or more random characters); required when services have network addresses, generated in memory otherwise"},
	{"TMS_ALLOW_LOCAL_REPOS", "false", "allow plain paths and file:// URLs as component repositories"},
	{"TMS_SITE_URL", "http:// + TMS_HTTP_ADDR", "public address of the service, used in commit messages and PO headers"},
	{"TMS_COMMITTER_NAME", server.DefaultCommitterName, "committer name of the commits the service makes (the author is the editor)"},
	{"TMS_COMMITTER_EMAIL", server.DefaultCommitterEmail, "committer e-mail of the commits the service makes"},
	{"TMS_API_RATELIMIT_ANON", "100/day", "API requests an anonymous client address may make (N/second, N/minute, N/hour or N/day), counted in the database across gateway replicas"},
	{"TMS_API_RATELIMIT_USER", "5000/hour", "API requests a signed-in user may make (N/second|minute|hour|day)"},
	{"TMS_SMTP_URL", "", "mail server of notifications: smtp://[user:pass@]host[:port] (STARTTLS when offered) or smtps://…; unset: no mail"},
	{"TMS_SMTP_FROM", notification.DefaultFrom, "sender address of notification mail"},
	{"TMS_ALLOW_LOCAL_WEBHOOKS", "false", "allow webhooks to post to loopback, private and link-local addresses"},
	{"TMS_EGRESS_ALLOW", "", "internal hosts the service may connect to although they are loopback, private, link-local or CGNAT addresses: host names (*.corp.example for the names below), addresses and CIDR networks, comma-separated; git remotes, push URLs, webhooks and the mail server (TMS_SMTP_URL) all go through this check"},
	{"TMS_BACKEND_TIMEOUT", "5s", "deadline of each call to a service (repository work and uploads: 10 minutes); a paused or hung service answers 504, a dead one 503"},
	{"TMS_QUERY_TIMEOUT", "10s", "bound of the work of each call a service handles, whoever the caller (repository work and uploads: 10 minutes); a query still running then is interrupted, frees its connection and the call answers 504"},
	{"TMS_UPLOAD_MAX_SUGGESTIONS", strconv.Itoa(server.DefaultMaxSuggestions), "the most suggestions one upload (method suggest) may make; a larger file is refused whole (400)"},
	{"TMS_UPLOAD_MAX_CHANGES", strconv.Itoa(server.DefaultMaxChanges), "the most strings one upload (methods translate, fuzzy, approve) may change, each a change record and so a webhook and mail event; a larger file is refused whole (400)"},
	{"TMS_UPLOAD_WHOLE_MIB", "16", "the largest upload, in MiB, of a file that is parsed whole (any format but PO and plain or nested JSON, and every replace and source upload); a parse takes up to 15 times the file's size in memory; a larger file is refused (400)"},
	{"TMS_UPLOAD_MAX_NEW_STRINGS", strconv.Itoa(server.DefaultMaxNewStrings), "the most strings one upload (method add) may add; a larger file is refused whole (400)"},
	{"TMS_GIT_TIMEOUT", "120s", "bound of each clone, fetch and push (a Go duration, or seconds); a remote that does not answer in time fails the operation and frees the component"},
	{"TMS_MACHINERY", "", "machine translation engines of every project, as a JSON object of each engine's machinery settings by id, e.g. {\"libretranslate\": {\"url\": \"http://lt:5000/\"}, \"deepl\": {\"key\": \"...\"}}; a project's own settings of an engine win; the site's engines may reach local addresses"},
	{"TMS_MACHINERY_FILE", "", "a file holding TMS_MACHINERY's JSON (a mounted secret), read at start; used when TMS_MACHINERY is unset"},
	{"TMS_ALLOW_LOCAL_MACHINERY", "false", "allow the machine translation engines a project configures to reach loopback, private and link-local addresses (the site's may always)"},
	{"TMS_TRUST_FORWARDED", "false", "build absolute URLs from X-Forwarded-Proto/X-Forwarded-Host and the client address of rate limits from the last X-Forwarded-For entry (behind a trusted proxy)"},
}

// setting is the value of a variable of the table: the environment's, or
// the table's default when unset or empty.
func setting(env string) string {
	if v := os.Getenv(env); v != "" {
		return v
	}
	for _, s := range Settings {
		if s.Env == env {
			return s.Default
		}
	}
	panic("stack: " + env + " is not in Settings")
}

// WriteSettings prints the table for --help.
func WriteSettings(w io.Writer) {
	for _, s := range Settings {
		def := s.Default
		if def == "" {
			def = "unset"
		}
		_, _ = fmt.Fprintf(w, "  %s (default: %s)\n      %s\n", s.Env, def, s.Help) // help text for a terminal
	}
}

// perService expands a TMS_<SERVICE>_... name for one backend.
func perService(pattern, service string) string {
	return strings.Replace(pattern, "<SERVICE>", strings.ToUpper(service), 1)
}
