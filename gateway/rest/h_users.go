package rest

import (
	"net/http"
	"slices"
	"strings"

	"google.golang.org/protobuf/types/known/timestamppb"

	changelogv1 "github.com/tmsproject/tms/proto/gen/go/tms/changelog/v1"
	notificationv1 "github.com/tmsproject/tms/proto/gen/go/tms/notification/v1"
	translationv1 "github.com/tmsproject/tms/proto/gen/go/tms/translation/v1"
)

// listUsers lists the accounts the caller may list: the notification
// service answers every account to superusers and, as Weblate does, only
// their own account to other callers (none to anonymous ones).
func (g *gateway) listUsers(c *call) error {
	return c.servicePage(func(offset, limit int64) (any, int64, error) {
		resp, err := g.cfg.Notification.ListUsers(c.ctx, &notificationv1.ListUsersRequest{Offset: offset, Limit: limit})
		return pageRows(resp.GetUsers(), resp.GetTotal(), err, c.userJSON)
	})
}

func (g *gateway) createUser(c *call) error {
	if err := c.requireSuperuser(); err != nil {
		return err
	}
	b, err := c.readBody()
	if err != nil {
		return err
	}
	b.required("username")
	u := &notificationv1.User{IsActive: true}
	applyBody(b, u)
	if name, ok := b.str("username"); ok {
		u.Username = name
	}
	if err = b.err(); err != nil {
		return err
	}
	resp, err := g.cfg.Notification.CreateUser(c.ctx, &notificationv1.CreateUserRequest{User: u})
	if err != nil {
		return err
	}
	j, err := c.userJSON(resp.GetUser())
	if err != nil {
		return err
	}
	return c.created(c.urls.user(resp.GetUser().GetUsername()), j)
}

func (g *gateway) getUser(c *call) error {
	resp, err := g.cfg.Notification.GetUser(c.ctx, &notificationv1.GetUserRequest{Username: c.param("user")})
	if err != nil {
		return err
	}
	return c.okUser(resp.GetUser())
}

// requireSelf admits the user named in the path and superusers; others do
// not learn whether the account exists (404), anonymous callers get 401.
func (c *call) requireSelf() error {
	if c.user == nil {
		return notAuthenticated()
	}
	if c.superuser() || c.actor() == c.param("user") {
		return nil
	}
	return notFound()
}

type tokenJSON struct {
	Token string `json:"token"`
}

// issueToken issues or rotates the user's API token; the old one stops
// working at once (the authentication cache forgets the user).
func (g *gateway) issueToken(c *call) error {
	if err := c.requireSelf(); err != nil {
		return err
	}
	name := c.param("user")
	resp, err := g.cfg.Notification.IssueToken(c.ctx, &notificationv1.IssueTokenRequest{Username: name})
	if err != nil {
		return err
	}
	return c.ok(tokenJSON{Token: resp.GetToken()})
}

func (g *gateway) listSubscriptions(c *call) error {
	if err := c.requireSelf(); err != nil {
		return err
	}
	return c.servicePage(func(offset, limit int64) (any, int64, error) {
		resp, err := g.cfg.Notification.ListSubscriptions(c.ctx, &notificationv1.ListSubscriptionsRequest{
			Username: c.param("user"), Offset: offset, Limit: limit})
		return pageRows(resp.GetSubscriptions(), resp.GetTotal(), err, c.subscriptionJSON)
	})
}

