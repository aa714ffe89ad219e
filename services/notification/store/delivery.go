package store

import (
	"context"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"

	"github.com/tmsproject/tms/pkg/db"
)

// Subscriber is a subscription with what delivery needs of its user.
type Subscriber struct {
	Subscription
	Login       string // the user name (Subscription.Username is not read from rows)
	Email       string
	FullName    string
	IsSuperuser bool
	Profile     string
	// Watched and Languages are the account's watched projects and
	// translated languages, read from Profile.
	Watched, Languages []string `gorm:"-"`
}

// Subscribers lists the subscriptions of active accounts with an e-mail
// address to any of kinds, with frequency above none.
func (s *Store) Subscribers(ctx context.Context, kinds []string) ([]Subscriber, error) {
	var out []Subscriber
	err := s.gdb.WithContext(ctx).Table("subscriptions").
		Select("subscriptions.*, users.username AS login, users.email AS email, users.full_name AS full_name, users.is_superuser AS is_superuser, users.profile AS profile").
		Joins("JOIN users ON users.id = subscriptions.user_id").
		Where("subscriptions.notification IN ? AND subscriptions.frequency > 0 AND users.is_active AND users.email <> ''", kinds).
		Order("subscriptions.id").Scan(&out).Error
	for i := range out {
		st := readSettings(out[i].Profile)
		out[i].Watched, out[i].Languages = st.Watched, st.Languages
	}
	return out, wrap("subscribers", err)
}

// Notification is one mail-to-be: a change for a recipient.
type Notification struct {
	ID         int64 `gorm:"primaryKey"`
	ChangeID   int64
	UserID     int64
	Kind       string
	Frequency  int32
	ChangeJSON string `gorm:"column:change_json"`
	CreatedAt  time.Time
	DueAt      time.Time
	SentAt     *time.Time
	Attempts   int
	Error      string
}

// TableName is the table of pending and sent notifications.
func (Notification) TableName() string { return "notifications" }

type cursorRow struct {
	Name   string `gorm:"primaryKey"`
	LastID int64
}

func (cursorRow) TableName() string { return "delivery_cursors" }

// Cursor is the last change id the named consumer has read (0: none).
func (s *Store) Cursor(ctx context.Context, name string) (int64, error) {
	var ids []int64
	err := s.gdb.WithContext(ctx).Model(&cursorRow{}).Where("name = ?", name).Pluck("last_id", &ids).Error
	if err != nil || len(ids) == 0 {
		return 0, wrap("cursor", err)
	}
	return ids[0], nil
}

// Enqueue stores notifications (one per change and recipient: a repeat is
// ignored) and webhook deliveries (one per webhook and change), and moves the consumer's cursor to lastID, in one transaction:
// a crash either keeps both or neither, so nothing is lost or doubled.
func (s *Store) Enqueue(ctx context.Context, cursor string, lastID int64, ns []Notification, ds []Delivery) error {
	return wrap("enqueue", s.gdb.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if err := enqueueDeliveries(tx, ds); err != nil {
			return err
		}
		for i := range ns {
			ns[i].CreatedAt, ns[i].DueAt = db.Normalize(ns[i].CreatedAt), db.Normalize(ns[i].DueAt)
		}
		if len(ns) > 0 {
			if err := tx.Clauses(clause.OnConflict{DoNothing: true}).CreateInBatches(ns, 200).Error; err != nil {
				return err
			}
		}
		return tx.Clauses(clause.OnConflict{Columns: []clause.Column{{Name: "name"}},
			DoUpdates: clause.AssignmentColumns([]string{"last_id"})}).
			Create(&cursorRow{Name: cursor, LastID: lastID}).Error
	}))
}

// Pending is a due notification with its recipient.
type Pending struct {
	Notification
	Username, Email, FullName string
}

// MarkSent records that the notifications went out.
func (s *Store) MarkSent(ctx context.Context, ids []int64, at time.Time) error {
	return wrap("mark sent", s.gdb.WithContext(ctx).Model(&Notification{}).Where("id IN ?", ids).
		Updates(map[string]any{"sent_at": db.Normalize(at), "error": "", "claimed_by": "", "claimed_until": 0}).Error)
}

// MarkFailed records a failed attempt and when to try again.
func (s *Store) MarkFailed(ctx context.Context, ids []int64, failure string, retryAt time.Time) error {
	return wrap("mark failed", s.gdb.WithContext(ctx).Model(&Notification{}).Where("id IN ?", ids).
		Updates(map[string]any{"attempts": gorm.Expr("attempts + 1"), "error": failure, "due_at": db.Normalize(retryAt),
			"claimed_by": "", "claimed_until": 0}).Error)
}
