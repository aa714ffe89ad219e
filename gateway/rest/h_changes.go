package rest

import (
	"sort"
	"strconv"
	"time"

	"google.golang.org/protobuf/types/known/timestamppb"

	"github.com/tmsproject/tms/pkg/errs"
	changelogv1 "github.com/tmsproject/tms/proto/gen/go/tms/changelog/v1"
)

// changeFilter reads the change list filters of COMPAT.md §7 into req.
func (c *call) changeFilter(req *changelogv1.ListChangesRequest) error {
	q := c.r.URL.Query()
	var v errs.Violations
	req.User = q.Get("user")
	for _, a := range q["action"] {
		n, err := strconv.ParseInt(a, 10, 32)
		if err != nil {
			v.Add("action", "invalid_choice", "Select a valid choice. "+a+" is not one of the available choices.")
			continue
		}
		req.Actions = append(req.Actions, int32(n))
	}
	for key, dst := range map[string]**timestamppb.Timestamp{"timestamp_after": &req.TimestampAfter, "timestamp_before": &req.TimestampBefore} {
		s := q.Get(key)
		if s == "" {
			continue
		}
		t, ok := parseTime(s)
		if !ok {
			v.Add(key, "invalid", "Enter a valid date/time.")
			continue
		}
		*dst = timestamppb.New(t)
	}
	sort.SliceStable(v, func(i, j int) bool { return v[i].Field < v[j].Field })
	if len(v) > 0 {
		return fieldErrors(v)
	}
	return nil
}

// parseTime accepts ISO 8601 date-times (with or without zone, fraction)
// and plain dates, as Django's DateTimeField does.
func parseTime(s string) (time.Time, bool) {
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05.999999999", "2006-01-02T15:04",
		"2006-01-02 15:04:05.999999999Z07:00", "2006-01-02 15:04:05.999999999", "2006-01-02"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t.UTC(), true
		}
	}
	return time.Time{}, false
}

// changeList pages change records matching req (newest first).
func (g *gateway) changeList(c *call, req *changelogv1.ListChangesRequest) error {
	p, err := c.pager(defaultPageSize, maxPageSize)
	if err != nil {
		return err
	}
	if err := c.changeFilter(req); err != nil {
		return err
	}
	req.Offset, req.Limit = p.offset(), p.size
	resp, err := g.cfg.Changelog.ListChanges(c.ctx, req)
	if err != nil {
		return err
	}
	out := make([]*changeJSON, 0, len(resp.GetChanges()))
	for _, ch := range resp.GetChanges() {
		out = append(out, c.urls.changeJSON(ch))
	}
	return c.page(p, resp.GetTotal(), out)
}

func (g *gateway) allChanges(c *call) error {
	return g.changeList(c, &changelogv1.ListChangesRequest{})
}

func (g *gateway) projectChanges(c *call) error {
	if _, err := c.project(c.param("project")); err != nil {
		return err
	}
	return g.changeList(c, &changelogv1.ListChangesRequest{ProjectSlug: c.param("project")})
}

func (g *gateway) componentChanges(c *call) error {
	comp, err := c.pathComponent()
	if err != nil {
		return err
	}
	return g.changeList(c, &changelogv1.ListChangesRequest{ProjectSlug: comp.GetProjectSlug(), ComponentSlug: comp.GetSlug()})
}

func (g *gateway) translationChanges(c *call) error {
	comp, t, err := c.pathTranslation()
	if err != nil {
		return err
	}
	return g.changeList(c, &changelogv1.ListChangesRequest{ProjectSlug: comp.GetProjectSlug(),
		ComponentSlug: comp.GetSlug(), LanguageCode: t.GetLanguageCode()})
}

func (g *gateway) getChange(c *call) error {
	n, err := strconv.ParseInt(c.param("id"), 10, 64)
	if err != nil {
		return notFound()
	}
	resp, err := g.cfg.Changelog.GetChange(c.ctx, &changelogv1.GetChangeRequest{Id: n})
	if err != nil {
		return err
	}
	ch := resp.GetChange()
	if ch.GetProjectSlug() != "" {
		if _, err := c.project(ch.GetProjectSlug()); err != nil {
			return err
		}
	}
	return c.ok(c.urls.changeJSON(ch))
}
