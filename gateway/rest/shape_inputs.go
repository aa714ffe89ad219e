package rest

import (
	"fmt"
	"strings"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/tmsproject/tms/gateway/rest/apidoc"
	"github.com/tmsproject/tms/pkg/weblate"
	catalogv1 "github.com/tmsproject/tms/proto/gen/go/tms/catalog/v1"
	notificationv1 "github.com/tmsproject/tms/proto/gen/go/tms/notification/v1"
)

// The request bodies, as the API document describes them. Handlers read
// bodies key by key (body.go), coercing like Django REST framework; these
// types only name the keys and their JSON types. The walk suite validates
// every request that succeeds against them, so a key a handler reads and
// the document misses fails there. Bodies read into a proto message
// (applyBody) are described from the message itself (protoBody).

type announcementIn struct {
	Message  string  `json:"message" doc:"Markdown."`
	Severity string  `json:"severity,omitempty" doc:"info, warning, danger or success."`
	Category string  `json:"category,omitempty" doc:"The older name of severity."`
	Expiry   *string `json:"expiry,omitempty" nullable:"true" doc:"A date; null never expires."`
	Notify   bool    `json:"notify,omitempty" doc:"E-mail the subscribers; true unless false."`
}

// categoryBody describes the body categoryBody reads: the category's
// writable fields, and its project.
func categoryBody() apidoc.Named {
	b := protoBody("CategoryRequest", &catalogv1.Category{}, "name", "slug", "project")
	b.Schema["properties"].(apidoc.Schema)["project"] = apidoc.Schema{"type": "string", "description": "The project's URL or slug."}
	return b
}

type bulkChecksIn struct {
	Check   string `json:"check" doc:"A check id."`
	Q       string `json:"q,omitempty" doc:"A search limiting the strings."`
	Dismiss *bool  `json:"dismiss,omitempty" doc:"true (the default) dismisses, false restores."`
}

type commentIn struct {
	Scope   string `json:"scope" doc:"global, translation or report."`
	Comment string `json:"comment"`
}

type addTranslationIn struct {
	LanguageCode string `json:"language_code"`
}

type roleIn struct {
	Name        string   `json:"name"`
	Permissions []string `json:"permissions"`
}

type groupIn struct {
	Name              string `json:"name"`
	ProjectSelection  int32  `json:"project_selection,omitempty"`
	LanguageSelection int32  `json:"language_selection,omitempty"`
	DefiningProject   string `json:"defining_project,omitempty" doc:"The project's URL or slug."`
}

// idField is an id in a body: a number, or its digits as a string (as
// forms send it, and Django REST framework accepts in JSON too).
type idField int64

type languageIn struct {
	Code       string    `json:"code,omitempty" doc:"Required to create; a language's code cannot change."`
	Name       string    `json:"name"`
	Direction  string    `json:"direction,omitempty" doc:"ltr (the default) or rtl."`
	Population int64     `json:"population,omitempty"`
	Plural     *pluralIn `json:"plural" nullable:"false" doc:"The default plural; translations added later take it."`
}

type pluralIn struct {
	Number  int32  `json:"number"`
	Formula string `json:"formula"`
}

type componentListIn struct {
	Name          string           `json:"name"`
	Slug          string           `json:"slug"`
	ShowDashboard bool             `json:"show_dashboard,omitempty"`
	AutoAssign    []autoAssignJSON `json:"auto_assign,omitempty" doc:"Rules assigning components by slug (this service's: Weblate sets them in its admin interface); they replace the list's rules."`
}

type componentListMemberIn struct {
	ComponentID idField `json:"component_id" doc:"The component's id."`
}

type groupAdminIn struct {
	UserID idField `json:"user_id" doc:"The user's id."`
}

type groupRoleIn struct {
	RoleID idField `json:"role_id"`
}

type groupProjectIn struct {
	ProjectID idField `json:"project_id"`
}

type groupComponentIn struct {
	ComponentID idField `json:"component_id"`
}

type groupComponentListIn struct {
	ComponentListID idField `json:"component_list_id"`
}

type groupLanguageIn struct {
	LanguageCode string `json:"language_code"`
}

type userGroupIn struct {
	GroupID idField `json:"group_id"`
}

type labelIn struct {
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
	Color       string `json:"color,omitempty"`
}

type linkIn struct {
	ProjectSlug string `json:"project_slug"`
}

type lockIn struct {
	Lock bool `json:"lock"`
}

type machineryIn struct {
	Service       string         `json:"service"`
	Configuration map[string]any `json:"configuration"`
}

type machineryInstalledJSON struct {
	Message string `json:"message"`
}

type repositoryOpIn struct {
	Operation string `json:"operation" doc:"commit, pull, push, reset, cleanup or file-sync."`
}

type suggestionIn struct {
	Target []string `json:"target"`
}

type rejectionIn struct {
	RejectionReason string `json:"rejection_reason,omitempty"`
}

// unitNewIn adds a string: key and value (monolingual), or source with
// target, context and state (bilingual).
type unitNewIn struct {
	Key     string   `json:"key,omitempty"`
	Value   []string `json:"value,omitempty"`
	Source  []string `json:"source,omitempty"`
	Target  []string `json:"target,omitempty"`
	Context string   `json:"context,omitempty"`
	State   int32    `json:"state,omitempty"`
}

