package rest

import (
	"encoding/json"
	"strconv"

	"github.com/tmsproject/tms/gateway/rest/wire"
	"github.com/tmsproject/tms/pkg/changedetails"
	"github.com/tmsproject/tms/pkg/weblate"
	changelogv1 "github.com/tmsproject/tms/proto/gen/go/tms/changelog/v1"
	notificationv1 "github.com/tmsproject/tms/proto/gen/go/tms/notification/v1"
	translationv1 "github.com/tmsproject/tms/proto/gen/go/tms/translation/v1"
	typev1 "github.com/tmsproject/tms/proto/gen/go/tms/type/v1"
)

// actionName is the display name of an action, as Weblate shows it
// (COMPAT.md §7); a record of an action the service does not know shows
// its number.
func actionName(a typev1.ChangeAction, number int32) string {
	if n := weblate.ActionName(a); n != "" {
		return n
	}
	return "Action " + strconv.Itoa(int(number))
}

type changeJSON struct {
	Unit        *string         `json:"unit"`
	Component   *string         `json:"component"`
	Translation *string         `json:"translation"`
	User        *string         `json:"user"`
	Author      *string         `json:"author"`
	Timestamp   wire.Time       `json:"timestamp"`
	Action      int32           `json:"action"`
	Target      string          `json:"target"`
	Old         string          `json:"old"`
	Details     json.RawMessage `json:"details"`
	ID          int64           `json:"id"`
	ActionName  string          `json:"action_name"`
	URL         string          `json:"url"`
	// Alert is the standing alert an "Alert triggered" record is about;
	// null otherwise (Weblate 2026.8).
	Alert *alertJSON `json:"alert"`
}

// changeJSON is u.changeJSON with the record's alert.
func (c *call) changeJSON(ch *changelogv1.Change) (*changeJSON, error) {
	out := c.urls.changeJSON(ch)
	var err error
	out.Alert, err = c.changeAlert(ch)
	return out, err
}

func (u urls) changeJSON(ch *changelogv1.Change) *changeJSON {
	p, cs, l := ch.GetProjectSlug(), ch.GetComponentSlug(), ch.GetLanguageCode()
	action := weblate.ChangeActions.RefOf(ch.GetAction())
	out := &changeJSON{
		Action: action, Target: ch.GetTarget(), Old: ch.GetOld(), ID: ch.GetId(),
		ActionName: actionName(ch.GetAction(), action), URL: u.change(ch.GetId()), Details: changedetails.Object(ch.GetDetails()),
	}
	if t := wire.TimeOf(ch.GetTimestamp()); t != nil {
		out.Timestamp = *t
	}
	if ch.GetUnitId() != 0 {
		out.Unit = optional(u.unit(ch.GetUnitId()))
	}
	if p != "" && cs != "" {
		out.Component = optional(u.component(p, cs))
		if l != "" {
			out.Translation = optional(u.translation(p, cs, l))
		}
	}
	if ch.GetUser() != "" {
		out.User = optional(u.user(ch.GetUser()))
	}
	if ch.GetAuthor() != "" {
		out.Author = optional(u.user(ch.GetAuthor()))
	}
	return out
}

type subscriptionJSON struct {
	Notification string         `json:"notification"`
	ID           int64          `json:"id"`
	Scope        int32          `json:"scope"`
	Frequency    int32          `json:"frequency"`
	Project      *projectJSON   `json:"project"`
	Component    *componentJSON `json:"component"`
}

// subscriptionJSON embeds the reduced project and component when the
// subscription is limited to one.
func (c *call) subscriptionJSON(s *notificationv1.Subscription) (*subscriptionJSON, error) {
	out := &subscriptionJSON{Notification: weblate.NotificationKinds.RefOf(s.GetNotification()), ID: s.GetId(),
		Scope: weblate.NotificationScopes.RefOf(s.GetScope()), Frequency: weblate.NotificationFrequencies.RefOf(s.GetFrequency())}
	if ps := s.GetProjectSlug(); ps != "" {
		if cs := s.GetComponentSlug(); cs != "" {
			comp, err := c.component(ps, cs)
			if err == nil {
				out.Component, err = c.componentJSON(comp, false, "")
			}
			if err != nil {
				return nil, err
			}
		} else {
			p, err := c.project(ps)
			if err == nil {
				out.Project, err = c.projectJSON(p, false)
			}
			if err != nil {
				return nil, err
			}
		}
	}
	return out, nil
}

