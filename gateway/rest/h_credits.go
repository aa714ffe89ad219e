package rest

import (
	"encoding/json"
	"slices"
	"sort"

	"github.com/tmsproject/tms/pkg/errs"
	"github.com/tmsproject/tms/pkg/policy"
	changelogv1 "github.com/tmsproject/tms/proto/gen/go/tms/changelog/v1"
	notificationv1 "github.com/tmsproject/tms/proto/gen/go/tms/notification/v1"
)

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

// credits shows the content changes per language and author in the scope
// of req (filters start, end and lang from the query), as the changelog
// service counts them.
func (g *gateway) credits(c *call, req *changelogv1.ListChangesRequest) error {
	q := c.r.URL.Query()
	creq := &changelogv1.ListCreditsRequest{ProjectSlug: req.GetProjectSlug(), ComponentSlug: req.GetComponentSlug(),
		LanguageCode: q.Get("lang"), ContentChanges: true}
	var ok bool
	if creq.TimestampAfter, ok = timeParam(q, "start"); !ok {
		return fieldErrors(errs.Violations{{Field: "start", Code: "invalid", Description: "Enter a valid date."}})
	}
	if creq.TimestampBefore, ok = timeParam(q, "end"); !ok {
		return fieldErrors(errs.Violations{{Field: "end", Code: "invalid", Description: "Enter a valid date."}})
	}
	resp, err := g.cfg.Changelog.ListCredits(c.ctx, creq)
	if err != nil {
		return err
	}
	counts := map[string]map[string]int64{} // language -> author -> count
	for _, cr := range resp.GetCredits() {
		if counts[cr.GetLanguageCode()] == nil {
			counts[cr.GetLanguageCode()] = map[string]int64{}
		}
		counts[cr.GetLanguageCode()][cr.GetAuthor()] = cr.GetChanges()
	}
	return c.okRendered(g.renderCredits(c, counts))
}

func (g *gateway) renderCredits(c *call, counts map[string]map[string]int64) ([]languageCredits, error) {
	users, err := g.creditedUsers(c, counts)
	if err != nil {
		return nil, err
	}
	out := []languageCredits{}
	for code, authors := range counts {
		lang, err := c.language(code)
		if err != nil {
			return nil, err
		}
		entry := languageCredits{name: lang.GetName()}
		for name, n := range authors {
			cr := creditJSON{FullName: name, ChangeCount: n}
			if u := users[name]; u != nil {
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

// creditedUsers reads the accounts of every credited author in one call.
// The changelog service listed only the authors the caller may see
// credited, with their e-mail as the reference shows it: the accounts are
// read as the service, not as the caller.
func (g *gateway) creditedUsers(c *call, counts map[string]map[string]int64) (map[string]*notificationv1.User, error) {
	var names []string
	for _, authors := range counts {
		for name := range authors {
			names = append(names, name)
		}
	}
	users := map[string]*notificationv1.User{}
	if len(names) == 0 {
		return users, nil
	}
	slices.Sort(names)
	resp, err := g.cfg.Notification.ListUsers(policy.System(c.ctx), &notificationv1.ListUsersRequest{Usernames: slices.Compact(names)})
	if err != nil {
		return nil, err
	}
	for _, u := range resp.GetUsers() {
		users[u.GetUsername()] = u
	}
	return users, nil
}
