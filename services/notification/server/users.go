package server

import (
	"context"
	"fmt"
	"net/mail"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/tmsproject/tms/pkg/errs"
	"github.com/tmsproject/tms/pkg/pagetoken"
	"github.com/tmsproject/tms/pkg/policy"
	notificationv1 "github.com/tmsproject/tms/proto/gen/go/tms/notification/v1"
	"github.com/tmsproject/tms/services/notification/store"
	"github.com/tmsproject/tms/services/notification/token"
)

// Field limits of the reference implementation.
const (
	maxUsername = 150
	maxFullName = 150
	maxEmail    = 190
)

// usernamePattern is Django's ^[\w.@+-]+$ with Python's Unicode \w.
var usernamePattern = regexp.MustCompile(`^[\p{L}\p{N}\p{Mn}\p{Pc}.@+-]+$`)

// errInvalidToken is the answer to every unknown, empty or revoked token.
func errInvalidToken() error { return errs.New(errs.Unauthenticated, "Invalid token.") }

// Authenticate returns the account owning the token. Only the token's hash
// is looked up, so no secret is compared byte by byte.
func (s *Server) Authenticate(ctx context.Context, req *notificationv1.AuthenticateRequest) (*notificationv1.AuthenticateResponse, error) {
	if req.GetToken() == "" {
		return nil, errInvalidToken()
	}
	u, err := s.store.UserByTokenHash(ctx, token.Hash(req.GetToken()))
	if errs.Is(err, errs.NotFound) {
		return nil, errInvalidToken()
	}
	if err != nil {
		return nil, err
	}
	if !u.IsActive || expired(u) {
		return nil, errs.New(errs.Unauthenticated, "User inactive or deleted.")
	}
	grants, err := s.store.Grants(ctx, u.ID)
	if err != nil {
		return nil, err
	}
	return &notificationv1.AuthenticateResponse{User: userProto(u), Grants: policy.GrantsToProto(grants)}, nil
}

// GetUser returns one account by user name. A caller acting for another
// user than a superuser or the account's owner gets its public part only
// (mayManage).
func (s *Server) GetUser(ctx context.Context, req *notificationv1.GetUserRequest) (*notificationv1.GetUserResponse, error) {
	var u store.User
	var err error
	if req.GetUsername() == "" && req.GetId() != 0 {
		u, err = s.store.UserByID(ctx, req.GetId())
	} else {
		u, err = s.store.UserByName(ctx, req.GetUsername())
	}
	if err != nil {
		return nil, err
	}
	if !mayManage(ctx, u.Username) {
		return &notificationv1.GetUserResponse{User: publicUser(u)}, nil
	}
	out := userProto(u)
	if err := s.withGroups(ctx, out); err != nil {
		return nil, err
	}
	return &notificationv1.GetUserResponse{User: out}, nil
}

// mayManage tells whether the caller of ctx sees all of the account
// username: the services' own calls, superusers and the account's owner
// do; others see its public part, as the reference shows it to them.
func mayManage(ctx context.Context, username string) bool {
	c, system := caller(ctx)
	return system || c.Superuser || (c.Username != "" && c.Username == username)
}

// publicUser is the part of an account everyone may see: its id, user
// name and full name (no e-mail, teams, dates or flags).
func publicUser(u store.User) *notificationv1.User {
	return &notificationv1.User{Id: u.ID, Username: u.Username, FullName: u.FullName}
}

// expired tells whether the account's date_expires has passed: it can no
// longer authenticate, as an inactive one.
func expired(u store.User) bool {
	return u.DateExpires != nil && !now().Before(*u.DateExpires)
}

// withGroups fills the team ids of users.
func (s *Server) withGroups(ctx context.Context, users ...*notificationv1.User) error {
	ids := make([]int64, len(users))
	for i, u := range users {
		ids[i] = u.GetId()
	}
	teams, err := s.store.TeamIDsOf(ctx, ids)
	if err != nil {
		return err
	}
	for _, u := range users {
		u.GroupIds = teams[u.GetId()]
	}
	return nil
}

