package server_test

import (
	"encoding/base64"
	"fmt"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/tmsproject/tms/pkg/errs"
	changelogv1 "github.com/tmsproject/tms/proto/gen/go/tms/changelog/v1"
	typev1 "github.com/tmsproject/tms/proto/gen/go/tms/type/v1"
)

// TestListChangesPageTokens pages through a project's records with page
// tokens to the end, refuses a token altered or sent with other filters,
// and names every record.
func TestListChangesPageTokens(t *testing.T) {
	c := client(t)
	ctx := t.Context()
	var batch []*changelogv1.Change
	for i := range 5 {
		batch = append(batch, rec(fmt.Sprint("e", i), typev1.ChangeAction_CHANGE_ACTION_CHANGE, "de", t0.Add(time.Duration(i)*time.Minute)))
	}
	other := rec("other", typev1.ChangeAction_CHANGE_ACTION_CHANGE, "de", t0)
	other.ProjectSlug = "q"
	if _, err := c.AppendChanges(ctx, &changelogv1.AppendChangesRequest{Changes: append(batch, other)}); err != nil {
		t.Fatal(err)
	}
	all, err := c.ListChanges(ctx, &changelogv1.ListChangesRequest{ProjectSlug: "p"})
	if err != nil {
		t.Fatal(err)
	}
	var want []int64
	for _, ch := range all.GetChanges() {
		want = append(want, ch.GetId())
		if name := "changes/" + strconv.FormatInt(ch.GetId(), 10); ch.GetResourceName() != name {
			t.Errorf("record %d named %q, want %q", ch.GetId(), ch.GetResourceName(), name)
		}
	}
	t.Run("to the end", func(t *testing.T) {
		var got []int64
		req := &changelogv1.ListChangesRequest{ProjectSlug: "p", PageSize: 2}
		for range len(want) {
			resp, lerr := c.ListChanges(ctx, req)
			if lerr != nil {
				t.Fatal(lerr)
			}
			for _, ch := range resp.GetChanges() {
				got = append(got, ch.GetId())
			}
			if req.PageToken = resp.GetNextPageToken(); req.PageToken == "" {
				break
			}
		}
		if !slices.Equal(got, want) {
			t.Fatalf("paged ids %v, want %v", got, want)
		}
	})
	first, err := c.ListChanges(ctx, &changelogv1.ListChangesRequest{ProjectSlug: "p", PageSize: 2})
	if err != nil {
		t.Fatal(err)
	}
	raw, err := base64.RawURLEncoding.DecodeString(first.GetNextPageToken())
	if err != nil {
		t.Fatal(err)
	}
	raw[len(raw)-1] ^= 1
	for _, tc := range []struct {
		desc string
		req  *changelogv1.ListChangesRequest
	}{
		{"tampered token", &changelogv1.ListChangesRequest{ProjectSlug: "p", PageToken: base64.RawURLEncoding.EncodeToString(raw)}},
		{"token with another project", &changelogv1.ListChangesRequest{ProjectSlug: "q", PageToken: first.GetNextPageToken()}},
		{"token with a language added", &changelogv1.ListChangesRequest{ProjectSlug: "p", LanguageCode: "de", PageToken: first.GetNextPageToken()}},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			_, err := c.ListChanges(ctx, tc.req)
			if e := errs.FromStatus(err); e.Kind != errs.InvalidArgument || len(e.Fields) == 0 || e.Fields[0].Field != "page_token" {
				t.Fatalf("error %v, want InvalidArgument on page_token", err)
			}
		})
	}
}

// TestGetChangeByName: GetChange takes a record's name, alone or with the
// same id; another id beside it is InvalidArgument.
func TestGetChangeByName(t *testing.T) {
	c := client(t)
	ctx := t.Context()
	if _, err := c.AppendChanges(ctx, &changelogv1.AppendChangesRequest{Changes: []*changelogv1.Change{rec("a", typev1.ChangeAction_CHANGE_ACTION_CHANGE, "de", t0)}}); err != nil {
		t.Fatal(err)
	}
	list, err := c.ListChanges(ctx, &changelogv1.ListChangesRequest{})
	if err != nil || len(list.GetChanges()) != 1 {
		t.Fatalf("list: %v %v", list, err)
	}
	ch := list.GetChanges()[0]
	for _, req := range []*changelogv1.GetChangeRequest{{Name: ch.GetResourceName()}, {Name: ch.GetResourceName(), Id: ch.GetId()}} {
		got, err := c.GetChange(ctx, req)
		if err != nil || got.GetChange().GetEventId() != "a" {
			t.Fatalf("GetChange(%v) = %v, %v", req, got, err)
		}
	}
	for _, tc := range []struct {
		desc string
		req  *changelogv1.GetChangeRequest
	}{
		{"other id", &changelogv1.GetChangeRequest{Name: ch.GetResourceName(), Id: ch.GetId() + 1}},
		{"malformed", &changelogv1.GetChangeRequest{Name: "units/1"}},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			_, err := c.GetChange(ctx, tc.req)
			if e := errs.FromStatus(err); e.Kind != errs.InvalidArgument || len(e.Fields) == 0 || e.Fields[0].Field != "name" {
				t.Fatalf("error %v, want InvalidArgument on name", err)
			}
		})
	}
}
