package server

import (
	"context"
	"fmt"
	"slices"
	"time"

	"google.golang.org/protobuf/types/known/timestamppb"

	"github.com/tmsproject/tms/pkg/changedetails"
	"github.com/tmsproject/tms/pkg/errs"
	"github.com/tmsproject/tms/pkg/pagetoken"
	"github.com/tmsproject/tms/pkg/policy"
	"github.com/tmsproject/tms/pkg/resname"
	"github.com/tmsproject/tms/pkg/weblate"
	changelogv1 "github.com/tmsproject/tms/proto/gen/go/tms/changelog/v1"
	typev1 "github.com/tmsproject/tms/proto/gen/go/tms/type/v1"
	"github.com/tmsproject/tms/services/changelog/store"
)

// Store is what the server needs from storage.
type Store interface {
	After(ctx context.Context, afterID int64, limit int, seen store.Seen) ([]store.Change, error)
	UserActivity(ctx context.Context, user string, seen store.Seen) ([]store.ActionCount, int64, error)
	Contributions(ctx context.Context, user string, seen store.Seen, offset, limit int) ([]store.Contribution, int64, error)
	Credits(ctx context.Context, f store.Filter) ([]store.Credit, error)
	Append(ctx context.Context, cs []store.Change) (int64, error)
	List(ctx context.Context, f store.Filter, offset, limit int) ([]store.Change, int64, error)
	Get(ctx context.Context, id int64) (store.Change, error)
}

// maxEventID bounds the idempotency key; event ids are UUIDs in practice.
const maxEventID = 200

// Server implements changelogv1.ChangelogServiceServer.
type Server struct {
	changelogv1.UnimplementedChangelogServiceServer
	store    Store
	projects Visibility
	now      func() time.Time
}

// Visibility tells which projects the caller of a context may see
// (policy.Projects).
type Visibility interface {
	Seen(ctx context.Context) (slugs []string, restricted bool, err error)
	Visible(ctx context.Context, slug string) (bool, error)
	// Authorize fails unless the caller holds perm on s (policy.Projects).
	Authorize(ctx context.Context, perm string, s policy.Scope, reason string) error
}

// New returns a server on st; projects (nil: everything visible) decides
// what each caller may see.
func New(st Store, projects Visibility) *Server {
	return &Server{store: st, projects: projects, now: time.Now}
}

// AppendChanges stores the records whose event ids are new. A record
// without a timestamp is stamped with the time of arrival. Only the
// services' own calls and superusers may append.
func (s *Server) AppendChanges(ctx context.Context, req *changelogv1.AppendChangesRequest) (*changelogv1.AppendChangesResponse, error) {
	if _, restricted := policy.Restricted(ctx); restricted {
		// Records are the services' account of what happened: a caller
		// acting for a user could otherwise forge any author and action.
		return nil, errs.New(errs.PermissionDenied, "You do not have permission to perform this action.")
	}
	var v errs.Violations
	cs := make([]store.Change, 0, len(req.GetChanges()))
	now := s.now()
	for i, pc := range req.GetChanges() {
		c := fromProto(pc)
		validateChange(&v, fmt.Sprintf("changes.%d.", i), pc)
		if pc.GetTimestamp() == nil {
			c.Timestamp = now
		}
		cs = append(cs, c)
	}
	if err := v.Err(); err != nil {
		return nil, err
	}
	n, err := s.store.Append(ctx, cs)
	if err != nil {
		return nil, err
	}
	return &changelogv1.AppendChangesResponse{Stored: n}, nil
}

func validateChange(v *errs.Violations, prefix string, c *changelogv1.Change) {
	switch {
	case c.GetEventId() == "":
		v.Add(prefix+"event_id", "required", "This field is required.")
	case len(c.GetEventId()) > maxEventID:
		v.Add(prefix+"event_id", "max_length", fmt.Sprintf("Ensure this field has no more than %d characters.", maxEventID))
	}
	if _, ok := weblate.ChangeActions.Ref(c.GetAction()); !ok {
		v.Add(prefix+"action", "invalid_choice", fmt.Sprintf("\"%d\" is not a valid choice.", c.GetAction()))
	}
	if c.GetUnitId() < 0 {
		v.Add(prefix+"unit_id", "min_value", "Ensure this value is greater than or equal to 0.")
	}
	if _, err := changedetails.JSON(c.GetDetails()); err != nil {
		v.Add(prefix+"details", "invalid", "Value must be a valid JSON object: no NaN or infinite numbers.")
	}
	if ts := c.GetTimestamp(); ts != nil && ts.CheckValid() != nil {
		v.Add(prefix+"timestamp", "invalid", "Datetime has wrong format.")
	}
}