// unitEditIn changes a string: target and state together, and the source
// string's properties.
type unitEditIn struct {
	Target      []string `json:"target,omitempty"`
	State       int32    `json:"state,omitempty"`
	Labels      []int64  `json:"labels,omitempty"`
	ExtraFlags  string   `json:"extra_flags,omitempty" doc:"Source strings only."`
	Explanation string   `json:"explanation,omitempty" doc:"Source strings only."`
}

type uploadIn struct {
	File      uploadedFile `json:"file"`
	Method    string       `json:"method,omitempty" doc:"translate (the default), approve, suggest, fuzzy, replace, source or add."`
	Conflicts string       `json:"conflicts,omitempty" doc:"\"\", ignore, replace-translated or replace-approved."`
	Fuzzy     string       `json:"fuzzy,omitempty" doc:"\"\", process or approve."`
}

type webhookIn struct {
	TargetURL string  `json:"target_url"`
	Actions   []int32 `json:"actions,omitempty" doc:"Change actions to deliver; none delivers all."`
	Active    bool    `json:"active,omitempty"`
	Secret    string  `json:"secret,omitempty"`
}

type linkAddedJSON struct {
	Data *componentJSON `json:"data" nullable:"false"`
}

// protoBody describes a body applyBody reads into msg: its writable fields
// by their REST names, as readField coerces them. Required are the keys a
// creation needs.
func protoBody(name string, msg proto.Message, required ...string) apidoc.Named {
	props := apidoc.Schema{}
	fds := msg.ProtoReflect().Descriptor().Fields()
	for i := range fds.Len() {
		fd := fds.Get(i)
		if !writable(string(fd.Name())) {
			continue
		}
		if s := fieldSchema(fd); s != nil {
			props[jsonKey(string(fd.Name()))] = s
		}
	}
	sch := apidoc.Schema{"type": "object", "properties": props}
	if len(required) > 0 {
		sch["required"] = required
	}
	return apidoc.Named{Name: name, Schema: sch}
}

// fieldSchema is the JSON form of a writable proto field (nil: none).
func fieldSchema(fd protoreflect.FieldDescriptor) apidoc.Schema {
	name := string(fd.Name())
	var s apidoc.Schema
	switch fd.Kind() {
	case protoreflect.StringKind:
		s = apidoc.Schema{"type": "string"}
		if strings.HasSuffix(name, "_language_code") {
			s = apidoc.Schema{"oneOf": []any{s, apidoc.Schema{"type": "object", "properties": apidoc.Schema{"code": s}}},
				"description": "A language code, or an object with code."}
		}
	case protoreflect.BoolKind:
		s = apidoc.Schema{"type": "boolean"}
	case protoreflect.Int32Kind, protoreflect.Int64Kind:
		s = apidoc.Schema{"type": "integer"}
		if isCategoryRef(name) {
			s = apidoc.Schema{"type": []any{"string", "integer", "null"}, "description": "The category's URL or id."}
		}
	case protoreflect.EnumKind:
		s = enumSchema(fd.Enum().FullName())
	}
	if s != nil && fd.IsList() {
		return apidoc.Schema{"type": "array", "items": s}
	}
	return s
}

// enumSchema lists the REST values of an enum that bodies take (bodyEnums).
func enumSchema(name protoreflect.FullName) apidoc.Schema {
	switch name {
	case "tms.type.v1.AccessControl":
		return choices(weblate.AccessControls.Values(), weblate.AccessControls.RefOf)
	case "tms.type.v1.CommitPolicy":
		return choices(weblate.CommitPolicies.Values(), weblate.CommitPolicies.RefOf)
	case "tms.type.v1.MergeStyle":
		return choices(weblate.MergeStyles.Values(), weblate.MergeStyles.RefOf)
	case "tms.type.v1.NotificationKind":
		return choices(weblate.NotificationKinds.Values(), weblate.NotificationKinds.RefOf)
	case "tms.type.v1.NotificationScope":
		return choices(weblate.NotificationScopes.Values(), weblate.NotificationScopes.RefOf)
	case "tms.type.v1.NotificationFrequency":
		return choices(weblate.NotificationFrequencies.Values(), weblate.NotificationFrequencies.RefOf)
	}
	if _, ok := bodyEnums[name]; ok {
		panic(fmt.Sprintf("rest: enum %s has no schema", name))
	}
	return nil
}

func choices[E any, R int32 | string](values []E, ref func(E) R) apidoc.Schema {
	var out []any
	typ := "integer"
	for _, v := range values {
		r := ref(v)
		if _, isStr := any(r).(string); isStr {
			typ = "string"
		}
		out = append(out, r)
	}
	return apidoc.Schema{"type": typ, "enum": out}
}

// subscriptionBody describes a notification subscription's body: its
// proto fields, and project and component given as slugs or objects.
func subscriptionBody() apidoc.Named {
	n := protoBody("SubscriptionRequest", &notificationv1.Subscription{}, "notification", "scope", "frequency")
	ref := apidoc.Schema{"oneOf": []any{apidoc.Schema{"type": "string"}, apidoc.Schema{"type": "object"}, apidoc.Schema{"type": "null"}}}
	props := n.Schema["properties"].(apidoc.Schema)
	props["project"] = apidoc.Schema{"description": "The project's slug, or an object with slug.", "oneOf": ref["oneOf"]}
	props["component"] = apidoc.Schema{"description": "project/component, the component's slug, or an object with slug and project.", "oneOf": ref["oneOf"]}
	return n
}
