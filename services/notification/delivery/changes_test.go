package delivery

import (
	"context"
	"slices"
	"testing"

	"google.golang.org/grpc"

	changelogv1 "github.com/tmsproject/tms/proto/gen/go/tms/changelog/v1"
)

// sparseLog is a change log holding the records of ids, counting reads.
type sparseLog struct {
	ids   []int64
	reads int
}

func (l *sparseLog) ListChanges(context.Context, *changelogv1.ListChangesRequest, ...grpc.CallOption) (*changelogv1.ListChangesResponse, error) {
	return &changelogv1.ListChangesResponse{}, nil
}

func (l *sparseLog) ListChangesAfter(_ context.Context, in *changelogv1.ListChangesAfterRequest, _ ...grpc.CallOption) (*changelogv1.ListChangesAfterResponse, error) {
	l.reads++
	out := &changelogv1.ListChangesAfterResponse{}
	for _, id := range l.ids {
		if id > in.GetAfterId() && int64(len(out.Changes)) < in.GetLimit() {
			out.Changes = append(out.Changes, &changelogv1.Change{Id: id, Target: "t"})
		}
	}
	return out, nil
}

// TestLoadChanges: the records asked for come back, those no longer in
// the log do not, and ids close together take one read per window,
// whatever other records lie between them.
func TestLoadChanges(t *testing.T) {
	var log sparseLog
	for id := int64(1); id <= 3000; id += 2 { // odd ids only: gaps everywhere
		log.ids = append(log.ids, id)
	}
	log.ids = append(log.ids, 100_000)
	d := &Deliverer{ChangeLog: &log}
	want := []int64{1, 3, 499, 501, 999, 2999, 100_000}
	asked := append(slices.Clone(want), 2, 4, 3000, 99_999, 3) // even ids are not in the log; 3 twice
	got, err := d.loadChanges(t.Context(), asked)
	if err != nil {
		t.Fatal(err)
	}
	var ids []int64
	for id, c := range got {
		if c.GetId() != id {
			t.Errorf("record %d under id %d", c.GetId(), id)
		}
		ids = append(ids, id)
	}
	slices.Sort(ids)
	if !slices.Equal(ids, want) {
		t.Errorf("loaded %v, want %v", ids, want)
	}
	// windows: 1..499, 501..999 (plus 2, 4), 2999..3000, 99_999..100_000
	if log.reads != 4 {
		t.Errorf("%d reads of the log, want 4", log.reads)
	}
}
