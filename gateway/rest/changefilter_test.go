package rest

import (
	"net/url"
	"slices"
	"testing"
	"time"

	changelogv1 "github.com/tmsproject/tms/proto/gen/go/tms/changelog/v1"
	typev1 "github.com/tmsproject/tms/proto/gen/go/tms/type/v1"
)

// TestParseTime follows Django's parse_datetime on Python 3.11+, which
// Weblate's timestamp filter (IsoDateTimeFromToRangeFilter) applies.
func TestParseTime(t *testing.T) {
	utc := func(s string) time.Time {
		v, err := time.Parse(time.RFC3339Nano, s)
		if err != nil {
			t.Fatal(err)
		}
		return v.UTC()
	}
	cases := []struct {
		in   string
		want string // RFC 3339 in UTC; "" for a refused value
	}{
		{"2024-03-05T10:20:30Z", "2024-03-05T10:20:30Z"},
		{"2024-03-05T10:20:30.5Z", "2024-03-05T10:20:30.5Z"},
		{"2024-03-05T10:20:30.123456Z", "2024-03-05T10:20:30.123456Z"},
		{"2024-03-05T10:20:30.123456789Z", "2024-03-05T10:20:30.123456Z"}, // past microseconds dropped
		{"2024-03-05T10:20:30,25Z", "2024-03-05T10:20:30.25Z"},
		{"2024-03-05T10:20:30+02:00", "2024-03-05T08:20:30Z"},
		{"2024-03-05T10:20:30.75-05:30", "2024-03-05T15:50:30.75Z"},
		{"2024-03-05T10:20:30+0200", "2024-03-05T08:20:30Z"},
		{"2024-03-05T10:20:30+02", "2024-03-05T08:20:30Z"},
		{"2024-03-05T10:20:30 +02:00", "2024-03-05T08:20:30Z"},
		{"2024-03-05T10:20:30", "2024-03-05T10:20:30Z"}, // no zone: UTC
		{"2024-03-05T10:20:30.000001", "2024-03-05T10:20:30.000001Z"},
		{"2024-03-05 10:20:30", "2024-03-05T10:20:30Z"},
		{"2024-03-05T10:20", "2024-03-05T10:20:00Z"},
		{"2024-03-05T10:20Z", "2024-03-05T10:20:00Z"},
		{"2024-03-05T10", "2024-03-05T10:00:00Z"},
		{"2024-03-05", "2024-03-05T00:00:00Z"}, // date alone: midnight
		{"2024-3-5T1:2:3", "2024-03-05T01:02:03Z"},
		{" 2024-03-05T10:20:30Z ", "2024-03-05T10:20:30Z"},
		{"2024-02-29T00:00:00Z", "2024-02-29T00:00:00Z"},
		{"yesterday", ""},
		{"", ""},
		{"2024-3-5", ""},
		{"2024-03", ""},
		{"20240305T102030", ""},
		{"2024-03-05T10:20:30ZZ", ""},
		{"2024-03-05T10:20:30+2", ""},
		{"2024-03-05T10:20:30+24:00", ""},
		{"2024-03-05T10:20:30z", ""},
		{"2024-03-05Z", ""},
		{"2023-02-29T00:00:00Z", ""},
		{"2024-13-01T00:00:00Z", ""},
		{"2024-03-05T24:00:00Z", ""},
		{"2024-03-05T10:60:00Z", ""},
		{"2024-03-05T10:20:61Z", ""},
		{"2024-03-05T10:20:30.1234567890123Z", ""},
		{"1711111111", ""},
	}
	for _, c := range cases {
		got, ok := parseTime(c.in)
		if c.want == "" {
			if ok {
				t.Errorf("parseTime(%q) = %v, want refused", c.in, got)
			}
			continue
		}
		if !ok || !got.Equal(utc(c.want)) || got.Location() != time.UTC {
			t.Errorf("parseTime(%q) = %v %v, want %s", c.in, got, ok, c.want)
		}
	}
}

