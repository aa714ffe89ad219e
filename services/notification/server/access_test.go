package server_test

import (
	"testing"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"

	"github.com/tmsproject/tms/pkg/dbtest"
	"github.com/tmsproject/tms/pkg/grpctest"
	"github.com/tmsproject/tms/pkg/policy"
	notificationv1 "github.com/tmsproject/tms/proto/gen/go/tms/notification/v1"
	"github.com/tmsproject/tms/services/notification/server"
	"github.com/tmsproject/tms/services/notification/store"
)

// TestAccessListsRefuseBadPaging: a negative offset or limit is a field
// error for every caller (it used to panic in the in-memory paging of a
// caller who is not a superuser, answered as an internal error).
func TestAccessListsRefuseBadPaging(t *testing.T) {
	gdb := dbtest.SQLite(t, store.Migrations)
	conn := grpctest.Serve(t, func(srv *grpc.Server) {
		notificationv1.RegisterAccessServiceServer(srv, server.NewAccess(store.New(gdb), nil))
	})
	c := notificationv1.NewAccessServiceClient(conn)
	callers := map[string]policy.Caller{"anonymous": policy.Anonymous, "superuser": policy.NewAccount("admin")}
	admin := callers["superuser"]
	admin.Superuser = true
	callers["superuser"] = admin
	for name, who := range callers {
		ctx := policy.WithCaller(t.Context(), who)
		t.Run(name+"/groups offset", func(t *testing.T) {
			_, err := c.ListGroups(ctx, &notificationv1.ListGroupsRequest{Offset: -1})
			wantErr(t, err, codes.InvalidArgument, "offset", "")
		})
		t.Run(name+"/roles limit", func(t *testing.T) {
			_, err := c.ListRoles(ctx, &notificationv1.ListRolesRequest{Limit: -5})
			wantErr(t, err, codes.InvalidArgument, "limit", "")
		})
	}
}
