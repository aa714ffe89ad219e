package rest

import (
	"net/http"

	"github.com/tmsproject/tms/gateway/rest/apidoc"
	catalogv1 "github.com/tmsproject/tms/proto/gen/go/tms/catalog/v1"
	notificationv1 "github.com/tmsproject/tms/proto/gen/go/tms/notification/v1"
	translationv1 "github.com/tmsproject/tms/proto/gen/go/tms/translation/v1"
)

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

// Query parameters the document names.
var (
	qSearch    = apidoc.Param{Name: "q", Doc: "A search in Weblate's query language (is:translated, source:\"Hello\", ...)."}
	qFormat    = apidoc.Param{Name: "format", Doc: "The file format to convert to (po, mo, xliff, ...); the stored format by default."}
	qLanguage  = apidoc.Param{Name: "lang", Doc: "A language code limiting the credits."}
	qStart     = apidoc.Param{Name: "start", Doc: "The earliest date of the credits (ISO 8601)."}
	qEnd       = apidoc.Param{Name: "end", Doc: "The latest date of the credits (ISO 8601)."}
	qChangeFor = []apidoc.Param{
		{Name: "user", Doc: "Records of this user name."},
		{Name: "action", Type: "integer", Doc: "Records of this action (repeatable, any of them)."},
		{Name: "timestamp_after", Doc: "Records at or after this date/time (ISO 8601)."},
		{Name: "timestamp_before", Doc: "Records at or before this date/time (ISO 8601)."},
	}

	qMemoryLanguages = []apidoc.Param{
		{Name: "source_language", Doc: "Entries of this source language code."},
		{Name: "target_language", Doc: "Entries of this target language code."},
	}
	qMemory = append([]apidoc.Param{
		{Name: "source", Doc: "Entries whose source contains this text (case-insensitive)."},
		{Name: "project", Doc: "Entries of this project slug."},
		{Name: "origin", Doc: "Entries of this origin."},
	}, qMemoryLanguages...)
	qOrigin = apidoc.Param{Name: "origin", Doc: "The origin whose entries go (required): an imported file's name, or project/component."}
	qLookup = []apidoc.Param{
		{Name: "source_language", Doc: "The strings' language code (required)."},
		{Name: "target_language", Doc: "The wanted translations' language code (required)."},
		{Name: "project", Doc: "Only this project's memory."},
		{Name: "exact", Type: "boolean", Doc: "Exact matches only."},
		{Name: "threshold", Type: "integer", Doc: "Lowest quality answered, 1 to 100 (80 by default); the service's own."},
	}
)

// Why the service has routes Weblate's API does not.
const (
	whyWebhooks  = "outbound webhooks: Weblate configures them as an add-on."
	whyChecks    = "quality checks per string and in bulk: Weblate lists them in its web UI only."
	whyAlerts    = "what keeps a component from being imported: Weblate lists alerts in its web UI only."
	whyResolve   = "resolving a comment: Weblate does it in its web UI only."
	whySchema    = "served at Weblate's path, but this service's own document."
	whyCredits   = "credits per language and author: Weblate shows them in its web UI (and as reports)."
	whyLabel     = "reading and changing one label: Weblate's API only lists, creates and deletes labels."
	whyComment   = "reading and deleting one comment: Weblate does it in its web UI only."
	whyKey       = "issuing an API key: Weblate shows it in its web UI only."
	whyMachinery = "machine translation of one string: Weblate offers it in its web editor only."
	whyOrigin    = "deleting a whole origin of a project's memory: Weblate deletes entries one by one."
	whyTMX       = "TMX import and export of a project's memory: Weblate does them in its web UI and management commands."
)