// ListUsers returns one page of accounts in id order; limit 0 means all.
func (s *Server) ListUsers(ctx context.Context, req *notificationv1.ListUsersRequest) (*notificationv1.ListUsersResponse, error) {
	pg, err := listPage(req)
	if err != nil {
		return nil, err
	}
	if c, system := caller(ctx); !system && !c.Superuser {
		if len(req.GetUsernames()) > 0 && !slices.Contains(req.GetUsernames(), c.Username) {
			return &notificationv1.ListUsersResponse{}, nil
		}
		return s.listOwnAccount(ctx, c.Username, req.GetSearch(), pg)
	}
	users, total, err := s.store.ListUsers(ctx, int(pg.Offset), int(pg.Limit), req.GetUsernames(), req.GetSearch())
	if err != nil {
		return nil, err
	}
	out := &notificationv1.ListUsersResponse{Total: total, Users: make([]*notificationv1.User, len(users)),
		NextPageToken: pg.Next(total)}
	for i, u := range users {
		out.Users[i] = userProto(u)
	}
	return out, s.withGroups(ctx, out.Users...)
}

// listOwnAccount is ListUsers for a caller who is not a superuser: its own
// account only, none for the anonymous caller, as the reference lists
// users to them.
func (s *Server) listOwnAccount(ctx context.Context, username, search string, pg pagetoken.Page) (*notificationv1.ListUsersResponse, error) {
	out := &notificationv1.ListUsersResponse{}
	if username == "" {
		return out, nil
	}
	u, err := s.store.UserByName(ctx, username)
	if errs.Is(err, errs.NotFound) {
		return out, nil
	}
	if err != nil {
		return nil, err
	}
	if search != "" && !containsFold(u.Username, search) && !containsFold(u.FullName, search) {
		return out, nil
	}
	out.Total = 1
	if pg.Offset > 0 { // a limit of 0 is no limit
		return out, nil
	}
	out.Users = []*notificationv1.User{userProto(u)}
	return out, s.withGroups(ctx, out.Users...)
}

// CreateUser creates an account with the default subscriptions. The id and
// date_joined of the request are ignored; is_active and is_superuser are
// taken as given.
func (s *Server) CreateUser(ctx context.Context, req *notificationv1.CreateUserRequest) (*notificationv1.CreateUserResponse, error) {
	if err := requireSite(ctx); err != nil {
		return nil, err
	}
	in := req.GetUser()
	u := store.User{Username: in.GetUsername(), FullName: strings.TrimSpace(in.GetFullName()),
		Email: strings.TrimSpace(in.GetEmail()), IsSuperuser: in.GetIsSuperuser(), IsActive: in.GetIsActive(),
		DateJoined: now()}
	if err := validateUser(u); err != nil {
		return nil, err
	}
	created, err := s.store.CreateUser(ctx, u, DefaultSubscriptions(u.Username))
	if err != nil {
		return nil, err
	}
	return &notificationv1.CreateUserResponse{User: userProto(created)}, nil
}

func validateUser(u store.User) error {
	var v errs.Violations
	switch {
	case u.Username == "":
		v.Add("username", "required", "This field is required.")
	case utf8.RuneCountInString(u.Username) > maxUsername:
		v.Add("username", "max_length", fmt.Sprintf("Ensure this field has no more than %d characters.", maxUsername))
	case strings.HasPrefix(u.Username, "."):
		v.Add("username", "invalid", "The username can not start with a full stop.")
	case !usernamePattern.MatchString(u.Username):
		v.Add("username", "invalid", "Username may only contain letters, numbers or the following characters: @ . + - _")
	}
	if utf8.RuneCountInString(u.FullName) > maxFullName {
		v.Add("full_name", "max_length", fmt.Sprintf("Ensure this field has no more than %d characters.", maxFullName))
	}
	if u.Email != "" {
		addr, err := mail.ParseAddress(u.Email)
		switch {
		case err != nil || addr.Address != u.Email || !strings.Contains(u.Email[strings.LastIndex(u.Email, "@"):], "."):
			v.Add("email", "invalid", "Enter a valid email address.")
		case utf8.RuneCountInString(u.Email) > maxEmail:
			v.Add("email", "max_length", fmt.Sprintf("Ensure this field has no more than %d characters.", maxEmail))
		}
	}
	return v.Err()
}

// IssueToken gives the account a new API token, revoking the former one,
// and returns it: the only time the token is seen in clear.
func (s *Server) IssueToken(ctx context.Context, req *notificationv1.IssueTokenRequest) (*notificationv1.IssueTokenResponse, error) {
	if err := requireSelf(ctx, req.GetUsername()); err != nil {
		return nil, err
	}
	if req.GetUsername() == Anonymous {
		return nil, errs.New(errs.FailedPrecondition, "The anonymous user can not have an API token.")
	}
	tok, err := token.NewUser()
	if err != nil {
		return nil, errs.Wrap(errs.Internal, err, "generate token")
	}
	if err := s.store.SetTokenHash(ctx, req.GetUsername(), token.Hash(tok)); err != nil {
		return nil, err
	}
	return &notificationv1.IssueTokenResponse{Token: tok}, nil
}

