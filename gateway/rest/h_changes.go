package rest

import (
	"net/url"
	"strconv"

	"google.golang.org/protobuf/types/known/timestamppb"

	"github.com/tmsproject/tms/pkg/errs"
	"github.com/tmsproject/tms/pkg/weblate"
	changelogv1 "github.com/tmsproject/tms/proto/gen/go/tms/changelog/v1"
)

// changeFilter reads the change list filters of COMPAT.md §7 into req.
func (c *call) changeFilter(req *changelogv1.ListChangesRequest) error {
	return parseChangeFilter(c.r.URL.Query(), req)
}

// parseChangeFilter reads user, action (repeatable, OR) and the inclusive
// timestamp_after / timestamp_before bounds, like Weblate's ChangeFilter
// (django-filter). Every bad parameter is named in one 400 answer; of the
// actions only the first bad one, as Django's MultipleChoiceField does.
func parseChangeFilter(q url.Values, req *changelogv1.ListChangesRequest) error {
	var v errs.Violations
	req.User = q.Get("user")
	for _, a := range q["action"] {
		n, err := strconv.ParseInt(a, 10, 32)
		action, known := weblate.ChangeActions.Enum(int32(n))
		if err != nil || !known || strconv.FormatInt(n, 10) != a {
			v.Add("action", "invalid_choice", "Select a valid choice. "+a+" is not one of the available choices.")
			break
		}
		req.Actions = append(req.Actions, action)
	}
	bounds := []struct {
		key string
		dst **timestamppb.Timestamp
	}{{"timestamp_after", &req.TimestampAfter}, {"timestamp_before", &req.TimestampBefore}}
	for _, b := range bounds {
		ts, ok := timeParam(q, b.key)
		if !ok {
			v.Add(b.key, "invalid", "Enter a valid date/time.")
		}
		*b.dst = ts
	}
	if len(v) > 0 {
		return fieldErrors(v)
	}
	return nil
}

// timeParam reads the optional date/time query parameter key: nil when it
// is absent or empty, ok false when it is malformed.
func timeParam(q url.Values, key string) (ts *timestamppb.Timestamp, ok bool) {
	s := q.Get(key)
	if s == "" {
		return nil, true
	}
	t, ok := parseTime(s)
	if !ok {
		return nil, false
	}
	return timestamppb.New(t), true
}

// changeList pages change records matching req (newest first).
func (g *gateway) changeList(c *call, req *changelogv1.ListChangesRequest) error {
	return c.servicePage(func(offset, limit int64) (any, int64, error) {
		if err := c.changeFilter(req); err != nil {
			return nil, 0, err
		}
		req.Offset, req.Limit = offset, limit
		resp, err := g.cfg.Changelog.ListChanges(c.ctx, req)
		return pageRows(resp.GetChanges(), resp.GetTotal(), err, c.changeJSON)
	})
}

// The scopes select the change records of a path (change lists and
// credits, served through scoped): all, or those of a project, component
// or translation the caller may see.

func allScope(*call) (*changelogv1.ListChangesRequest, error) {
	return &changelogv1.ListChangesRequest{}, nil
}

func projectScope(c *call) (*changelogv1.ListChangesRequest, error) {
	if _, err := c.pathProject(); err != nil {
		return nil, err
	}
	return &changelogv1.ListChangesRequest{ProjectSlug: c.param("project")}, nil
}

func componentScope(c *call) (*changelogv1.ListChangesRequest, error) {
	comp, err := c.pathComponent()
	if err != nil {
		return nil, err
	}
	return &changelogv1.ListChangesRequest{ProjectSlug: comp.GetProjectSlug(), ComponentSlug: comp.GetSlug()}, nil
}

func translationScope(c *call) (*changelogv1.ListChangesRequest, error) {
	comp, t, err := c.pathTranslation()
	if err != nil {
		return nil, err
	}
	return &changelogv1.ListChangesRequest{ProjectSlug: comp.GetProjectSlug(),
		ComponentSlug: comp.GetSlug(), LanguageCode: t.GetLanguageCode()}, nil
}

func (g *gateway) getChange(c *call) error {
	n, err := c.pathID()
	if err != nil {
		return err
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
	return c.okRendered(c.changeJSON(ch))
}
