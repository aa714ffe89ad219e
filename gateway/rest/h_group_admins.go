package rest

import (
	"slices"
	"strconv"

	"github.com/tmsproject/tms/pkg/errs"
	notificationv1 "github.com/tmsproject/tms/proto/gen/go/tms/notification/v1"
)

// adminsGranted is Weblate's answer to a grant: a list of one message
// (grant_admin returns a Python set, which DRF writes as a list).
var adminsGranted = []string{"Administration rights granted."}

// groupAdmins makes a user an administrator of a team (POST .../admins/
// {"user_id": N}), who then may add and remove its members and
// administrators, or revokes it (DELETE .../admins/N/, answering the
// team). The access service checks that the caller manages or
// administers the team.
func (g *gateway) groupAdmins(c *call) error {
	n, err := c.accessWrite()
	if err != nil {
		return err
	}
	team, err := g.cfg.Access.GetGroup(c.ctx, &notificationv1.GetGroupRequest{Id: n})
	if err != nil {
		return err
	}
	remove, idText := c.r.Method == "DELETE", c.param("value")
	if !remove {
		if idText, err = c.formValue("user_id"); err != nil {
			return err
		}
	}
	username, err := g.userByID(c, idText)
	if err != nil {
		return err
	}
	if remove && !slices.Contains(team.GetGroup().GetAdmins(), username) {
		return errs.Invalid("", "invalid", "User not found")
	}
	resp, err := g.cfg.Access.ChangeGroupLink(c.ctx, &notificationv1.ChangeGroupLinkRequest{
		GroupId: n, Link: notificationv1.GroupLink_GROUP_LINK_ADMIN, Value: username, Remove: remove})
	if err != nil {
		return err
	}
	if remove {
		return c.ok(c.groupJSON(resp.GetGroup()))
	}
	return c.ok(adminsGranted)
}

// userByID is the username of the account with id idText; Weblate's
// "User not found" on user_id when there is none.
func (g *gateway) userByID(c *call, idText string) (string, error) {
	notFound := errs.Invalid("user_id", "invalid", "User not found")
	id, err := strconv.ParseInt(idText, 10, 64)
	if err != nil || id <= 0 {
		return "", notFound
	}
	resp, err := g.cfg.Notification.GetUser(c.ctx, &notificationv1.GetUserRequest{Id: id})
	if err != nil && errs.Is(errs.FromStatus(err), errs.NotFound) {
		return "", notFound
	}
	return resp.GetUser().GetUsername(), err
}
