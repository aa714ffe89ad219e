package rest

import (
	"encoding/json"

	"github.com/tmsproject/tms/gateway/rest/wire"
	"github.com/tmsproject/tms/pkg/changedetails"
	changelogv1 "github.com/tmsproject/tms/proto/gen/go/tms/changelog/v1"
	translationv1 "github.com/tmsproject/tms/proto/gen/go/tms/translation/v1"
	typev1 "github.com/tmsproject/tms/proto/gen/go/tms/type/v1"
)

// alertJSON is Weblate's AlertSerializer, with this service's detail: a
// standing alert of a component, what failed, when it was first raised
// and last seen. Alerts are not dismissed here, so dismissed_at and
// dismissed_by are null.
type alertJSON struct {
	Name            string          `json:"name"`
	Detail          string          `json:"detail" doc:"What failed (this service's; Weblate's details hold it as error)."`
	Timestamp       *wire.Time      `json:"timestamp"`
	Updated         *wire.Time      `json:"updated"`
	Severity        int32           `json:"severity" doc:"10 information, 50 warning, 100 error (Weblate's AlertSeverity)."`
	Details         json.RawMessage `json:"details"`
	Category        string          `json:"category" doc:"addons, community, configuration, files or vcs."`
	DismissedAt     *wire.Time      `json:"dismissed_at"`
	DismissedBy     *string         `json:"dismissed_by"`
	DismissalReason string          `json:"dismissal_reason"`
}

// alertCategories are the categories of Weblate's alert classes this
// service raises (weblate/trans/alerts/); the others are configuration.
var alertCategories = map[string]string{
	"UpdateFailure": "vcs", "MergeFailure": "vcs", "PushFailure": "vcs", "RepositoryOutdated": "vcs",
	"RepositoryChanges": "vcs", "ParseError": "files", "NoMaskMatches": "files",
}

// alertSeverityError is Weblate's AlertSeverity.ERROR, the severity of
// every alert class this service raises.
const alertSeverityError = 100

func newAlert(a *translationv1.Alert) *alertJSON {
	category := alertCategories[a.GetName()]
	if category == "" {
		category = "configuration"
	}
	details, _ := json.Marshal(map[string]string{"error": a.GetDetail()})
	return &alertJSON{Name: a.GetName(), Detail: a.GetDetail(), Timestamp: wire.TimeOf(a.GetCreateTime()),
		Updated: wire.TimeOf(a.GetUpdateTime()), Severity: alertSeverityError, Details: details, Category: category}
}

// changeAlert is the alert an "Alert triggered" record (action 47) is
// about while it stands, as Weblate links the record to its component's
// alert (null once the alert is resolved, or for any other record).
func (c *call) changeAlert(ch *changelogv1.Change) (*alertJSON, error) {
	if ch.GetAction() != typev1.ChangeAction_CHANGE_ACTION_ALERT || ch.GetComponentSlug() == "" {
		return nil, nil
	}
	var details struct {
		Alert string `json:"alert"`
	}
	_ = json.Unmarshal(changedetails.Object(ch.GetDetails()), &details)
	key := ch.GetProjectSlug() + "/" + ch.GetComponentSlug()
	alerts, err := c.alerts.get(key, func() ([]*translationv1.Alert, error) {
		comp, err := c.component(ch.GetProjectSlug(), ch.GetComponentSlug())
		if err != nil {
			return nil, nil // a removed component has no alerts
		}
		resp, err := c.g.cfg.Translation.ListAlerts(c.ctx, &translationv1.ListAlertsRequest{ComponentId: comp.GetId()})
		return resp.GetAlerts(), err
	})
	if err != nil {
		return nil, err
	}
	for _, a := range alerts {
		if a.GetName() == details.Alert {
			return newAlert(a), nil
		}
	}
	return nil, nil
}
