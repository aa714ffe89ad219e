package rest

import (
	"encoding/json"
	"sort"

	"github.com/tmsproject/tms/pkg/errs"
	changelogv1 "github.com/tmsproject/tms/proto/gen/go/tms/changelog/v1"
	notificationv1 "github.com/tmsproject/tms/proto/gen/go/tms/notification/v1"
)

// contentActions are the change actions that credit their author with a
// translation (Weblate's content changes).
var contentActions = []int32{2, 5, 6, 7, 8, 9, 27, 36, 37}

type creditJSON struct {
	Email       string `json:"email"`
	FullName    string `json:"full_name"`
	ChangeCount int64  `json:"change_count"`
}

// languageCredits is one {"<language name>": [authors]} entry; Weblate
// answers a list of such single-key objects.
type languageCredits struct {
	name    string
	authors []creditJSON
}

func (l languageCredits) MarshalJSON() ([]byte, error) {
	var buf []byte
	buf = append(buf, '{')
	k, _ := json.Marshal(l.name)
	buf = append(buf, k...)
	buf = append(buf, ':')
	v, err := json.Marshal(l.authors)
	if err != nil {
		return nil, err
	}
	buf = append(buf, v...)
	return append(buf, '}'), nil
}

// credits counts content changes per language and author in the scope of
// req (filters start, end and lang from the query).
func (g *gateway) credits(c *call, req *changelogv1.ListChangesRequest) error {
	q := c.r.URL.Query()
	req.Actions = contentActions
	req.LanguageCode = q.Get("lang")
	var ok bool
	if req.TimestampAfter, ok = timeParam(q, "start"); !ok {
		return fieldErrors(errs.Violations{{Field: "start", Code: "invalid", Description: "Enter a valid date."}})
	}
	if req.TimestampBefore, ok = timeParam(q, "end"); !ok {
		return fieldErrors(errs.Violations{{Field: "end", Code: "invalid", Description: "Enter a valid date."}})
	}
	counts := map[string]map[string]int64{} // language -> author -> count
	err := eachPage(func(offset, limit int64) (int, int64, error) {
		req.Offset, req.Limit = offset, limit
		resp, err := g.cfg.Changelog.ListChanges(c.ctx, req)
		for _, ch := range resp.GetChanges() {
			if ch.GetLanguageCode() == "" || ch.GetAuthor() == "" {
				continue
			}
			if counts[ch.GetLanguageCode()] == nil {
				counts[ch.GetLanguageCode()] = map[string]int64{}
			}
			counts[ch.GetLanguageCode()][ch.GetAuthor()]++
		}
		return len(resp.GetChanges()), resp.GetTotal(), err
	})
	if err != nil {
		return err
	}
	return c.okRendered(g.renderCredits(c, counts))
}

func (g *gateway) renderCredits(c *call, counts map[string]map[string]int64) ([]languageCredits, error) {
	users := map[string]*notificationv1.User{}
	out := []languageCredits{}
	for code, authors := range counts {
		lang, err := c.language(code)
		if err != nil {
			return nil, err
		}
		entry := languageCredits{name: lang.GetName()}
		for name, n := range authors {
			u, ok := users[name]
			if !ok {
				resp, err := g.cfg.Notification.GetUser(c.ctx, &notificationv1.GetUserRequest{Username: name})
				if err == nil {
					u = resp.GetUser()
				}
				users[name] = u
			}
			cr := creditJSON{FullName: name, ChangeCount: n}
			if u != nil {
				cr.Email, cr.FullName = u.GetEmail(), or(u.GetFullName(), name)
			}
			entry.authors = append(entry.authors, cr)
		}
		sort.Slice(entry.authors, func(i, j int) bool {
			a, b := entry.authors[i], entry.authors[j]
			return a.ChangeCount > b.ChangeCount || (a.ChangeCount == b.ChangeCount && a.FullName < b.FullName)
		})
		out = append(out, entry)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].name < out[j].name })
	return out, nil
}
