package server

import (
	"context"
	"time"

	"github.com/tmsproject/tms/pkg/errs"
	notificationv1 "github.com/tmsproject/tms/proto/gen/go/tms/notification/v1"
)

// Quotas is the storage of rate-limit counters.
type Quotas interface {
	TakeQuota(ctx context.Context, key string, windowStart, limit, want int64) (granted, used int64, err error)
}

// RateLimits implements notificationv1.RateLimitServiceServer.
type RateLimits struct {
	notificationv1.UnimplementedRateLimitServiceServer
	store Quotas
	now   func() time.Time
}

// NewRateLimits returns the rate-limit server on st.
func NewRateLimits(st Quotas) *RateLimits { return &RateLimits{store: st, now: time.Now} }

// TakeQuota grants part of a caller's window.
func (r *RateLimits) TakeQuota(ctx context.Context, req *notificationv1.TakeQuotaRequest) (*notificationv1.TakeQuotaResponse, error) {
	var v errs.Violations
	if req.GetKey() == "" {
		v.Add("key", "required", "This field is required.")
	}
	if req.GetLimit() < 1 {
		v.Add("limit", "min_value", "Ensure this value is greater than or equal to 1.")
	}
	if req.GetWindowSeconds() < 1 {
		v.Add("window_seconds", "min_value", "Ensure this value is greater than or equal to 1.")
	}
	if req.GetWant() < 1 {
		v.Add("want", "min_value", "Ensure this value is greater than or equal to 1.")
	}
	if err := v.Err(); err != nil {
		return nil, err
	}
	w := req.GetWindowSeconds()
	start := r.now().Unix() / w * w
	granted, used, err := r.store.TakeQuota(ctx, req.GetKey(), start, req.GetLimit(), req.GetWant())
	if err != nil {
		return nil, err
	}
	return &notificationv1.TakeQuotaResponse{Granted: granted, Used: used, WindowStart: start}, nil
}
