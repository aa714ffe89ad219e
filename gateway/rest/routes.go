package rest

// Route is one route of the API: its pattern (grpc-gateway syntax, the
// parameters in braces, without the trailing slash) and methods.
type Route struct {
	Pattern string
	Methods []string
}

// Routes lists the API's routes, for tests that walk all of them.
func Routes() []Route {
	var out []Route
	for _, rt := range (&gateway{}).routes() {
		r := Route{Pattern: rt.pattern}
		for _, m := range methodOrder {
			if _, ok := rt.methods[m]; ok {
				r.Methods = append(r.Methods, m)
			}
		}
		out = append(out, r)
	}
	return out
}

// routes is the route table: every URL of the API with its methods. All
// behaviour shared between routes lives in serve (route.go).
func (g *gateway) routes() []*route {
	type m = map[string]handlerFunc
	return []*route{
		{pattern: "/api", name: "Api Root", methods: m{"GET": g.root}},

		{pattern: "/api/projects", name: "Project List", methods: m{"GET": g.listProjects, "POST": g.createProject}},
		{pattern: "/api/projects/{project}", name: "Project Instance", methods: m{"GET": g.getProject,
			"PUT": g.updateProject, "PATCH": g.updateProject, "DELETE": g.deleteProject}},
		{pattern: "/api/projects/{project}/components", name: "Components", methods: m{"GET": g.projectComponents, "POST": g.createComponent}},
		{pattern: "/api/projects/{project}/repository", name: "Repository", methods: m{"GET": scoped(projectRepo, g.repository), "POST": scoped(projectRepo, g.repositoryOp)}},
		{pattern: "/api/projects/{project}/statistics", name: "Statistics", methods: m{"GET": g.projectStatistics}},
		{pattern: "/api/projects/{project}/checks", name: "Checks", methods: m{"GET": g.checksSummary, "POST": g.bulkChecks}},
		{pattern: "/api/projects/{project}/categories", name: "Categories", methods: m{"GET": g.projectCategories}},
		{pattern: "/api/projects/{project}/labels", name: "Labels", methods: m{"GET": g.listLabels, "POST": g.createLabel}},
		{pattern: "/api/projects/{project}/labels/{id}", name: "Label Instance", methods: m{"GET": g.getLabel,
			"PUT": g.updateLabel, "PATCH": g.updateLabel, "DELETE": g.deleteLabel}},
		{pattern: "/api/projects/{project}/changes", name: "Changes", methods: m{"GET": scoped(projectScope, g.changeList)}},
		{pattern: "/api/projects/{project}/languages", name: "Languages", methods: m{"GET": g.projectLanguages}},
		{pattern: "/api/projects/{project}/credits", name: "Credits", methods: m{"GET": scoped(projectScope, g.credits)}},
		{pattern: "/api/projects/{project}/announcements", name: "Announcements", methods: m{"GET": g.listAnnouncements, "POST": g.createAnnouncement}},
		{pattern: "/api/projects/{project}/announcements/{id}", name: "Announcement", methods: m{"DELETE": g.deleteAnnouncement}},
		{pattern: "/api/projects/{project}/lock", name: "Lock", methods: m{"GET": g.projectLock, "POST": g.setProjectLock}},
		// Outbound webhooks are this service's own (Weblate has none).
		{pattern: "/api/projects/{project}/webhooks", name: "Webhooks", methods: m{"GET": g.listWebhooks, "POST": g.createWebhook}},
		{pattern: "/api/projects/{project}/webhooks/{id}", name: "Webhook Instance", methods: m{"GET": g.getWebhook,
			"PUT": g.updateWebhook, "PATCH": g.updateWebhook, "DELETE": g.deleteWebhook}},
		{pattern: "/api/projects/{project}/webhooks/{id}/deliveries", name: "Deliveries", methods: m{"GET": g.webhookDeliveries}},
		{pattern: "/api/projects/{project}/machinery_settings", name: "Machinery Settings", methods: m{"GET": g.machinerySettings, "POST": g.setMachinerySettings}},

		{pattern: "/api/categories", name: "Category List", methods: m{"GET": g.listCategories, "POST": g.createCategory}},
		{pattern: "/api/categories/{id}", name: "Category Instance", methods: m{"GET": g.getCategory,
			"PUT": g.updateCategory, "PATCH": g.updateCategory, "DELETE": g.deleteCategory}},
		{pattern: "/api/categories/{id}/statistics", name: "Category Statistics", methods: m{"GET": g.categoryStatistics}},

		{pattern: "/api/components", name: "Component List", methods: m{"GET": g.listComponents}},
		{pattern: "/api/components/{project}/{component}", name: "Component Instance", methods: m{"GET": g.getComponent,
			"PUT": g.updateComponent, "PATCH": g.updateComponent, "DELETE": g.deleteComponent}},
		{pattern: "/api/components/{project}/{component}/translations", name: "Translations", methods: m{"GET": g.componentTranslations, "POST": g.addTranslation}},
		{pattern: "/api/components/{project}/{component}/changes", name: "Changes", methods: m{"GET": scoped(componentScope, g.changeList)}},
		{pattern: "/api/components/{project}/{component}/checks", name: "Checks", methods: m{"GET": g.checksSummary, "POST": g.bulkChecks}},
		{pattern: "/api/components/{project}/{component}/statistics", name: "Statistics", methods: m{"GET": g.componentStatistics}},
		{pattern: "/api/components/{project}/{component}/lock", name: "Lock", methods: m{"GET": g.componentLock, "POST": g.setComponentLock}},
		{pattern: "/api/components/{project}/{component}/links", name: "Links", methods: m{"GET": g.componentLinks, "POST": g.addComponentLink}},
		{pattern: "/api/components/{project}/{component}/links/{link}", name: "Link", methods: m{"DELETE": g.removeComponentLink}},
		{pattern: "/api/components/{project}/{component}/announcements", name: "Announcements", methods: m{"GET": g.listAnnouncements, "POST": g.createAnnouncement}},
		{pattern: "/api/components/{project}/{component}/announcements/{id}", name: "Announcement", methods: m{"DELETE": g.deleteAnnouncement}},
		{pattern: "/api/components/{project}/{component}/credits", name: "Credits", methods: m{"GET": scoped(componentScope, g.credits)}},
		{pattern: "/api/components/{project}/{component}/repository", name: "Repository", methods: m{"GET": scoped(componentRepo, g.repository), "POST": scoped(componentRepo, g.repositoryOp)}},
		{pattern: "/api/components/{project}/{component}/file", name: "File", methods: m{"GET": g.componentFile}, rawFormat: true},
		// Alerts have no route in Weblate's API (its web UI lists them); this
		// one lists what keeps a component from being imported.
		{pattern: "/api/components/{project}/{component}/alerts", name: "Alerts", methods: m{"GET": g.componentAlerts}},

		{pattern: "/api/translations", name: "Translation List", methods: m{"GET": g.listTranslations}},
		{pattern: "/api/translations/{project}/{component}/{language}", name: "Translation Instance", methods: m{"GET": g.getTranslation, "DELETE": g.deleteTranslation}},
		{pattern: "/api/translations/{project}/{component}/{language}/statistics", name: "Statistics", methods: m{"GET": g.translationStatistics}},
		{pattern: "/api/translations/{project}/{component}/{language}/checks", name: "Checks", methods: m{"GET": g.checksSummary, "POST": g.bulkChecks}},
		{pattern: "/api/translations/{project}/{component}/{language}/units", name: "Units", methods: m{"GET": g.translationUnits, "POST": g.addUnit}},
		{pattern: "/api/translations/{project}/{component}/{language}/changes", name: "Changes", methods: m{"GET": scoped(translationScope, g.changeList)}},
		{pattern: "/api/translations/{project}/{component}/{language}/repository", name: "Repository", methods: m{"GET": scoped(translationRepo, g.repository), "POST": scoped(translationRepo, g.repositoryOp)}},
		{pattern: "/api/translations/{project}/{component}/{language}/file", name: "File", methods: m{"GET": g.translationFile, "POST": g.uploadTranslationFile}, rawFormat: true},
		{pattern: "/api/translations/{project}/{component}/{language}/announcements", name: "Announcements", methods: m{"GET": g.listAnnouncements, "POST": g.createAnnouncement}},
		{pattern: "/api/translations/{project}/{component}/{language}/announcements/{id}", name: "Announcement", methods: m{"DELETE": g.deleteAnnouncement}},

		{pattern: "/api/languages", name: "Language List", methods: m{"GET": g.listLanguages}},
		{pattern: "/api/languages/{language}", name: "Language Instance", methods: m{"GET": g.getLanguage}},
		{pattern: "/api/languages/{language}/statistics", name: "Statistics", methods: m{"GET": g.languageStatistics}},

		{pattern: "/api/changes", name: "Change List", methods: m{"GET": scoped(allScope, g.changeList)}},
		{pattern: "/api/changes/{id}", name: "Change Instance", methods: m{"GET": g.getChange}},

		{pattern: "/api/units", name: "Unit List", methods: m{"GET": g.allUnits}},
		{pattern: "/api/units/{id}", name: "Unit Instance", methods: m{"GET": g.getUnit, "PUT": g.updateUnit,
			"PATCH": g.updateUnit, "DELETE": g.deleteUnit}},
		{pattern: "/api/units/{id}/translations", name: "Translations", methods: m{"GET": g.unitTranslations}},
		{pattern: "/api/units/{id}/suggestions", name: "Suggestions", methods: m{"GET": g.unitSuggestions, "POST": g.unitSuggestions}},
		{pattern: "/api/units/{id}/comments", name: "Comments", methods: m{"GET": g.unitComments, "POST": g.unitComments}},
		// Quality checks (h_checks.go): extensions, Weblate's API has none.
		{pattern: "/api/units/{id}/checks", name: "Checks", methods: m{"GET": g.unitChecks}},
		{pattern: "/api/units/{id}/checks/{check}", name: "Check", methods: m{"GET": g.unitCheck}},
		{pattern: "/api/units/{id}/checks/{check}/dismiss", name: "Dismiss", methods: m{"POST": g.dismissCheck(false)}},
		{pattern: "/api/units/{id}/checks/{check}/restore", name: "Restore", methods: m{"POST": g.dismissCheck(true)}},

		// Suggestions and comments (h_suggestions.go, h_comments.go). Voting
		// has no REST route: Weblate's API has none; the VoteSuggestion RPC
		// serves it. POST /api/comments/<id>/resolve/ is this service's own:
		// Weblate resolves comments in its web UI only.
		{pattern: "/api/suggestions", name: "Suggestion List", methods: m{"GET": g.allSuggestions}},
		{pattern: "/api/suggestions/{id}", name: "Suggestion Instance", methods: m{"GET": g.getSuggestion, "DELETE": g.deleteSuggestion}},
		{pattern: "/api/suggestions/{id}/accept", name: "Accept", methods: m{"POST": g.acceptSuggestion}},
		{pattern: "/api/comments/{id}", name: "Comment Instance", methods: m{"GET": g.getComment, "DELETE": g.deleteComment}},
		{pattern: "/api/comments/{id}/resolve", name: "Resolve", methods: m{"POST": g.resolveComment}},

		{pattern: "/api/tasks/{id}", name: "Task Instance", methods: m{"GET": g.getTask}},

		{pattern: "/api/users", name: "User List", methods: m{"GET": g.listUsers, "POST": g.createUser}},
		{pattern: "/api/users/{user}", name: "User Instance", methods: m{"GET": g.getUser,
			"PUT": g.updateUser, "PATCH": g.updateUser, "DELETE": g.deleteUser}},
		{pattern: "/api/users/{user}/statistics", name: "Statistics", methods: m{"GET": g.userStatistics}},
		{pattern: "/api/users/{user}/contributions", name: "Contributions", methods: m{"GET": g.userContributions}},
		{pattern: "/api/users/{user}/token", name: "Token", methods: m{"POST": g.issueToken}},
		{pattern: "/api/users/{user}/notifications", name: "Notifications", methods: m{"GET": g.listSubscriptions, "POST": g.createSubscription}},
		{pattern: "/api/users/{user}/notifications/{id}", name: "Notification Instance", methods: m{"GET": g.getSubscription,
			"PUT": g.updateSubscription, "PATCH": g.updateSubscription, "DELETE": g.deleteSubscription}},
		{pattern: "/api/users/{user}/groups", name: "Groups", methods: m{"POST": g.userGroups, "DELETE": g.userGroups}},

		// Teams and roles (h_groups.go).
		{pattern: "/api/roles", name: "Role List", methods: m{"GET": g.listRoles, "POST": g.createRole}},
		{pattern: "/api/roles/{id}", name: "Role Instance", methods: m{"GET": g.getRole,
			"PUT": g.updateRole, "PATCH": g.updateRole, "DELETE": g.deleteRole}},
		{pattern: "/api/groups", name: "Group List", methods: m{"GET": g.listGroups, "POST": g.createGroup}},
		{pattern: "/api/groups/{id}", name: "Group Instance", methods: m{"GET": g.getGroup,
			"PUT": g.updateGroup, "PATCH": g.updateGroup, "DELETE": g.deleteGroup}},
		{pattern: "/api/groups/{id}/roles", name: "Roles", methods: m{"POST": g.changeGroupLink("roles")}},
		{pattern: "/api/groups/{id}/roles/{value}", name: "Role", methods: m{"DELETE": g.changeGroupLink("roles")}},
		{pattern: "/api/groups/{id}/projects", name: "Projects", methods: m{"POST": g.changeGroupLink("projects")}},
		{pattern: "/api/groups/{id}/projects/{value}", name: "Project", methods: m{"DELETE": g.changeGroupLink("projects")}},
		{pattern: "/api/groups/{id}/components", name: "Components", methods: m{"POST": g.changeGroupLink("components")}},
		{pattern: "/api/groups/{id}/components/{value}", name: "Component", methods: m{"DELETE": g.changeGroupLink("components")}},
		{pattern: "/api/groups/{id}/languages", name: "Languages", methods: m{"POST": g.changeGroupLink("languages")}},
		{pattern: "/api/groups/{id}/languages/{value}", name: "Language", methods: m{"DELETE": g.changeGroupLink("languages")}},
	}
}

type rootJSON struct {
	Changes      string `json:"changes"`
	Components   string `json:"components"`
	Languages    string `json:"languages"`
	Projects     string `json:"projects"`
	Translations string `json:"translations"`
	Units        string `json:"units"`
	Users        string `json:"users"`
}

func (g *gateway) root(c *call) error {
	u := c.urls
	return c.ok(rootJSON{Changes: u.API("changes"), Components: u.API("components"), Languages: u.API("languages"),
		Projects: u.API("projects"), Translations: u.API("translations"), Units: u.API("units"), Users: u.API("users")})
}
