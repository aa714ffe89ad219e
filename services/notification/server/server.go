package server

import (
	"context"
	"time"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/timestamppb"

	"github.com/tmsproject/tms/pkg/errs"
	"github.com/tmsproject/tms/pkg/pagetoken"
	"github.com/tmsproject/tms/pkg/policy"
	"github.com/tmsproject/tms/pkg/weblate"
	notificationv1 "github.com/tmsproject/tms/proto/gen/go/tms/notification/v1"
	"github.com/tmsproject/tms/services/notification/kinds"
	"github.com/tmsproject/tms/services/notification/store"
)

// Built-in accounts.
const (
	// Admin is the superuser created at first start.
	Admin = "admin"
	// Anonymous stands for unauthenticated callers; change records may
	// credit it. It cannot log in.
	Anonymous = "anonymous"
)

// Store is what the server needs from storage.
type Store interface {
	CreateUser(ctx context.Context, u store.User, subs []store.Subscription) (store.User, error)
	UserByName(ctx context.Context, username string) (store.User, error)
	UserByID(ctx context.Context, id int64) (store.User, error)
	UserByTokenHash(ctx context.Context, hash string) (store.User, error)
	ListUsers(ctx context.Context, offset, limit int, usernames []string, search string) ([]store.User, int64, error)
	SetTokenHash(ctx context.Context, username, hash string) error
	SetUserActive(ctx context.Context, username string, active bool) error
	UpdateUser(ctx context.Context, username string, change func(*store.User) error) (store.User, error)
	Grants(ctx context.Context, memberID int64) ([]policy.Grant, error)
	TeamIDsOf(ctx context.Context, userIDs []int64) (map[int64][]int64, error)

	ListSubscriptions(ctx context.Context, username string, offset, limit int) ([]store.Subscription, int64, error)
	GetSubscription(ctx context.Context, username string, id int64) (store.Subscription, error)
	CreateSubscription(ctx context.Context, sub store.Subscription) (store.Subscription, error)
	UpdateSubscription(ctx context.Context, username string, id int64, change func(*store.Subscription) error) (store.Subscription, error)
	DeleteSubscription(ctx context.Context, username string, id int64) error
}

// Server implements notificationv1.NotificationServiceServer.
type Server struct {
	notificationv1.UnimplementedNotificationServiceServer
	store Store
}

// New returns a server on st.
func New(st Store) *Server { return &Server{store: st} }

// DefaultSubscriptions returns the subscriptions a new account named
// username starts with (COMPAT.md §8).
func DefaultSubscriptions(username string) []store.Subscription {
	defs := kinds.Defaults()
	out := make([]store.Subscription, len(defs))
	for i, d := range defs {
		out[i] = store.Subscription{Username: username, Notification: d.Notification, Scope: d.Scope, Frequency: d.Frequency}
	}
	return out
}

// checkPaging rejects negative offsets and limits and values beyond an int.
// listLimits are the page sizes of every List RPC of the service's
// servers, as the protos document them.
var listLimits = pagetoken.Limits{Default: 50, Max: 1000}

// listPage reads the paging of a List request: its page_token form, or
// offset and limit, refusing negative ones. The page gives the response's
// next_page_token.
func listPage(req proto.Message) (pagetoken.Page, error) {
	pg, err := listLimits.Read(req)
	if err != nil {
		return pg, err
	}
	var v errs.Violations
	v.Paging(pg.Offset, pg.Limit)
	return pg, v.Err()
}

func userProto(u store.User) *notificationv1.User {
	return &notificationv1.User{Id: u.ID, Username: u.Username, FullName: u.FullName, Email: u.Email,
		IsSuperuser: u.IsSuperuser, IsActive: u.IsActive, IsBot: u.IsBot, DateJoined: timestamppb.New(u.DateJoined),
		LastLogin: optionalTime(u.LastLogin), DateExpires: optionalTime(u.DateExpires), Profile: decodeProfile(u.Profile)}
}

func optionalTime(t *time.Time) *timestamppb.Timestamp {
	if t == nil {
		return nil
	}
	return timestamppb.New(*t)
}

func subscriptionProto(s store.Subscription) *notificationv1.Subscription {
	return &notificationv1.Subscription{Id: s.ID, Username: s.Username,
		Notification: weblate.NotificationKinds.EnumOf(s.Notification), Scope: weblate.NotificationScopes.EnumOf(s.Scope),
		Frequency: weblate.NotificationFrequencies.EnumOf(s.Frequency), ProjectSlug: s.ProjectSlug, ComponentSlug: s.ComponentSlug}
}

// now is the clock of new accounts.
var now = time.Now
