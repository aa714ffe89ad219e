package store

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"

	"github.com/tmsproject/tms/pkg/db"
)

// Webhook is a project's outbound webhook.
type Webhook struct {
	ID          int64 `gorm:"primaryKey"`
	ProjectSlug string
	URL         string `gorm:"column:url"`
	Secret      string
	Actions     string // comma-separated action numbers; empty: every action
	Active      bool
	CreatedAt   time.Time
}

// TableName is the table of webhooks.
func (Webhook) TableName() string { return "webhooks" }

// ActionList is Actions as numbers (the reference's).
func (w Webhook) ActionList() []int32 {
	var out []int32
	for _, a := range strings.Split(w.Actions, ",") {
		if n, err := strconv.ParseInt(strings.TrimSpace(a), 10, 32); err == nil {
			out = append(out, int32(n))
		}
	}
	return out
}

// Wants tells whether the webhook takes records of action (the
// reference's number).
func (w Webhook) Wants(action int32) bool {
	list := w.ActionList()
	if len(list) == 0 {
		return true
	}
	for _, a := range list {
		if a == action {
			return true
		}
	}
	return false
}

// CreateWebhook stores w (setting ID and CreatedAt).
func (s *Store) CreateWebhook(ctx context.Context, w *Webhook) error {
	w.CreatedAt = db.Normalize(time.Now())
	return wrap("create webhook", s.gdb.WithContext(ctx).Create(w).Error)
}

// Webhooks lists a project's webhooks ("" for every project's), by id.
func (s *Store) Webhooks(ctx context.Context, project string) ([]Webhook, error) {
	q := s.gdb.WithContext(ctx).Order("id")
	if project != "" {
		q = q.Where("project_slug = ?", project)
	}
	var out []Webhook
	return out, wrap("webhooks", q.Find(&out).Error)
}

// GetWebhook loads a project's webhook.
func (s *Store) GetWebhook(ctx context.Context, project string, id int64) (Webhook, error) {
	var w Webhook
	err := s.gdb.WithContext(ctx).Where("project_slug = ? AND id = ?", project, id).Take(&w).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return w, notFound()
	}
	return w, wrap("webhook", err)
}

// SaveWebhook writes w's fields.
func (s *Store) SaveWebhook(ctx context.Context, w Webhook) error {
	return wrap("save webhook", s.gdb.WithContext(ctx).Model(&Webhook{}).Where("id = ?", w.ID).
		Updates(map[string]any{"url": w.URL, "secret": w.Secret, "actions": w.Actions, "active": w.Active}).Error)
}

// DeleteWebhook removes a project's webhook and its delivery log.
func (s *Store) DeleteWebhook(ctx context.Context, project string, id int64) error {
	res := s.gdb.WithContext(ctx).Where("project_slug = ? AND id = ?", project, id).Delete(&Webhook{})
	if res.Error != nil {
		return wrap("delete webhook", res.Error)
	}
	if res.RowsAffected == 0 {
		return notFound()
	}
	return wrap("delete deliveries", s.gdb.WithContext(ctx).Where("webhook_id = ?", id).Delete(&Delivery{}).Error)
}

// Delivery is one change posted (or to post) to one webhook.
type Delivery struct {
	ID          int64 `gorm:"primaryKey"`
	WebhookID   int64
	ChangeID    int64
	Payload     string
	CreatedAt   time.Time
	DueAt       time.Time
	DeliveredAt *time.Time
	Attempts    int
	StatusCode  int
	Error       string
}

// TableName is the table of the delivery log.
func (Delivery) TableName() string { return "webhook_deliveries" }

// Deliveries pages a webhook's delivery log, newest first.
func (s *Store) Deliveries(ctx context.Context, webhookID int64, offset, limit int) ([]Delivery, int64, error) {
	q := s.gdb.WithContext(ctx).Model(&Delivery{}).Where("webhook_id = ?", webhookID)
	var total int64
	if err := q.Count(&total).Error; err != nil {
		return nil, 0, wrap("count deliveries", err)
	}
	q = q.Order("id DESC").Offset(offset)
	if limit > 0 {
		q = q.Limit(limit)
	}
	var out []Delivery
	return out, total, wrap("deliveries", q.Find(&out).Error)
}

// DueDelivery is a delivery to attempt, with its webhook.
type DueDelivery struct {
	Delivery
	URL, Secret string
}

// RecordAttempt stores the outcome of an attempt: delivered (at set), or
// failed with the status and error and due again at retryAt.
func (s *Store) RecordAttempt(ctx context.Context, id int64, status int, failure string, delivered *time.Time, retryAt time.Time) error {
	updates := map[string]any{"attempts": gorm.Expr("attempts + 1"), "status_code": status, "error": failure,
		"claimed_by": "", "claimed_until": 0}
	if delivered != nil {
		updates["delivered_at"] = db.Normalize(*delivered)
	} else {
		updates["due_at"] = db.Normalize(retryAt)
	}
	return wrap("record attempt", s.gdb.WithContext(ctx).Model(&Delivery{}).Where("id = ? AND delivered_at IS NULL", id).Updates(updates).Error)
}

// enqueueDeliveries stores deliveries within an Enqueue transaction, a
// repeat of a webhook and change ignored.
func enqueueDeliveries(tx *gorm.DB, ds []Delivery) error {
	if len(ds) == 0 {
		return nil
	}
	for i := range ds {
		ds[i].CreatedAt, ds[i].DueAt = db.Normalize(ds[i].CreatedAt), db.Normalize(ds[i].DueAt)
	}
	return tx.Clauses(clause.OnConflict{DoNothing: true}).CreateInBatches(ds, 200).Error
}
