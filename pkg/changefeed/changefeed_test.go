package changefeed

import (
	"context"
	"errors"
	"testing"

	"google.golang.org/grpc"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"

	"github.com/tmsproject/tms/pkg/changedetails"
	"github.com/tmsproject/tms/pkg/outbox"
	changelogv1 "github.com/tmsproject/tms/proto/gen/go/tms/changelog/v1"
	typev1 "github.com/tmsproject/tms/proto/gen/go/tms/type/v1"
)

// capture is a changelog that keeps what it is sent.
type capture struct {
	changelogv1.ChangelogServiceClient
	got []*changelogv1.Change
}

func (c *capture) AppendChanges(_ context.Context, req *changelogv1.AppendChangesRequest, _ ...grpc.CallOption) (*changelogv1.AppendChangesResponse, error) {
	c.got = append(c.got, req.GetChanges()...)
	return &changelogv1.AppendChangesResponse{}, nil
}

func TestRecordRefusesUnspecifiedAction(t *testing.T) {
	cases := []struct {
		name   string
		record func() error
	}{
		{"Record", func() error { return Record(nil, &changelogv1.Change{}) }},
		{"RecordAll", func() error {
			return RecordAll(nil, []*changelogv1.Change{{Action: typev1.ChangeAction_CHANGE_ACTION_LOCK}, {}})
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if err := c.record(); !errors.Is(err, errNoAction) {
				t.Errorf("err = %v, want %v", err, errNoAction)
			}
		})
	}
}

// TestDelivererReadsLegacyUpdate: a record stored while actions were
// plain integers carries the reference's 0 for "Resource updated", which
// decodes as unspecified; it is delivered as CHANGE_ACTION_UPDATE.
func TestDelivererReadsLegacyUpdate(t *testing.T) {
	cases := []struct {
		name string
		in   typev1.ChangeAction
		want typev1.ChangeAction
	}{
		{"legacy 0", typev1.ChangeAction_CHANGE_ACTION_UNSPECIFIED, typev1.ChangeAction_CHANGE_ACTION_UPDATE},
		{"other actions unchanged", typev1.ChangeAction_CHANGE_ACTION_COMMIT, typev1.ChangeAction_CHANGE_ACTION_COMMIT},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			payload, err := proto.Marshal(&changelogv1.Change{Action: c.in, ProjectSlug: "p"})
			if err != nil {
				t.Fatal(err)
			}
			cl := &capture{}
			if err = Deliverer(cl)(t.Context(), []outbox.Event{{EventID: "e1", Topic: Topic, Payload: payload}}); err != nil {
				t.Fatal(err)
			}
			if len(cl.got) != 1 || cl.got[0].GetAction() != c.want || cl.got[0].GetEventId() != "e1" {
				t.Errorf("delivered %v, want one record of %v", cl.got, c.want)
			}
		})
	}
}

// TestDelivererReadsLegacyDetails: a record queued while details were
// JSON text (field 12) is delivered with them as a Struct.
func TestDelivererReadsLegacyDetails(t *testing.T) {
	cases := []struct {
		name    string
		text    string
		want    string
		wantErr bool
	}{
		{"object", `{"state": 20, "source": "a<b"}`, `{"source":"a\u003cb","state":20}`, false},
		{"empty text", "", "", false},
		{"not an object", `[1]`, "", true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			payload, err := proto.Marshal(&changelogv1.Change{Action: typev1.ChangeAction_CHANGE_ACTION_CHANGE, UnitId: 7})
			if err != nil {
				t.Fatal(err)
			}
			payload = protowire.AppendTag(payload, 12, protowire.BytesType)
			payload = protowire.AppendString(payload, c.text)
			cl := &capture{}
			err = Deliverer(cl)(t.Context(), []outbox.Event{{EventID: "e1", Topic: Topic, Payload: payload}})
			if c.wantErr {
				if err == nil {
					t.Errorf("delivered %v, want an error", cl.got)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(cl.got) != 1 {
				t.Fatalf("delivered %d records, want 1", len(cl.got))
			}
			got := cl.got[0]
			if text, _ := changedetails.JSON(got.GetDetails()); text != c.want {
				t.Errorf("details = %s, want %s", text, c.want)
			}
			if got.GetUnitId() != 7 {
				t.Errorf("unit id = %d, want 7", got.GetUnitId())
			}
			if len(got.ProtoReflect().GetUnknown()) != 0 {
				t.Errorf("unknown fields left: %x", got.ProtoReflect().GetUnknown())
			}
		})
	}
}
