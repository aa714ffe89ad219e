package rest

import (
	"encoding/json"
	"sort"

	"google.golang.org/protobuf/types/known/timestamppb"

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
	for _, key := range []string{"start", "end"} {
		s := q.Get(key)
		if s == "" {
			continue
		}
		t, ok := parseTime(s)
		if !ok {
			return fieldErrors(errs.Violations{{Field: key, Code: "invalid", Description: "Enter a valid date."}})
		}
		if key == "start" {
			req.TimestampAfter = timestamppb.New(t)
		} else {
			req.TimestampBefore = timestamppb.New(t)
		}
	}
	counts := map[string]map[string]int64{} // language -> author -> count
	for {
		req.Limit = maxPageSize
		resp, err := g.cfg.Changelog.ListChanges(c.ctx, req)
		if err != nil {
			return err
		}
		for _, ch := range resp.GetChanges() {
			if ch.GetLanguageCode() == "" || ch.GetAuthor() == "" {
				continue
			}
			if counts[ch.GetLanguageCode()] == nil {
				counts[ch.GetLanguageCode()] = map[string]int64{}
			}
			counts[ch.GetLanguageCode()][ch.GetAuthor()]++
		}
		req.Offset += int64(len(resp.GetChanges()))
		if len(resp.GetChanges()) == 0 || req.Offset >= resp.GetTotal() {
			break
		}
	}
	out, err := g.renderCredits(c, counts)
	if err != nil {
		return err
	}
	return c.ok(out)
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

func (g *gateway) projectCredits(c *call) error {
	if _, err := c.project(c.param("project")); err != nil {
		return err
	}
	return g.credits(c, &changelogv1.ListChangesRequest{ProjectSlug: c.param("project")})
}

func (g *gateway) componentCredits(c *call) error {
	comp, err := c.pathComponent()
	if err != nil {
		return err
	}
	return g.credits(c, &changelogv1.ListChangesRequest{ProjectSlug: comp.GetProjectSlug(), ComponentSlug: comp.GetSlug()})
}