// routes is the route table: every URL of the API with its methods and what
// each answers (route_doc.go; the API document is built from it). All
// behaviour shared between routes lives in serve (route.go).
func (g *gateway) routes() []*route {
	type m = map[string]op
	var (
		project, component, category = protoBody("ProjectRequest", &catalogv1.Project{}, "name", "slug", "web"),
			protoBody("ComponentRequest", &catalogv1.Component{}, "name", "slug", "file_format", "filemask", "repo"),
			categoryBody()
		user, userChange = protoBody("UserRequest", &notificationv1.User{}, "username"), protoBody("UserChange", &notificationv1.User{})
		subscription     = subscriptionBody()
		account          = apidoc.OneOf{userJSON{}, basicUserJSON{}}
		stats            = statsJSON{}
		changes          = func(h handlerFunc) op { return page(h, changeJSON{}).query(qChangeFor...) }
		credits          = func(h handlerFunc) op {
			return one(h, []languageCredits{}).query(qStart, qEnd, qLanguage).ext(whyCredits)
		}
		checks = m{"GET": one(g.checksSummary, checksSummaryJSON{}).ext(whyChecks),
			"POST": change(g.bulkChecks, bulkChecksIn{}, bulkChecksJSON{}).status(http.StatusAccepted).ext(whyChecks)}
		announcements = m{"GET": page(g.listAnnouncements, announcementJSON{}), "POST": made(g.createAnnouncement, announcementIn{}, announcementJSON{})}
		announcement  = m{"DELETE": gone(g.deleteAnnouncement)}
		repository    = func(scope func(*call) (repos, error), out any) m {
			return m{"GET": one(scoped(scope, g.repository), out), "POST": change(scoped(scope, g.repositoryOp), repositoryOpIn{}, operationJSON{})}
		}
	)
	return []*route{
		{pattern: "/api", name: "Api Root", methods: m{"GET": one(g.root, rootJSON{}).
			note("Links to the main lists. Weblate serves this root too (Django REST framework's), though its document leaves it out.")}},
		{pattern: "/api/schema", name: "Schema", methods: m{"GET": file(g.schema, "application/vnd.oai.openapi", "application/vnd.oai.openapi+json").
			query(apidoc.Param{Name: "format", Doc: "json for JSON, openapi-3.0 (or openapi-3.0-json) for OpenAPI 3.0."}).
			note("This document: OpenAPI 3.1, YAML by default.").ext(whySchema)}, rawFormat: true},
		{pattern: "/api/docs", name: "Documentation", methods: m{"GET": file(g.apiDocs, "text/html").
			note("This document as a web page.").ext("a readable form of /api/schema/, Weblate serves its documentation elsewhere.")}},

		{pattern: "/api/component-lists", name: "Component List List", methods: m{"GET": page(g.listComponentLists, componentListJSON{}),
			"POST": made(g.createComponentList, componentListIn{}, componentListJSON{})}},
		{pattern: "/api/component-lists/{slug}", name: "Component List Instance", methods: m{"GET": one(g.getComponentList, componentListJSON{}),
			"PUT": change(g.updateComponentList, componentListIn{}, componentListJSON{}), "PATCH": change(g.updateComponentList, componentListIn{}, componentListJSON{}),
			"DELETE": gone(g.deleteComponentList)}},
		{pattern: "/api/component-lists/{slug}/components", name: "Components", methods: m{"GET": page(g.componentListComponents, componentJSON{}),
			"POST": change(g.componentListComponents, componentListMemberIn{}, componentListJSON{})}},
		{pattern: "/api/component-lists/{slug}/components/{component}", name: "Component", methods: m{"DELETE": gone(g.removeComponentListComponent)}},
		{pattern: "/api/memory", name: "Memory List", methods: m{"GET": page(g.listMemory, memoryJSON{}).query(qMemory...).
			note("The translation memory of the projects the caller may see, by id.")}},
		// Before lookup: of two patterns matching a path, the mux takes the
		// one mounted last.
		{pattern: "/api/memory/{id}", name: "Memory Instance", methods: m{"GET": one(g.getMemory, memoryJSON{}), "DELETE": gone(g.deleteMemory)}},
		{pattern: "/api/memory/lookup", name: "Memory Lookup", methods: m{"POST": one(g.lookupMemory, []lookupJSON{}).with(lookupIn{}).
			query(qLookup...).note("The best match of each string (quality 0 to 100, exact matches first), or null.")}},
		{pattern: "/api/metrics", name: "Metrics", methods: m{"GET": one(g.metrics, metricsJSON{}).
			note("Site counts for a signed-in caller, within what the caller may see.")}},
		{pattern: "/api/search", name: "Search", methods: m{"GET": one(g.search, []searchResultJSON{}).
			query(apidoc.Param{Name: "q", Doc: "The text looked for in names (and slugs, codes, full names)."}).
			note("Site-wide search: up to five projects, categories, components, users (for a signed-in caller, by the account list's rules) and languages.")}},

		{pattern: "/api/projects", name: "Project List", methods: m{"GET": page(g.listProjects, projectJSON{}), "POST": made(g.createProject, project, projectJSON{})}},
		{pattern: "/api/projects/{project}", name: "Project Instance", methods: m{"GET": one(g.getProject, projectJSON{}),
			"PUT": change(g.updateProject, project, projectJSON{}), "PATCH": change(g.updateProject, project, projectJSON{}), "DELETE": gone(g.deleteProject)}},
		{pattern: "/api/projects/{project}/components", name: "Components", methods: m{"GET": page(g.projectComponents, componentJSON{}), "POST": made(g.createComponent, component, componentJSON{})}},
		{pattern: "/api/projects/{project}/repository", name: "Repository", methods: repository(projectRepo, projectRepositoryJSON{})},
		{pattern: "/api/projects/{project}/statistics", name: "Statistics", methods: m{"GET": one(g.projectStatistics, stats)}},
		{pattern: "/api/projects/{project}/metrics", name: "Metrics", methods: m{"GET": one(g.projectMetrics, map[string]map[string]translationMetricsJSON{}).
			note("The statistics of each translation, by component path and language code.")}},
		{pattern: "/api/projects/{project}/checks", name: "Checks", methods: checks},
		{pattern: "/api/projects/{project}/categories", name: "Categories", methods: m{"GET": page(g.projectCategories, categoryJSON{})}},
		{pattern: "/api/projects/{project}/labels", name: "Labels", methods: m{"GET": page(g.listLabels, labelJSON{}), "POST": made(g.createLabel, labelIn{}, labelJSON{})}},
		{pattern: "/api/projects/{project}/labels/{id}", name: "Label Instance", methods: m{"GET": one(g.getLabel, labelJSON{}).ext(whyLabel),
			"PUT": change(g.updateLabel, labelIn{}, labelJSON{}).ext(whyLabel), "PATCH": change(g.updateLabel, labelIn{}, labelJSON{}).ext(whyLabel),
			"DELETE": gone(g.deleteLabel)}},
		{pattern: "/api/projects/{project}/changes", name: "Changes", methods: m{"GET": changes(scoped(projectScope, g.changeList))}},
		{pattern: "/api/projects/{project}/languages", name: "Languages", methods: m{"GET": one(g.projectLanguages, []statsJSON{})}},
		{pattern: "/api/projects/{project}/file", name: "File", methods: m{"GET": file(g.projectFile, "application/zip").query(qFormat).
			note("A zip of the translation files of every component, each below the component's slug.")}, rawFormat: true},
		{pattern: "/api/projects/{project}/languages/{language}/file", name: "Language File", methods: m{"GET": file(g.projectFile, "application/zip").query(qFormat).
			note("A zip of one language's translation files in every component, each below the component's slug.")}, rawFormat: true},
		{pattern: "/api/projects/{project}/credits", name: "Credits", methods: m{"GET": credits(scoped(projectScope, g.credits))}},
		{pattern: "/api/projects/{project}/announcements", name: "Announcements", methods: announcements},
		{pattern: "/api/projects/{project}/announcements/{announcement}", name: "Announcement", methods: announcement},
		{pattern: "/api/projects/{project}/languages/{language}/announcements", name: "Announcements", methods: announcements},
		{pattern: "/api/projects/{project}/languages/{language}/announcements/{announcement}", name: "Announcement", methods: announcement},
		{pattern: "/api/projects/{project}/memory", name: "Project Memory", methods: m{
			"GET": file(g.exportMemory, "application/x-tmx+xml").query(qMemoryLanguages...).
				note("The project's translation memory as a TMX 1.4b file.").ext(whyTMX),
			"POST": one(g.importMemory, memoryImportJSON{}).upload(tmxIn{}).status(http.StatusAccepted).
				note("Reads a TMX 1.4b file into the project's memory as a task (memory.edit).").ext(whyTMX),
			"DELETE": one(g.deleteMemoryOrigin, memoryDeletedJSON{}).query(qOrigin).
				note("Removes the project's entries of one origin (memory.delete).").ext(whyOrigin)}},
		{pattern: "/api/projects/{project}/lock", name: "Lock", methods: m{"GET": one(g.projectLock, lockJSON{}), "POST": change(g.setProjectLock, lockIn{}, lockJSON{})}},
		{pattern: "/api/projects/{project}/webhooks", name: "Webhooks", methods: m{"GET": page(g.listWebhooks, webhookJSON{}).ext(whyWebhooks),
			"POST": made(g.createWebhook, webhookIn{}, webhookJSON{}).ext(whyWebhooks)}},
		{pattern: "/api/projects/{project}/webhooks/{id}", name: "Webhook Instance", methods: m{"GET": one(g.getWebhook, webhookJSON{}).ext(whyWebhooks),
			"PUT":    change(g.updateWebhook, webhookIn{}, webhookJSON{}).ext(whyWebhooks),
			"PATCH":  change(g.updateWebhook, webhookIn{}, webhookJSON{}).ext(whyWebhooks),
			"DELETE": gone(g.deleteWebhook).ext(whyWebhooks)}},
		{pattern: "/api/projects/{project}/webhooks/{id}/deliveries", name: "Deliveries", methods: m{"GET": page(g.webhookDeliveries, deliveryJSON{}).ext(whyWebhooks)}},
		{pattern: "/api/projects/{project}/machinery_settings", name: "Machinery Settings", methods: m{"GET": one(g.machinerySettings, map[string]map[string]any{}),
			"POST": made(g.setMachinerySettings, machineryIn{}, machineryInstalledJSON{})}},

		{pattern: "/api/categories", name: "Category List", methods: m{"GET": page(g.listCategories, categoryJSON{}), "POST": made(g.createCategory, category, categoryJSON{})}},
		{pattern: "/api/categories/{id}", name: "Category Instance", methods: m{"GET": one(g.getCategory, categoryJSON{}),
			"PUT": change(g.updateCategory, category, categoryJSON{}), "PATCH": change(g.updateCategory, category, categoryJSON{}), "DELETE": gone(g.deleteCategory)}},
		{pattern: "/api/categories/{id}/announcements", name: "Announcements", methods: announcements},
		{pattern: "/api/categories/{id}/announcements/{announcement}", name: "Announcement", methods: announcement},
		{pattern: "/api/categories/{id}/statistics", name: "Category Statistics", methods: m{"GET": one(g.categoryStatistics, stats)}},

		{pattern: "/api/components", name: "Component List", methods: m{"GET": page(g.listComponents, componentJSON{})}},
		{pattern: "/api/components/{project}/{component}", name: "Component Instance", methods: m{"GET": one(g.getComponent, componentJSON{}),
			"PUT": change(g.updateComponent, component, componentJSON{}), "PATCH": change(g.updateComponent, component, componentJSON{}), "DELETE": gone(g.deleteComponent)}},
		{pattern: "/api/components/{project}/{component}/translations", name: "Translations", methods: m{"GET": page(g.componentTranslations, translationJSON{}),
			"POST": made(g.addTranslation, addTranslationIn{}, addedTranslationJSON{})}},
		{pattern: "/api/components/{project}/{component}/changes", name: "Changes", methods: m{"GET": changes(scoped(componentScope, g.changeList))}},
		{pattern: "/api/components/{project}/{component}/checks", name: "Checks", methods: checks},
		{pattern: "/api/components/{project}/{component}/statistics", name: "Statistics", methods: m{"GET": page(g.componentStatistics, stats)}},
		{pattern: "/api/components/{project}/{component}/lock", name: "Lock", methods: m{"GET": one(g.componentLock, lockJSON{}), "POST": change(g.setComponentLock, lockIn{}, lockJSON{})}},
		{pattern: "/api/components/{project}/{component}/links", name: "Links", methods: m{"GET": page(g.componentLinks, projectJSON{}), "POST": made(g.addComponentLink, linkIn{}, linkAddedJSON{})}},
		{pattern: "/api/components/{project}/{component}/links/{link}", name: "Link", methods: m{"DELETE": gone(g.removeComponentLink)}},
		{pattern: "/api/components/{project}/{component}/announcements", name: "Announcements", methods: announcements},
		{pattern: "/api/components/{project}/{component}/announcements/{announcement}", name: "Announcement", methods: announcement},
		{pattern: "/api/components/{project}/{component}/credits", name: "Credits", methods: m{"GET": credits(scoped(componentScope, g.credits))}},
		{pattern: "/api/components/{project}/{component}/repository", name: "Repository", methods: repository(componentRepo, repositoryJSON{})},
		{pattern: "/api/components/{project}/{component}/file", name: "File", methods: m{"GET": file(g.componentFile, "application/zip").query(qFormat)}, rawFormat: true},
		{pattern: "/api/components/{project}/{component}/monolingual_base", name: "Monolingual Base",
			methods: m{"GET": file(g.componentTemplate(translationv1.ComponentFile_COMPONENT_FILE_TEMPLATE), "*/*").
				note("The base file of a monolingual component (its template), in its file format's media type; 404 for a component without one.")}, rawFormat: true},
		{pattern: "/api/components/{project}/{component}/new_template", name: "New Template",
			methods: m{"GET": file(g.componentTemplate(translationv1.ComponentFile_COMPONENT_FILE_NEW_BASE), "application/binary").
				note("The file new translations start from (new_base); 404 for a component without one.")}, rawFormat: true},
		{pattern: "/api/components/{project}/{component}/alerts", name: "Alerts", methods: m{"GET": page(g.componentAlerts, alertJSON{}).ext(whyAlerts)}},

		{pattern: "/api/translations", name: "Translation List", methods: m{"GET": page(g.listTranslations, translationJSON{})}},
		{pattern: "/api/translations/{project}/{component}/{language}", name: "Translation Instance", methods: m{"GET": one(g.getTranslation, translationJSON{}), "DELETE": gone(g.deleteTranslation)}},
		{pattern: "/api/translations/{project}/{component}/{language}/statistics", name: "Statistics", methods: m{"GET": one(g.translationStatistics, stats)}},
		{pattern: "/api/translations/{project}/{component}/{language}/checks", name: "Checks", methods: checks},
		{pattern: "/api/translations/{project}/{component}/{language}/units", name: "Units", methods: m{"GET": page(g.translationUnits, unitJSON{}).query(qSearch),
			"POST": change(g.addUnit, unitNewIn{}, unitJSON{})}},
		{pattern: "/api/translations/{project}/{component}/{language}/changes", name: "Changes", methods: m{"GET": changes(scoped(translationScope, g.changeList))}},
		{pattern: "/api/translations/{project}/{component}/{language}/repository", name: "Repository", methods: repository(translationRepo, repositoryJSON{})},
		{pattern: "/api/translations/{project}/{component}/{language}/file", name: "File", methods: m{"GET": file(g.translationFile, "application/octet-stream").query(qFormat),
			"POST": one(g.uploadTranslationFile, uploadJSON{}).upload(uploadIn{}),
			"PUT":  one(g.uploadTranslationFile, uploadJSON{}).upload(uploadIn{}).note("The same upload as POST, as Weblate takes it.")}, rawFormat: true},
		{pattern: "/api/translations/{project}/{component}/{language}/autotranslate", name: "Autotranslate", methods: m{
			"POST": change(g.autotranslate, autotranslateIn{}, autotranslateJSON{}).
				note("Fills the strings q selects from other components or machine translation, as a task; answers when it is done (202 with task_url after a minute).")}},
		{pattern: "/api/translations/{project}/{component}/{language}/announcements", name: "Announcements", methods: announcements},
		{pattern: "/api/translations/{project}/{component}/{language}/announcements/{announcement}", name: "Announcement", methods: announcement},

		{pattern: "/api/languages", name: "Language List", methods: m{"GET": page(g.listLanguages, languageJSON{}),
			"POST": made(g.createLanguage, languageIn{}, languageJSON{})}},
		{pattern: "/api/languages/{language}", name: "Language Instance", methods: m{"GET": one(g.getLanguage, languageJSON{}),
			"PUT": change(g.updateLanguage, languageIn{}, languageJSON{}), "PATCH": change(g.updateLanguage, languageIn{}, languageJSON{}),
			"DELETE": gone(g.deleteLanguage)}},
		{pattern: "/api/languages/{language}/statistics", name: "Statistics", methods: m{"GET": one(g.languageStatistics, stats)}},

		{pattern: "/api/changes", name: "Change List", methods: m{"GET": changes(scoped(allScope, g.changeList))}},
		{pattern: "/api/changes/{id}", name: "Change Instance", methods: m{"GET": one(g.getChange, changeJSON{})}},

		{pattern: "/api/units", name: "Unit List", methods: m{"GET": page(g.allUnits, unitJSON{}).query(qSearch)}},
		{pattern: "/api/units/{id}", name: "Unit Instance", methods: m{"GET": one(g.getUnit, unitJSON{}), "PUT": change(g.updateUnit, unitEditIn{}, unitEditJSON{}),
			"PATCH": change(g.updateUnit, unitEditIn{}, unitEditJSON{}), "DELETE": gone(g.deleteUnit)}},
		{pattern: "/api/units/{id}/translations", name: "Translations", methods: m{"GET": one(g.unitTranslations, []unitJSON{})}},
		{pattern: "/api/units/{id}/suggestions", name: "Suggestions", methods: m{"GET": page(g.unitSuggestions, suggestionJSON{}), "POST": made(g.unitSuggestions, suggestionIn{}, suggestionJSON{})}},
		{pattern: "/api/units/{id}/comments", name: "Comments", methods: m{"GET": page(g.unitComments, commentJSON{}), "POST": made(g.unitComments, commentIn{}, commentJSON{})}},
		{pattern: "/api/units/{id}/machinery", name: "Machinery", methods: m{"GET": one(g.unitMachinery, machineryJSON{}).ext(whyMachinery).
			note("What every machine translation engine configured for the project (and its translation memory) proposes for the string.")}},
		{pattern: "/api/units/{id}/checks", name: "Checks", methods: m{"GET": page(g.unitChecks, checkJSON{}).ext(whyChecks)}},
		{pattern: "/api/units/{id}/checks/{check}", name: "Check", methods: m{"GET": one(g.unitCheck, checkJSON{}).ext(whyChecks)}},
		{pattern: "/api/units/{id}/checks/{check}/dismiss", name: "Dismiss", methods: m{"POST": one(g.dismissCheck(false), checkJSON{}).ext(whyChecks)}},
		{pattern: "/api/units/{id}/checks/{check}/restore", name: "Restore", methods: m{"POST": one(g.dismissCheck(true), checkJSON{}).ext(whyChecks)}},

		{pattern: "/api/suggestions", name: "Suggestion List", methods: m{"GET": page(g.allSuggestions, suggestionJSON{})}},
		{pattern: "/api/suggestions/{id}", name: "Suggestion Instance", methods: m{"GET": one(g.getSuggestion, suggestionJSON{}), "DELETE": gone(g.deleteSuggestion).with(rejectionIn{})}},
		{pattern: "/api/suggestions/{id}/accept", name: "Accept", methods: m{"POST": one(g.acceptSuggestion, suggestionResultJSON{})}},
		{pattern: "/api/suggestions/{id}/vote", name: "Vote", methods: m{"POST": change(g.voteSuggestion, voteIn{}, voteResultJSON{})}},
		{pattern: "/api/comments/{id}", name: "Comment Instance", methods: m{"GET": one(g.getComment, commentJSON{}).ext(whyComment), "DELETE": gone(g.deleteComment).ext(whyComment)}},
		{pattern: "/api/comments/{id}/resolve", name: "Resolve", methods: m{"POST": one(g.resolveComment, commentJSON{}).ext(whyResolve)}},

		{pattern: "/api/tasks/{id}", name: "Task Instance", methods: m{"GET": one(g.getTask, taskJSON{}), "DELETE": gone(g.cancelTask)}},

		{pattern: "/api/users", name: "User List", methods: m{"GET": page(g.listUsers, account), "POST": made(g.createUser, user, account)}},
		{pattern: "/api/users/{user}", name: "User Instance", methods: m{"GET": one(g.getUser, account),
			"PUT": change(g.updateUser, userChange, account), "PATCH": change(g.updateUser, userChange, account), "DELETE": gone(g.deleteUser)}},
		{pattern: "/api/users/{user}/statistics", name: "Statistics", methods: m{"GET": one(g.userStatistics, userStatisticsJSON{})}},
		{pattern: "/api/users/{user}/contributions", name: "Contributions", methods: m{"GET": page(g.userContributions, translationJSON{})}},
		{pattern: "/api/users/{user}/token", name: "Token", methods: m{"POST": one(g.issueToken, tokenJSON{}).ext(whyKey)}},
		{pattern: "/api/users/{user}/notifications", name: "Notifications", methods: m{"GET": page(g.listSubscriptions, subscriptionJSON{}),
			"POST": made(g.createSubscription, subscription, subscriptionJSON{})}},
		{pattern: "/api/users/{user}/notifications/{id}", name: "Notification Instance", methods: m{"GET": one(g.getSubscription, subscriptionJSON{}),
			"PUT": change(g.updateSubscription, subscription, subscriptionJSON{}), "PATCH": change(g.updateSubscription, subscription, subscriptionJSON{}),
			"DELETE": gone(g.deleteSubscription)}},
		{pattern: "/api/users/{user}/groups", name: "Groups", methods: m{"POST": change(g.userGroups, userGroupIn{}, account), "DELETE": change(g.userGroups, userGroupIn{}, account)}},

		// Teams and roles (h_groups.go).
		{pattern: "/api/roles", name: "Role List", methods: m{"GET": page(g.listRoles, roleJSON{}), "POST": made(g.createRole, roleIn{}, roleJSON{})}},
		{pattern: "/api/roles/{id}", name: "Role Instance", methods: m{"GET": one(g.getRole, roleJSON{}),
			"PUT": change(g.updateRole, roleIn{}, roleJSON{}), "PATCH": change(g.updateRole, roleIn{}, roleJSON{}), "DELETE": gone(g.deleteRole)}},
		{pattern: "/api/groups", name: "Group List", methods: m{"GET": page(g.listGroups, groupJSON{}), "POST": made(g.createGroup, groupIn{}, groupJSON{})}},
		{pattern: "/api/groups/{id}", name: "Group Instance", methods: m{"GET": one(g.getGroup, groupJSON{}),
			"PUT": change(g.updateGroup, groupIn{}, groupJSON{}), "PATCH": change(g.updateGroup, groupIn{}, groupJSON{}), "DELETE": gone(g.deleteGroup)}},
		{pattern: "/api/groups/{id}/roles", name: "Roles", methods: m{"POST": change(g.changeGroupLink("roles"), groupRoleIn{}, groupJSON{})}},
		{pattern: "/api/groups/{id}/roles/{value}", name: "Role", methods: m{"DELETE": gone(g.changeGroupLink("roles"))}},
		{pattern: "/api/groups/{id}/projects", name: "Projects", methods: m{"POST": change(g.changeGroupLink("projects"), groupProjectIn{}, groupJSON{})}},
		{pattern: "/api/groups/{id}/projects/{value}", name: "Project", methods: m{"DELETE": gone(g.changeGroupLink("projects"))}},
		{pattern: "/api/groups/{id}/components", name: "Components", methods: m{"POST": change(g.changeGroupLink("components"), groupComponentIn{}, groupJSON{})}},
		{pattern: "/api/groups/{id}/components/{value}", name: "Component", methods: m{"DELETE": gone(g.changeGroupLink("components"))}},
		{pattern: "/api/groups/{id}/componentlists", name: "Component Lists", methods: m{"POST": change(g.changeGroupLink("componentlists"), groupComponentListIn{}, groupJSON{})}},
		{pattern: "/api/groups/{id}/componentlists/{value}", name: "Component List", methods: m{"DELETE": gone(g.changeGroupLink("componentlists"))}},
		{pattern: "/api/groups/{id}/languages", name: "Languages", methods: m{"POST": change(g.changeGroupLink("languages"), groupLanguageIn{}, groupJSON{})}},
		{pattern: "/api/groups/{id}/languages/{value}", name: "Language", methods: m{"DELETE": gone(g.changeGroupLink("languages"))}},
		{pattern: "/api/groups/{id}/admins", name: "Admins", methods: m{"POST": one(g.groupAdmins, adminsGranted).with(groupAdminIn{}).
			note("Makes the user an administrator (and a member) of the team; answers a list of one message, as Weblate does.")}},
		{pattern: "/api/groups/{id}/admins/{value}", name: "Admin", methods: m{"DELETE": one(g.groupAdmins, groupJSON{}).
			note("Revokes the user's administration of the team (the user stays a member).")}},
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
