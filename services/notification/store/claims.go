package store

import (
	"context"
	"time"

	"gorm.io/gorm"

	"github.com/tmsproject/tms/pkg/db"
	"github.com/tmsproject/tms/pkg/weblate"
)

// Claim names one claim of due work: a token only its taker knows, and
// when the claim lapses. Rows claimed under it are the taker's until then.
type Claim struct {
	Token string
	Now   time.Time
	Until time.Time
}

// skipLocked makes a claim's row selection pass over rows another claim is
// taking right now on PostgreSQL; SQLite has a single writer, so its
// claims never meet.
func (s *Store) skipLocked(table string) string {
	if db.Dialect(s.gdb) == db.Postgres {
		return " FOR UPDATE OF " + table + " SKIP LOCKED"
	}
	return ""
}

// ClaimDeliveries claims up to limit due deliveries of active webhooks
// with fewer than maxAttempts attempts that nobody holds, oldest due
// first, and returns them. The outer condition on claimed_until is checked
// again on a row another claim changed meanwhile, so a row is never held
// by two claims.
func (s *Store) ClaimDeliveries(ctx context.Context, c Claim, maxAttempts, limit int) ([]DueDelivery, error) {
	now := c.Now.UnixMilli()
	err := s.gdb.WithContext(ctx).Exec(`UPDATE webhook_deliveries SET claimed_by = ?, claimed_until = ?
WHERE claimed_until < ? AND id IN (
  SELECT webhook_deliveries.id FROM webhook_deliveries JOIN webhooks ON webhooks.id = webhook_deliveries.webhook_id
  WHERE webhook_deliveries.delivered_at IS NULL AND webhook_deliveries.due_at <= ? AND webhook_deliveries.attempts < ?
    AND webhooks.active AND webhook_deliveries.claimed_until < ?
  ORDER BY webhook_deliveries.due_at, webhook_deliveries.id LIMIT ?`+s.skipLocked("webhook_deliveries")+`)`,
		c.Token, c.Until.UnixMilli(), now, db.Normalize(c.Now), maxAttempts, now, limit).Error
	if err != nil {
		return nil, wrap("claim deliveries", err)
	}
	var out []DueDelivery
	err = s.gdb.WithContext(ctx).Table("webhook_deliveries").
		Select("webhook_deliveries.*, webhooks.url AS url, webhooks.secret AS secret").
		Joins("JOIN webhooks ON webhooks.id = webhook_deliveries.webhook_id").
		Where("webhook_deliveries.claimed_by = ? AND webhook_deliveries.delivered_at IS NULL", c.Token).
		Order("webhook_deliveries.due_at, webhook_deliveries.id").Scan(&out).Error
	return out, wrap("claimed deliveries", err)
}

// ClaimDue claims up to limit unsent notifications due at now with fewer
// than maxAttempts attempts that nobody holds, and with them the rest of
// each digest they belong to (same recipient, frequency and due time), so
// that a digest goes out whole from one replica. It returns what it
// claimed with the recipients, oldest due first.
func (s *Store) ClaimDue(ctx context.Context, c Claim, maxAttempts, limit int) ([]Pending, error) {
	now, until := c.Now.UnixMilli(), c.Until.UnixMilli()
	due := `sent_at IS NULL AND due_at <= ? AND attempts < ? AND claimed_until < ?`
	q := s.gdb.WithContext(ctx)
	err := q.Exec(`UPDATE notifications SET claimed_by = ?, claimed_until = ?
WHERE claimed_until < ? AND id IN (SELECT id FROM notifications WHERE `+due+`
  ORDER BY due_at, id LIMIT ?`+s.skipLocked("notifications")+`)`,
		c.Token, until, now, db.Normalize(c.Now), maxAttempts, now, limit).Error
	if err == nil {
		// The digests' other rows: free ones of a recipient, frequency
		// and due time the claim took a row of (instant mail goes alone).
		err = q.Exec(`UPDATE notifications SET claimed_by = ?, claimed_until = ?
WHERE `+due+` AND frequency <> ? AND EXISTS (SELECT 1 FROM notifications mine
  WHERE mine.claimed_by = ? AND mine.user_id = notifications.user_id
    AND mine.frequency = notifications.frequency AND mine.due_at = notifications.due_at)`,
			c.Token, until, db.Normalize(c.Now), maxAttempts, now, weblate.FrequencyInstant, c.Token).Error
	}
	if err != nil {
		return nil, wrap("claim notifications", err)
	}
	var out []Pending
	err = q.Table("notifications").
		Select("notifications.*, users.username AS username, users.email AS email, users.full_name AS full_name").
		Joins("JOIN users ON users.id = notifications.user_id").
		Where("notifications.claimed_by = ? AND notifications.sent_at IS NULL", c.Token).
		Order("notifications.due_at, notifications.id").Scan(&out).Error
	return out, wrap("claimed notifications", err)
}

// ReleaseClaims frees every claimed delivery and mail: for a process that
// knows it is the database's only one (SQLite), whatever is claimed was
// its killed predecessor's.
func (s *Store) ReleaseClaims(ctx context.Context) error {
	return wrap("release claims", s.gdb.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		for _, table := range []string{"webhook_deliveries", "notifications"} {
			if err := tx.Exec("UPDATE " + table + " SET claimed_by = '', claimed_until = 0 WHERE claimed_until > 0").Error; err != nil {
				return err
			}
		}
		return nil
	}))
}
