package store

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"

	"github.com/tmsproject/tms/pkg/db"
	"github.com/tmsproject/tms/pkg/errs"
)

// User is one account.
type User struct {
	ID          int64 `gorm:"primaryKey"`
	Username    string
	FullName    string
	Email       string
	IsSuperuser bool
	IsActive    bool
	IsBot       bool
	DateJoined  time.Time
	LastLogin   *time.Time // nil: never signed in on the web
	DateExpires *time.Time // nil: the account does not expire
	// Profile is the account's settings as JSON (the server's Profile
	// message); "" for defaults. The store reads only its "watched" list.
	Profile string
}

// userRow is the stored form of a User.
type userRow struct {
	ID          int64 `gorm:"primaryKey"`
	Username    string
	UsernameKey string
	FullName    string
	Email       string
	EmailKey    *string
	IsSuperuser bool
	IsActive    bool
	IsBot       bool
	DateJoined  time.Time
	LastLogin   *time.Time
	DateExpires *time.Time
	TokenHash   *string
	Profile     string
}

func (userRow) TableName() string { return "users" }

// foldKey is the case-insensitive identity of a user name or address.
func foldKey(s string) string { return strings.ToLower(s) }

func rowOf(u User) userRow {
	r := userRow{Username: u.Username, UsernameKey: foldKey(u.Username), FullName: u.FullName,
		Email: u.Email, IsSuperuser: u.IsSuperuser, IsActive: u.IsActive, IsBot: u.IsBot,
		DateJoined: db.Normalize(u.DateJoined), LastLogin: normalized(u.LastLogin), DateExpires: normalized(u.DateExpires), Profile: u.Profile}
	if u.Email != "" {
		k := foldKey(u.Email)
		r.EmailKey = &k
	}
	return r
}

func (r userRow) user() User {
	return User{ID: r.ID, Username: r.Username, FullName: r.FullName, Email: r.Email,
		IsSuperuser: r.IsSuperuser, IsActive: r.IsActive, IsBot: r.IsBot, DateJoined: r.DateJoined.UTC(),
		LastLogin: utc(r.LastLogin), DateExpires: utc(r.DateExpires), Profile: r.Profile}
}

func normalized(t *time.Time) *time.Time {
	if t == nil {
		return nil
	}
	n := db.Normalize(*t)
	return &n
}

func utc(t *time.Time) *time.Time {
	if t == nil {
		return nil
	}
	u := t.UTC()
	return &u
}

// errUsernameTaken and errEmailTaken use Django's wording.
func errUsernameTaken() error {
	return errs.Invalid("username", "unique", "A user with that username already exists.")
}

func errEmailTaken() error {
	return errs.Invalid("email", "unique", "User with this E-mail already exists.")
}

// CreateUser stores u together with its initial subscriptions in one
// transaction. A user name or e-mail address already taken (in any letter
// case) is an InvalidArgument on the field. A zero DateJoined means now.
func (s *Store) CreateUser(ctx context.Context, u User, subs []Subscription) (User, error) {
	if u.DateJoined.IsZero() {
		u.DateJoined = time.Now()
	}
	row := rowOf(u)
	err := s.gdb.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if err := checkFree(tx, row); err != nil {
			return err
		}
		if err := tx.Create(&row).Error; err != nil {
			if db.IsDuplicate(err) { // lost a race with a concurrent insert
				return errUsernameTaken()
			}
			return err
		}
		if err := joinAutoTeams(tx, row.ID, row.Username); err != nil {
			return err
		}
		return insertSubscriptions(tx, row.ID, subs)
	})
	if err != nil {
		return User{}, wrap("create user", err)
	}
	return row.user(), nil
}

// checkFree reports which unique field of row is already taken.
func checkFree(tx *gorm.DB, row userRow) error {
	var n int64
	if err := tx.Model(&userRow{}).Where("username_key = ?", row.UsernameKey).Count(&n).Error; err != nil {
		return err
	}
	if n > 0 {
		return errUsernameTaken()
	}
	if row.EmailKey == nil {
		return nil
	}
	if err := tx.Model(&userRow{}).Where("email_key = ?", *row.EmailKey).Count(&n).Error; err != nil {
		return err
	}
	if n > 0 {
		return errEmailTaken()
	}
	return nil
}

// EnsureUser creates u with subs unless an account of that user name
// exists, and returns the stored account and whether it was created. Safe
// to call from several starting processes at once.
func (s *Store) EnsureUser(ctx context.Context, u User, subs []Subscription) (User, bool, error) {
	if u.DateJoined.IsZero() {
		u.DateJoined = time.Now()
	}
	row := rowOf(u)
	created := false
	err := s.gdb.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		res := tx.Clauses(clause.OnConflict{DoNothing: true}).Create(&row)
		if res.Error != nil {
			return res.Error
		}
		if res.RowsAffected == 0 {
			return tx.Where("username = ?", u.Username).Take(&row).Error
		}
		created = true
		if err := joinAutoTeams(tx, row.ID, row.Username); err != nil {
			return err
		}
		return insertSubscriptions(tx, row.ID, subs)
	})
	if err != nil {
		return User{}, false, wrap("ensure user "+u.Username, err)
	}
	return row.user(), created, nil
}

// UserByName returns the account with exactly this user name.
func (s *Store) UserByName(ctx context.Context, username string) (User, error) {
	row, err := s.userRow(s.gdb.WithContext(ctx), username)
	return row.user(), err
}

// UserByID returns the account with this id.
func (s *Store) UserByID(ctx context.Context, id int64) (User, error) {
	var row userRow
	err := s.gdb.WithContext(ctx).Where("id = ?", id).Take(&row).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return User{}, notFound()
	}
	return row.user(), wrap("get user", err)
}