// subscriptionBody reads notification, scope, frequency and the optional
// project / component references of a subscription.
func (c *call) subscriptionBody(required bool) (*notificationv1.Subscription, []string, error) {
	b, err := c.readBody()
	if err != nil {
		return nil, nil, err
	}
	if required {
		b.required("notification", "scope", "frequency")
	}
	s := &notificationv1.Subscription{Username: c.param("user")}
	fields := applyBody(b, s)
	if ref, ok := b.fields["project"]; ok {
		s.ProjectSlug = refSlug(ref)
		fields = append(fields, "project_slug")
	}
	if ref, ok := b.fields["component"]; ok {
		if obj, isObj := ref.(map[string]any); isObj {
			if p, isMap := obj["project"].(map[string]any); isMap {
				s.ProjectSlug = refSlug(p)
			}
		}
		if str, isStr := ref.(string); isStr {
			if p, cs, ok := strings.Cut(str, "/"); ok {
				s.ProjectSlug, str = p, cs
			}
			ref = str
		}
		s.ComponentSlug = refSlug(ref)
		fields = append(fields, "project_slug", "component_slug")
	}
	return s, fields, b.err()
}

// refSlug reads a reference given as a slug or an object with "slug".
func refSlug(v any) string {
	switch v := v.(type) {
	case string:
		return v
	case map[string]any:
		s, _ := v["slug"].(string)
		return s
	}
	return ""
}

func (g *gateway) createSubscription(c *call) error {
	if err := c.requireSelf(); err != nil {
		return err
	}
	s, _, err := c.subscriptionBody(true)
	if err != nil {
		return err
	}
	resp, err := g.cfg.Notification.CreateSubscription(c.ctx, &notificationv1.CreateSubscriptionRequest{Subscription: s})
	if err != nil {
		return err
	}
	j, err := c.subscriptionJSON(resp.GetSubscription())
	if err != nil {
		return err
	}
	return c.write(http.StatusCreated, j)
}

// selfSubscriptionID admits the user of the path (or a superuser) and
// reads the subscription {id}.
func (c *call) selfSubscriptionID() (int64, error) {
	if err := c.requireSelf(); err != nil {
		return 0, err
	}
	return c.pathID()
}

func (g *gateway) getSubscription(c *call) error {
	n, err := c.selfSubscriptionID()
	if err != nil {
		return err
	}
	resp, err := g.cfg.Notification.GetSubscription(c.ctx, &notificationv1.GetSubscriptionRequest{Username: c.param("user"), Id: n})
	if err != nil {
		return err
	}
	return c.okRendered(c.subscriptionJSON(resp.GetSubscription()))
}

func (g *gateway) updateSubscription(c *call) error {
	n, err := c.selfSubscriptionID()
	if err != nil {
		return err
	}
	s, fields, err := c.subscriptionBody(c.r.Method == http.MethodPut)
	if err != nil {
		return err
	}
	s.Id = n
	resp, err := g.cfg.Notification.UpdateSubscription(c.ctx, &notificationv1.UpdateSubscriptionRequest{Subscription: s, UpdateMask: mask(fields)})
	if err != nil {
		return err
	}
	return c.okRendered(c.subscriptionJSON(resp.GetSubscription()))
}

func (g *gateway) deleteSubscription(c *call) error {
	n, err := c.selfSubscriptionID()
	if err != nil {
		return err
	}
	if _, err := g.cfg.Notification.DeleteSubscription(c.ctx, &notificationv1.DeleteSubscriptionRequest{Username: c.param("user"), Id: n}); err != nil {
		return err
	}
	return c.noContent()
}

// updateUser changes an account (superusers): full_name, email,
// is_superuser, is_active, is_bot, date_expires. The user name is the
// account's identity in every record and cannot change.
func (g *gateway) updateUser(c *call) error {
	if err := c.checkPathUser(); err != nil {
		return err
	}
	if c.user == nil {
		return notAuthenticated()
	}
	if !c.superuser() && c.param("user") != c.actor() {
		return permissionDenied("")
	}
	b, err := c.readBody()
	if err != nil {
		return err
	}
	u := &notificationv1.User{}
	fields := applyBody(b, u)
	fields = slices.DeleteFunc(fields, func(f string) bool { return f == "date_joined" || f == "id" })
	if !c.superuser() {
		// The account itself may change its name, its address (to one it
		// has) and its settings; Weblate ignores the other fields.
		fields = slices.DeleteFunc(fields, func(f string) bool { return f != "full_name" && f != "email" })
	} else if b.has("date_expires") {
		fields = append(fields, "date_expires")
		u.DateExpires = b.dateExpires()
	}
	profile, paths := c.profileBody(b)
	u.Profile = profile
	if err = b.err(); err != nil {
		return err
	}
	resp, err := g.cfg.Notification.UpdateUser(c.ctx, &notificationv1.UpdateUserRequest{
		Username: c.param("user"), User: u, UpdateMask: mask(append(fields, paths...))})
	if err != nil {
		return err
	}
	return c.okUser(resp.GetUser())
}

