package delivery

import (
	"bytes"
	"fmt"
	htmltemplate "html/template"
	"strings"
	texttemplate "text/template"

	"github.com/tmsproject/tms/pkg/version"
	"github.com/tmsproject/tms/pkg/weblate"
)

// what says, per kind, what happened (the reference's mail subjects).
var what = map[string]string{
	weblate.NotifyLanguageTranslated: "Language was translated",
	weblate.NotifyTranslatedString:   "New translation",
	weblate.NotifyApprovedString:     "Translation approved",
	weblate.NotifyNewString:          "New string to translate",
	weblate.NotifyNewSuggestion:      "New suggestion",
	weblate.NotifyNewComment:         "New comment",
	weblate.NotifyMergeFailure:       "Repository failure",
	weblate.NotifyParseError:         "Parse error",
	weblate.NotifyNewTranslation:     "New language was added",
	weblate.NotifyNewComponent:       "New translation component was created",
	weblate.NotifyNewAlert:           "New alert",
	weblate.NotifyNewAnnouncement:    "New announcement",
	weblate.NotifyRepository:         "Repository operation",
	weblate.NotifyLock:               "Component lock changed",
}

// item is one notification as a mail shows it.
type item struct {
	What, Where, Detail, Link string
}

func newItem(kind string, ch Change, site string) item {
	where := ch.Project
	link := site + "/projects/" + ch.Project + "/"
	if ch.Component != "" {
		where += "/" + ch.Component
		link += ch.Component + "/"
	}
	if ch.Language != "" {
		where += " — " + ch.Language
		link += ch.Language + "/"
	}
	detail := ch.Target
	if r := []rune(detail); len(r) > 200 {
		detail = string(r[:200]) + "…"
	}
	w := what[kind]
	if w == "" {
		w = kind
	}
	return item{What: w, Where: where, Detail: detail, Link: link}
}

var (
	textMail = texttemplate.Must(texttemplate.New("text").Parse(`{{range .Items}}{{.What}}: {{.Where}}
{{if .Detail}}  {{.Detail}}
{{end}}  {{.Link}}

{{end}}You receive this because of your notification settings at {{.Site}}/api/users/{{.User}}/notifications/.
`))
	htmlMail = htmltemplate.Must(htmltemplate.New("html").Parse(`<!DOCTYPE html>
<html><body>
{{range .Items}}<p><strong>{{.What}}</strong>: <a href="{{.Link}}">{{.Where}}</a>{{if .Detail}}<br>{{.Detail}}{{end}}</p>
{{end}}<p style="color:#666">You receive this because of your <a href="{{.Site}}/api/users/{{.User}}/notifications/">notification settings</a>.</p>
</body></html>
`))
)

var digestNames = map[int32]string{weblate.FrequencyDaily: "Daily", weblate.FrequencyWeekly: "Weekly", weblate.FrequencyMonthly: "Monthly"}

// render builds the subject and bodies of a mail of items for user: one
// notification (instant), or a digest of the period's.
func render(user, site string, frequency int32, items []item) (subject, text, html string, err error) {
	prefix := "[" + version.Product + "] "
	if frequency == weblate.FrequencyInstant && len(items) == 1 {
		subject = prefix + items[0].What + " in " + items[0].Where
	} else {
		subject = fmt.Sprintf("%s%s digest: %d notifications", prefix, digestNames[frequency], len(items))
	}
	data := map[string]any{"Items": items, "Site": strings.TrimSuffix(site, "/"), "User": user}
	var t, h bytes.Buffer
	if err := textMail.Execute(&t, data); err != nil {
		return "", "", "", err
	}
	if err := htmlMail.Execute(&h, data); err != nil {
		return "", "", "", err
	}
	return subject, t.String(), h.String(), nil
}
