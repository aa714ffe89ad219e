package policy

import notificationv1 "github.com/tmsproject/tms/proto/gen/go/tms/notification/v1"

// GrantsFromProto converts the grant messages of AccessService.GetGrants
// and NotificationService.Authenticate: what a caller acting for a user
// (the gateway, an internal gRPC caller) sends with its calls.
func GrantsFromProto(in []*notificationv1.Grant) []Grant {
	out := make([]Grant, len(in))
	for i, g := range in {
		out[i] = Grant{ProjectSelection: g.GetProjectSelection(), Projects: g.GetProjects(),
			Components: g.GetComponents(), LanguageSelection: g.GetLanguageSelection(),
			Languages: g.GetLanguages(), Permissions: g.GetPermissions()}
	}
	return out
}

// GrantsToProto converts grants to their messages.
func GrantsToProto(gs []Grant) []*notificationv1.Grant {
	out := make([]*notificationv1.Grant, len(gs))
	for i, g := range gs {
		out[i] = &notificationv1.Grant{ProjectSelection: g.ProjectSelection, Projects: g.Projects,
			Components: g.Components, LanguageSelection: g.LanguageSelection, Languages: g.Languages,
			Permissions: g.Permissions}
	}
	return out
}
