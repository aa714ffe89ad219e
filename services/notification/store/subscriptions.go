package store

import (
	"context"
	"errors"

	"gorm.io/gorm"
)

// Subscription is one notification subscription of an account.
type Subscription struct {
	ID            int64 `gorm:"primaryKey"`
	UserID        int64
	Username      string `gorm:"-"`
	Notification  string
	Scope         int32
	Frequency     int32
	ProjectSlug   string
	ComponentSlug string
}

// TableName is the table of subscriptions.
func (Subscription) TableName() string { return "subscriptions" }

// insertSubscriptions stores subs for the account userID in one statement.
func insertSubscriptions(tx *gorm.DB, userID int64, subs []Subscription) error {
	if len(subs) == 0 {
		return nil
	}
	rows := make([]Subscription, len(subs))
	for i, s := range subs {
		s.ID, s.UserID = 0, userID
		rows[i] = s
	}
	return tx.Create(&rows).Error
}

// ListSubscriptions returns one page of the account's subscriptions in id
// order and their number; an unknown account is NotFound.
func (s *Store) ListSubscriptions(ctx context.Context, username string, offset, limit int) ([]Subscription, int64, error) {
	if err := checkPage(offset, limit); err != nil {
		return nil, 0, err
	}
	var (
		out   []Subscription
		total int64
	)
	err := s.gdb.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		u, err := s.userRow(tx, username)
		if err != nil {
			return err
		}
		q := tx.Model(&Subscription{}).Where("user_id = ?", u.ID)
		if err := q.Count(&total).Error; err != nil {
			return err
		}
		if err := page(tx.Where("user_id = ?", u.ID).Order("id"), offset, limit).Find(&out).Error; err != nil {
			return err
		}
		for i := range out {
			out[i].Username = u.Username
		}
		return nil
	})
	if err != nil {
		return nil, 0, wrap("list subscriptions", err)
	}
	if out == nil {
		out = []Subscription{}
	}
	return out, total, nil
}

// GetSubscription returns the subscription id of the account; one of
// another account is NotFound.
func (s *Store) GetSubscription(ctx context.Context, username string, id int64) (Subscription, error) {
	sub, err := subscription(s.gdb.WithContext(ctx), username, id)
	return sub, wrap("get subscription", err)
}

// subscription reads the subscription id of the account; an unknown
// account and another account's subscription are both NotFound.
func subscription(q *gorm.DB, username string, id int64) (Subscription, error) {
	var sub Subscription
	err := q.Joins("JOIN users ON users.id = subscriptions.user_id").
		Where("subscriptions.id = ? AND users.username = ?", id, username).Take(&sub).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return Subscription{}, notFound()
	}
	sub.Username = username
	return sub, err
}

// CreateSubscription stores sub for the account named sub.Username.
func (s *Store) CreateSubscription(ctx context.Context, sub Subscription) (Subscription, error) {
	err := s.gdb.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		u, err := s.userRow(tx, sub.Username)
		if err != nil {
			return err
		}
		sub.ID, sub.UserID = 0, u.ID
		return tx.Create(&sub).Error
	})
	if err != nil {
		return Subscription{}, wrap("create subscription", err)
	}
	return sub, nil
}

// UpdateSubscription applies change to the stored subscription id of the
// account and saves the result, all in one transaction; an error from
// change (a validation failure, say) aborts without saving.
func (s *Store) UpdateSubscription(ctx context.Context, username string, id int64, change func(*Subscription) error) (Subscription, error) {
	var out Subscription
	err := s.gdb.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		sub, err := subscription(tx, username, id)
		if err != nil {
			return err
		}
		if err = change(&sub); err != nil {
			return err
		}
		// The identity is not the caller's to change.
		sub.ID, sub.Username = id, username
		err = tx.Model(&Subscription{}).Where("id = ?", id).Updates(map[string]any{
			"notification": sub.Notification, "scope": sub.Scope, "frequency": sub.Frequency,
			"project_slug": sub.ProjectSlug, "component_slug": sub.ComponentSlug,
		}).Error
		out = sub
		return err
	})
	if err != nil {
		return Subscription{}, wrap("update subscription", err)
	}
	return out, nil
}

// DeleteSubscription removes the subscription id of the account.
func (s *Store) DeleteSubscription(ctx context.Context, username string, id int64) error {
	err := s.gdb.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		sub, err := subscription(tx, username, id)
		if err != nil {
			return err
		}
		return tx.Delete(&Subscription{}, sub.ID).Error
	})
	return wrap("delete subscription", err)
}