// ListChanges returns one page of matching records, newest first.
func (s *Server) ListChanges(ctx context.Context, req *changelogv1.ListChangesRequest) (*changelogv1.ListChangesResponse, error) {
	pg, perr := listLimits.Read(req)
	if perr != nil {
		return nil, perr
	}
	var v errs.Violations
	v.Paging(pg.Offset, pg.Limit)
	if req.GetUnitId() < 0 {
		v.Add("unit_id", "min_value", "Ensure this value is greater than or equal to 0.")
	}
	after := timeArg(&v, "timestamp_after", req.GetTimestampAfter())
	before := timeArg(&v, "timestamp_before", req.GetTimestampBefore())
	if err := v.Err(); err != nil {
		return nil, err
	}
	f := store.Filter{
		ProjectSlug: req.GetProjectSlug(), ComponentSlug: req.GetComponentSlug(),
		LanguageCode: req.GetLanguageCode(), UnitID: req.GetUnitId(), User: req.GetUser(),
		Actions: storedActions(req.GetActions()), After: after, Before: before,
	}
	hidden, err := s.hidden(ctx)
	if err != nil {
		return nil, err
	}
	f.Seen = hidden
	// A project the caller may not see is not found, as every service
	// answers for it (the service's own work sees every project).
	if f.ProjectSlug != "" && hidden.Restricted && !slices.Contains(hidden.Projects, f.ProjectSlug) {
		return nil, errs.NotFoundf("Not found.")
	}
	list, total, err := s.store.List(ctx, f, int(pg.Offset), int(pg.Limit))
	if err != nil {
		return nil, err
	}
	out := &changelogv1.ListChangesResponse{Total: total, Changes: make([]*changelogv1.Change, len(list)),
		NextPageToken: pg.Next(total)}
	for i, c := range list {
		out.Changes[i] = toProto(c)
	}
	return out, nil
}

// timeArg converts an optional timestamp filter; nil means unbounded.
func timeArg(v *errs.Violations, field string, ts *timestamppb.Timestamp) time.Time {
	if ts == nil {
		return time.Time{}
	}
	if ts.CheckValid() != nil {
		v.Add(field, "invalid", "Enter a valid date/time.")
		return time.Time{}
	}
	return ts.AsTime()
}

// GetChange returns one record by id or resource name.
func (s *Server) GetChange(ctx context.Context, req *changelogv1.GetChangeRequest) (*changelogv1.GetChangeResponse, error) {
	id := req.GetId()
	if req.GetName() != "" {
		fromName, err := resname.ParseChange(req.GetName())
		if err != nil {
			return nil, err
		}
		if id, err = resname.Agree("id", id, fromName); err != nil {
			return nil, err
		}
	}
	if id <= 0 {
		return nil, errs.NotFoundf("Not found.")
	}
	c, err := s.store.Get(ctx, id)
	if err != nil {
		return nil, err
	}
	if s.projects != nil && c.ProjectSlug != "" {
		ok, err := s.projects.Visible(ctx, c.ProjectSlug)
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, errs.NotFoundf("Not found.")
		}
	}
	return &changelogv1.GetChangeResponse{Change: toProto(c)}, nil
}

// noAction stands for a filter's action that the reference does not
// have: it matches no record, as stored actions are never negative.
const noAction = -1

// storedActions are the stored numbers (the reference's) of a filter's
// actions.
func storedActions(actions []typev1.ChangeAction) []int32 {
	out := make([]int32, len(actions))
	for i, a := range actions {
		n, ok := weblate.ChangeActions.Ref(a)
		if !ok {
			n = noAction
		}
		out[i] = n
	}
	return out
}

// fromProto is the stored form of a validated record.
func fromProto(c *changelogv1.Change) store.Change {
	out := store.Change{
		EventID: c.GetEventId(), Action: weblate.ChangeActions.RefOf(c.GetAction()),
		ProjectSlug: c.GetProjectSlug(), ComponentSlug: c.GetComponentSlug(), LanguageCode: c.GetLanguageCode(),
		UnitID: c.GetUnitId(), User: c.GetUser(), Author: c.GetAuthor(),
		Target: c.GetTarget(), Old: c.GetOld(),
	}
	// Validated: the details have a JSON form.
	out.DetailsJSON, _ = changedetails.JSON(c.GetDetails())
	if c.GetTimestamp() != nil {
		out.Timestamp = c.GetTimestamp().AsTime()
	}
	return out
}

// toProto is the API form of a stored record. Stored details are a JSON
// object (AppendChanges validated them); text that is not one, which no
// release stored, reads as no details.
func toProto(c store.Change) *changelogv1.Change {
	details, _ := changedetails.FromJSON(c.DetailsJSON)
	return &changelogv1.Change{
		Id: c.ID, EventId: c.EventID, Action: weblate.ChangeActions.EnumOf(c.Action),
		ProjectSlug: c.ProjectSlug, ComponentSlug: c.ComponentSlug, LanguageCode: c.LanguageCode,
		UnitId: c.UnitID, User: c.User, Author: c.Author,
		Target: c.Target, Old: c.Old, Details: details,
		Timestamp: timestamppb.New(c.Timestamp), ResourceName: resname.Change(c.ID),
	}
}

// listLimits are the page sizes of the List RPCs that page by offset, as
// the protos document them.
var listLimits = pagetoken.Limits{Default: 50, Max: 1000}