// dateExpires reads date_expires: null or a time.
func (b *body) dateExpires() *timestamppb.Timestamp {
	raw := b.fields["date_expires"]
	if raw == nil {
		return nil
	}
	s, _ := raw.(string)
	if t, ok := parseTime(s); ok {
		return timestamppb.New(t)
	}
	b.errs.Add("date_expires", "invalid", "Datetime has wrong format.")
	return nil
}

// deleteUser deactivates an account (superusers): it keeps its history,
// its token stops working at once.
func (g *gateway) deleteUser(c *call) error {
	if err := c.checkPathUser(); err != nil {
		return err
	}
	if err := c.requireSuperuser(); err != nil {
		return err
	}
	_, err := g.cfg.Notification.SetUserActive(c.ctx, &notificationv1.SetUserActiveRequest{Username: c.param("user")})
	if err != nil {
		return err
	}
	return c.noContent()
}

// checkPathUser fails unless the account of the {user} path exists.
func (c *call) checkPathUser() error {
	_, err := c.g.cfg.Notification.GetUser(c.ctx, &notificationv1.GetUserRequest{Username: c.param("user")})
	return err
}

// userStatisticsJSON is Weblate's UserStatisticsSerializer.
type userStatisticsJSON struct {
	Translated int64 `json:"translated"`
	Suggested  int64 `json:"suggested"`
	Uploaded   int64 `json:"uploaded"`
	Commented  int64 `json:"commented"`
	Languages  int64 `json:"languages"`
}

// userStatistics counts the user's work from the change log, within the
// projects the caller may see.
func (g *gateway) userStatistics(c *call) error {
	if err := c.checkPathUser(); err != nil {
		return err
	}
	out, err := c.userActivity(c.param("user"))
	if err != nil {
		return err
	}
	return c.ok(out)
}

// userContributions pages the translations the user changed, in the list
// form of translations: the change log lists those the caller may see and
// that still exist, in its pages and its total.
func (g *gateway) userContributions(c *call) error {
	if err := c.checkPathUser(); err != nil {
		return err
	}
	render := func(x *changelogv1.Contribution) (*translationJSON, error) {
		comp, err := c.component(x.GetProjectSlug(), x.GetComponentSlug())
		if err == nil {
			var resp *translationv1.GetTranslationResponse
			resp, err = g.cfg.Translation.GetTranslation(c.ctx, &translationv1.GetTranslationRequest{
				ComponentId: comp.GetId(), LanguageCode: x.GetLanguageCode()})
			if err == nil {
				return c.translationJSON(resp.GetTranslation(), comp)
			}
		}
		if toAPIError(err).status == http.StatusNotFound {
			// No rule of the gateway: a translation is gone here only
			// between its removal and the delivery of the removal's
			// record to the change log, which then leaves it out itself.
			return nil, errSkipRow
		}
		return nil, err
	}
	return c.servicePage(func(offset, limit int64) (any, int64, error) {
		resp, err := g.cfg.Changelog.ListContributions(c.ctx, &changelogv1.ListContributionsRequest{
			User: c.param("user"), Offset: offset, Limit: limit})
		return pageRows(resp.GetContributions(), resp.GetTotal(), err, render)
	})
}