func (s *Store) userRow(tx *gorm.DB, username string) (userRow, error) {
	var row userRow
	err := tx.Where("username = ?", username).Take(&row).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return userRow{}, notFound()
	}
	return row, wrap("get user", err)
}

// UserByTokenHash returns the account whose token hashes to hash.
func (s *Store) UserByTokenHash(ctx context.Context, hash string) (User, error) {
	var row userRow
	err := s.gdb.WithContext(ctx).Where("token_hash = ?", hash).Take(&row).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return User{}, notFound()
	}
	return row.user(), wrap("get user by token", err)
}

// ListUsers returns one page of accounts in id order and their number.
func (s *Store) ListUsers(ctx context.Context, offset, limit int, usernames []string, search string) ([]User, int64, error) {
	if err := checkPage(offset, limit); err != nil {
		return nil, 0, err
	}
	order := "id"
	only := func(q *gorm.DB) *gorm.DB {
		if len(usernames) > 0 {
			q = q.Where("username IN ?", usernames)
		}
		if search != "" {
			q = q.Where(`(LOWER(username) LIKE ? ESCAPE '\' OR LOWER(full_name) LIKE ? ESCAPE '\')`, likePattern(search), likePattern(search))
		}
		return q
	}
	if search != "" {
		order = "username"
	}
	var total int64
	if err := only(s.gdb.WithContext(ctx).Model(&userRow{})).Count(&total).Error; err != nil {
		return nil, 0, wrap("count users", err)
	}
	var rows []userRow
	if err := page(only(s.gdb.WithContext(ctx).Order(order)), offset, limit).Find(&rows).Error; err != nil {
		return nil, 0, wrap("list users", err)
	}
	out := make([]User, len(rows))
	for i, r := range rows {
		out[i] = r.user()
	}
	return out, total, nil
}

// SetTokenHash makes hash the account's token hash, replacing any former
// token.
func (s *Store) SetTokenHash(ctx context.Context, username, hash string) error {
	res := s.gdb.WithContext(ctx).Model(&userRow{}).Where("username = ?", username).Update("token_hash", hash)
	if res.Error != nil {
		return wrap("set token", res.Error)
	}
	if res.RowsAffected == 0 {
		return notFound()
	}
	return nil
}

// SetUserActive activates or deactivates an account. A deactivated account
// keeps its name and history; its token stops authenticating.
func (s *Store) SetUserActive(ctx context.Context, username string, active bool) error {
	res := s.gdb.WithContext(ctx).Model(&userRow{}).Where("username = ?", username).Update("is_active", active)
	if res.Error != nil {
		return wrap("set active", res.Error)
	}
	if res.RowsAffected == 0 {
		return notFound()
	}
	return nil
}

// TokenHash is the account's token hash, "" when it has none.
func (s *Store) TokenHash(ctx context.Context, username string) (string, error) {
	r, err := s.userRow(s.gdb.WithContext(ctx), username)
	if err != nil || r.TokenHash == nil {
		return "", err
	}
	return *r.TokenHash, nil
}

// SetTokenHashIfNone sets the token hash only when the account has no
// token yet and reports whether it did; of several processes racing to
// give an account its first token exactly one wins.
func (s *Store) SetTokenHashIfNone(ctx context.Context, username, hash string) (bool, error) {
	res := s.gdb.WithContext(ctx).Model(&userRow{}).
		Where("username = ? AND token_hash IS NULL", username).Update("token_hash", hash)
	if res.Error != nil {
		return false, wrap("set first token", res.Error)
	}
	return res.RowsAffected == 1, nil
}

// wrap adds context to unexpected errors and passes errs kinds through.
func wrap(op string, err error) error {
	if err == nil {
		return nil
	}
	var e *errs.Error
	if errors.As(err, &e) {
		return err
	}
	return fmt.Errorf("notification: %s: %w", op, err)
}

// UpdateUser changes an account with change, run on the stored account in
// a transaction; a user name or address taken by another account is an
// InvalidArgument on the field, as on creation.
func (s *Store) UpdateUser(ctx context.Context, username string, change func(*User) error) (User, error) {
	var out User
	err := s.gdb.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		r, err := s.userRow(tx, username)
		if err != nil {
			return err
		}
		u := r.user()
		if err := change(&u); err != nil {
			return err
		}
		next := rowOf(u)
		next.ID, next.TokenHash = r.ID, r.TokenHash
		if err := taken(tx, next); err != nil {
			return err
		}
		if err := tx.Save(&next).Error; err != nil {
			return wrap("update user", err)
		}
		out = next.user()
		return nil
	})
	return out, err
}

// taken reports a user name or address another account holds.
func taken(tx *gorm.DB, r userRow) error {
	var n int64
	if err := tx.Model(&userRow{}).Where("username_key = ? AND id <> ?", r.UsernameKey, r.ID).Count(&n).Error; err != nil {
		return err
	}
	if n > 0 {
		return errUsernameTaken()
	}
	if r.EmailKey == nil {
		return nil
	}
	if err := tx.Model(&userRow{}).Where("email_key = ? AND id <> ?", *r.EmailKey, r.ID).Count(&n).Error; err != nil {
		return err
	}
	if n > 0 {
		return errEmailTaken()
	}
	return nil
}

// likePattern matches text anywhere, ignoring case, in a LIKE with ESCAPE
// '\' on a LOWER()ed column.
func likePattern(text string) string {
	return "%" + strings.NewReplacer(`\`, `\\`, "%", `\%`, "_", `\_`).Replace(strings.ToLower(text)) + "%"
}
