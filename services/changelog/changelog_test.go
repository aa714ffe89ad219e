package changelog_test

import (
	"context"
	"io"
	"log/slog"
	"testing"
	"time"

	"google.golang.org/protobuf/types/known/timestamppb"

	changelogv1 "github.com/tmsproject/tms/proto/gen/go/tms/changelog/v1"
	typev1 "github.com/tmsproject/tms/proto/gen/go/tms/type/v1"
	"github.com/tmsproject/tms/services/changelog"
)

// TestReopen checks that records survive a restart of the service on the
// same data directory and that Run ends with its context.
func TestReopen(t *testing.T) {
	dir := t.TempDir()
	cfg := changelog.Config{DataDir: dir, Log: slog.New(slog.NewTextHandler(io.Discard, nil))}
	svc, err := changelog.New(t.Context(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	req := &changelogv1.AppendChangesRequest{Changes: []*changelogv1.Change{{EventId: "e", Action: typev1.ChangeAction_CHANGE_ACTION_COMPLETE, Timestamp: timestamppb.Now()}}}
	if _, err = svc.Server().AppendChanges(t.Context(), req); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() { done <- svc.Run(ctx) }()
	cancel()
	select {
	case err = <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Run did not return")
	}
	if err = svc.Close(); err != nil {
		t.Fatal(err)
	}

	svc, err = changelog.New(t.Context(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if cerr := svc.Close(); cerr != nil {
			t.Error(cerr)
		}
	}()
	resp, err := svc.Server().AppendChanges(t.Context(), req)
	if err != nil || resp.GetStored() != 0 {
		t.Fatalf("replay after restart: %v %v", resp, err)
	}
	list, err := svc.Server().ListChanges(t.Context(), &changelogv1.ListChangesRequest{})
	if err != nil || list.GetTotal() != 1 {
		t.Fatalf("list: %v %v", list, err)
	}
}