// TestParseChangeFilter checks the filters of COMPAT.md §7 and their
// answers to bad values (400 validation_error, attr = the parameter).
func TestParseChangeFilter(t *testing.T) {
	after := time.Date(2024, 3, 5, 8, 0, 0, 0, time.UTC)
	cases := []struct {
		name, query string
		user        string
		actions     []typev1.ChangeAction
		after       time.Time // zero: no bound
		before      time.Time
		errs        []violation
	}{
		{name: "none", query: ""},
		{name: "user", query: "user=alice", user: "alice"},
		{name: "empty user", query: "user="},
		{name: "one action", query: "action=5", actions: []typev1.ChangeAction{typev1.ChangeAction_CHANGE_ACTION_NEW}},
		{name: "actions OR", query: "action=5&action=36&action=0", actions: []typev1.ChangeAction{typev1.ChangeAction_CHANGE_ACTION_NEW, typev1.ChangeAction_CHANGE_ACTION_APPROVE, typev1.ChangeAction_CHANGE_ACTION_UPDATE}},
		{name: "highest action", query: "action=88", actions: []typev1.ChangeAction{typev1.ChangeAction_CHANGE_ACTION_REPO_CLEANUP}},
		{name: "bounds", query: "timestamp_after=2024-03-05T10:00:00%2B02:00&timestamp_before=2024-03-06",
			after: after, before: time.Date(2024, 3, 6, 0, 0, 0, 0, time.UTC)},
		{name: "empty bound", query: "timestamp_after="},
		{name: "all together", query: "user=bob&action=2&timestamp_after=2024-03-05T08:00:00Z",
			user: "bob", actions: []typev1.ChangeAction{typev1.ChangeAction_CHANGE_ACTION_CHANGE}, after: after},
		{name: "action abc", query: "action=abc",
			errs: []violation{{"action", "invalid_choice", "Select a valid choice. abc is not one of the available choices."}}},
		{name: "action -1", query: "action=-1",
			errs: []violation{{"action", "invalid_choice", "Select a valid choice. -1 is not one of the available choices."}}},
		{name: "action out of range", query: "action=89",
			errs: []violation{{"action", "invalid_choice", "Select a valid choice. 89 is not one of the available choices."}}},
		{name: "retired action", query: "action=16",
			errs: []violation{{"action", "invalid_choice", "Select a valid choice. 16 is not one of the available choices."}}},
		{name: "action not canonical", query: "action=05",
			errs: []violation{{"action", "invalid_choice", "Select a valid choice. 05 is not one of the available choices."}}},
		{name: "action empty", query: "action=",
			errs: []violation{{"action", "invalid_choice", "Select a valid choice.  is not one of the available choices."}}},
		{name: "first bad action only", query: "action=5&action=x&action=y",
			errs: []violation{{"action", "invalid_choice", "Select a valid choice. x is not one of the available choices."}}},
		{name: "after yesterday", query: "timestamp_after=yesterday",
			errs: []violation{{"timestamp_after", "invalid", "Enter a valid date/time."}}},
		{name: "before bad", query: "timestamp_before=2024-02-30",
			errs: []violation{{"timestamp_before", "invalid", "Enter a valid date/time."}}},
		{name: "every bad parameter", query: "timestamp_before=x&timestamp_after=y&action=z&user=u",
			errs: []violation{{"action", "invalid_choice", "Select a valid choice. z is not one of the available choices."},
				{"timestamp_after", "invalid", "Enter a valid date/time."},
				{"timestamp_before", "invalid", "Enter a valid date/time."}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			q, err := url.ParseQuery(c.query)
			if err != nil {
				t.Fatal(err)
			}
			req := &changelogv1.ListChangesRequest{}
			err = parseChangeFilter(q, req)
			if c.errs != nil {
				checkViolations(t, err, c.errs)
				return
			}
			if err != nil {
				t.Fatalf("unexpected error %v", err)
			}
			if req.GetUser() != c.user || !slices.Equal(req.GetActions(), c.actions) {
				t.Errorf("user %q actions %v, want %q %v", req.GetUser(), req.GetActions(), c.user, c.actions)
			}
			checkBound(t, "after", req.GetTimestampAfter().AsTime(), req.TimestampAfter != nil, c.after)
			checkBound(t, "before", req.GetTimestampBefore().AsTime(), req.TimestampBefore != nil, c.before)
		})
	}
}

// violation is one expected entry of a validation_error body.
type violation struct{ attr, code, detail string }

func checkViolations(t *testing.T, err error, want []violation) {
	t.Helper()
	if err == nil {
		t.Fatal("no error")
	}
	ae := toAPIError(err)
	if ae.status != 400 || ae.typ != "validation_error" || len(ae.entries) != len(want) {
		t.Fatalf("answer %d %s %+v, want 400 validation_error with %d entries", ae.status, ae.typ, ae.entries, len(want))
	}
	for i, w := range want {
		e := ae.entries[i]
		if e.Attr == nil || *e.Attr != w.attr || e.Code != w.code || e.Detail != w.detail {
			t.Errorf("entry %d: %+v (attr %v), want %+v", i, e, e.Attr, w)
		}
	}
}

func checkBound(t *testing.T, name string, got time.Time, set bool, want time.Time) {
	t.Helper()
	if set != !want.IsZero() || (set && !got.Equal(want)) {
		t.Errorf("%s bound %v (set %v), want %v", name, got, set, want)
	}
}
