package policy

import "context"

// Access control levels of a project (Weblate's).
const (
	AccessPublic    = 0
	AccessProtected = 1
	AccessPrivate   = 100
	AccessCustom    = 200
)

// CanView tells whether c may see a project with the access level.
func CanView(c Caller, accessControl int32) bool {
	return accessControl < AccessPrivate || c.Superuser
}

// Restricted tells whether ctx acts for a caller whose view is limited:
// false for the service's own work and for superusers.
func Restricted(ctx context.Context) (Caller, bool) {
	c, ok := FromContext(ctx)
	return c, ok && !c.Superuser
}
