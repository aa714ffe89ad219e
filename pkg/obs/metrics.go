package obs

import (
	"context"
	"strconv"
	"sync"
	"time"

	grpcprom "github.com/grpc-ecosystem/go-grpc-middleware/providers/prometheus"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"google.golang.org/grpc"
)

// Registry holds every metric of the process: one per process, as
// Prometheus scrapes processes.
var Registry = prometheus.NewRegistry()

var (
	httpRequests = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "tms_http_requests_total", Help: "REST requests answered, by route pattern, method and status.",
	}, []string{"route", "method", "code"})
	httpDuration = prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Name: "tms_http_request_duration_seconds", Help: "REST request latency by route pattern and method.",
		Buckets: prometheus.ExponentialBuckets(0.001, 2.5, 12),
	}, []string{"route", "method"})
	// The gRPC metrics are go-grpc-middleware's, under the names its
	// dashboards and alerts expect (grpc_server_handled_total,
	// grpc_server_handling_seconds, grpc_client_handled_total, ...,
	// labelled grpc_type, grpc_service, grpc_method and grpc_code).
	grpcServer = grpcprom.NewServerMetrics(grpcprom.WithServerHandlingTimeHistogram(
		grpcprom.WithHistogramBuckets(prometheus.ExponentialBuckets(0.0005, 2.5, 12))))
	grpcClient = grpcprom.NewClientMetrics(grpcprom.WithClientHandlingTimeHistogram(
		grpcprom.WithHistogramBuckets(prometheus.ExponentialBuckets(0.0005, 2.5, 12))))
	// ImportDuration times component imports by result (ok, failed).
	ImportDuration = prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Name: "tms_import_duration_seconds", Help: "Component imports (clone or fetch and parse) by result.",
		Buckets: prometheus.ExponentialBuckets(0.05, 2, 14),
	}, []string{"result"})
	// CommitDuration times commits of pending changes by result.
	CommitDuration = prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Name: "tms_commit_duration_seconds", Help: "Commits of pending translation changes by result.",
		Buckets: prometheus.ExponentialBuckets(0.01, 2, 14),
	}, []string{"result"})
	// DeliveryLag is how far notification delivery trails the change log.
	DeliveryLag = prometheus.NewGauge(prometheus.GaugeOpts{
		Name: "tms_notification_delivery_lag_seconds",
		Help: "Age of the newest change the notification service has routed, when it routed it.",
	})
)

func init() {
	Registry.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
		httpRequests, httpDuration, grpcServer, grpcClient,
		ImportDuration, CommitDuration, DeliveryLag)
}

// ObserveHTTP records one answered REST request.
func ObserveHTTP(route, method string, code int, d time.Duration) {
	httpRequests.WithLabelValues(route, method, strconv.Itoa(code)).Inc()
	httpDuration.WithLabelValues(route, method).Observe(d.Seconds())
}

// Result is the label of an operation's outcome.
func Result(err error) string {
	if err != nil {
		return "failed"
	}
	return "ok"
}

// ServerMetrics counts and times every unary call a gRPC server answers.
func ServerMetrics() grpc.UnaryServerInterceptor { return grpcServer.UnaryServerInterceptor() }

// ServerStreamMetrics counts the streaming calls a gRPC server answers.
func ServerStreamMetrics() grpc.StreamServerInterceptor { return grpcServer.StreamServerInterceptor() }

// InitServerMetrics gives every method s serves its series at zero, so a
// dashboard shows a method before its first call and a rate from it.
func InitServerMetrics(s *grpc.Server) { grpcServer.InitializeMetrics(s) }

// ClientMetrics counts and times every unary call a connection makes.
func ClientMetrics() grpc.UnaryClientInterceptor { return grpcClient.UnaryClientInterceptor() }

// ClientStreamMetrics counts the streaming calls a connection makes.
func ClientStreamMetrics() grpc.StreamClientInterceptor { return grpcClient.StreamClientInterceptor() }

var (
	backlogMu    sync.Mutex
	backlogFuncs = map[string]func(context.Context) (int64, error){}
)

// Backlog reports a service's undelivered outbox events at each scrape,
// counted by count; a later call for the same service replaces it (tests
// build services many times in one process).
func Backlog(service string, count func(context.Context) (int64, error)) {
	backlogMu.Lock()
	defer backlogMu.Unlock()
	_, known := backlogFuncs[service]
	backlogFuncs[service] = count
	if known {
		return
	}
	Registry.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Name: "tms_outbox_backlog", Help: "Change events committed but not yet delivered to the change log.",
		ConstLabels: prometheus.Labels{"service": service},
	}, func() float64 {
		backlogMu.Lock()
		count := backlogFuncs[service]
		backlogMu.Unlock()
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		n, err := count(ctx)
		if err != nil {
			return -1
		}
		return float64(n)
	}))
}