// SetUserActive activates or deactivates an account. The built-in admin
// and anonymous accounts keep their state: deactivating admin would lock
// every operator out, and anonymous is never active.
func (s *Server) SetUserActive(ctx context.Context, req *notificationv1.SetUserActiveRequest) (*notificationv1.SetUserActiveResponse, error) {
	if err := requireSite(ctx); err != nil {
		return nil, err
	}
	if name := req.GetUsername(); name == Admin || name == Anonymous {
		return nil, errs.New(errs.FailedPrecondition, "The built-in %s account can not be changed.", name)
	}
	if err := s.store.SetUserActive(ctx, req.GetUsername(), req.GetActive()); err != nil {
		return nil, err
	}
	u, err := s.store.UserByName(ctx, req.GetUsername())
	if err != nil {
		return nil, err
	}
	return &notificationv1.SetUserActiveResponse{User: userProto(u)}, nil
}

// updatable are the fields UpdateUser may change.
var updatable = map[string]func(u *store.User, in *notificationv1.User){
	"full_name":    func(u *store.User, in *notificationv1.User) { u.FullName = strings.TrimSpace(in.GetFullName()) },
	"email":        func(u *store.User, in *notificationv1.User) { u.Email = strings.TrimSpace(in.GetEmail()) },
	"is_superuser": func(u *store.User, in *notificationv1.User) { u.IsSuperuser = in.GetIsSuperuser() },
	"is_active":    func(u *store.User, in *notificationv1.User) { u.IsActive = in.GetIsActive() },
	"is_bot":       func(u *store.User, in *notificationv1.User) { u.IsBot = in.GetIsBot() },
	"date_expires": func(u *store.User, in *notificationv1.User) {
		u.DateExpires = nil
		if ts := in.GetDateExpires(); ts != nil {
			t := ts.AsTime()
			u.DateExpires = &t
		}
	},
}

// UpdateUser applies the named fields and validates the result as on
// creation. The user name is the account's identity across the services'
// records and does not change; neither do the built-in accounts.
func (s *Server) UpdateUser(ctx context.Context, req *notificationv1.UpdateUserRequest) (*notificationv1.UpdateUserResponse, error) {
	site := requireSite(ctx) == nil
	if !site {
		if err := requireSelf(ctx, req.GetUsername()); err != nil {
			return nil, err
		}
	}
	if name := req.GetUsername(); name == Admin || name == Anonymous {
		return nil, errs.New(errs.FailedPrecondition, "The built-in %s account can not be changed.", name)
	}
	var v errs.Violations
	var profile []string
	for _, f := range req.GetUpdateMask().GetPaths() {
		if setting, ok := strings.CutPrefix(f, "profile."); ok {
			profile = append(profile, setting)
			continue
		}
		if _, ok := updatable[f]; !ok {
			v.Add(f, "read_only", "This field can not be changed.")
		} else if !site && f != "full_name" && f != "email" {
			return nil, denied()
		}
	}
	if err := v.Err(); err != nil {
		return nil, err
	}
	u, err := s.store.UpdateUser(ctx, req.GetUsername(), func(u *store.User) error {
		was := u.Email
		for _, f := range req.GetUpdateMask().GetPaths() {
			if set, ok := updatable[f]; ok {
				set(u, req.GetUser())
			}
		}
		if !site && !strings.EqualFold(u.Email, was) {
			// The account's own addresses are all it may choose; this
			// service verifies no other.
			return errs.Invalid("email", "invalid", "This e-mail address has not been verified.")
		}
		if err := applyProfile(&u.Profile, u.Email, req.GetUser().GetProfile(), profile); err != nil {
			return err
		}
		return validateUser(*u)
	})
	if err != nil {
		return nil, err
	}
	return &notificationv1.UpdateUserResponse{User: userProto(u)}, nil
}

// requireSelf admits the account itself, superusers and the services' own
// calls: the rights of token rotation and of an account's subscriptions,
// checked here whatever the gateway checked.
func requireSelf(ctx context.Context, username string) error {
	if c, system := caller(ctx); system || c.Superuser || (c.Username != "" && c.Username == username) {
		return nil
	}
	return denied()
}

// containsFold tells whether s contains sub, ignoring case, as the
// search of the store (LOWER) does.
func containsFold(s, sub string) bool {
	return strings.Contains(strings.ToLower(s), strings.ToLower(sub))
}