// basicUserJSON is what every caller may see of an account (Weblate's
// BasicUserSerializer).
type basicUserJSON struct {
	ID       int64  `json:"id"`
	FullName string `json:"full_name"`
	Username string `json:"username"`
}

// userJSON is the full form (FullUserSerializer), for superusers and the
// user themself.
type userJSON struct {
	ID int64 `json:"id"`
	// Email is null for an account without one, as Weblate's nullable
	// e-mail field answers.
	Email            *string      `json:"email"`
	FullName         string       `json:"full_name"`
	Username         string       `json:"username"`
	Groups           []string     `json:"groups"`
	NotificationsURL string       `json:"notifications"`
	IsSuperuser      bool         `json:"is_superuser"`
	IsActive         bool         `json:"is_active"`
	IsBot            bool         `json:"is_bot"`
	DateJoined       *wire.Time   `json:"date_joined"`
	LastLogin        *wire.Time   `json:"last_login"`
	URL              string       `json:"url"`
	StatisticsURL    string       `json:"statistics_url"`
	ContributionsURL string       `json:"contributions_url"`
	DateExpires      *wire.Time   `json:"date_expires"`
	Profile          *profileJSON `json:"profile"`
}

// mayManageUser tells whether the caller sees an account's full form and
// its private parts: superusers and the user themself.
func (c *call) mayManageUser(username string) bool {
	return c.superuser() || (c.user != nil && c.actor() == username)
}

// userJSON renders an account in the form the caller may see, the full
// one with its settings (profile) to superusers and the user themself.
func (c *call) userJSON(x *notificationv1.User) (any, error) {
	if !c.mayManageUser(x.GetUsername()) {
		return &basicUserJSON{ID: x.GetId(), FullName: x.GetFullName(), Username: x.GetUsername()}, nil
	}
	profile, err := c.profileJSON(x)
	if err != nil {
		return nil, err
	}
	name := x.GetUsername()
	return &userJSON{ID: x.GetId(), Email: optional(x.GetEmail()), FullName: x.GetFullName(), Username: name,
		Groups: c.groupURLs(x.GetGroupIds()), NotificationsURL: c.urls.API("users", name, "notifications"),
		IsSuperuser: x.GetIsSuperuser(), IsActive: x.GetIsActive(), IsBot: x.GetIsBot(),
		DateJoined: wire.TimeOf(x.GetDateJoined()), LastLogin: wire.TimeOf(x.GetLastLogin()),
		URL: c.urls.user(name), StatisticsURL: c.urls.API("users", name, "statistics"),
		ContributionsURL: c.urls.API("users", name, "contributions"), DateExpires: wire.TimeOf(x.GetDateExpires()),
		Profile: profile}, nil
}

// okUser answers an account.
func (c *call) okUser(x *notificationv1.User) error {
	j, err := c.userJSON(x)
	if err != nil {
		return err
	}
	return c.ok(j)
}

type taskJSON struct {
	Completed bool   `json:"completed"`
	Progress  int32  `json:"progress"`
	Result    any    `json:"result"`
	Log       string `json:"log"`
}

func newTaskJSON(t *translationv1.Task) *taskJSON {
	out := &taskJSON{Completed: t.GetCompleted(), Progress: t.GetProgress(), Log: t.GetLog()}
	switch {
	case !t.GetCompleted():
		out.Result = nil
	case t.GetError() != "":
		out.Result = map[string]any{"result": false, "detail": t.GetError()}
	default:
		out.Result = map[string]any{"result": true}
	}
	return out
}

func (c *call) groupURLs(ids []int64) []string {
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = c.urls.API("groups", strconv.FormatInt(id, 10))
	}
	return out
}
