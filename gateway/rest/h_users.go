package rest

import (
	"net/http"
	"strings"

	notificationv1 "github.com/tmsproject/tms/proto/gen/go/tms/notification/v1"
)

func (g *gateway) listUsers(c *call) error {
	if err := c.requireSuperuser(); err != nil {
		return err
	}
	return c.servicePage(func(offset, limit int64) (any, int64, error) {
		resp, err := g.cfg.Notification.ListUsers(c.ctx, &notificationv1.ListUsersRequest{Offset: offset, Limit: limit})
		return pageRows(resp.GetUsers(), resp.GetTotal(), err, always(c.userJSON))
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
	if err := b.err(); err != nil {
		return err
	}
	resp, err := g.cfg.Notification.CreateUser(c.ctx, &notificationv1.CreateUserRequest{User: u})
	if err != nil {
		return err
	}
	j := c.userJSON(resp.GetUser())
	return c.created(j.URL, j)
}

func (g *gateway) getUser(c *call) error {
	resp, err := g.cfg.Notification.GetUser(c.ctx, &notificationv1.GetUserRequest{Username: c.param("user")})
	if err != nil {
		return err
	}
	return c.ok(c.userJSON(resp.GetUser()))
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
	g.auth.forgetUser(name)
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
	resp, err := g.cfg.Notification.UpdateSubscription(c.ctx, &notificationv1.UpdateSubscriptionRequest{Subscription: s, Fields: fields})
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
